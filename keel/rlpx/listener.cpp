#include "keel/rlpx/listener.hpp"

#include <poll.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <list>
#include <mutex>
#include <optional>
#include <thread>
#include <utility>
#include <vector>

#include "keel/rlpx/handshake.hpp"

namespace keel::rlpx {

namespace {

/// Connections taken from the backlog per turn of the loop, so that a burst of new ones
/// cannot starve the handshakes already under way.
constexpr int kAcceptsPerTurn = 64;
/// How long accepting pauses when the process is out of descriptors (EMFILE): the backlog
/// keeps the connections meanwhile, and the loop does not spin on a readable listener.
constexpr auto kAcceptPause = std::chrono::milliseconds(100);

SessionError session_error(SessionErrc code, std::string detail) {
    return SessionError{code, std::move(detail), DisconnectReason::requested};
}

SessionError net_failure(const NetError& e, std::string_view during) {
    return session_error(e.code == NetErrc::timeout ? SessionErrc::timeout : SessionErrc::network,
                         std::string(during) + ": " + to_string(e));
}

}  // namespace

Result<Session, SessionError> Listener::open_session(Socket socket, const Secrets& secrets,
                                                     const NodeKey& key,
                                                     const SessionOptions& options) {
    Session s(std::move(socket), secrets);
    s.options_ = options;
    if (auto w = s.send_hello(key); !w) return std::unexpected(w.error());
    return s;
}

Result<bool, SessionError> Listener::pump_hello(Session& s, const NodeKey& key) {
    return s.pump_hello(key);
}

/// One connection between accept and Hello.
struct Pending {
    enum class Stage : std::uint8_t { nothing, part_of_auth, hello };

    Socket socket;  // until the ack is sent; then the session owns it
    std::optional<Handshake> handshake;
    std::optional<Session> session;  // from the ack on: our Hello sent, the peer's awaited
    Bytes auth = Bytes(2);           // the size prefix, then the whole packet
    std::size_t have = 0;
    Clock::time_point since;
    Deadline deadline;
    std::string address;

    Stage stage() const noexcept {
        if (session) return Stage::hello;
        return have == 0 ? Stage::nothing : Stage::part_of_auth;
    }
};

struct Listener::Impl {
    NodeKey key;
    ListenerOptions options;
    PeerHandler on_peer;
    RefusedHandler on_refused;
    Socket listener;
    int wake_fd = -1;
    std::thread loop_thread;
    std::atomic<bool> stopping{false};
    std::once_flag stopped;

    std::vector<Pending> pending;  // the poll thread's alone
    Clock::time_point accept_paused_until{};

    /// A peer past Hello and its thread; reaped (joined) by the poll thread or stop().
    struct Peer {
        std::optional<Session> session;
        std::thread thread;
        std::atomic<bool> done{false};
    };
    mutable std::mutex peers_mutex;
    std::list<std::unique_ptr<Peer>> peers;

    std::atomic<std::uint64_t> accepted{0}, established{0}, failed{0}, timed_out{0}, evicted{0},
        too_many_peers{0};
    std::atomic<std::size_t> pending_now{0};

    ~Impl() {
        if (wake_fd >= 0) ::close(wake_fd);
    }

    void wake() const noexcept {
        const std::uint64_t one = 1;
        [[maybe_unused]] const ssize_t n = ::write(wake_fd, &one, sizeof one);
    }

    void refuse(const Pending& p, const SessionError& e) {
        if (on_refused) on_refused(p.address, e);
    }

    void run() {
        std::vector<pollfd> fds;
        while (!stopping.load(std::memory_order_acquire)) {
            reap(false);
            const auto now = Clock::now();
            const bool accepting = now >= accept_paused_until;
            fds.clear();
            fds.push_back({wake_fd, POLLIN, 0});
            fds.push_back({accepting ? listener.fd() : -1, POLLIN, 0});
            Deadline next = accepting ? Deadline::max() : accept_paused_until;
            for (const Pending& p : pending) {
                fds.push_back({p.session ? fd_of(*p.session) : p.socket.fd(), POLLIN, 0});
                next = std::min(next, p.deadline);
            }
            int timeout_ms = -1;
            if (next != Deadline::max()) {
                const auto left = std::chrono::ceil<std::chrono::milliseconds>(next - now);
                timeout_ms = static_cast<int>(std::clamp<std::int64_t>(left.count(), 0, 60'000));
            }
            const int n = ::poll(fds.data(), fds.size(), timeout_ms);
            if (n < 0 && errno != EINTR) break;  // only EINVAL/ENOMEM: nothing left to do
            if (fds[0].revents != 0) {
                std::uint64_t count = 0;
                [[maybe_unused]] const ssize_t r = ::read(wake_fd, &count, sizeof count);
            }
            // Step every handshake whose socket has something (bytes, end of stream, error);
            // `fds` lists them in the order of `pending`, which only changes below.
            std::vector<bool> drop(pending.size(), false);
            for (std::size_t i = 0; i < pending.size(); ++i) {
                if (n > 0 && fds[i + 2].revents != 0) drop[i] = step(pending[i]);
            }
            const auto after = Clock::now();
            for (std::size_t i = 0; i < pending.size(); ++i) {
                if (drop[i] || after < pending[i].deadline) continue;
                drop[i] = true;
                timed_out.fetch_add(1, std::memory_order_relaxed);
                refuse(pending[i],
                       session_error(SessionErrc::timeout,
                                     "handshake: no " +
                                         std::string(pending[i].session ? "Hello" : "auth packet") +
                                         " within the handshake timeout"));
            }
            std::size_t keep = 0;
            for (std::size_t i = 0; i < pending.size(); ++i) {
                if (drop[i]) continue;
                if (keep != i) pending[keep] = std::move(pending[i]);  // never onto itself
                ++keep;
            }
            pending.resize(keep);
            if (accepting && fds[1].revents != 0) accept_some();
            pending_now.store(pending.size(), std::memory_order_relaxed);
        }
        pending.clear();
        pending_now.store(0, std::memory_order_relaxed);
    }

    /// Takes what is waiting in the backlog, making room in `pending` as the header says.
    void accept_some() {
        for (int i = 0; i < kAcceptsPerTurn; ++i) {
            // A deadline already passed: take what the backlog holds, never wait.
            auto socket = accept_tcp(listener, Deadline{});
            if (!socket) {
                const int err = socket.error().err;
                if (err == EMFILE || err == ENFILE || err == ENOBUFS || err == ENOMEM)
                    accept_paused_until = Clock::now() + kAcceptPause;
                return;  // timeout: the backlog is empty
            }
            Pending p;
            p.socket = std::move(*socket);
            p.since = Clock::now();
            p.deadline = p.since + options.session.handshake_timeout;
            p.address = p.socket.peer_address();
            accepted.fetch_add(1, std::memory_order_relaxed);
            if (pending.size() >= options.max_pending && !make_room()) {
                evicted.fetch_add(1, std::memory_order_relaxed);
                refuse(p, session_error(SessionErrc::busy,
                                        "handshake: too many handshakes under way"));
                continue;  // p closes its socket
            }
            pending.push_back(std::move(p));
        }
    }

    /// Drops the pending handshake with the least progress, oldest first; false when every
    /// one is past its auth.
    bool make_room() {
        auto victim = pending.end();
        for (auto it = pending.begin(); it != pending.end(); ++it) {
            if (it->stage() == Pending::Stage::hello) continue;
            if (victim == pending.end() || it->stage() < victim->stage() ||
                (it->stage() == victim->stage() && it->since < victim->since))
                victim = it;
        }
        if (victim == pending.end()) return false;
        evicted.fetch_add(1, std::memory_order_relaxed);
        refuse(*victim, session_error(SessionErrc::busy,
                                      "handshake: dropped to make room for newer connections"));
        pending.erase(victim);
        return true;
    }

    /// Advances one handshake with what its socket holds; true when it is over (failed, or the
    /// peer was handed on).
    bool step(Pending& p) {
        if (!p.session) {
            auto r = read_auth(p);
            if (!r) {
                failed.fetch_add(1, std::memory_order_relaxed);
                refuse(p, r.error());
                return true;
            }
            if (!*r) return false;
        }
        auto hello = pump_hello(*p.session, key);
        if (!hello) {
            failed.fetch_add(1, std::memory_order_relaxed);
            refuse(p, hello.error());
            return true;
        }
        if (!*hello) return false;
        hand_on(std::move(*p.session));
        return true;
    }

    /// Reads the auth packet; once whole, answers with the ack and our Hello. True when the
    /// session exists (Hello awaited).
    [[nodiscard]] Result<bool, SessionError> read_auth(Pending& p) {
        for (;;) {
            auto n = read_now(p.socket, MutableBytesView(p.auth).subspan(p.have));
            if (!n) return std::unexpected(net_failure(n.error(), "handshake"));
            if (*n == 0) return false;
            p.have += *n;
            if (p.have < p.auth.size()) continue;
            if (p.auth.size() == 2) {
                // The size prefix: the whole packet's size (EIP-8), checked before buffering.
                auto size = handshake_packet_size(p.auth);
                if (!size) {
                    return std::unexpected(
                        session_error(SessionErrc::handshake, "auth: " + to_string(size.error())));
                }
                p.auth.resize(*size);
                continue;
            }
            auto hs = Handshake::recipient(key.secret);
            if (!hs) {
                return std::unexpected(
                    session_error(SessionErrc::handshake, keel::to_string(hs.error())));
            }
            if (auto r = hs->read_auth(p.auth); !r) {
                return std::unexpected(
                    session_error(SessionErrc::handshake, "auth: " + keel::to_string(r.error())));
            }
            auto ack = hs->make_ack();
            if (!ack) {
                return std::unexpected(
                    session_error(SessionErrc::handshake, keel::to_string(ack.error())));
            }
            if (auto w = write_now(p.socket, *ack); !w)
                return std::unexpected(net_failure(w.error(), "handshake"));
            auto s = open_session(std::move(p.socket), hs->secrets(), key, options.session);
            if (!s) return std::unexpected(s.error());
            p.session.emplace(std::move(*s));
            return true;
        }
    }

    /// A peer past Hello: its own thread, or "too many peers".
    void hand_on(Session s) {
        const std::lock_guard<std::mutex> lock(peers_mutex);
        if (peers.size() >= options.max_peers) {
            too_many_peers.fetch_add(1, std::memory_order_relaxed);
            s.disconnect(DisconnectReason::too_many_peers);
            return;
        }
        established.fetch_add(1, std::memory_order_relaxed);
        auto peer = std::make_unique<Peer>();
        Peer* p = peer.get();
        p->session.emplace(std::move(s));
        peers.push_back(std::move(peer));
        p->thread = std::thread([this, p] {
            try {
                on_peer(*p->session);
            } catch (...) {
                // Dropped, as the header says: the session ends below.
            }
            p->session->disconnect(DisconnectReason::requested);
            p->done.store(true, std::memory_order_release);
            wake();
        });
    }

    /// Joins the threads of peers that are done (all, after disconnecting them, when `all`).
    void reap(bool all) {
        std::list<std::unique_ptr<Peer>> finished;
        {
            const std::lock_guard<std::mutex> lock(peers_mutex);
            for (auto it = peers.begin(); it != peers.end();) {
                if (all || (*it)->done.load(std::memory_order_acquire)) {
                    if (all) (*it)->session->disconnect(DisconnectReason::client_quitting);
                    finished.splice(finished.end(), peers, it++);
                } else {
                    ++it;
                }
            }
        }
        for (auto& p : finished)
            if (p->thread.joinable()) p->thread.join();
    }
};

Listener::Listener(std::unique_ptr<Impl> impl) noexcept : impl_(std::move(impl)) {}

Result<std::unique_ptr<Listener>, NetError> Listener::start(const NodeKey& key,
                                                            ListenerOptions options,
                                                            PeerHandler on_peer,
                                                            RefusedHandler on_refused) {
    auto socket = listen_tcp(options.host, options.port);
    if (!socket) return std::unexpected(socket.error());
    auto impl = std::make_unique<Impl>();
    impl->key = key;
    impl->options = std::move(options);
    impl->on_peer = std::move(on_peer);
    impl->on_refused = std::move(on_refused);
    impl->listener = std::move(*socket);
    // Hello advertises the port listened on, unless told otherwise.
    if (impl->options.session.listen_port == 0)
        impl->options.session.listen_port = impl->listener.local_port();
    impl->wake_fd = ::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
    if (impl->wake_fd < 0) return std::unexpected(NetError{NetErrc::io, errno});
    std::unique_ptr<Listener> l(new Listener(std::move(impl)));
    try {
        Impl* i = l->impl_.get();
        i->loop_thread = std::thread([i] { i->run(); });
    } catch (const std::system_error& e) {
        return std::unexpected(NetError{NetErrc::io, e.code().value()});
    }
    return l;
}

Listener::~Listener() {
    stop();
}

std::uint16_t Listener::port() const noexcept {
    return impl_->listener.local_port();
}

void Listener::stop() {
    std::call_once(impl_->stopped, [this] {
        impl_->stopping.store(true, std::memory_order_release);
        impl_->wake();
        if (impl_->loop_thread.joinable()) impl_->loop_thread.join();
        impl_->listener.close();
        impl_->reap(true);
    });
}

ListenerStats Listener::stats() const {
    ListenerStats s;
    s.accepted = impl_->accepted.load();
    s.established = impl_->established.load();
    s.failed = impl_->failed.load();
    s.timed_out = impl_->timed_out.load();
    s.evicted = impl_->evicted.load();
    s.too_many_peers = impl_->too_many_peers.load();
    s.pending = impl_->pending_now.load();
    const std::lock_guard<std::mutex> lock(impl_->peers_mutex);
    s.peers = impl_->peers.size();
    return s;
}

}  // namespace keel::rlpx
