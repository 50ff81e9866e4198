// Two keel sessions over loopback: handshake, Hello, Ping/Pong, messages of many sizes both ways
// (snappy), eth/68 Status, Disconnect with a reason; and the failures: a wrong node id, a peer
// that is not RLPx, a silent peer, a closed port; capabilities multiplexed; a hand-driven p2p v4
// peer (no snappy).
#include <gtest/gtest.h>

#include <atomic>
#include <set>
#include <thread>

#include "keel/rlpx/session.hpp"
#include "keel/rlpx/test_helpers.hpp"

namespace keel::rlpx {
namespace {

using namespace std::chrono_literals;
using test::enode_of;
using test::in;
using test::key;

TEST(RlpxSession, LoopbackConversation) {
    const NodeKey a = key(0x11), b = key(0x22);
    auto listener = listen_tcp("127.0.0.1", 0);
    ASSERT_TRUE(listener.has_value());
    const std::uint16_t port = listener->local_port();

    std::vector<Bytes> sent;
    for (const std::size_t n : {0u, 1u, 100u, 1023u, 65536u, 1u << 20, 5u << 20}) {
        Bytes m(n);
        for (std::size_t i = 0; i < n; ++i) m[i] = static_cast<std::uint8_t>((i * 31) ^ (i >> 9));
        sent.push_back(std::move(m));
    }

    std::thread server([&] {
        SessionOptions o;
        o.client_id = "keel-test/b";
        auto s = Session::accept(*listener, b, in(5000ms), o);
        ASSERT_TRUE(s.has_value()) << to_string(s.error());
        EXPECT_EQ(s->peer_hello().client_id, "keel-test/a");
        EXPECT_EQ(s->peer_id(), a.id);
        // Echo every message until the peer disconnects.
        for (;;) {
            auto m = s->receive(in(10000ms));
            if (!m) {
                EXPECT_EQ(m.error().code, SessionErrc::disconnected) << to_string(m.error());
                EXPECT_EQ(m.error().reason, DisconnectReason::client_quitting);
                break;
            }
            const Bytes copy(m->payload.begin(), m->payload.end());
            ASSERT_TRUE(s->send(m->code, copy).has_value());
        }
        EXPECT_FALSE(s->open());
    });

    SessionOptions o;
    o.client_id = "keel-test/a";
    auto s = Session::dial(a, enode_of(b, port), o);
    ASSERT_TRUE(s.has_value()) << to_string(s.error());
    EXPECT_EQ(s->peer_hello().client_id, "keel-test/b");
    EXPECT_EQ(s->peer_hello().protocol_version, 5u);
    ASSERT_EQ(s->peer_hello().capabilities.size(), 1u);
    EXPECT_EQ(s->peer_hello().capabilities[0].name, "eth");
    auto rtt = s->ping(in(5000ms));
    ASSERT_TRUE(rtt.has_value()) << to_string(rtt.error());

    Status status;
    status.network_id = 1;
    status.total_difficulty = Uint256(17);
    status.head.bytes[0] = 0xaa;
    status.genesis.bytes[31] = 0xbb;
    Bytes st;
    encode_status(status, st);
    ASSERT_TRUE(s->send("eth", kEthStatusCode, st).has_value());
    auto back = s->receive(in(5000ms));
    ASSERT_TRUE(back.has_value()) << to_string(back.error());
    EXPECT_EQ(back->code, kBaseProtocolLength + kEthStatusCode);
    ASSERT_NE(back->capability, nullptr);
    EXPECT_EQ(back->capability->capability, (Capability{"eth", kEthVersion}));
    EXPECT_EQ(back->message, kEthStatusCode);
    auto decoded = decode_status(back->payload);
    ASSERT_TRUE(decoded.has_value());
    EXPECT_EQ(*decoded, status);

    for (std::size_t i = 0; i < sent.size(); ++i) {
        ASSERT_TRUE(s->send(0x10 + 0x06, sent[i]).has_value()) << i;
        auto m = s->receive(in(10000ms));
        ASSERT_TRUE(m.has_value()) << to_string(m.error());
        EXPECT_EQ(m->code, 0x16u);
        EXPECT_TRUE(
            std::equal(m->payload.begin(), m->payload.end(), sent[i].begin(), sent[i].end()))
            << "message " << i;
    }
    // A batch in one write, and pings interleaved with the echoes.
    const std::pair<std::uint64_t, BytesView> batch[] = {{0x11, sent[2]}, {0x12, sent[3]}};
    ASSERT_TRUE(s->send_batch(batch).has_value());
    ASSERT_TRUE(s->ping(in(5000ms)).has_value());
    for (const auto& [code, payload] : batch) {
        auto m = s->receive(in(5000ms));
        ASSERT_TRUE(m.has_value());
        EXPECT_EQ(m->code, code);
        EXPECT_EQ(m->payload.size(), payload.size());
    }
    EXPECT_GE(s->frames_sent(), 12u);
    s->disconnect(DisconnectReason::client_quitting);
    EXPECT_FALSE(s->open());
    EXPECT_EQ(s->send(0x10, {}).error().code, SessionErrc::closed);
    server.join();
}

TEST(RlpxSession, MessagesByCapabilityAndCode) {
    // The server runs eth/67, eth/68 and snap/1; the client eth/68, snap/1 and foo/1. Shared:
    // eth/68 at 0x10..0x20, snap/1 at 0x21..0x28.
    const NodeKey a = key(0x66), b = key(0x77);
    auto listener = listen_tcp("127.0.0.1", 0);
    ASSERT_TRUE(listener.has_value());
    const Bytes body{1, 2, 3};
    std::thread server([&] {
        SessionOptions o;
        o.protocols = {{{"eth", 67}, 17}, {{"eth", 68}, 17}, {{"snap", 1}, 8}};
        auto s = Session::accept(*listener, b, in(5000ms), o);
        ASSERT_TRUE(s.has_value()) << to_string(s.error());
        ASSERT_EQ(s->shared_capabilities().size(), 2U);
        // The base protocol code 0x05 the client sends first is skipped.
        auto m = s->receive(in(5000ms));
        ASSERT_TRUE(m.has_value()) << to_string(m.error());
        EXPECT_EQ(m->code, 0x28U);
        ASSERT_NE(m->capability, nullptr);
        EXPECT_EQ(m->capability->capability.name, "snap");
        EXPECT_EQ(m->message, 7U);
        EXPECT_EQ(Bytes(m->payload.begin(), m->payload.end()), body);
        m = s->receive(in(5000ms));
        ASSERT_TRUE(m.has_value()) << to_string(m.error());
        EXPECT_EQ(m->capability->capability, (Capability{"eth", 68}));
        EXPECT_EQ(m->message, 0x10U);
        // A code in no shared capability: breach of protocol.
        m = s->receive(in(5000ms));
        ASSERT_FALSE(m.has_value());
        EXPECT_EQ(m.error().code, SessionErrc::protocol);
        EXPECT_EQ(to_string(m.error()), "message code 0x29 belongs to no shared capability");
    });
    SessionOptions o;
    o.protocols = {{{"eth", 68}, 17}, {{"snap", 1}, 8}, {{"foo", 1}, 3}};
    auto s = Session::dial(a, enode_of(b, listener->local_port()), o);
    ASSERT_TRUE(s.has_value()) << to_string(s.error());
    const auto& shared = s->shared_capabilities();
    ASSERT_EQ(shared.size(), 2U);
    EXPECT_EQ(shared[0].capability, (Capability{"eth", 68}));
    EXPECT_EQ(shared[1].offset, 0x21U);
    EXPECT_EQ(s->wire_code("snap", 7).value(), 0x28U);
    const auto outside = s->send("snap", 8, body);
    ASSERT_FALSE(outside.has_value());
    EXPECT_EQ(outside.error().code, SessionErrc::capability);
    EXPECT_EQ(to_string(outside.error()), "message code 0x8 is outside snap/1's 8 codes");
    const auto foo = s->send("foo", 0, body);
    ASSERT_FALSE(foo.has_value());
    EXPECT_EQ(to_string(foo.error()), "capability foo is not shared with this peer");
    EXPECT_TRUE(s->open());  // refused sends leave the session as it was
    ASSERT_TRUE(s->send(0x05, body).has_value());
    ASSERT_TRUE(s->send("snap", 7, body).has_value());
    ASSERT_TRUE(s->send("eth", 0x10, body).has_value());
    ASSERT_TRUE(s->send(0x29, body).has_value());
    auto end = s->receive(in(5000ms));
    ASSERT_FALSE(end.has_value());
    EXPECT_EQ(end.error().code, SessionErrc::disconnected);
    EXPECT_EQ(end.error().reason, DisconnectReason::breach_of_protocol);
    server.join();
}

TEST(RlpxSession, FullDuplexAcrossThreads) {
    // The client reads in one thread while another sends 64 messages of 256 KiB; the server
    // echoes each and pings the client every 8 messages, so Pongs are owed while the sender
    // holds the write lock. Then a third thread's disconnect() wakes the blocked reader.
    const NodeKey a = key(0xaa), b = key(0xbb);
    auto listener = listen_tcp("127.0.0.1", 0);
    ASSERT_TRUE(listener.has_value());
    constexpr int kMessages = 64;
    std::atomic<int> pongs{0};
    std::thread server([&] {
        auto s = Session::accept(*listener, b, in(5000ms));
        ASSERT_TRUE(s.has_value()) << to_string(s.error());
        for (int i = 0; i < kMessages; ++i) {
            auto m = s->receive(in(10000ms));
            ASSERT_TRUE(m.has_value()) << to_string(m.error());
            const Bytes copy(m->payload.begin(), m->payload.end());
            ASSERT_TRUE(s->send(m->code, copy).has_value());
            if (i % 8 == 7) {
                ASSERT_TRUE(s->ping(in(10000ms)).has_value());
                ++pongs;
            }
        }
        auto end = s->receive(in(10000ms));
        ASSERT_FALSE(end.has_value());
        EXPECT_EQ(end.error().reason, DisconnectReason::client_quitting);
    });
    auto s = Session::dial(a, enode_of(b, listener->local_port()));
    ASSERT_TRUE(s.has_value()) << to_string(s.error());
    std::vector<Bytes> sent;
    for (int i = 0; i < kMessages; ++i) sent.emplace_back(256 << 10, static_cast<std::uint8_t>(i));
    std::thread sender([&] {
        for (int i = 0; i < kMessages; ++i)
            ASSERT_TRUE(s->send("eth", 0x06, sent[i]).has_value()) << i;
    });
    int echoed = 0;
    for (; echoed < kMessages; ++echoed) {
        auto m = s->receive(in(10000ms));
        ASSERT_TRUE(m.has_value()) << to_string(m.error());
        ASSERT_EQ(m->payload.size(), sent[echoed].size());
        ASSERT_TRUE(std::equal(m->payload.begin(), m->payload.end(), sent[echoed].begin()))
            << "message " << echoed;
    }
    sender.join();
    // The reader blocks with a long deadline; another thread's disconnect() wakes it.
    std::thread closer([&] {
        std::this_thread::sleep_for(50ms);
        s->disconnect(DisconnectReason::client_quitting);
    });
    auto woken = s->receive(in(30000ms));
    closer.join();
    ASSERT_FALSE(woken.has_value());
    EXPECT_EQ(woken.error().code, SessionErrc::closed) << to_string(woken.error());  // not timeout
    EXPECT_FALSE(s->open());
    server.join();
    EXPECT_EQ(pongs.load(), kMessages / 8);
}

TEST(RlpxSession, DisconnectFromAnotherThreadWinsOverThePeersClose) {
    // The race behind a flaky FullDuplexAcrossThreads: a thread calls disconnect() while the
    // reader is blocked in receive(); the peer answers the Disconnect by closing at once, and
    // the reader may see that close before disconnect() has marked the session closed. Once
    // disconnect() was called the reader must report `closed`, whatever the peer did. Many
    // rounds, so that the narrow window is hit often on a loaded machine.
    const NodeKey a = key(0x31), b = key(0x32);
    auto listener = listen_tcp("127.0.0.1", 0);
    ASSERT_TRUE(listener.has_value());
    constexpr int kRounds = 40;
    std::thread server([&] {
        for (int i = 0; i < kRounds; ++i) {
            auto s = Session::accept(*listener, b, in(10000ms));
            ASSERT_TRUE(s.has_value()) << to_string(s.error());
            auto end = s->receive(in(10000ms));  // the peer's Disconnect; then close at once
            ASSERT_FALSE(end.has_value());
        }
    });
    for (int i = 0; i < kRounds; ++i) {
        auto s = Session::dial(a, enode_of(b, listener->local_port()));
        ASSERT_TRUE(s.has_value()) << to_string(s.error());
        std::thread closer([&] { s->disconnect(DisconnectReason::client_quitting); });
        auto woken = s->receive(in(30000ms));
        closer.join();
        ASSERT_FALSE(woken.has_value());
        ASSERT_EQ(woken.error().code, SessionErrc::closed)
            << "round " << i << ": " << to_string(woken.error());
        // And later calls say the same.
        auto later = s->receive(in(1000ms));
        ASSERT_FALSE(later.has_value());
        EXPECT_EQ(later.error().code, SessionErrc::closed);
        EXPECT_EQ(s->send("eth", 0x06, Bytes(3)).error().code, SessionErrc::closed);
    }
    server.join();
}

/// Reads one whole frame from `s` (header, then body) with `reader`.
Frame read_frame(const Socket& s, FrameReader& reader, Bytes& buf) {
    Bytes header(kFrameHeaderSize);
    EXPECT_TRUE(read_at_least(s, header, header.size(), in(5000ms)).has_value());
    EXPECT_TRUE(reader.read_header(header).has_value());
    buf.assign(reader.needed(), 0);
    EXPECT_TRUE(read_at_least(s, buf, buf.size(), in(5000ms)).has_value());
    auto frame = reader.read_body(buf);
    EXPECT_TRUE(frame.has_value());
    return frame ? *frame : Frame{};
}

TEST(RlpxSession, P2pVersion4PeerWithoutSnappy) {
    // A peer driven by hand that says p2p v4 in its Hello: neither side compresses, and its
    // capability messages after Hello are delivered (not refused as "before Hello").
    const NodeKey a = key(0x88), b = key(0x99);
    auto listener = listen_tcp("127.0.0.1", 0);
    ASSERT_TRUE(listener.has_value());
    const Bytes body{0xc3, 0x01, 0x02, 0x03};
    std::thread server([&] {
        auto s = Session::accept(*listener, b, in(5000ms));
        ASSERT_TRUE(s.has_value()) << to_string(s.error());
        EXPECT_EQ(s->peer_hello().protocol_version, 4U);
        auto m = s->receive(in(5000ms));
        ASSERT_TRUE(m.has_value()) << to_string(m.error());
        EXPECT_EQ(m->code, 0x16U);
        EXPECT_EQ(Bytes(m->payload.begin(), m->payload.end()), body);
        ASSERT_TRUE(s->send("eth", 0x06, body).has_value());
        auto end = s->receive(in(5000ms));
        ASSERT_FALSE(end.has_value());
        EXPECT_EQ(end.error().reason, DisconnectReason::client_quitting);
    });
    auto sock = connect_tcp("127.0.0.1", listener->local_port(), in(5000ms));
    ASSERT_TRUE(sock.has_value());
    auto hs = Handshake::initiator(a.secret, b.id);
    ASSERT_TRUE(hs.has_value());
    ASSERT_TRUE(write_all(*sock, *hs->make_auth(), in(5000ms)).has_value());
    Bytes prefix(2);
    ASSERT_TRUE(read_at_least(*sock, prefix, 2, in(5000ms)).has_value());
    const auto ack_size = handshake_packet_size(prefix);
    ASSERT_TRUE(ack_size.has_value());
    Bytes ack(*ack_size);
    std::copy(prefix.begin(), prefix.end(), ack.begin());
    ASSERT_TRUE(read_at_least(*sock, MutableBytesView(ack).subspan(2), ack.size() - 2, in(5000ms))
                    .has_value());
    ASSERT_TRUE(hs->read_ack(ack).has_value());
    const Secrets secrets = hs->secrets();
    FrameWriter writer(secrets.aes, secrets.mac, secrets.egress_mac);
    FrameReader reader(secrets.aes, secrets.mac, secrets.ingress_mac);

    Hello hello;
    hello.protocol_version = 4;
    hello.client_id = "v4-peer";
    hello.capabilities = {{"eth", kEthVersion}};
    hello.node_id = a.id;
    Bytes payload, out;
    encode_hello(hello, payload);
    ASSERT_TRUE(writer.write(kHelloCode, payload, out).has_value());
    ASSERT_TRUE(writer.write(0x16, body, out).has_value());  // eth BlockBodies, uncompressed
    ASSERT_TRUE(write_all(*sock, out, in(5000ms)).has_value());
    Bytes buf;
    const Frame their_hello = read_frame(*sock, reader, buf);
    EXPECT_EQ(their_hello.code, kHelloCode);
    const Frame echo = read_frame(*sock, reader, buf);
    EXPECT_EQ(echo.code, 0x16U);
    EXPECT_EQ(Bytes(echo.payload.begin(), echo.payload.end()), body);  // not snappy
    payload.clear();
    out.clear();
    encode_disconnect(DisconnectReason::client_quitting, payload);
    ASSERT_TRUE(writer.write(kDisconnectCode, payload, out).has_value());
    ASSERT_TRUE(write_all(*sock, out, in(5000ms)).has_value());
    server.join();
}

TEST(RlpxSession, Failures) {
    const NodeKey a = key(0x33), b = key(0x44), c = key(0x55);
    {
        // Dialling b's listener with c's id: b cannot open the auth packet and hangs up.
        auto listener = listen_tcp("127.0.0.1", 0);
        ASSERT_TRUE(listener.has_value());
        std::thread server([&] {
            auto s = Session::accept(*listener, b, in(5000ms));
            ASSERT_FALSE(s.has_value());
            EXPECT_EQ(s.error().code, SessionErrc::handshake) << to_string(s.error());
        });
        SessionOptions o;
        o.handshake_timeout = 3000ms;
        auto s = Session::dial(a, enode_of(c, listener->local_port()), o);
        ASSERT_FALSE(s.has_value());
        EXPECT_TRUE(s.error().code == SessionErrc::network ||
                    s.error().code == SessionErrc::timeout)
            << to_string(s.error());
        server.join();
    }
    {
        // A peer that is not RLPx: it writes text.
        auto listener = listen_tcp("127.0.0.1", 0);
        ASSERT_TRUE(listener.has_value());
        std::thread server([&] {
            auto sock = accept_tcp(*listener, in(5000ms));
            ASSERT_TRUE(sock.has_value());
            const std::string text = "HTTP/1.1 400 Bad Request\r\n\r\n";
            (void)write_all(
                *sock, BytesView(reinterpret_cast<const std::uint8_t*>(text.data()), text.size()),
                in(1000ms));
            std::this_thread::sleep_for(200ms);
        });
        auto s = Session::dial(a, enode_of(b, listener->local_port()));
        ASSERT_FALSE(s.has_value());
        EXPECT_EQ(s.error().code, SessionErrc::handshake) << to_string(s.error());
        server.join();
    }
    {
        // A silent peer: the handshake times out.
        auto listener = listen_tcp("127.0.0.1", 0);
        ASSERT_TRUE(listener.has_value());
        SessionOptions o;
        o.handshake_timeout = 200ms;
        auto s = Session::dial(a, enode_of(b, listener->local_port()), o);
        ASSERT_FALSE(s.has_value());
        EXPECT_EQ(s.error().code, SessionErrc::timeout) << to_string(s.error());
        // Nobody dials: accept times out.
        auto acc = Session::accept(*listener, b, in(100ms));
        ASSERT_FALSE(acc.has_value());
    }
    {
        // A closed port.
        std::uint16_t port;
        {
            auto listener = listen_tcp("127.0.0.1", 0);
            ASSERT_TRUE(listener.has_value());
            port = listener->local_port();
        }
        auto s = Session::dial(a, enode_of(b, port));
        ASSERT_FALSE(s.has_value());
        EXPECT_EQ(s.error().code, SessionErrc::network);
        EXPECT_NE(to_string(s.error()).find("refused"), std::string::npos) << to_string(s.error());
    }
}

TEST(RlpxSession, KeepAlivePingAndPingTimeout) {
    const NodeKey a = key(0x66), b = key(0x77);
    auto listener = listen_tcp("127.0.0.1", 0);
    ASSERT_TRUE(listener.has_value());
    SessionOptions fast;
    fast.ping_interval = 100ms;
    fast.pong_timeout = 300ms;
    std::atomic<bool> answer{true};
    std::atomic<bool> b_done{false};
    std::thread server([&] {
        auto s = Session::accept(*listener, b, in(5000ms));
        ASSERT_TRUE(s.has_value()) << to_string(s.error());
        // While answering, receive() answers the keep-alive Pings; then it stops reading, and
        // finally reads the Disconnect the other side sent for the missing Pong.
        auto m = s->receive(in(5000ms));
        ASSERT_TRUE(m.has_value()) << to_string(m.error());
        EXPECT_EQ(m->code, 0x11u);
        while (answer) std::this_thread::sleep_for(10ms);
        std::this_thread::sleep_for(600ms);
        auto end = s->receive(in(5000ms));
        ASSERT_FALSE(end.has_value());
        EXPECT_EQ(end.error().code, SessionErrc::disconnected) << to_string(end.error());
        EXPECT_EQ(end.error().reason, DisconnectReason::ping_timeout);
        b_done = true;
    });
    auto s = Session::dial(a, enode_of(b, listener->local_port()), fast);
    ASSERT_TRUE(s.has_value()) << to_string(s.error());
    // Quiet for 3 intervals while the peer answers: pings go out and Pongs come back, and the
    // caller's own deadline is what ends the wait.
    auto quiet = s->receive(in(350ms));
    ASSERT_FALSE(quiet.has_value());
    EXPECT_EQ(quiet.error().code, SessionErrc::timeout);
    EXPECT_TRUE(s->open());
    EXPECT_GE(s->frames_sent(), 3u);  // Hello and at least two keep-alive Pings
    // The peer stops answering (it is not reading): the next Ping goes unanswered.
    ASSERT_TRUE(s->send(0x11, {}).has_value());
    answer = false;
    auto dead = s->receive(in(5000ms));
    ASSERT_FALSE(dead.has_value());
    EXPECT_EQ(dead.error().code, SessionErrc::timeout);
    EXPECT_NE(to_string(dead.error()).find("no Pong"), std::string::npos)
        << to_string(dead.error());
    EXPECT_FALSE(s->open());
    server.join();
    EXPECT_TRUE(b_done);
}

TEST(RlpxSession, EveryErrorCodeHasItsOwnPhrase) {
    // The house shape (docs/errors.md): each code a describe(); the one line falls back to it.
    std::set<std::string_view> seen;
    for (int c = 0; c <= static_cast<int>(SessionErrc::busy); ++c) {
        const std::string_view d = describe(static_cast<SessionErrc>(c));
        EXPECT_FALSE(d.empty());
        EXPECT_NE(d, "session error") << c;
        EXPECT_TRUE(seen.insert(d).second) << d;
    }
    std::set<std::string_view> net;
    for (int c = 0; c <= static_cast<int>(NetErrc::io); ++c)
        EXPECT_TRUE(net.insert(describe(static_cast<NetErrc>(c))).second) << c;
    EXPECT_EQ(to_string(SessionError{SessionErrc::busy, "", {}}), "no room for the peer");
    EXPECT_EQ(to_string(NetError{NetErrc::closed, 0}), "peer closed the connection");
}

}  // namespace
}  // namespace keel::rlpx
