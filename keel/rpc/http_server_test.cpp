// The HTTP server's WebSocket side with a Beast client on loopback: answers that stream as
// fragments (bigger than the session's whole queue could hold), requests sent back to back
// while such an answer is written, and the connection still serving afterwards.
#include "keel/rpc/http_server.hpp"

#include <gtest/gtest.h>
#include <sys/socket.h>
#include <sys/time.h>

#include <cstddef>
#include <stdexcept>
#include <string>
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

HttpOptions ws_options() {
    HttpOptions o;
    o.port = 0;
    o.threads = 1;
    o.websocket = true;
    return o;
}

struct Server {
    Dispatcher dispatcher = make_dispatcher();
    HttpServer server{dispatcher, ws_options()};
    Server() {
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

}  // namespace
}  // namespace keel::rpc::http_server_test
