// The HTTP server's WebSocket side with a Beast client on loopback: answers that stream as
// fragments (bigger than the session's whole queue could hold), requests sent back to back
// while such an answer is written, and the connection still serving afterwards.
#include "keel/rpc/http_server.hpp"

#include <gtest/gtest.h>
#include <sys/socket.h>
#include <sys/time.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstddef>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/websocket.hpp>
#include <nlohmann/json.hpp>

namespace keel::rpc::http_server_test {
namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace websocket = beast::websocket;
using nlohmann::json;

// test_items [n, size]: an array of n strings of `size` bytes each (item i made of the letter
// 'a' + i % 26), with a flush point after each, as a block's traces are written.
Dispatcher make_dispatcher() {
    Dispatcher d;
    d.add("test_items", [](const json& p, keel::json::Writer& w) -> Result<void, RpcError> {
        const auto n = p.at(0).get<std::size_t>();
        const auto size = p.at(1).get<std::size_t>();
        w.begin_array();
        for (std::size_t i = 0; i < n; ++i) {
            w.string(std::string(size, static_cast<char>('a' + i % 26)));
            w.flush_point();
        }
        w.end_array();
        return {};
    });
    return d;
}

class WsClient {
  public:
    explicit WsClient(std::uint16_t port) : ws_(io_) {
        asio::ip::tcp::resolver resolver(io_);
        asio::connect(ws_.next_layer(), resolver.resolve("127.0.0.1", std::to_string(port)));
        // A server that stops answering fails the test instead of hanging it (the blocking
        // reads give up after 60 s, far beyond what these answers need even under load).
        const timeval limit{60, 0};
        ::setsockopt(ws_.next_layer().native_handle(), SOL_SOCKET, SO_RCVTIMEO, &limit,
                     sizeof limit);
        ws_.read_message_max(0);  // no limit: the answers here are large on purpose
        ws_.handshake("127.0.0.1", "/");
    }
    void send(const std::string& text) { ws_.write(asio::buffer(text)); }
    json receive() {
        beast::flat_buffer b;
        ws_.read(b);
        return json::parse(beast::buffers_to_string(b.data()));
    }

    websocket::stream<asio::ip::tcp::socket>& stream() { return ws_; }

  private:
    asio::io_context io_;
    websocket::stream<asio::ip::tcp::socket> ws_;
};

std::string items_request(int id, std::size_t n, std::size_t size) {
    return json{{"jsonrpc", "2.0"}, {"id", id}, {"method", "test_items"}, {"params", {n, size}}}
        .dump();
}

// The answer to items_request(id, n, size), checked item by item.
void expect_items(const json& answer, int id, std::size_t n, std::size_t size) {
    ASSERT_EQ(answer.at("id"), id) << answer.dump().substr(0, 200);
    const json& r = answer.at("result");
    ASSERT_EQ(r.size(), n);
    for (std::size_t i = 0; i < n; ++i)
        ASSERT_EQ(r[i].get<std::string>(), std::string(size, static_cast<char>('a' + i % 26)))
            << "item " << i;
}

HttpOptions ws_options(unsigned ping_seconds) {
    HttpOptions o;
    o.port = 0;
    o.threads = 1;
    o.websocket = true;
    o.ws_ping_seconds = ping_seconds;
    return o;
}

struct Server {
    Dispatcher dispatcher = make_dispatcher();
    HttpServer server;
    explicit Server(unsigned ping_seconds = 30) : server(dispatcher, ws_options(ping_seconds)) {
        auto started = server.start();
        if (!started) throw std::runtime_error(started.error());
    }
    ~Server() { server.stop(); }
};

// 40 MiB: more than the session's queue holds (16 MiB), so the answer can only go out as it is
// written; before it streamed, the session refused it and closed the connection.
TEST(WebSocket, AnAnswerLargerThanTheQueueStreamsAsFragments) {
    Server s;
    WsClient c(s.server.port());
    c.send(items_request(1, 40, 1u << 20));
    expect_items(c.receive(), 1, 40, 1u << 20);
    // The connection goes on: a small answer (queued, not streamed) and another large one.
    c.send(items_request(2, 3, 10));
    expect_items(c.receive(), 2, 3, 10);
    c.send(items_request(3, 5, 300'000));
    expect_items(c.receive(), 3, 5, 300'000);
}

// Requests sent back to back, without waiting: each answered once, whole and in order, whether
// it streams or is queued behind a write in flight.
TEST(WebSocket, RequestsSentBackToBackAreAnsweredInOrder) {
    Server s;
    WsClient c(s.server.port());
    const std::vector<std::pair<std::size_t, std::size_t>> shapes = {
        {3, 1'500'000}, {2, 5}, {1, 70'000}, {4, 600'000}, {1, 100}, {3, 1'100'000}};
    for (std::size_t i = 0; i < shapes.size(); ++i)
        c.send(items_request(static_cast<int>(i), shapes[i].first, shapes[i].second));
    for (std::size_t i = 0; i < shapes.size(); ++i)
        expect_items(c.receive(), static_cast<int>(i), shapes[i].first, shapes[i].second);
}

// A batch is answered whole (queued), as over HTTP.
TEST(WebSocket, ABatchIsAnsweredWhole) {
    Server s;
    WsClient c(s.server.port());
    c.send("[" + items_request(7, 2, 1000) + "," + items_request(8, 1, 10) + "]");
    const json a = c.receive();
    ASSERT_TRUE(a.is_array());
    ASSERT_EQ(a.size(), 2u);
    expect_items(a[0], 7, 2, 1000);
    expect_items(a[1], 8, 1, 10);
}

// A client that answers pings (Beast's client does, while it reads) is pinged when silent and
// kept: it sees two pings or more, and its connection ends only when the server stops.
TEST(WebSocket, ASilentClientThatAnswersPingsIsKept) {
    Server s(1);
    WsClient c(s.server.port());
    std::atomic<int> pings{0};
    std::atomic<bool> stopping{false};
    std::atomic<bool> ended_early{false};
    c.stream().control_callback([&](websocket::frame_type kind, beast::string_view) {
        if (kind == websocket::frame_type::ping) ++pings;
    });
    std::thread reader([&] {
        beast::flat_buffer b;
        beast::error_code ec;
        c.stream().read(b, ec);  // nothing comes but pings, answered inside the read
        if (!stopping) ended_early = true;
    });
    const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (pings < 2 && std::chrono::steady_clock::now() < give_up)
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    stopping = true;
    s.server.stop();
    reader.join();
    EXPECT_GE(pings.load(), 2);
    EXPECT_FALSE(ended_early.load()) << "the connection closed while its client answered pings";
}

// A client that answers nothing is pinged, then closed: the server's bytes are ping frames,
// then the end of the stream.
TEST(WebSocket, AClientThatAnswersNothingIsClosedAfterAPing) {
    Server s(1);
    WsClient c(s.server.port());
    const int fd = c.stream().next_layer().native_handle();
    std::string got;
    char buf[256];
    for (;;) {
        const ssize_t n = ::recv(fd, buf, sizeof buf, 0);  // 60 s at most (SO_RCVTIMEO)
        if (n <= 0) {
            EXPECT_EQ(n, 0) << "no end of stream: errno " << errno;
            break;
        }
        got.append(buf, static_cast<std::size_t>(n));
    }
    ASSERT_FALSE(got.empty());
    // Unmasked ping frames without payload: 0x89 0x00 each.
    for (std::size_t i = 0; i < got.size(); i += 2) {
        EXPECT_EQ(static_cast<unsigned char>(got[i]), 0x89) << i;
        ASSERT_LT(i + 1, got.size());
        EXPECT_EQ(got[i + 1], 0) << i;
    }
}

}  // namespace
}  // namespace keel::rpc::http_server_test
