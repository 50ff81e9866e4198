#pragma once
/// TCP for RLPx sessions: an owning socket, connect with a deadline, listen and accept, and
/// reads and writes that wait until a deadline (reads in poll(), sends bounded by SO_SNDTIMEO),
/// so a stalled peer turns into a timeout, never a hang. Errors carry errno and print as one
/// line.

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "keel/common/bytes.hpp"
#include "keel/common/result.hpp"

namespace keel::rlpx {

enum class NetErrc : std::uint8_t {
    resolve_failed,  ///< the host name did not resolve
    refused,         ///< connection refused or unreachable
    timeout,         ///< the deadline passed
    closed,          ///< the peer closed the connection
    io,              ///< another socket error (errno)
};

/// A short phrase for `c`, e.g. "connection refused or unreachable".
std::string_view describe(NetErrc c) noexcept;

/// A socket failure: what, and errno where there was one (an environment failure: no input
/// offset to name).
struct NetError {
    NetErrc code;
    int err = 0;  ///< errno where there was one
    /// read_at_least: the bytes it had already put into `out` when it failed. After a timeout
    /// they are part of the stream (the rest is still to come), so a caller that reads on must
    /// keep them.
    std::size_t received = 0;
};
/// One line, e.g. "connection refused (errno 111: Connection refused)".
std::string to_string(const NetError& e);

using Clock = std::chrono::steady_clock;
using Deadline = Clock::time_point;

/// A connected or listening TCP socket (owns the descriptor; closes it on destruction).
class Socket {
  public:
    Socket() noexcept = default;
    explicit Socket(int fd) noexcept : fd_(fd) {}
    Socket(Socket&& o) noexcept : fd_(o.fd_) { o.fd_ = -1; }
    Socket& operator=(Socket&& o) noexcept;
    Socket(const Socket&) = delete;
    Socket& operator=(const Socket&) = delete;
    ~Socket();

    int fd() const noexcept { return fd_; }
    bool valid() const noexcept { return fd_ >= 0; }
    void close() noexcept;
    /// Shuts both directions down (the descriptor stays open): a thread blocked reading it
    /// wakes to the end of the stream.
    void shutdown() const noexcept;
    /// The local port (after bind or connect).
    std::uint16_t local_port() const noexcept;
    /// The peer's address as "ip:port" ("" when unknown).
    std::string peer_address() const;

    /// The receive low-water mark last set (read_at_least), so it changes only when needed.
    int low_water() const noexcept { return low_water_; }
    void set_low_water(std::size_t bytes) const noexcept;
    /// The highest low-water mark worth setting: a quarter of the most the autotuned receive
    /// buffer may grow to (net.ipv4.tcp_rmem), so that poll() can always be satisfied.
    std::size_t low_water_cap() const noexcept;
    /// Whether the last recv() took less than it asked for, so the socket is likely empty and
    /// the next read waits in poll() first instead of trying a recv() that would fail.
    bool drained() const noexcept { return drained_; }
    void set_drained(bool drained) const noexcept { drained_ = drained; }
    /// Bounds how long a blocking send() may wait for buffer space (SO_SNDTIMEO) by `deadline`.
    void limit_send_wait(Deadline deadline) const noexcept;

  private:
    int fd_ = -1;
    mutable int low_water_ = 1;
    mutable bool drained_ = false;
    mutable std::int64_t send_wait_ms_ = 0;  // SO_SNDTIMEO as last set (0: never)
};

/// Connects to host:port (IPv4, IPv6 or a name), giving up at `deadline`.
[[nodiscard]] Result<Socket, NetError> connect_tcp(const std::string& host, std::uint16_t port,
                                                   Deadline deadline);
/// A socket listening on host:port (port 0: any free port; see Socket::local_port).
[[nodiscard]] Result<Socket, NetError> listen_tcp(const std::string& host, std::uint16_t port);
/// The next connection on `listener`, waiting until `deadline`.
[[nodiscard]] Result<Socket, NetError> accept_tcp(const Socket& listener, Deadline deadline);

/// Writes all of `data` with one blocking send(), which returns once all of it is queued; more
/// calls only when a signal or the deadline interrupts it.
[[nodiscard]] Result<void, NetError> write_all(const Socket& s, BytesView data, Deadline deadline);
/// A guess that more than the bytes needed now are on their way (the rest of a frame whose
/// header has not come yet): read_at_least() first waits for `expect` bytes, for at most
/// `grace` and only while they keep coming, so that one recv() takes the whole frame.
struct ReadAhead {
    std::size_t expect = 0;
    std::chrono::microseconds grace{0};
    bool tried = false;  ///< set by read_at_least: it waited for `expect` (socket was empty) ...
    bool met = false;    ///< ... and they came within the grace
};

/// Reads at least `min` bytes (and at most out.size()) into `out`; returns how many. While it
/// waits, the socket's receive low-water mark is what is still needed (capped at
/// low_water_cap()), so poll() wakes when all of it is there and one recv() takes it. A socket
/// that recv() drained is polled before the next recv(), so no recv() fails with EAGAIN.
/// With `ahead`, it first waits for ahead->expect bytes (see ReadAhead); when they do not
/// come (the grace ends, or what arrived stops growing for a millisecond short of them), it
/// reads what is needed as usual. On failure the error says how many bytes it had already read
/// into `out` (NetError::received): a deadline can pass in the middle of a frame.
[[nodiscard]] Result<std::size_t, NetError> read_at_least(const Socket& s, MutableBytesView out,
                                                          std::size_t min, Deadline deadline,
                                                          ReadAhead* ahead = nullptr);

/// Reads what is there now, without waiting, into `out`: the bytes read, 0 when none are
/// waiting (the peer is slow, not gone). Errors: closed (end of stream or reset), io. For
/// poll loops that drive many sockets (Listener).
[[nodiscard]] Result<std::size_t, NetError> read_now(const Socket& s, MutableBytesView out);
/// Queues all of `data` without waiting; a send buffer without room for it (a peer that does
/// not read, which cannot happen to the first kilobytes of a fresh connection) is an error
/// (timeout), as is a closed connection (closed) or another failure (io).
[[nodiscard]] Result<void, NetError> write_now(const Socket& s, BytesView data);

/// Counters of the system calls the functions above made (for the syscalls-per-frame figures):
/// send() and recv() calls, failed ones included, and the waits (poll, and the SIOCINQ
/// queries of a read-ahead).
struct SyscallCounts {
    std::uint64_t sends = 0, recvs = 0, polls = 0;
};
SyscallCounts syscall_counts() noexcept;

}  // namespace keel::rlpx
