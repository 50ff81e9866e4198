#pragma once
/// TCP for RLPx sessions: an owning socket, connect with a deadline, listen and accept, and
/// reads and writes that wait (poll) until a deadline. Blocking-style calls on non-blocking
/// sockets, so a stalled peer turns into a timeout, never a hang. Errors carry errno and print
/// as one line.

#include <chrono>
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

struct NetError {
    NetErrc code;
    int err = 0;  ///< errno where there was one
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
    /// The local port (after bind or connect).
    std::uint16_t local_port() const noexcept;
    /// The peer's address as "ip:port" ("" when unknown).
    std::string peer_address() const;

    /// The receive low-water mark last set (read_at_least), so it changes only when needed.
    int low_water() const noexcept { return low_water_; }
    void set_low_water(int bytes) const noexcept;

  private:
    int fd_ = -1;
    mutable int low_water_ = 1;
};

/// Connects to host:port (IPv4, IPv6 or a name), giving up at `deadline`.
Result<Socket, NetError> connect_tcp(const std::string& host, std::uint16_t port,
                                     Deadline deadline);
/// A socket listening on host:port (port 0: any free port; see Socket::local_port).
Result<Socket, NetError> listen_tcp(const std::string& host, std::uint16_t port);
/// The next connection on `listener`, waiting until `deadline`.
Result<Socket, NetError> accept_tcp(const Socket& listener, Deadline deadline);

/// Writes all of `data`: one send() when the kernel buffer has room, more only when it is full.
Result<void, NetError> write_all(const Socket& s, BytesView data, Deadline deadline);
/// Reads at least `min` bytes (and at most out.size()) into `out`; returns how many. While it
/// waits, the socket's receive low-water mark is `min` (capped at 1 MiB), so poll() wakes when
/// the whole remainder is there and one recv() takes it: about one recv per frame under load.
Result<std::size_t, NetError> read_at_least(const Socket& s, MutableBytesView out, std::size_t min,
                                            Deadline deadline);

/// Counters of the system calls the functions above made (for the syscalls-per-frame figures).
struct SyscallCounts {
    std::uint64_t sends = 0, recvs = 0, polls = 0;
};
SyscallCounts syscall_counts() noexcept;

}  // namespace keel::rlpx
