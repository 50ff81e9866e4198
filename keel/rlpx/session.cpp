#include "keel/rlpx/session.hpp"

#include <algorithm>
#include <cstring>
#include <mutex>
#include <utility>

#include "keel/crypto/secp256k1.hpp"
#include "keel/rlpx/compress.hpp"
#include "keel/rlpx/handshake.hpp"

namespace keel::rlpx {

namespace {

/// The read buffer asks the kernel for at least this much at a time.
constexpr std::size_t kReadChunk = std::size_t{256} << 10;
/// How long a best-effort Disconnect or a Pong may take to leave.
constexpr auto kControlWrite = std::chrono::seconds(2);
/// The largest first frame a Listener buffers while it waits for a Hello (a Hello with every
/// capability kMaxCapabilities allows fits many times over), so that pending handshakes cost
/// little memory each.
constexpr std::size_t kMaxHelloFrame = std::size_t{64} << 10;
/// How long a message may take to leave (the peer must keep reading).
constexpr auto kWriteTimeout = std::chrono::seconds(30);

SessionError error(SessionErrc code, std::string detail) {
    return SessionError{code, std::move(detail), DisconnectReason::requested};
}

SessionError net_error(const NetError& e, std::string_view during) {
    const SessionErrc code =
        e.code == NetErrc::timeout ? SessionErrc::timeout : SessionErrc::network;
    return error(code, std::string(during) + ": " + to_string(e));
}

/// Reads one handshake packet (2-byte size prefix, then the rest) without reading past it.
[[nodiscard]] Result<Bytes, SessionError> read_handshake_packet(const Socket& s,
                                                                Deadline deadline) {
    Bytes packet(2);
    if (auto r = read_at_least(s, packet, 2, deadline); !r)
        return std::unexpected(net_error(r.error(), "handshake"));
    const auto size = handshake_packet_size(packet);
    if (!size) return std::unexpected(error(SessionErrc::handshake, to_string(size.error())));
    packet.resize(*size);
    if (auto r = read_at_least(s, MutableBytesView(packet).subspan(2), *size - 2, deadline); !r)
        return std::unexpected(net_error(r.error(), "handshake"));
    return packet;
}

Hello our_hello(const NodeKey& key, const SessionOptions& options) {
    Hello h;
    h.protocol_version = kP2pVersion;
    h.client_id = options.client_id;
    for (const Protocol& p : options.protocols) h.capabilities.push_back(p.capability);
    h.listen_port = options.listen_port;
    h.node_id = key.id;
    return h;
}

std::string hex_code(std::uint64_t code) {
    return Uint256(code).to_hex();
}

}  // namespace

std::optional<NodeKey> node_key_from_secret(const Bytes32& secret) noexcept {
    auto pub = crypto::secp256k1::public_key_of(secret);
    if (!pub) return std::nullopt;
    return NodeKey{secret, *pub};
}

std::optional<NodeKey> generate_node_key() noexcept {
    auto secret = crypto::secp256k1::generate_secret_key();
    if (!secret) return std::nullopt;
    return node_key_from_secret(*secret);
}

std::string_view describe(SessionErrc c) noexcept {
    switch (c) {
        case SessionErrc::network:
            return "network failure";
        case SessionErrc::timeout:
            return "deadline passed";
        case SessionErrc::handshake:
            return "handshake refused";
        case SessionErrc::frame:
            return "bad frame";
        case SessionErrc::snappy:
            return "bad snappy payload";
        case SessionErrc::protocol:
            return "protocol breach";
        case SessionErrc::capability:
            return "capability not shared";
        case SessionErrc::disconnected:
            return "the peer sent Disconnect";
        case SessionErrc::closed:
            return "session closed";
        case SessionErrc::busy:
            return "no room for the peer";
    }
    return "session error";
}

std::string to_string(const SessionError& e) {
    switch (e.code) {
        case SessionErrc::disconnected:
            return "peer disconnected: " + std::string(describe(e.reason));
        case SessionErrc::closed:
            return "session closed";
        default:
            return e.detail.empty() ? std::string(describe(e.code)) : e.detail;
    }
}

Session::Session(Socket socket, const Secrets& secrets)
    : socket_(std::move(socket)),
      remote_id_(secrets.remote_id),
      sync_(std::make_unique<Sync>()),
      writer_(secrets.aes, secrets.mac, secrets.egress_mac),
      reader_(secrets.aes, secrets.mac, secrets.ingress_mac) {}

bool Session::open() const noexcept {
    return sync_ != nullptr && !sync_->closed.load(std::memory_order_acquire);
}

void Session::shut() noexcept {
    // The descriptor stays open until the Session goes: a reader blocked in poll() on it
    // wakes (end of stream) instead of racing a close() and a reused number.
    if (!sync_->closed.exchange(true, std::memory_order_acq_rel)) socket_.shutdown();
}

Session::~Session() = default;

Result<Session, SessionError> Session::dial(const NodeKey& key, const Enode& peer,
                                            const SessionOptions& options) {
    const Deadline deadline = Clock::now() + options.handshake_timeout;
    // The auth packet first, so that it leaves as soon as the connection stands: a listener
    // short of room drops the connections that have sent nothing first (listener.hpp).
    auto hs = Handshake::initiator(key.secret, peer.id);
    if (!hs) return std::unexpected(error(SessionErrc::handshake, keel::to_string(hs.error())));
    auto auth = hs->make_auth();
    if (!auth) return std::unexpected(error(SessionErrc::handshake, keel::to_string(auth.error())));
    auto socket = connect_tcp(peer.host, peer.port, deadline);
    if (!socket) return std::unexpected(net_error(socket.error(), "connect to " + to_string(peer)));
    if (auto w = write_all(*socket, *auth, deadline); !w)
        return std::unexpected(net_error(w.error(), "handshake"));
    auto ack = read_handshake_packet(*socket, deadline);
    if (!ack) return std::unexpected(ack.error());
    if (auto r = hs->read_ack(*ack); !r)
        return std::unexpected(error(SessionErrc::handshake, "ack: " + keel::to_string(r.error())));
    return finish(std::move(*socket), hs->secrets(), key, options, deadline);
}

Result<Session, SessionError> Session::accept(const Socket& listener, const NodeKey& key,
                                              Deadline deadline, const SessionOptions& options) {
    auto socket = accept_tcp(listener, deadline);
    if (!socket) return std::unexpected(net_error(socket.error(), "accept"));
    const Deadline hs_deadline = Clock::now() + options.handshake_timeout;
    auto hs = Handshake::recipient(key.secret);
    if (!hs) return std::unexpected(error(SessionErrc::handshake, keel::to_string(hs.error())));
    auto auth = read_handshake_packet(*socket, hs_deadline);
    if (!auth) return std::unexpected(auth.error());
    if (auto r = hs->read_auth(*auth); !r)
        return std::unexpected(
            error(SessionErrc::handshake, "auth: " + keel::to_string(r.error())));
    auto ack = hs->make_ack();
    if (!ack) return std::unexpected(error(SessionErrc::handshake, keel::to_string(ack.error())));
    if (auto w = write_all(*socket, *ack, hs_deadline); !w)
        return std::unexpected(net_error(w.error(), "handshake"));
    return finish(std::move(*socket), hs->secrets(), key, options, hs_deadline);
}

Result<Session, SessionError> Session::finish(Socket socket, const Secrets& secrets,
                                              const NodeKey& key, const SessionOptions& options,
                                              Deadline deadline) {
    Session s(std::move(socket), secrets);
    s.options_ = options;
    if (auto w = s.send_hello(key); !w) return std::unexpected(w.error());
    auto first = s.next_frame(deadline);  // snappy_ is still off: Hello is never compressed
    if (!first) return std::unexpected(first.error());
    if (auto r = s.take_hello(*first, key); !r) return std::unexpected(r.error());
    return s;
}

Result<void, SessionError> Session::send_hello(const NodeKey& key) {
    Bytes hello;
    encode_hello(our_hello(key, options_), hello);
    return write_frame(kHelloCode, hello, false);
}

Result<void, SessionError> Session::take_hello(const Message& first, const NodeKey& key) {
    if (first.code != kHelloCode) {
        return std::unexpected(fail(
            SessionErrc::protocol, "expected Hello, got message code " + std::to_string(first.code),
            DisconnectReason::breach_of_protocol));
    }
    auto peer = decode_hello(first.payload);
    if (!peer) {
        return std::unexpected(fail(SessionErrc::protocol, "Hello: " + to_string(peer.error()),
                                    DisconnectReason::breach_of_protocol));
    }
    if (peer->node_id != remote_id_) {
        return std::unexpected(fail(SessionErrc::protocol,
                                    "Hello: node id differs from the handshake's",
                                    DisconnectReason::unexpected_identity));
    }
    if (peer->node_id == key.id) {
        return std::unexpected(
            fail(SessionErrc::protocol, "connected to self", DisconnectReason::connected_to_self));
    }
    shared_ = match_capabilities(options_.protocols, peer->capabilities);
    if (shared_.empty() && !options_.protocols.empty()) {
        return std::unexpected(
            fail(SessionErrc::protocol, "no capability in common", DisconnectReason::useless_peer));
    }
    snappy_ = peer->protocol_version >= 5;
    hello_done_ = true;
    peer_hello_ = std::move(*peer);
    return {};
}

Result<bool, SessionError> Session::pump_hello(const NodeKey& key) {
    for (;;) {
        if (!open()) return std::unexpected(error(SessionErrc::closed, "session closed"));
        const std::size_t need = reader_.needed();
        if (need > kMaxHelloFrame) {
            return std::unexpected(fail(
                SessionErrc::protocol,
                "first frame of " + std::to_string(need) + " bytes, more than a Hello may take",
                DisconnectReason::breach_of_protocol));
        }
        // Exactly what the reader needs: nothing past the Hello is taken from the socket, so
        // receive() later starts on a frame boundary with an empty buffer.
        if (in_.size() < need) in_.resize(need);
        while (in_end_ < need) {
            auto n = read_now(socket_, MutableBytesView(in_).subspan(in_end_, need - in_end_));
            if (!n) {
                shut();
                return std::unexpected(net_error(n.error(), "Hello"));
            }
            if (*n == 0) return false;
            in_end_ += *n;
        }
        in_start_ = in_end_ = 0;
        const MutableBytesView chunk(in_.data(), need);
        if (reader_.expects_header()) {
            if (auto r = reader_.read_header(chunk); !r) {
                return std::unexpected(fail(SessionErrc::frame, to_string(r.error()),
                                            DisconnectReason::breach_of_protocol));
            }
            continue;
        }
        auto frame = reader_.read_body(chunk);
        if (!frame) {
            return std::unexpected(fail(SessionErrc::frame, to_string(frame.error()),
                                        DisconnectReason::breach_of_protocol));
        }
        if (frame->code == kDisconnectCode) {
            auto reason = decode_disconnect(frame->payload);
            shut();
            SessionError e = error(SessionErrc::disconnected, "peer disconnected");
            e.reason = reason ? *reason : DisconnectReason::requested;
            return std::unexpected(e);
        }
        if (auto r = take_hello(Message{frame->code, frame->payload}, key); !r)
            return std::unexpected(r.error());
        return true;
    }
}

SessionError Session::fail(SessionErrc code, std::string detail, DisconnectReason send_reason) {
    hang_up(send_reason);
    return error(code, std::move(detail));
}

Result<void, SessionError> Session::append_frame(std::uint64_t code, BytesView payload,
                                                 bool compress) {
    auto r = [&]() -> Result<void, FrameError> {
        if (!compress) return writer_.write(code, payload, out_);
        const MutableBytesView slot =
            writer_.begin(code, snappy_max_compressed_length(payload.size()), out_);
        return writer_.finish(snappy_compress_into(payload, slot), out_);
    }();
    if (!r) return std::unexpected(error(SessionErrc::frame, to_string(r.error())));
    return {};
}

Result<void, SessionError> Session::flush() {
    // A Pong the reader owes goes out in the same write.
    if (sync_->pong_owed.exchange(false, std::memory_order_acq_rel)) {
        control_.clear();
        encode_pong(control_);
        if (auto r = append_frame(kPongCode, control_, snappy_); !r) return r;
    }
    if (auto w = write_all(socket_, out_, Clock::now() + kWriteTimeout); !w) {
        shut();
        return std::unexpected(net_error(w.error(), "send"));
    }
    return {};
}

void Session::pay_owed_pong() {
    // Whoever gets the write lock while a Pong is owed sends it; a writer that holds the lock
    // now sends it with its own frame (flush) or finds it here after unlocking.
    while (sync_->pong_owed.load(std::memory_order_acquire) && sync_->write.try_lock()) {
        const std::lock_guard<std::timed_mutex> held(sync_->write, std::adopt_lock);
        if (!open() || !sync_->pong_owed.load(std::memory_order_acquire)) break;
        out_.clear();
        (void)flush();
    }
}

Result<void, SessionError> Session::write_frames(
    std::span<const std::pair<std::uint64_t, BytesView>> msgs, bool compress) {
    Result<void, SessionError> r;
    {
        const std::lock_guard<std::timed_mutex> held(sync_->write);
        if (!open() || sync_->hung_up.load(std::memory_order_acquire))
            return std::unexpected(error(SessionErrc::closed, "session closed"));
        out_.clear();
        for (const auto& [code, payload] : msgs) {
            r = append_frame(code, payload, compress);
            if (!r) break;
        }
        if (r) r = flush();
    }
    pay_owed_pong();
    if (!r) return std::unexpected(unless_hung_up(std::move(r.error())));
    return r;
}

Result<void, SessionError> Session::write_frame(std::uint64_t code, BytesView payload,
                                                bool compress) {
    const std::pair<std::uint64_t, BytesView> one[] = {{code, payload}};
    return write_frames(one, compress);
}

Result<void, SessionError> Session::send_ping() {
    Bytes ping;
    encode_ping(ping);
    return write_frame(kPingCode, ping, snappy_);
}

Result<void, SessionError> Session::send(std::uint64_t code, BytesView payload) {
    return write_frame(code, payload, snappy_);
}

Result<void, SessionError> Session::send(std::string_view capability, std::uint64_t code,
                                         BytesView payload) {
    auto wire = wire_code(capability, code);
    if (!wire) return std::unexpected(wire.error());
    return write_frame(*wire, payload, snappy_);
}

Result<std::uint64_t, SessionError> Session::wire_code(std::string_view capability,
                                                       std::uint64_t code) const {
    const SharedCapability* c = find_capability(shared_, capability);
    if (c == nullptr) {
        return std::unexpected(
            error(SessionErrc::capability,
                  "capability " + std::string(capability) + " is not shared with this peer"));
    }
    if (code >= c->length) {
        return std::unexpected(
            error(SessionErrc::capability, "message code " + hex_code(code) + " is outside " +
                                               to_string(c->capability) + "'s " +
                                               std::to_string(c->length) + " codes"));
    }
    return c->offset + code;
}

Message Session::message(std::uint64_t code, BytesView payload) const noexcept {
    Message m{code, payload};
    m.capability = capability_of(shared_, code);
    if (m.capability != nullptr) m.message = code - m.capability->offset;
    return m;
}

Result<void, SessionError> Session::send_batch(
    std::span<const std::pair<std::uint64_t, BytesView>> msgs) {
    return write_frames(msgs, snappy_);
}

SessionError Session::unless_hung_up(SessionError e) const {
    if (sync_->hung_up.load(std::memory_order_acquire))
        return error(SessionErrc::closed, "session closed");
    return e;
}

Result<Message, SessionError> Session::next_frame(Deadline deadline) {
    auto m = read_frame(deadline);
    if (!m) return std::unexpected(unless_hung_up(std::move(m.error())));
    return m;
}

Result<Message, SessionError> Session::read_frame(Deadline deadline) {
    for (;;) {
        if (!open() || sync_->hung_up.load(std::memory_order_acquire))
            return std::unexpected(error(SessionErrc::closed, "session closed"));
        const std::size_t need = reader_.needed();
        if (in_end_ - in_start_ < need) {
            // Make room: move what is left to the front, grow to hold the frame and a chunk.
            if (in_start_ > 0) {
                std::memmove(in_.data(), in_.data() + in_start_, in_end_ - in_start_);
                in_end_ -= in_start_;
                in_start_ = 0;
            }
            const std::size_t want = std::max(need + kReadChunk, in_.size());
            if (in_.size() < want) in_.resize(want);
            // Between frames with nothing buffered: wait for a frame as large as the last.
            ReadAhead ahead;
            const bool guess = reader_.expects_header() && in_end_ == 0 && guess_.expect() > 0;
            if (guess) {
                ahead.expect = guess_.expect();
                ahead.grace = guess_.grace();
                if (in_.size() < ahead.expect + kReadChunk) in_.resize(ahead.expect + kReadChunk);
            }
            auto n = read_at_least(socket_, MutableBytesView(in_).subspan(in_end_), need - in_end_,
                                   deadline, guess ? &ahead : nullptr);
            if (ahead.tried) guess_.outcome(ahead.met);
            if (!n) {
                // What came before a timeout is the start of the frame: keep it for the next call.
                in_end_ += n.error().received;
                // Closed by disconnect() (from this thread or another): say so.
                if (!open()) return std::unexpected(error(SessionErrc::closed, "session closed"));
                if (n.error().code != NetErrc::timeout) shut();
                return std::unexpected(net_error(n.error(), "receive"));
            }
            in_end_ += *n;
            continue;
        }
        const MutableBytesView chunk(in_.data() + in_start_, need);
        in_start_ += need;
        if (reader_.expects_header()) {
            if (auto r = reader_.read_header(chunk); !r) {
                return std::unexpected(fail(SessionErrc::frame, to_string(r.error()),
                                            DisconnectReason::breach_of_protocol));
            }
            guess_.header_read(kFrameHeaderSize + reader_.needed());
            continue;
        }
        auto frame = reader_.read_body(chunk);
        if (!frame) {
            return std::unexpected(fail(SessionErrc::frame, to_string(frame.error()),
                                        DisconnectReason::breach_of_protocol));
        }
        Message m{frame->code, frame->payload};
        if (snappy_) {
            auto plain = snappy_decompress(frame->payload, plain_);
            if (plain) {
                m.payload = *plain;
            } else if (frame->code != kDisconnectCode) {
                return std::unexpected(fail(SessionErrc::snappy, to_string(plain.error()),
                                            DisconnectReason::breach_of_protocol));
            }
            // A Disconnect that is not valid snappy is read as sent: @ethereumjs/devp2p sends
            // it uncompressed even after a v5 Hello.
        }
        if (!hello_done_ && m.code != kHelloCode && m.code != kDisconnectCode) {
            return std::unexpected(fail(SessionErrc::protocol,
                                        "message code " + std::to_string(m.code) + " before Hello",
                                        DisconnectReason::breach_of_protocol));
        }
        if (m.code == kPingCode) {
            // Owed, not sent here: if a writer holds the lock (its send may be waiting for
            // the peer to read), this thread keeps reading and the writer sends the Pong.
            sync_->pong_owed.store(true, std::memory_order_release);
            pay_owed_pong();
            continue;
        }
        if (m.code == kDisconnectCode) {
            auto reason = decode_disconnect(m.payload);
            shut();
            SessionError e = error(SessionErrc::disconnected, "peer disconnected");
            e.reason = reason ? *reason : DisconnectReason::requested;
            if (!reason) e.detail = "peer disconnected with a malformed reason";
            return std::unexpected(e);
        }
        if (m.code >= kBaseProtocolLength) {
            m = message(m.code, m.payload);
            if (m.capability == nullptr) {
                return std::unexpected(
                    fail(SessionErrc::protocol,
                         "message code " + hex_code(m.code) + " belongs to no shared capability",
                         DisconnectReason::breach_of_protocol));
            }
        }
        return m;
    }
}

Result<Message, SessionError> Session::receive(Deadline deadline) {
    auto m = receive_frame(deadline);
    if (!m) return std::unexpected(unless_hung_up(std::move(m.error())));
    return m;
}

Result<Message, SessionError> Session::receive_frame(Deadline deadline) {
    if (!pending_.empty()) {
        held_ = std::move(pending_.front().second);
        const std::uint64_t code = pending_.front().first;
        pending_.erase(pending_.begin());
        return message(code, held_);
    }
    for (;;) {
        // Wait for the caller's deadline, or until a keep-alive Ping is due, or its Pong.
        const Deadline alarm =
            ping_sent_ ? *ping_sent_ + options_.pong_timeout : last_heard_ + options_.ping_interval;
        auto m = next_frame(std::min(deadline, alarm));
        if (!m) {
            if (m.error().code != SessionErrc::timeout || Clock::now() < alarm) return m;
            if (ping_sent_) {
                return std::unexpected(fail(SessionErrc::timeout, "no Pong to a keep-alive Ping",
                                            DisconnectReason::ping_timeout));
            }
            if (auto w = send_ping(); !w) return std::unexpected(w.error());
            ping_sent_ = Clock::now();
            continue;
        }
        last_heard_ = Clock::now();
        if (m->code == kPongCode) {
            ping_sent_.reset();
            continue;
        }
        if (m->code == kHelloCode) {
            return std::unexpected(fail(SessionErrc::protocol, "a second Hello",
                                        DisconnectReason::breach_of_protocol));
        }
        if (m->code < kBaseProtocolLength) continue;  // the base protocol's unused codes
        return m;
    }
}

Result<std::chrono::microseconds, SessionError> Session::ping(Deadline deadline) {
    const auto start = Clock::now();
    if (auto w = send_ping(); !w) return std::unexpected(unless_hung_up(w.error()));
    for (;;) {
        auto m = next_frame(deadline);
        if (!m) {
            if (m.error().code == SessionErrc::timeout) {
                return std::unexpected(unless_hung_up(
                    fail(SessionErrc::timeout, "no Pong in time", DisconnectReason::ping_timeout)));
            }
            return std::unexpected(m.error());
        }
        if (m->code == kPongCode) {
            return std::chrono::duration_cast<std::chrono::microseconds>(Clock::now() - start);
        }
        if (m->code < kBaseProtocolLength) continue;
        pending_.emplace_back(m->code, Bytes(m->payload.begin(), m->payload.end()));
    }
}

void Session::disconnect(DisconnectReason reason) {
    if (sync_ == nullptr) return;
    // First of all: from here on a receive() on any thread, woken by whatever the peer does
    // in answer (close, Disconnect, garbage), reports `closed`.
    sync_->hung_up.store(true, std::memory_order_release);
    hang_up(reason);
}

void Session::hang_up(DisconnectReason reason) {
    if (!open()) return;
    // Best effort: a writer stuck on a peer that does not read gets kControlWrite to finish.
    std::unique_lock<std::timed_mutex> held(sync_->write, std::defer_lock);
    if (held.try_lock_for(kControlWrite) && open()) {
        control_.clear();
        encode_disconnect(reason, control_);
        out_.clear();
        if (append_frame(kDisconnectCode, control_, snappy_))
            (void)write_all(socket_, out_, Clock::now() + kControlWrite);
    }
    shut();
}

std::uint64_t Session::frames_sent() const noexcept {
    const std::lock_guard<std::timed_mutex> held(sync_->write);
    return writer_.frames();
}

std::uint64_t Session::frames_received() const noexcept {
    return reader_.frames();
}

}  // namespace keel::rlpx
