// The ceiling of bench/side_by_side_rpc.sh's setup for a cheap method: an HTTP/1.1 server that
// does no work at all. It reads each keep-alive request (headers, then Content-Length bytes of
// body, unparsed) and answers one fixed JSON-RPC result; THREADS threads, each with its own
// epoll and SO_REUSEPORT listener. wrk against it on the same two cores measures what loopback
// TCP, the load generator and a minimal request loop cost together: no server that parses JSON
// and reads a store can answer faster there. A measuring tool, not part of keel.
//   http_ceiling PORT [THREADS]   (prints "listening on PORT" once every thread listens)
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>
#include <thread>
#include <unordered_map>
#include <vector>

namespace {

constexpr std::string_view kBody = R"({"jsonrpc":"2.0","id":1,"result":"0x3e8"})";

const std::string& answer() {
    static const std::string a =
        "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: " +
        std::to_string(kBody.size()) + "\r\n\r\n" + std::string(kBody);
    return a;
}

int listener(int port) {
    const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
    const int one = 1;
    ::setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    ::setsockopt(fd, SOL_SOCKET, SO_REUSEPORT, &one, sizeof one);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_port = htons(static_cast<std::uint16_t>(port));
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0 || ::listen(fd, 1024) != 0) {
        std::perror("http_ceiling: bind/listen");
        std::exit(1);
    }
    return fd;
}

// Answers every complete request in `in`; the bytes of an incomplete one stay.
bool serve(int fd, std::string& in) {
    for (;;) {
        const auto end = in.find("\r\n\r\n");
        if (end == std::string::npos) return true;
        std::size_t body = 0;
        const auto at = in.find("Content-Length:");
        if (at != std::string::npos && at < end)
            body = std::strtoul(in.c_str() + at + 15, nullptr, 10);
        if (in.size() < end + 4 + body) return true;
        in.erase(0, end + 4 + body);
        if (::send(fd, answer().data(), answer().size(), MSG_NOSIGNAL) !=
            static_cast<ssize_t>(answer().size()))
            return false;  // a full socket buffer: this toy server gives the connection up
    }
}

void run(int lfd) {
    const int ep = ::epoll_create1(0);
    epoll_event ev{};
    ev.events = EPOLLIN;
    ev.data.fd = lfd;
    ::epoll_ctl(ep, EPOLL_CTL_ADD, lfd, &ev);
    std::unordered_map<int, std::string> pending;
    std::vector<epoll_event> events(256);
    char buf[16384];
    for (;;) {
        const int n = ::epoll_wait(ep, events.data(), static_cast<int>(events.size()), -1);
        for (int i = 0; i < n; ++i) {
            const int fd = events[static_cast<std::size_t>(i)].data.fd;
            if (fd == lfd) {
                for (int c; (c = ::accept4(lfd, nullptr, nullptr, SOCK_NONBLOCK)) >= 0;) {
                    const int one = 1;
                    ::setsockopt(c, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
                    epoll_event ce{};
                    ce.events = EPOLLIN;
                    ce.data.fd = c;
                    ::epoll_ctl(ep, EPOLL_CTL_ADD, c, &ce);
                }
                continue;
            }
            std::string& in = pending[fd];
            bool open = true;
            for (;;) {
                const ssize_t r = ::recv(fd, buf, sizeof buf, 0);
                if (r > 0) {
                    in.append(buf, static_cast<std::size_t>(r));
                    continue;
                }
                if (r == 0 || (errno != EAGAIN && errno != EWOULDBLOCK)) open = false;
                break;
            }
            if (open) open = serve(fd, in);
            if (!open) {
                ::close(fd);
                pending.erase(fd);
            }
        }
    }
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 2) {
        std::fprintf(stderr, "usage: http_ceiling PORT [THREADS]\n");
        return 2;
    }
    const int port = std::atoi(argv[1]);
    const int threads = argc > 2 ? std::atoi(argv[2]) : 2;
    std::vector<int> listeners;
    for (int i = 0; i < threads; ++i) listeners.push_back(listener(port));
    std::vector<std::thread> pool;
    for (const int fd : listeners) pool.emplace_back(run, fd);
    std::printf("listening on %d\n", port);
    std::fflush(stdout);
    for (auto& t : pool) t.join();
}
