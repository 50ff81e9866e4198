#pragma once
/// An RLPx listener that serves many peers at once: it accepts connections and runs their
/// handshakes (auth, ack, Hello) concurrently, hands each peer that completes Hello to the
/// caller's handler on the peer's own thread, and keeps working while hostile connections (silent
/// sockets, garbage, half handshakes, abrupt closes) come and go.
///
/// Shape: one poll thread drives every pending handshake without blocking (non-blocking reads
/// of exactly what each step needs; the secp256k1 work, a few hundred microseconds per peer,
/// done inline), so a silent socket costs a slot and a descriptor, never a thread. A pool of
/// blocking handshake workers would be held by as many silent sockets as it has workers, and
/// oneTBB's pool is for CPU work, not for waiting on peers. A peer past Hello gets one thread
/// (the session's reader; its handler may send from any thread), and there are at most
/// max_peers of those.
///
/// Limits:
///  - handshake_timeout (SessionOptions) from accept to the peer's Hello: a peer that sends
///    nothing, or stops half way, is dropped when it passes;
///  - max_pending handshakes at once (default 64, go-ethereum's MaxPendingPeers is 50): each
///    costs a descriptor and about 3 KiB, and the poll loop stays short. When it is full a new
///    connection evicts the pending one that has made the least progress (nothing received,
///    then part of an auth packet), oldest first; handshakes past the auth (we answered with
///    our ack) are never evicted, and when all are past it the newcomer is refused. A flood of
///    silent sockets therefore cannot shut a good peer out: a good peer sends its whole auth at
///    once and is past it within one round trip;
///  - max_peers sessions (default 50): a peer that completes Hello beyond it is told "too many
///    peers" (Disconnect) and dropped.

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "keel/common/result.hpp"
#include "keel/rlpx/net.hpp"
#include "keel/rlpx/session.hpp"

namespace keel::rlpx {

struct ListenerOptions {
    std::string host = "127.0.0.1";
    std::uint16_t port = 0;  ///< 0: any free port (Listener::port() says which)
    std::size_t max_peers = 50;
    std::size_t max_pending = 64;
    /// For every peer; handshake_timeout bounds accept-to-Hello; listen_port 0 advertises the
    /// port listened on.
    SessionOptions session;
};

/// Counts since start (each a snapshot; they move while the listener runs).
struct ListenerStats {
    std::uint64_t accepted = 0;     ///< connections taken from the backlog
    std::uint64_t established = 0;  ///< peers handed to the handler
    std::uint64_t failed = 0;       ///< handshakes refused (bad auth, bad Hello, peer closed)
    std::uint64_t timed_out = 0;    ///< handshakes that passed handshake_timeout
    std::uint64_t evicted = 0;      ///< pending handshakes dropped, or newcomers refused, for room
    std::uint64_t too_many_peers = 0;  ///< peers told "too many peers" after Hello
    std::size_t pending = 0;           ///< handshakes under way now
    std::size_t peers = 0;             ///< sessions whose thread has not ended yet
};

class Listener {
  public:
    /// Runs on the peer's own thread once Hello is done; the session ends (disconnect
    /// "requested" if still open) when it returns. It may hand the session to other threads
    /// for sending while it runs. It must not throw (an exception ends the peer's session and
    /// is dropped).
    using PeerHandler = std::function<void(Session&)>;
    /// Told about every connection that did not become a peer: its address ("ip:port") and
    /// why (one line via to_string). Runs on the poll thread: keep it short.
    using RefusedHandler = std::function<void(const std::string& address, const SessionError&)>;

    /// Listens on options.host:port and starts the poll thread. Errors: those of listen_tcp(),
    /// and io when the wake-up descriptor or the thread cannot be made.
    [[nodiscard]] static Result<std::unique_ptr<Listener>, NetError> start(
        const NodeKey& key, ListenerOptions options, PeerHandler on_peer,
        RefusedHandler on_refused = {});

    Listener(const Listener&) = delete;
    Listener& operator=(const Listener&) = delete;
    /// stop().
    ~Listener();

    /// The TCP port it listens on.
    std::uint16_t port() const noexcept;
    /// Stops accepting, drops pending handshakes, disconnects every peer ("client quitting")
    /// and waits for their threads. Idempotent; from any thread but a handler's.
    void stop();
    ListenerStats stats() const;

  private:
    struct Impl;
    explicit Listener(std::unique_ptr<Impl> impl) noexcept;
    // The Session internals the poll loop uses (Listener is Session's friend, Impl is not).
    [[nodiscard]] static Result<Session, SessionError> open_session(Socket socket,
                                                                    const Secrets& secrets,
                                                                    const NodeKey& key,
                                                                    const SessionOptions& options);
    [[nodiscard]] static Result<bool, SessionError> pump_hello(Session& s, const NodeKey& key);
    static int fd_of(const Session& s) noexcept { return s.socket_.fd(); }
    std::unique_ptr<Impl> impl_;
};

}  // namespace keel::rlpx
