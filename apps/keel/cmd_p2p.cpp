// keel p2p ...: the RLPx transport (keel/rlpx) from the command line.
//
//   keel p2p listen [--host H] [--port P] [--nodekey FILE] [--protocols LIST] [--once] [--echo]
//                   [--quiet] [--timeout S]
//       prints its enode URL, then one JSON line per event: each peer's Hello, its messages,
//       its Disconnect; answers Ping; --echo sends every capability message back.
//   keel p2p dial ENODE [--nodekey FILE] [--protocols LIST] [--status] [--stream N | --flood N]
//                       [--size BYTES] [--timeout S]
//       connects, prints the peer's Hello, pings, optionally exchanges eth/68 Status (mirroring
//       the peer's network, genesis and fork id), streams N messages of BYTES that the peer
//       echoes back (checked) or floods N messages back to back, then disconnects ("requested").
//       `listen --quiet` prints totals (MB/s, recv calls per frame) in its Disconnect line.
//   keel p2p bench [--seconds S]
//       two keel sessions over loopback: MB/s and messages/s for 1 KiB, 64 KiB and 1 MiB
//       messages, with the send/recv calls per frame.
//
// The node key file holds 64 hex digits (geth's nodekey format); without one a random key is
// used. --protocols lists the capabilities to run, e.g. "eth/68,snap/1" (default eth/68);
// protocols keel does not know need their message count: "foo/1:5". Bad input (malformed enode,
// unreadable key) and failures (unreachable peer, refused handshake, protocol error) print one line
// and exit 1 (2 for usage errors).
#include <algorithm>
#include <atomic>
#include <charconv>
#include <chrono>
#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "apps/keel/commands.hpp"
#include "apps/keel/input.hpp"
#include "keel/common/hex.hpp"
#include "keel/rlp/encode.hpp"
#include "keel/rlpx/session.hpp"

namespace keel::cli {
namespace {

using namespace std::chrono_literals;
using rlpx::Clock;

/// eth BlockBodies, the message the stream, flood and bench modes send.
constexpr std::uint64_t kBlockBodies = 0x06;

rlpx::NodeKey load_node_key(const std::optional<std::string>& path) {
    if (!path) {
        auto k = rlpx::generate_node_key();
        if (!k) throw Failure{kExitBadData, "p2p: no randomness for a node key"};
        return *k;
    }
    std::string text = read_text_arg("@" + *path, "p2p: node key");
    while (!text.empty() && (text.back() == '\n' || text.back() == '\r' || text.back() == ' '))
        text.pop_back();
    auto secret = hex::decode_fixed<Bytes32>(text);
    if (!secret) {
        throw Failure{kExitBadData, fmt::format("p2p: node key {}: want 64 hex digits ({})", *path,
                                                to_string(secret.error()))};
    }
    auto k = rlpx::node_key_from_secret(*secret);
    if (!k)
        throw Failure{kExitBadData,
                      fmt::format("p2p: node key {}: not a valid secp256k1 key", *path)};
    return *k;
}

void emit(const nlohmann::json& j) {
    std::printf("%s\n", j.dump().c_str());
    std::fflush(stdout);
}

nlohmann::json hello_json(const rlpx::Session& s) {
    const rlpx::Hello& h = s.peer_hello();
    nlohmann::json caps = nlohmann::json::array();
    for (const auto& c : h.capabilities) caps.push_back(rlpx::to_string(c));
    nlohmann::json shared = nlohmann::json::array();
    for (const auto& c : s.shared_capabilities())
        shared.push_back({{"capability", rlpx::to_string(c.capability)},
                          {"offset", c.offset},
                          {"length", c.length}});
    return {{"event", "hello"},
            {"client", h.client_id},
            {"version", h.protocol_version},
            {"capabilities", caps},
            {"shared", shared},
            {"listen_port", h.listen_port},
            {"id", hex::encode(h.node_id.view())},
            {"address", s.peer_address()}};
}

[[noreturn]] void session_failure(std::string_view what, const rlpx::SessionError& e) {
    throw Failure{kExitBadData, fmt::format("p2p {}: {}", what, rlpx::to_string(e))};
}

/// A BlockBodies-shaped message: [request-id, [blob]] with a blob of `size` bytes.
Bytes stream_message(std::uint64_t id, std::size_t size) {
    Bytes blob(size);
    for (std::size_t i = 0; i < size; ++i)
        blob[i] = static_cast<std::uint8_t>((i * 2654435761u + id) >> 7);
    rlp::Encoder enc;
    const auto outer = enc.begin_list();
    enc.add_uint(id);
    const auto inner = enc.begin_list();
    enc.add_string(blob);
    enc.end_list(inner);
    enc.end_list(outer);
    return enc.take();
}

/// `size` pseudo-random bytes (xorshift): incompressible, so snappy passes them through, like
/// block and transaction data.
Bytes incompressible_bytes(std::size_t size) {
    Bytes out(size);
    std::uint64_t x = 0x9e3779b97f4a7c15;
    for (auto& byte : out) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        byte = static_cast<std::uint8_t>(x);
    }
    return out;
}

/// --protocols: "name/version[:messages],..." (the count may be left out for known protocols).
std::vector<rlpx::Protocol> parse_protocols(std::string_view list) {
    std::vector<rlpx::Protocol> out;
    std::size_t start = 0;
    while (start <= list.size()) {
        const std::size_t comma = std::min(list.find(',', start), list.size());
        const std::string_view item = list.substr(start, comma - start);
        start = comma + 1;
        const auto bad = [&](std::string_view why) {
            return Failure{kExitUsage, fmt::format("p2p: --protocols: \"{}\": {}", item, why)};
        };
        const std::size_t slash = item.find('/');
        if (slash == 0 || slash == std::string_view::npos) throw bad("want name/version");
        const std::size_t colon = item.find(':', slash);
        const auto number = [&](std::string_view digits, std::string_view what) {
            std::uint64_t v = 0;
            const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), v);
            if (digits.empty() || ec != std::errc{} || end != digits.data() + digits.size())
                throw bad(fmt::format("{} is not a number", what));
            return v;
        };
        rlpx::Protocol p;
        p.capability.name = std::string(item.substr(0, slash));
        const std::size_t vend = colon == std::string_view::npos ? item.size() : colon;
        p.capability.version = number(item.substr(slash + 1, vend - slash - 1), "the version");
        if (colon != std::string_view::npos) {
            p.length = number(item.substr(colon + 1), "the message count");
        } else if (auto known =
                       rlpx::known_protocol_length(p.capability.name, p.capability.version)) {
            p.length = *known;
        } else {
            throw bad("unknown protocol: give its message count (name/version:count)");
        }
        if (p.length == 0) throw bad("a protocol needs at least one message");
        out.push_back(std::move(p));
    }
    return out;
}

void run_listen(const std::string& host, std::uint16_t port,
                const std::optional<std::string>& key_path,
                const std::vector<rlpx::Protocol>& protocols, bool once, bool echo, bool quiet,
                double timeout_s) {
    const rlpx::NodeKey key = load_node_key(key_path);
    auto listener = rlpx::listen_tcp(host, port);
    if (!listener) {
        throw Failure{kExitBadData, fmt::format("p2p listen: {}:{}: {}", host, port,
                                                rlpx::to_string(listener.error()))};
    }
    rlpx::Enode self;
    self.id = key.id;
    self.host = host;
    self.port = listener->local_port();
    std::printf("%s\n", rlpx::to_string(self).c_str());
    std::fflush(stdout);
    rlpx::SessionOptions options;
    options.client_id = "keel/" KEEL_VERSION;
    options.protocols = protocols;
    options.listen_port = self.port;
    const auto idle = std::chrono::milliseconds(static_cast<long long>(timeout_s * 1000));
    for (;;) {
        auto s = rlpx::Session::accept(*listener, key, Clock::now() + idle, options);
        if (!s) {
            if (once) session_failure("listen", s.error());
            emit({{"event", "error"}, {"message", rlpx::to_string(s.error())}});
            continue;
        }
        emit(hello_json(*s));
        std::uint64_t count = 0, bytes = 0;
        Clock::time_point first{}, last{};
        const auto calls_before = rlpx::syscall_counts();
        const std::uint64_t frames_before = s->frames_received();
        for (;;) {
            auto m = s->receive(Clock::now() + idle);
            if (!m) {
                const auto& e = m.error();
                const double secs = std::chrono::duration<double>(last - first).count();
                const auto calls = rlpx::syscall_counts();
                const double frames = static_cast<double>(
                    std::max<std::uint64_t>(1, s->frames_received() - frames_before));
                nlohmann::json totals = {
                    {"messages", count},
                    {"bytes", bytes},
                    {"seconds", secs},
                    {"MB_per_s", secs > 0 ? static_cast<double>(bytes) / secs / 1e6 : 0.0},
                    {"messages_per_s", secs > 0 ? static_cast<double>(count) / secs : 0.0},
                    {"recvs_per_frame",
                     static_cast<double>(calls.recvs - calls_before.recvs) / frames}};
                if (e.code == rlpx::SessionErrc::disconnected) {
                    totals["event"] = "disconnect";
                    totals["reason"] = static_cast<int>(e.reason);
                    totals["reason_name"] = rlpx::describe(e.reason);
                    emit(totals);
                } else {
                    emit({{"event", "error"}, {"message", rlpx::to_string(e)}});
                    s->disconnect(e.code == rlpx::SessionErrc::timeout
                                      ? rlpx::DisconnectReason::ping_timeout
                                      : rlpx::DisconnectReason::breach_of_protocol);
                }
                break;
            }
            last = Clock::now();
            if (count == 0) first = last;
            ++count;
            bytes += m->payload.size();
            if (!quiet) {
                emit({{"event", "message"},
                      {"code", m->code},
                      {"capability", rlpx::to_string(m->capability->capability)},
                      {"message", m->message},
                      {"size", m->payload.size()}});
            }
            if (echo) {
                const Bytes copy(m->payload.begin(), m->payload.end());
                if (auto r = s->send(m->capability->capability.name, m->message, copy); !r) {
                    emit({{"event", "error"}, {"message", rlpx::to_string(r.error())}});
                    break;
                }
            }
        }
        if (once) return;
    }
}

void run_dial(const std::string& url, const std::optional<std::string>& key_path,
              const std::vector<rlpx::Protocol>& protocols, bool status, std::size_t stream,
              std::size_t flood, std::size_t size, double timeout_s) {
    auto peer = rlpx::parse_enode(url);
    if (!peer) throw Failure{kExitBadData, fmt::format("p2p dial: {}", to_string(peer.error()))};
    const rlpx::NodeKey key = load_node_key(key_path);
    rlpx::SessionOptions options;
    options.client_id = "keel/" KEEL_VERSION;
    options.protocols = protocols;
    options.handshake_timeout = std::chrono::milliseconds(static_cast<long long>(timeout_s * 1000));
    auto s = rlpx::Session::dial(key, *peer, options);
    if (!s) session_failure("dial", s.error());
    emit(hello_json(*s));
    const auto wait = [&] { return Clock::now() + options.handshake_timeout; };
    auto rtt = s->ping(wait());
    if (!rtt) session_failure("dial: ping", rtt.error());
    emit({{"event", "pong"}, {"rtt_us", rtt->count()}});
    if (status) {
        // Wait for the peer's Status, answer with one on the same chain.
        std::optional<rlpx::Status> theirs;
        while (!theirs) {
            auto m = s->receive(wait());
            if (!m) session_failure("dial: waiting for Status", m.error());
            if (m->capability->capability.name != "eth" || m->message != rlpx::kEthStatusCode)
                continue;
            auto st = rlpx::decode_status(m->payload);
            if (!st) {
                s->disconnect(rlpx::DisconnectReason::breach_of_protocol);
                throw Failure{kExitBadData,
                              fmt::format("p2p dial: Status: {}", rlpx::to_string(st.error()))};
            }
            theirs = *st;
        }
        rlpx::Status ours = *theirs;
        ours.head = theirs->genesis;
        Bytes payload;
        rlpx::encode_status(ours, payload);
        if (auto r = s->send("eth", rlpx::kEthStatusCode, payload); !r)
            session_failure("dial: Status", r.error());
        emit({{"event", "status"},
              {"network_id", theirs->network_id},
              {"genesis", hex::encode_prefixed(theirs->genesis.view())},
              {"fork_hash", hex::encode_prefixed(theirs->fork_id.hash.view())},
              {"fork_next", theirs->fork_id.next}});
    }
    const auto bodies = s->wire_code("eth", kBlockBodies);
    if ((stream > 0 || flood > 0) && !bodies) session_failure("dial", bodies.error());
    if (stream > 0) {
        const auto start = Clock::now();
        for (std::size_t i = 0; i < stream; ++i) {
            const Bytes msg = stream_message(i, size);
            if (auto r = s->send(*bodies, msg); !r) session_failure("dial: stream", r.error());
            for (;;) {
                auto m = s->receive(wait());
                if (!m) session_failure("dial: stream", m.error());
                if (m->code != *bodies) continue;
                if (!std::equal(m->payload.begin(), m->payload.end(), msg.begin(), msg.end())) {
                    s->disconnect(rlpx::DisconnectReason::subprotocol_specific);
                    throw Failure{
                        kExitBadData,
                        fmt::format("p2p dial: stream: message {} came back different ({} "
                                    "bytes sent, {} received)",
                                    i, msg.size(), m->payload.size())};
                }
                break;
            }
        }
        const double secs = std::chrono::duration<double>(Clock::now() - start).count();
        emit({{"event", "stream"},
              {"messages", stream},
              {"size", size},
              {"echoed", stream},
              {"seconds", secs}});
    }
    if (flood > 0) {
        const Bytes msg = incompressible_bytes(size);
        const auto before = rlpx::syscall_counts();
        const auto start = Clock::now();
        for (std::size_t i = 0; i < flood; ++i)
            if (auto r = s->send(*bodies, msg); !r) session_failure("dial: flood", r.error());
        const double secs = std::chrono::duration<double>(Clock::now() - start).count();
        const auto after = rlpx::syscall_counts();
        emit({{"event", "flood"},
              {"messages", flood},
              {"size", size},
              {"seconds", secs},
              {"MB_per_s", static_cast<double>(flood * size) / secs / 1e6},
              {"sends_per_frame",
               static_cast<double>(after.sends - before.sends) / static_cast<double>(flood)}});
    }
    s->disconnect(rlpx::DisconnectReason::requested);
    emit({{"event", "disconnect"}, {"reason", 0}, {"reason_name", "requested"}});
}

void run_bench(double seconds) {
    const auto a = rlpx::generate_node_key(), b = rlpx::generate_node_key();
    if (!a || !b) throw Failure{kExitBadData, "p2p bench: no randomness for node keys"};
    for (const std::size_t size :
         {std::size_t{1} << 10, std::size_t{64} << 10, std::size_t{1} << 20}) {
        auto listener = rlpx::listen_tcp("127.0.0.1", 0);
        if (!listener)
            throw Failure{kExitBadData, "p2p bench: " + rlpx::to_string(listener.error())};
        rlpx::Enode target;
        target.id = b->id;
        target.host = "127.0.0.1";
        target.port = listener->local_port();
        std::atomic<std::uint64_t> received{0};
        std::atomic<bool> failed{false};
        std::thread receiver([&] {
            auto s = rlpx::Session::accept(*listener, *b, Clock::now() + 10s);
            if (!s) {
                failed = true;
                return;
            }
            for (;;) {
                auto m = s->receive(Clock::now() + 10s);
                if (!m) break;
                received.fetch_add(1, std::memory_order_relaxed);
            }
        });
        auto s = rlpx::Session::dial(*a, target);
        if (!s) {
            receiver.join();
            session_failure("bench", s.error());
        }
        const Bytes msg = incompressible_bytes(size);
        const auto before = rlpx::syscall_counts();
        const auto start = Clock::now();
        std::uint64_t sent = 0;
        while (Clock::now() - start < std::chrono::duration<double>(seconds)) {
            for (int k = 0; k < 16; ++k, ++sent)
                if (auto r = s->send("eth", kBlockBodies, msg); !r)
                    session_failure("bench", r.error());
        }
        s->disconnect(rlpx::DisconnectReason::requested);
        receiver.join();
        const double secs = std::chrono::duration<double>(Clock::now() - start).count();
        const auto after = rlpx::syscall_counts();
        if (failed) throw Failure{kExitBadData, "p2p bench: the receiving session failed"};
        const double frames = static_cast<double>(received.load());
        emit({{"size", size},
              {"messages", received.load()},
              {"seconds", secs},
              {"MB_per_s", frames * static_cast<double>(size) / secs / 1e6},
              {"messages_per_s", frames / secs},
              {"sends_per_frame",
               static_cast<double>(after.sends - before.sends) / static_cast<double>(sent + 1)},
              {"recvs_per_frame",
               static_cast<double>(after.recvs - before.recvs) / std::max(frames, 1.0)}});
    }
}

}  // namespace

void add_p2p_command(CLI::App& app) {
    auto* p2p = app.add_subcommand("p2p", "RLPx, the devp2p transport: listen, dial, bench");
    p2p->require_subcommand(1);

    struct ListenArgs {
        std::string host = "127.0.0.1";
        std::uint16_t port = 30303;
        std::optional<std::string> nodekey;
        std::string protocols = "eth/68";
        bool once = false, echo = false, quiet = false;
        double timeout = 60;
    };
    auto la = std::make_shared<ListenArgs>();
    auto* listen = p2p->add_subcommand(
        "listen", "Accept peers: print the enode URL, then each peer's Hello and messages");
    listen->add_option("--host", la->host, "address to listen on (default 127.0.0.1)");
    listen->add_option("--port", la->port, "TCP port (default 30303; 0: any free port)");
    listen->add_option("--nodekey", la->nodekey, "file with the node's secret key (64 hex digits)");
    listen->add_option("--protocols", la->protocols,
                       "capabilities to run, e.g. eth/68,snap/1 (default eth/68)");
    listen->add_flag("--once", la->once, "exit after the first peer's session ends");
    listen->add_flag("--echo", la->echo, "send every capability message back to its sender");
    listen->add_flag("--quiet", la->quiet,
                     "no line per message (the Disconnect line has the totals)");
    listen->add_option("--timeout", la->timeout,
                       "seconds to wait for a peer or a message (default 60)");
    listen->callback([la] {
        run_listen(la->host, la->port, la->nodekey, parse_protocols(la->protocols), la->once,
                   la->echo, la->quiet, la->timeout);
    });

    struct DialArgs {
        std::string enode;
        std::optional<std::string> nodekey;
        std::string protocols = "eth/68";
        bool status = false;
        std::size_t stream = 0, flood = 0, size = 1 << 16;
        double timeout = 10;
    };
    auto da = std::make_shared<DialArgs>();
    auto* dial = p2p->add_subcommand("dial", "Connect to ENODE: print its Hello, ping, disconnect");
    dial->add_option("enode", da->enode, "enode://<128 hex>@host:port")->required();
    dial->add_option("--nodekey", da->nodekey, "file with the node's secret key (64 hex digits)");
    dial->add_option("--protocols", da->protocols,
                     "capabilities to run, e.g. eth/68,snap/1 (default eth/68)");
    dial->add_flag("--status", da->status, "exchange eth/68 Status (mirroring the peer's chain)");
    dial->add_option("--stream", da->stream,
                     "send N messages the peer echoes back, and check them");
    dial->add_option("--flood", da->flood,
                     "send N messages back to back (no echo), then disconnect");
    dial->add_option("--size", da->size, "bytes per streamed or flooded message (default 65536)");
    dial->add_option("--timeout", da->timeout,
                     "seconds for the handshake and each answer (default 10)");
    dial->callback([da] {
        run_dial(da->enode, da->nodekey, parse_protocols(da->protocols), da->status, da->stream,
                 da->flood, da->size, da->timeout);
    });

    auto seconds = std::make_shared<double>(1.0);
    auto* bench =
        p2p->add_subcommand("bench", "Two keel sessions over loopback: MB/s and messages/s");
    bench->add_option("--seconds", *seconds, "seconds per message size (default 1)");
    bench->callback([seconds] { run_bench(*seconds); });
}

}  // namespace keel::cli
