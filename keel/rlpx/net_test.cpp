// TCP helpers over loopback: connect/accept, exact transfers, timeouts, refused connections and
// a closed peer, each with its error.
#include <gtest/gtest.h>

#include <thread>

#include "keel/rlpx/net.hpp"

namespace keel::rlpx {
namespace {

using namespace std::chrono_literals;

Deadline in(std::chrono::milliseconds ms) {
    return Clock::now() + ms;
}

TEST(RlpxNet, LoopbackTransferAndClose) {
    auto listener = listen_tcp("127.0.0.1", 0);
    ASSERT_TRUE(listener.has_value()) << to_string(listener.error());
    const std::uint16_t port = listener->local_port();
    ASSERT_NE(port, 0);
    Bytes sent(1 << 20);
    for (std::size_t i = 0; i < sent.size(); ++i) sent[i] = static_cast<std::uint8_t>(i * 7);
    std::thread client([&] {
        auto c = connect_tcp("127.0.0.1", port, in(5000ms));
        ASSERT_TRUE(c.has_value()) << to_string(c.error());
        ASSERT_TRUE(write_all(*c, sent, in(5000ms)).has_value());
    });
    auto server = accept_tcp(*listener, in(5000ms));
    ASSERT_TRUE(server.has_value()) << to_string(server.error());
    EXPECT_NE(server->peer_address().find("127.0.0.1:"), std::string::npos);
    Bytes got(sent.size());
    auto n = read_at_least(*server, got, got.size(), in(5000ms));
    ASSERT_TRUE(n.has_value()) << to_string(n.error());
    EXPECT_EQ(*n, got.size());
    EXPECT_EQ(got, sent);
    client.join();
    // The client has gone: the next read says so.
    Bytes more(16);
    auto closed = read_at_least(*server, more, 1, in(5000ms));
    ASSERT_FALSE(closed.has_value());
    EXPECT_EQ(closed.error().code, NetErrc::closed);
}

TEST(RlpxNet, TimeoutsAndRefusals) {
    auto listener = listen_tcp("127.0.0.1", 0);
    ASSERT_TRUE(listener.has_value());
    // Nobody connects.
    auto a = accept_tcp(*listener, in(50ms));
    ASSERT_FALSE(a.has_value());
    EXPECT_EQ(a.error().code, NetErrc::timeout);
    // Connected, but nothing arrives.
    auto c = connect_tcp("127.0.0.1", listener->local_port(), in(5000ms));
    ASSERT_TRUE(c.has_value());
    auto s = accept_tcp(*listener, in(5000ms));
    ASSERT_TRUE(s.has_value());
    Bytes buf(8);
    auto r = read_at_least(*s, buf, 1, in(50ms));
    ASSERT_FALSE(r.has_value());
    EXPECT_EQ(r.error().code, NetErrc::timeout);
    EXPECT_EQ(to_string(r.error()), "timed out");
    // A closed port refuses.
    const std::uint16_t port = listener->local_port();
    listener->close();
    auto refused = connect_tcp("127.0.0.1", port, in(5000ms));
    ASSERT_FALSE(refused.has_value());
    EXPECT_EQ(refused.error().code, NetErrc::refused);
    EXPECT_NE(to_string(refused.error()).find("refused"), std::string::npos);
    auto unresolved = connect_tcp("no-such-host.invalid", 1, in(5000ms));
    ASSERT_FALSE(unresolved.has_value());
    EXPECT_EQ(unresolved.error().code, NetErrc::resolve_failed);
}

}  // namespace
}  // namespace keel::rlpx
