#include "keel/rlpx/net.hpp"

#include <arpa/inet.h>
#include <fcntl.h>
#include <linux/sockios.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>

namespace keel::rlpx {

namespace {

std::atomic<std::uint64_t> g_sends{0}, g_recvs{0}, g_polls{0};

NetError from_errno(NetErrc code) noexcept {
    return NetError{code, errno};
}

/// Time left to the deadline for ppoll (zero once it passed; at most about 31 years).
timespec time_left(Deadline deadline) noexcept {
    const auto left = std::chrono::ceil<std::chrono::nanoseconds>(deadline - Clock::now());
    if (left.count() <= 0) return timespec{0, 0};
    constexpr std::int64_t kMaxSeconds = std::int64_t{1} << 30;
    const std::int64_t ns = left.count();
    if (ns / 1'000'000'000 >= kMaxSeconds) return timespec{kMaxSeconds, 0};
    return timespec{static_cast<time_t>(ns / 1'000'000'000), static_cast<long>(ns % 1'000'000'000)};
}

/// Waits until `fd` is ready for `events` or the deadline passes.
[[nodiscard]] Result<void, NetError> wait(int fd, short events, Deadline deadline) noexcept {
    for (;;) {
        pollfd p{fd, events, 0};
        g_polls.fetch_add(1, std::memory_order_relaxed);
        const timespec left = time_left(deadline);
        const int n = ::ppoll(&p, 1, &left, nullptr);
        if (n > 0) return {};
        if (n == 0) return std::unexpected(NetError{NetErrc::timeout, 0});
        if (errno != EINTR) return std::unexpected(from_errno(NetErrc::io));
    }
}

/// Bytes waiting in the socket's receive queue (SIOCINQ), or -1.
int queued(int fd) noexcept {
    int n = 0;
    g_polls.fetch_add(1, std::memory_order_relaxed);
    return ::ioctl(fd, SIOCINQ, &n) == 0 ? n : -1;
}

/// The read-ahead wait of read_at_least: true when `ahead.expect` bytes came. It polls in
/// slices of a millisecond and stops early when bytes arrived but stopped growing short of
/// the guess (the frame is smaller than guessed: do not sit on it).
[[nodiscard]] Result<bool, NetError> wait_ahead(const Socket& s, const ReadAhead& ahead,
                                                Deadline deadline) {
    constexpr auto kSlice = std::chrono::milliseconds(1);
    s.set_low_water(ahead.expect);
    const Deadline end = std::min(deadline, Clock::now() + ahead.grace);
    int last = 0;
    for (;;) {
        const Deadline slice_end = std::min(end, Clock::now() + kSlice);
        auto w = wait(s.fd(), POLLIN, slice_end);
        if (w) return true;
        if (w.error().code != NetErrc::timeout) return std::unexpected(w.error());
        if (slice_end >= deadline) return std::unexpected(w.error());
        if (slice_end >= end) return false;
        const int now = queued(s.fd());
        if (now < 0 || (now > 0 && now == last)) return false;
        last = now;
    }
}

void set_options(int fd) noexcept {
    const int one = 1;
    ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    // The socket buffers stay with the kernel's autotuning (net.ipv4.tcp_rmem / tcp_wmem): a
    // fixed SO_RCVBUF would switch it off and, capped at net.core.rmem_max (208 KiB on a stock
    // Debian), limit a 100 ms path to a few MB/s. A receive low-water mark grows an autotuned
    // receive buffer to hold it (Linux 4.19+), so whole frames still arrive in one recv.
}

/// The largest receive buffer autotuning may reach: the third number of tcp_rmem (read once
/// per process; 6 MiB, Linux's default, when it cannot be read).
std::size_t autotuned_receive_max() noexcept {
    static const std::size_t value = [] {
        std::size_t v[3] = {0, 0, 0};
        if (std::FILE* f = std::fopen("/proc/sys/net/ipv4/tcp_rmem", "r")) {
            if (std::fscanf(f, "%zu %zu %zu", &v[0], &v[1], &v[2]) != 3) v[2] = 0;
            std::fclose(f);
        }
        return v[2] > 0 ? v[2] : std::size_t{6} << 20;
    }();
    return value;
}

/// Connected sockets stay blocking: a send() of a whole frame then returns only when all of
/// it is queued (one call, however full the buffer was; SO_SNDTIMEO bounds the wait), and
/// reads pass MSG_DONTWAIT and wait in poll().
void set_blocking(int fd, bool blocking) noexcept {
    const int flags = ::fcntl(fd, F_GETFL);
    ::fcntl(fd, F_SETFL, blocking ? (flags & ~O_NONBLOCK) : (flags | O_NONBLOCK));
}

struct AddrInfo {
    addrinfo* list = nullptr;
    ~AddrInfo() {
        if (list != nullptr) ::freeaddrinfo(list);
    }
};

[[nodiscard]] Result<void, NetError> resolve(const std::string& host, std::uint16_t port,
                                             bool passive, AddrInfo& out) {
    addrinfo hints{};
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    hints.ai_flags = passive ? AI_PASSIVE : 0;
    const std::string service = std::to_string(port);
    if (::getaddrinfo(host.empty() ? nullptr : host.c_str(), service.c_str(), &hints, &out.list) !=
        0)
        return std::unexpected(NetError{NetErrc::resolve_failed, 0});
    return {};
}

}  // namespace

std::string_view describe(NetErrc c) noexcept {
    switch (c) {
        case NetErrc::resolve_failed:
            return "host name did not resolve";
        case NetErrc::refused:
            return "connection refused or unreachable";
        case NetErrc::timeout:
            return "timed out";
        case NetErrc::closed:
            return "peer closed the connection";
        case NetErrc::io:
            return "socket error";
    }
    return "network error";
}

std::string to_string(const NetError& e) {
    std::string out(describe(e.code));
    if (e.err != 0) {
        out += " (errno ";
        out += std::to_string(e.err);
        out += ": ";
        out += std::strerror(e.err);
        out += ')';
    }
    return out;
}

Socket& Socket::operator=(Socket&& o) noexcept {
    if (this != &o) {
        close();
        fd_ = o.fd_;
        o.fd_ = -1;
    }
    return *this;
}

Socket::~Socket() {
    close();
}

void Socket::close() noexcept {
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
}

void Socket::shutdown() const noexcept {
    if (fd_ >= 0) ::shutdown(fd_, SHUT_RDWR);
}

void Socket::set_low_water(std::size_t bytes) const noexcept {
    const int mark = static_cast<int>(std::clamp<std::size_t>(bytes, 1, low_water_cap()));
    if (mark == low_water_) return;
    if (::setsockopt(fd_, SOL_SOCKET, SO_RCVLOWAT, &mark, sizeof mark) == 0) low_water_ = mark;
}

std::size_t Socket::low_water_cap() const noexcept {
    // The kernel caps the mark at half of what the buffer may grow to; a quarter leaves room
    // for the buffer's bookkeeping, so a mark set is always reachable.
    return std::clamp<std::size_t>(autotuned_receive_max() / 4, std::size_t{64} << 10,
                                   std::size_t{16} << 20);
}

std::uint16_t Socket::local_port() const noexcept {
    sockaddr_storage a{};
    socklen_t len = sizeof a;
    if (::getsockname(fd_, reinterpret_cast<sockaddr*>(&a), &len) != 0) return 0;
    if (a.ss_family == AF_INET) return ntohs(reinterpret_cast<sockaddr_in*>(&a)->sin_port);
    if (a.ss_family == AF_INET6) return ntohs(reinterpret_cast<sockaddr_in6*>(&a)->sin6_port);
    return 0;
}

std::string Socket::peer_address() const {
    sockaddr_storage a{};
    socklen_t len = sizeof a;
    if (::getpeername(fd_, reinterpret_cast<sockaddr*>(&a), &len) != 0) return {};
    char host[INET6_ADDRSTRLEN] = {};
    std::uint16_t port = 0;
    if (a.ss_family == AF_INET) {
        const auto* in = reinterpret_cast<sockaddr_in*>(&a);
        ::inet_ntop(AF_INET, &in->sin_addr, host, sizeof host);
        port = ntohs(in->sin_port);
        return std::string(host) + ":" + std::to_string(port);
    }
    const auto* in6 = reinterpret_cast<sockaddr_in6*>(&a);
    ::inet_ntop(AF_INET6, &in6->sin6_addr, host, sizeof host);
    port = ntohs(in6->sin6_port);
    return "[" + std::string(host) + "]:" + std::to_string(port);
}

[[nodiscard]] Result<Socket, NetError> connect_tcp(const std::string& host, std::uint16_t port,
                                                   Deadline deadline) {
    AddrInfo ai;
    if (auto r = resolve(host, port, false, ai); !r) return std::unexpected(r.error());
    NetError last{NetErrc::refused, 0};
    for (addrinfo* a = ai.list; a != nullptr; a = a->ai_next) {
        Socket s(::socket(a->ai_family, a->ai_socktype | SOCK_CLOEXEC, a->ai_protocol));
        if (!s.valid()) {
            last = from_errno(NetErrc::io);
            continue;
        }
        set_options(s.fd());
        set_blocking(s.fd(), false);  // connect() waits in poll(), until the deadline
        if (::connect(s.fd(), a->ai_addr, a->ai_addrlen) != 0) {
            if (errno != EINPROGRESS) {
                last = from_errno(NetErrc::refused);
                continue;
            }
            if (auto w = wait(s.fd(), POLLOUT, deadline); !w) return std::unexpected(w.error());
            int err = 0;
            socklen_t len = sizeof err;
            ::getsockopt(s.fd(), SOL_SOCKET, SO_ERROR, &err, &len);
            if (err != 0) {
                last = NetError{NetErrc::refused, err};
                continue;
            }
        }
        set_blocking(s.fd(), true);
        return s;
    }
    return std::unexpected(last);
}

[[nodiscard]] Result<Socket, NetError> listen_tcp(const std::string& host, std::uint16_t port) {
    AddrInfo ai;
    if (auto r = resolve(host, port, true, ai); !r) return std::unexpected(r.error());
    NetError last{NetErrc::io, 0};
    for (addrinfo* a = ai.list; a != nullptr; a = a->ai_next) {
        Socket s(::socket(a->ai_family, a->ai_socktype | SOCK_CLOEXEC, a->ai_protocol));
        if (!s.valid()) {
            last = from_errno(NetErrc::io);
            continue;
        }
        const int one = 1;
        ::setsockopt(s.fd(), SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
        // Backlog: as deep as the system allows; a Listener drains it as fast as it fills.
        if (::bind(s.fd(), a->ai_addr, a->ai_addrlen) != 0 || ::listen(s.fd(), SOMAXCONN) != 0) {
            last = from_errno(NetErrc::io);
            continue;
        }
        set_blocking(s.fd(), false);  // accept() waits in poll(), until the deadline
        return s;
    }
    return std::unexpected(last);
}

[[nodiscard]] Result<Socket, NetError> accept_tcp(const Socket& listener, Deadline deadline) {
    for (;;) {
        const int fd = ::accept4(listener.fd(), nullptr, nullptr, SOCK_CLOEXEC);
        if (fd >= 0) {
            set_options(fd);
            return Socket(fd);
        }
        if (errno == EINTR || errno == ECONNABORTED) continue;
        if (errno != EAGAIN && errno != EWOULDBLOCK)
            return std::unexpected(from_errno(NetErrc::io));
        if (auto w = wait(listener.fd(), POLLIN, deadline); !w) return std::unexpected(w.error());
    }
}

void Socket::limit_send_wait(Deadline deadline) const noexcept {
    // SO_SNDTIMEO changes only when the one set would outlast the deadline (or is far shorter
    // than the time left), so a session whose writes all allow 30 s sets it about once.
    using std::chrono::milliseconds;
    const auto left = std::chrono::floor<milliseconds>(deadline - Clock::now());
    if (send_wait_ms_ > 0 && send_wait_ms_ <= left.count() && send_wait_ms_ * 2 >= left.count())
        return;
    const std::int64_t ms = std::max<std::int64_t>(1, left.count());
    timeval tv{static_cast<time_t>(ms / 1000), static_cast<suseconds_t>(ms % 1000 * 1000)};
    if (::setsockopt(fd_, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv) == 0) send_wait_ms_ = ms;
}

[[nodiscard]] Result<void, NetError> write_all(const Socket& s, BytesView data, Deadline deadline) {
    std::size_t done = 0;
    while (done < data.size()) {
        if (Clock::now() >= deadline) return std::unexpected(NetError{NetErrc::timeout, 0});
        s.limit_send_wait(deadline);
        g_sends.fetch_add(1, std::memory_order_relaxed);
        const ssize_t n = ::send(s.fd(), data.data() + done, data.size() - done, MSG_NOSIGNAL);
        if (n > 0) {
            done += static_cast<std::size_t>(n);
            continue;
        }
        // EAGAIN: SO_SNDTIMEO passed with nothing sent; the deadline check above decides.
        if (n < 0 && (errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK)) continue;
        if (n < 0 && (errno == EPIPE || errno == ECONNRESET))
            return std::unexpected(from_errno(NetErrc::closed));
        return std::unexpected(from_errno(NetErrc::io));
    }
    return {};
}

[[nodiscard]] Result<std::size_t, NetError> read_at_least(const Socket& s, MutableBytesView out,
                                                          std::size_t min, Deadline deadline,
                                                          ReadAhead* ahead) {
    // Below this much still to come, a socket that was not drained is read at once (what is
    // there is likely enough); above it, or on a drained socket, poll() first waits, with the
    // low-water mark at the remainder, until all of it is there, so that a large frame costs
    // one recv rather than one per arriving piece.
    constexpr std::size_t kWaitFirst = std::size_t{16} << 10;
    bool ready = false;
    if (ahead != nullptr) {
        ahead->tried = ahead->met = false;
        if (ahead->expect > min && s.drained()) {
            ahead->tried = true;
            auto w = wait_ahead(s, *ahead, deadline);
            if (!w) return std::unexpected(w.error());
            ahead->met = ready = *w;
        }
    }
    std::size_t got = 0;
    const auto fail = [&got](NetError e) {
        e.received = got;
        return std::unexpected(e);
    };
    while (got < min) {
        const std::size_t rest = min - got;
        if (!ready && (s.drained() || rest >= kWaitFirst)) {
            s.set_low_water(rest);
            if (auto w = wait(s.fd(), POLLIN, deadline); !w) return fail(w.error());
        }
        ready = false;
        g_recvs.fetch_add(1, std::memory_order_relaxed);
        const std::size_t asked = out.size() - got;
        const ssize_t n = ::recv(s.fd(), out.data() + got, asked, MSG_DONTWAIT);
        if (n > 0) {
            got += static_cast<std::size_t>(n);
            s.set_drained(static_cast<std::size_t>(n) < asked);
            continue;
        }
        if (n == 0) return fail(NetError{NetErrc::closed, 0});
        if (errno == EINTR) continue;
        if (errno == EAGAIN || errno == EWOULDBLOCK) {
            s.set_drained(true);
            continue;
        }
        if (errno == ECONNRESET) return fail(from_errno(NetErrc::closed));
        return fail(from_errno(NetErrc::io));
    }
    return got;
}

[[nodiscard]] Result<std::size_t, NetError> read_now(const Socket& s, MutableBytesView out) {
    if (out.empty()) return std::size_t{0};
    for (;;) {
        g_recvs.fetch_add(1, std::memory_order_relaxed);
        const ssize_t n = ::recv(s.fd(), out.data(), out.size(), MSG_DONTWAIT);
        if (n > 0) return static_cast<std::size_t>(n);
        if (n == 0) return std::unexpected(NetError{NetErrc::closed, 0});
        if (errno == EINTR) continue;
        if (errno == EAGAIN || errno == EWOULDBLOCK) return std::size_t{0};
        if (errno == ECONNRESET) return std::unexpected(from_errno(NetErrc::closed));
        return std::unexpected(from_errno(NetErrc::io));
    }
}

[[nodiscard]] Result<void, NetError> write_now(const Socket& s, BytesView data) {
    std::size_t done = 0;
    while (done < data.size()) {
        g_sends.fetch_add(1, std::memory_order_relaxed);
        const ssize_t n =
            ::send(s.fd(), data.data() + done, data.size() - done, MSG_NOSIGNAL | MSG_DONTWAIT);
        if (n > 0) {
            done += static_cast<std::size_t>(n);
            continue;
        }
        if (n < 0 && errno == EINTR) continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
            return std::unexpected(NetError{NetErrc::timeout, 0});
        if (n < 0 && (errno == EPIPE || errno == ECONNRESET))
            return std::unexpected(from_errno(NetErrc::closed));
        return std::unexpected(from_errno(NetErrc::io));
    }
    return {};
}

SyscallCounts syscall_counts() noexcept {
    return {g_sends.load(), g_recvs.load(), g_polls.load()};
}

}  // namespace keel::rlpx
