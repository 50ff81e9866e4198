// The Listener: many peers at once, the handshake timeout, the pending-handshake cap and its
// eviction, the peer cap, and good peers completing Hello and echo while 200 hostile
// connections (silent sockets, garbage, half handshakes, abrupt closes) come and go.
// No timing assertions: waits have generous deadlines and only bound a failing test.
#include "keel/rlpx/listener.hpp"

#include "keel/rlpx/test_helpers.hpp"

#include <gtest/gtest.h>
#include <sys/socket.h>

#include <atomic>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace keel::rlpx {
namespace {

using namespace std::chrono_literals;
using test::enode_of;
using test::in;
using test::key;

/// Echoes every message back until the session ends.
void echo(Session& s) {
    for (;;) {
        auto m = s.receive(in(20000ms));
        if (!m) return;
        const Bytes copy(m->payload.begin(), m->payload.end());
        if (!s.send(m->code, copy)) return;
    }
}

/// A good peer: dial, Hello, one message echoed intact, Disconnect. "" or what went wrong.
std::string good_peer(const NodeKey& server, std::uint16_t port, std::uint8_t fill) {
    const NodeKey me = key(fill);
    auto s = Session::dial(me, enode_of(server, port));
    if (!s) return "dial: " + to_string(s.error());
    Bytes msg(1000 + fill);
    for (std::size_t i = 0; i < msg.size(); ++i) msg[i] = static_cast<std::uint8_t>(i * fill);
    if (auto r = s->send("eth", 0x06, msg); !r) return "send: " + to_string(r.error());
    auto m = s->receive(in(20000ms));
    if (!m) return "receive: " + to_string(m.error());
    if (!std::equal(m->payload.begin(), m->payload.end(), msg.begin(), msg.end()))
        return "echo differs";
    s->disconnect(DisconnectReason::requested);
    return "";
}

/// A raw TCP connection to the listener (for hostile behaviour).
Socket raw(std::uint16_t port) {
    auto s = connect_tcp("127.0.0.1", port, in(10000ms));
    EXPECT_TRUE(s.has_value());
    return s ? std::move(*s) : Socket();
}

/// Waits (bounded) until `done` holds; the bound only stops a failing test from hanging.
template <class F>
bool eventually(F done) {
    const auto end = in(30000ms);
    while (!done()) {
        if (Clock::now() > end) return false;
        std::this_thread::sleep_for(2ms);
    }
    return true;
}

ListenerOptions options(std::chrono::milliseconds handshake_timeout) {
    ListenerOptions o;
    o.session.handshake_timeout = handshake_timeout;
    return o;
}

TEST(RlpxListener, SilentSocketsDoNotShutAGoodPeerOut) {
    // The old `keel p2p listen` served one handshake at a time: three silent sockets held it
    // for three handshake timeouts. Here the timeout is long and good peers get through at once.
    const NodeKey server = key(0x41);
    auto l = Listener::start(server, options(60000ms), echo);
    ASSERT_TRUE(l.has_value()) << to_string(l.error());
    std::vector<Socket> silent;
    for (int i = 0; i < 3; ++i) silent.push_back(raw((*l)->port()));
    ASSERT_TRUE(eventually([&] { return (*l)->stats().pending == 3; }));
    std::vector<std::thread> peers;
    std::vector<std::string> errors(8);
    for (int i = 0; i < 8; ++i)
        peers.emplace_back([&, i] { errors[i] = good_peer(server, (*l)->port(), 0x50 + i); });
    for (auto& t : peers) t.join();
    for (int i = 0; i < 8; ++i) EXPECT_EQ(errors[i], "") << "peer " << i;
    EXPECT_TRUE(eventually([&] { return (*l)->stats().pending == 3; }));  // the silent ones
    EXPECT_EQ((*l)->stats().established, 8u);
    (*l)->stop();
    EXPECT_EQ((*l)->stats().peers, 0u);
}

TEST(RlpxListener, APeerThatSendsNothingIsDroppedAtTheTimeout) {
    const NodeKey server = key(0x42);
    std::mutex m;
    std::vector<std::string> refused;
    auto l = Listener::start(server, options(200ms), echo,
                             [&](const std::string& address, const SessionError& e) {
                                 const std::lock_guard<std::mutex> lock(m);
                                 refused.push_back(address + " " + to_string(e));
                             });
    ASSERT_TRUE(l.has_value());
    Socket silent = raw((*l)->port());
    // The listener hangs up: our read sees the end of the stream (not our own deadline).
    Bytes buf(16);
    auto r = read_at_least(silent, buf, 1, in(30000ms));
    ASSERT_FALSE(r.has_value());
    EXPECT_EQ(r.error().code, NetErrc::closed) << to_string(r.error());
    EXPECT_EQ((*l)->stats().timed_out, 1u);
    // A peer that stops half way through its auth packet, too.
    Socket half = raw((*l)->port());
    auto hs = Handshake::initiator(key(0x43).secret, server.id);
    ASSERT_TRUE(hs.has_value());
    auto auth = hs->make_auth();
    ASSERT_TRUE(auth.has_value());
    ASSERT_TRUE(write_all(half, BytesView(*auth).first(auth->size() / 2), in(5000ms)));
    r = read_at_least(half, buf, 1, in(30000ms));
    ASSERT_FALSE(r.has_value());
    EXPECT_EQ(r.error().code, NetErrc::closed);
    EXPECT_EQ((*l)->stats().timed_out, 2u);
    const std::lock_guard<std::mutex> lock(m);
    ASSERT_EQ(refused.size(), 2u);
    EXPECT_NE(refused[0].find("127.0.0.1:"), std::string::npos) << refused[0];
    EXPECT_NE(refused[0].find("no auth packet within the handshake timeout"), std::string::npos)
        << refused[0];
}

TEST(RlpxListener, AFullPendingTableEvictsTheLeastProgressOldestFirst) {
    const NodeKey server = key(0x44);
    ListenerOptions o = options(60000ms);
    o.max_pending = 4;
    auto l = Listener::start(server, o, echo);
    ASSERT_TRUE(l.has_value());
    std::vector<Socket> silent;
    for (int i = 0; i < 8; ++i) silent.push_back(raw((*l)->port()));
    ASSERT_TRUE(eventually([&] {
        const ListenerStats s = (*l)->stats();
        return s.accepted == 8 && s.evicted == 4 && s.pending == 4;
    }));
    // The four oldest were dropped: they read the end of the stream.
    Bytes buf(1);
    for (int i = 0; i < 4; ++i) {
        auto r = read_at_least(silent[i], buf, 1, in(30000ms));
        ASSERT_FALSE(r.has_value());
        EXPECT_EQ(r.error().code, NetErrc::closed) << i;
    }
    // A good peer still gets through, evicting one more silent socket.
    EXPECT_EQ(good_peer(server, (*l)->port(), 0x45), "");
    EXPECT_EQ((*l)->stats().evicted, 5u);
}

TEST(RlpxListener, PeersBeyondMaxPeersAreToldTooManyPeers) {
    const NodeKey server = key(0x46);
    ListenerOptions o = options(10000ms);
    o.max_peers = 1;
    auto l = Listener::start(server, o, echo);
    ASSERT_TRUE(l.has_value());
    auto first = Session::dial(key(0x47), enode_of(server, (*l)->port()));
    ASSERT_TRUE(first.has_value()) << to_string(first.error());
    ASSERT_TRUE(eventually([&] { return (*l)->stats().peers == 1; }));
    auto second = Session::dial(key(0x48), enode_of(server, (*l)->port()));
    ASSERT_TRUE(second.has_value()) << to_string(second.error());  // Hello came first
    auto told = second->receive(in(20000ms));
    ASSERT_FALSE(told.has_value());
    EXPECT_EQ(told.error().code, SessionErrc::disconnected) << to_string(told.error());
    EXPECT_EQ(told.error().reason, DisconnectReason::too_many_peers);
    EXPECT_EQ((*l)->stats().too_many_peers, 1u);
    // The first still works; once it leaves, there is room again.
    ASSERT_TRUE(first->send("eth", 0x06, Bytes(10, 7)));
    ASSERT_TRUE(first->receive(in(20000ms)).has_value());
    first->disconnect(DisconnectReason::requested);
    ASSERT_TRUE(eventually([&] { return (*l)->stats().peers == 0; }));
    EXPECT_EQ(good_peer(server, (*l)->port(), 0x49), "");
}

TEST(RlpxListener, HelloTroubleIsRefusedWithItsReason) {
    // A peer with no capability in common is told "useless peer" and reported.
    const NodeKey server = key(0x4a);
    std::mutex m;
    std::vector<std::string> refused;
    auto l = Listener::start(server, options(10000ms), echo,
                             [&](const std::string&, const SessionError& e) {
                                 const std::lock_guard<std::mutex> lock(m);
                                 refused.push_back(to_string(e));
                             });
    ASSERT_TRUE(l.has_value());
    SessionOptions snap_only;
    snap_only.protocols = {{{"snap", 1}, 8}};
    auto s = Session::dial(key(0x4b), enode_of(server, (*l)->port()), snap_only);
    ASSERT_FALSE(s.has_value());
    ASSERT_TRUE(eventually([&] { return (*l)->stats().failed == 1; }));
    const std::lock_guard<std::mutex> lock(m);
    ASSERT_EQ(refused.size(), 1u);
    EXPECT_EQ(refused[0], "no capability in common");
}

/// One hostile connection of kind `kind`; silent ones are kept in `held` (closed later).
void hostile(std::uint16_t port, const NodeKey& server, int kind, std::vector<Socket>& held) {
    Socket s = raw(port);
    if (!s.valid()) return;
    switch (kind % 6) {
        case 0:  // silent: holds the slot until the listener's timeout or our close
            held.push_back(std::move(s));
            break;
        case 1: {  // garbage
            Bytes junk(300);
            for (std::size_t i = 0; i < junk.size(); ++i)
                junk[i] = static_cast<std::uint8_t>(i * 7 + kind);
            (void)write_all(s, junk, in(5000ms));
            break;
        }
        case 2: {  // half an auth packet, then gone
            auto hs = Handshake::initiator(key(0x60).secret, server.id);
            auto auth = hs ? hs->make_auth() : Result<Bytes, HandshakeError>(Bytes(200));
            if (auth) (void)write_all(s, BytesView(*auth).first(auth->size() / 2), in(5000ms));
            break;
        }
        case 3: {  // abrupt close: a reset, not a FIN
            const linger hard{1, 0};
            ::setsockopt(s.fd(), SOL_SOCKET, SO_LINGER, &hard, sizeof hard);
            break;
        }
        case 4: {  // a whole, valid auth packet, then silence (a half handshake past auth)
            auto hs = Handshake::initiator(key(0x61).secret, server.id);
            auto auth = hs ? hs->make_auth() : Result<Bytes, HandshakeError>(Bytes(200));
            if (auth) (void)write_all(s, *auth, in(5000ms));
            held.push_back(std::move(s));
            break;
        }
        default: {  // a size prefix announcing more than a handshake may be
            const Bytes big{0xff, 0xff, 0x01, 0x02};
            (void)write_all(s, big, in(5000ms));
            break;
        }
    }
}

TEST(RlpxListener, GoodPeersAreServedWhile200HostileConnectionsComeAndGo) {
    // The crowd arrives faster than a loaded poll thread drains it, so the pending table is
    // made larger than the crowd: this test is about hostile behaviour, not about a full
    // table (AFullPendingTableEvicts... covers that, and a good peer that is evicted while
    // its auth is still on the way would be reset).
    const NodeKey server = key(0x4c);
    ListenerOptions o = options(2000ms);
    o.max_pending = 256;
    auto l = Listener::start(server, o, echo);
    ASSERT_TRUE(l.has_value());
    const std::uint16_t port = (*l)->port();
    std::vector<std::thread> crowd;
    for (int t = 0; t < 4; ++t) {
        crowd.emplace_back([&, t] {
            std::vector<Socket> held;
            for (int i = 0; i < 50; ++i) {
                hostile(port, server, t * 50 + i, held);
                if (held.size() > 6) held.erase(held.begin());  // come and go
            }
        });
    }
    std::vector<std::string> errors;
    std::mutex m;
    std::vector<std::thread> good;
    for (int t = 0; t < 2; ++t) {
        good.emplace_back([&, t] {
            for (int i = 0; i < 10; ++i) {
                auto e = good_peer(server, port, static_cast<std::uint8_t>(0x70 + t * 10 + i));
                const std::lock_guard<std::mutex> lock(m);
                errors.push_back(e);
            }
        });
    }
    for (auto& t : crowd) t.join();
    for (auto& t : good) t.join();
    ASSERT_EQ(errors.size(), 20u);
    for (std::size_t i = 0; i < errors.size(); ++i) EXPECT_EQ(errors[i], "") << "good peer " << i;
    // Still serving afterwards, and the crowd was seen.
    EXPECT_EQ(good_peer(server, port, 0x99), "");
    // Every hostile connection ended as refused, timed out or evicted; every good one as a peer.
    EXPECT_TRUE(eventually([&] {
        const ListenerStats s = (*l)->stats();
        return s.accepted == 221 && s.failed + s.timed_out + s.evicted == 200;
    })) << (*l)->stats().accepted
        << " accepted, " << (*l)->stats().failed << " failed";
    EXPECT_EQ((*l)->stats().established, 21u);
}

}  // namespace
}  // namespace keel::rlpx
