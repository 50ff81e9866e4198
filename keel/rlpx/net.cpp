#include "keel/rlpx/net.hpp"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>

namespace keel::rlpx {

namespace {

std::atomic<std::uint64_t> g_sends{0}, g_recvs{0}, g_polls{0};

std::string_view phrase(NetErrc c) noexcept {
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

NetError from_errno(NetErrc code) noexcept {
    return NetError{code, errno};
}

/// Milliseconds to the deadline, rounded up (so a wait never ends before it).
int remaining_ms(Deadline deadline) noexcept {
    const auto left = std::chrono::ceil<std::chrono::milliseconds>(deadline - Clock::now());
    if (left.count() <= 0) return 0;
    return left.count() > 1'000'000'000 ? 1'000'000'000 : static_cast<int>(left.count());
}

/// Waits until `fd` is ready for `events` or the deadline passes.
Result<void, NetError> wait(int fd, short events, Deadline deadline) noexcept {
    for (;;) {
        pollfd p{fd, events, 0};
        g_polls.fetch_add(1, std::memory_order_relaxed);
        const int n = ::poll(&p, 1, remaining_ms(deadline));
        if (n > 0) return {};
        if (n == 0) return std::unexpected(NetError{NetErrc::timeout, 0});
        if (errno != EINTR) return std::unexpected(from_errno(NetErrc::io));
    }
}

void set_options(int fd) noexcept {
    const int one = 1;
    ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    // Room for a whole large frame in the kernel on both ends, so a 1 MiB message usually
    // leaves in one send and arrives in one or two recvs (the kernel caps it at rmem_max).
    const int buffer = 4 << 20;
    ::setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &buffer, sizeof buffer);
    ::setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &buffer, sizeof buffer);
    ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) | O_NONBLOCK);
}

struct AddrInfo {
    addrinfo* list = nullptr;
    ~AddrInfo() {
        if (list != nullptr) ::freeaddrinfo(list);
    }
};

Result<void, NetError> resolve(const std::string& host, std::uint16_t port, bool passive,
                               AddrInfo& out) {
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

std::string to_string(const NetError& e) {
    std::string out(phrase(e.code));
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

void Socket::set_low_water(int bytes) const noexcept {
    if (bytes == low_water_) return;
    if (::setsockopt(fd_, SOL_SOCKET, SO_RCVLOWAT, &bytes, sizeof bytes) == 0) low_water_ = bytes;
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

Result<Socket, NetError> connect_tcp(const std::string& host, std::uint16_t port,
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
        return s;
    }
    return std::unexpected(last);
}

Result<Socket, NetError> listen_tcp(const std::string& host, std::uint16_t port) {
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
        if (::bind(s.fd(), a->ai_addr, a->ai_addrlen) != 0 || ::listen(s.fd(), 64) != 0) {
            last = from_errno(NetErrc::io);
            continue;
        }
        ::fcntl(s.fd(), F_SETFL, ::fcntl(s.fd(), F_GETFL) | O_NONBLOCK);
        return s;
    }
    return std::unexpected(last);
}

Result<Socket, NetError> accept_tcp(const Socket& listener, Deadline deadline) {
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

Result<void, NetError> write_all(const Socket& s, BytesView data, Deadline deadline) {
    std::size_t done = 0;
    while (done < data.size()) {
        g_sends.fetch_add(1, std::memory_order_relaxed);
        const ssize_t n = ::send(s.fd(), data.data() + done, data.size() - done, MSG_NOSIGNAL);
        if (n > 0) {
            done += static_cast<std::size_t>(n);
            continue;
        }
        if (n < 0 && errno == EINTR) continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
            if (auto w = wait(s.fd(), POLLOUT, deadline); !w) return std::unexpected(w.error());
            continue;
        }
        if (n < 0 && (errno == EPIPE || errno == ECONNRESET))
            return std::unexpected(from_errno(NetErrc::closed));
        return std::unexpected(from_errno(NetErrc::io));
    }
    return {};
}

Result<std::size_t, NetError> read_at_least(const Socket& s, MutableBytesView out, std::size_t min,
                                            Deadline deadline) {
    // Below this much still to come, read at once (what is there is likely enough); above it,
    // first let poll() wait, with the low-water mark at the remainder, until all of it is
    // there, so that a large frame costs one recv rather than one per arriving piece.
    constexpr std::size_t kWaitFirst = std::size_t{16} << 10;
    constexpr std::size_t kMaxLowWater = std::size_t{1} << 20;
    std::size_t got = 0;
    bool waited = false;
    while (got < min) {
        const std::size_t rest = min - got;
        if (!waited && rest >= kWaitFirst) {
            s.set_low_water(static_cast<int>(std::min(rest, kMaxLowWater)));
            if (auto w = wait(s.fd(), POLLIN, deadline); !w) return std::unexpected(w.error());
        }
        waited = false;
        g_recvs.fetch_add(1, std::memory_order_relaxed);
        const ssize_t n = ::recv(s.fd(), out.data() + got, out.size() - got, 0);
        if (n > 0) {
            got += static_cast<std::size_t>(n);
            continue;
        }
        if (n == 0) return std::unexpected(NetError{NetErrc::closed, 0});
        if (errno == EINTR) continue;
        if (errno == EAGAIN || errno == EWOULDBLOCK) {
            s.set_low_water(static_cast<int>(std::min(rest, kMaxLowWater)));
            if (auto w = wait(s.fd(), POLLIN, deadline); !w) return std::unexpected(w.error());
            waited = true;
            continue;
        }
        if (errno == ECONNRESET) return std::unexpected(from_errno(NetErrc::closed));
        return std::unexpected(from_errno(NetErrc::io));
    }
    return got;
}

SyscallCounts syscall_counts() noexcept {
    return {g_sends.load(), g_recvs.load(), g_polls.load()};
}

}  // namespace keel::rlpx
