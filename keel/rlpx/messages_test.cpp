// Tests for keel/rlpx/messages: the EIP-8 Hello, the vectors' Hello/Status/Disconnect/Ping
// payloads, round trips, and a table of bad payloads naming the field at fault.
#include "keel/rlpx/messages.hpp"
#include "keel/rlpx/test_helpers.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <ostream>
#include <string>

#include "keel/common/hex.hpp"
#include "test/testutil/hex.hpp"
#include "test/testutil/vectors.hpp"

namespace keel::rlpx {

void PrintTo(const MessageError& e, std::ostream* os) {
    *os << to_string(e);
}

namespace {

using test::frames_vector;
using testutil::from_hex;

// The payload of the vector frame whose note starts with `note` and goes `dir`.
Bytes vector_payload(const nlohmann::json& v, std::string_view dir, std::string_view note) {
    for (const auto& f : v["frames"])
        if (f["dir"].get<std::string>() == dir && f["note"].get<std::string>().starts_with(note))
            return from_hex(f["payload"].get<std::string>());
    ADD_FAILURE() << "no frame " << dir << " " << note;
    return {};
}

TEST(RlpxMessages, HelloEip8ExtraElementsAccepted) {
    const auto v = testutil::load_json(testutil::vectors_dir("rlpx") / "hello_eip8.json");
    const Bytes payload = from_hex(v["payload"].get<std::string>());
    const auto& x = v["expected"];
    auto h = decode_hello(payload);
    ASSERT_TRUE(h) << to_string(h.error());
    EXPECT_EQ(h->protocol_version, x["protocol_version"].get<std::uint64_t>());
    EXPECT_EQ(h->protocol_version, 55u);
    EXPECT_EQ(h->client_id, x["client_id"].get<std::string>());
    ASSERT_EQ(h->capabilities.size(), x["capabilities"].size());
    for (std::size_t i = 0; i < h->capabilities.size(); ++i) {
        EXPECT_EQ(h->capabilities[i].name, x["capabilities"][i][0].get<std::string>());
        EXPECT_EQ(h->capabilities[i].version, x["capabilities"][i][1].get<std::uint64_t>());
    }
    EXPECT_EQ(h->listen_port, x["listen_port"].get<std::uint64_t>());
    EXPECT_EQ(hex::encode(h->node_id.view()), x["node_id"].get<std::string>());
    // The extra elements are there (and ignored): dropping them re-encodes to a prefix.
    ASSERT_EQ(x["extra_elements_rlp"].size(), 3u);
    Bytes again;
    encode_hello(*h, again);
    std::string extras;
    for (const auto& e : x["extra_elements_rlp"]) extras += e.get<std::string>();
    const std::string body = hex::encode(payload).substr(4);  // f871: a 2-byte list header
    EXPECT_EQ(hex::encode(again).substr(4), body.substr(0, body.size() - extras.size()));
}

TEST(RlpxMessages, VectorHelloStatusDisconnectPing) {
    const auto v = frames_vector();
    for (const char* dir : {"B->A", "A->B"}) {
        SCOPED_TRACE(dir);
        const Bytes payload = vector_payload(v, dir, "Hello");
        auto h = decode_hello(payload);
        ASSERT_TRUE(h) << to_string(h.error());
        EXPECT_EQ(h->protocol_version, kP2pVersion);
        EXPECT_EQ(h->client_id, std::string("keel-vector/") + (dir[0] == 'B' ? "B" : "A"));
        ASSERT_EQ(h->capabilities.size(), 1u);
        EXPECT_EQ(h->capabilities[0], (Capability{"eth", 68}));
        EXPECT_EQ(h->listen_port, 0u);
        Bytes out;
        encode_hello(*h, out);
        EXPECT_EQ(hex::encode(out), hex::encode(payload));

        const Bytes status_payload = vector_payload(v, dir, "eth/68 Status");
        auto s = decode_status(status_payload);
        ASSERT_TRUE(s) << to_string(s.error());
        EXPECT_EQ(s->version, kEthVersion);
        EXPECT_EQ(s->network_id, 1u);
        EXPECT_EQ(s->total_difficulty, testutil::uint256_from_string("0x0c70d815d562d3cfa955"));
        EXPECT_EQ(testutil::hex_of(s->genesis),
                  "d4e56740f876aef8c010b86a40d5f56745a118d0906a34e69aec8c0db1cb8fa3");
        EXPECT_EQ(s->head, s->genesis);
        EXPECT_EQ(hex::encode(s->fork_id.hash.view()), "c376cf8b");
        EXPECT_EQ(s->fork_id.next, 0x6930b057u);
        out.clear();
        encode_status(*s, out);
        EXPECT_EQ(hex::encode(out), hex::encode(status_payload));
    }
    auto reason = decode_disconnect(vector_payload(v, "A->B", "Disconnect"));
    ASSERT_TRUE(reason);
    EXPECT_EQ(*reason, DisconnectReason::client_quitting);
    EXPECT_TRUE(decode_ping(vector_payload(v, "B->A", "Ping")));
    EXPECT_TRUE(decode_pong(vector_payload(v, "A->B", "Pong")));
    // The first eth message sits right after the base protocol's 16 codes.
    for (const auto& f : v["frames"])
        if (f["note"].get<std::string>().starts_with("eth/68 Status")) {
            EXPECT_EQ(f["code"].get<std::uint64_t>(), kBaseProtocolLength + kEthStatusCode);
        }
}

TEST(RlpxMessages, RoundTrips) {
    Hello h;
    h.client_id = std::string(300, 'k');  // long string header
    for (int i = 0; i < 20; ++i) h.capabilities.push_back({"cap" + std::to_string(i), 1000u + i});
    h.listen_port = 30303;
    for (std::size_t i = 0; i < 64; ++i) h.node_id[i] = static_cast<std::uint8_t>(i);
    Bytes out;
    encode_hello(h, out);
    auto back = decode_hello(out);
    ASSERT_TRUE(back) << to_string(back.error());
    EXPECT_EQ(*back, h);
    h.capabilities.clear();
    out.clear();
    encode_hello(h, out);
    back = decode_hello(out);
    ASSERT_TRUE(back);
    EXPECT_EQ(*back, h);

    for (int r = 0; r <= 0x10; ++r) {
        if (r > 0x0b && r < 0x10) continue;
        const auto reason = static_cast<DisconnectReason>(r);
        out.clear();
        encode_disconnect(reason, out);
        auto d = decode_disconnect(out);
        ASSERT_TRUE(d);
        EXPECT_EQ(*d, reason);
    }
    out.clear();
    encode_disconnect(DisconnectReason::requested, out);
    EXPECT_EQ(hex::encode(out), "c180");

    out.clear();
    encode_ping(out);
    encode_pong(out);
    EXPECT_EQ(hex::encode(out), "c0c0");

    Status s;
    s.network_id = 0xaa36a7;
    s.total_difficulty = testutil::uint256_from_string(
        "0xffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff");
    s.head[0] = 1;
    s.genesis[31] = 2;
    s.fork_id = {{{0xde, 0xad, 0xbe, 0xef}}, 0};
    out.clear();
    encode_status(s, out);
    auto sb = decode_status(out);
    ASSERT_TRUE(sb) << to_string(sb.error());
    EXPECT_EQ(*sb, s);
    // Encoders append.
    Bytes two = from_hex("ff");
    encode_ping(two);
    EXPECT_EQ(hex::encode(two), "ffc0");
}

TEST(RlpxMessages, DisconnectForms) {
    struct Case {
        const char* hex;
        DisconnectReason reason;
    } good[] = {
        {"c108", DisconnectReason::client_quitting},
        {"08", DisconnectReason::client_quitting},  // bare integer (older clients)
        {"c0", DisconnectReason::requested},        // empty list
        {"c180", DisconnectReason::requested},
        {"c21003", DisconnectReason::subprotocol_specific},  // extra element ignored
        {"c120", static_cast<DisconnectReason>(0x20)},       // unknown reason kept
    };
    for (const auto& c : good) {
        auto r = decode_disconnect(from_hex(c.hex));
        ASSERT_TRUE(r) << c.hex << ": " << to_string(r.error());
        EXPECT_EQ(*r, c.reason) << c.hex;
    }
    EXPECT_EQ(describe(DisconnectReason::requested), "requested");
    EXPECT_EQ(describe(DisconnectReason::tcp_error), "tcp error");
    EXPECT_EQ(describe(DisconnectReason::breach_of_protocol), "breach of protocol");
    EXPECT_EQ(describe(DisconnectReason::useless_peer), "useless peer");
    EXPECT_EQ(describe(DisconnectReason::too_many_peers), "too many peers");
    EXPECT_EQ(describe(DisconnectReason::already_connected), "already connected");
    EXPECT_EQ(describe(DisconnectReason::incompatible_p2p_version), "incompatible p2p version");
    EXPECT_EQ(describe(DisconnectReason::null_node_identity), "null node identity");
    EXPECT_EQ(describe(DisconnectReason::client_quitting), "client quitting");
    EXPECT_EQ(describe(DisconnectReason::unexpected_identity), "unexpected identity");
    EXPECT_EQ(describe(DisconnectReason::connected_to_self), "connected to self");
    EXPECT_EQ(describe(DisconnectReason::ping_timeout), "ping timeout");
    EXPECT_EQ(describe(DisconnectReason::subprotocol_specific), "subprotocol specific");
    EXPECT_EQ(static_cast<int>(DisconnectReason::subprotocol_specific), 0x10);
    EXPECT_EQ(describe(static_cast<DisconnectReason>(0x20)), "unknown reason");
}

// A Hello built from hex parts: [version, client, caps, port, node id, ...].
std::string hello_hex(std::string_view version, std::string_view client, std::string_view caps,
                      std::string_view port, std::string_view node_id,
                      std::string_view extra = "") {
    const std::string body = std::string(version) + std::string(client) + std::string(caps) +
                             std::string(port) + std::string(node_id) + std::string(extra);
    const std::size_t n = body.size() / 2;
    std::string header;
    if (n < 56) {
        header = hex::encode(Bytes{static_cast<std::uint8_t>(0xc0 + n)});
    } else if (n < 256) {
        header = "f8" + hex::encode(Bytes{static_cast<std::uint8_t>(n)});
    } else {
        header = "f9" + hex::encode(
                            Bytes{static_cast<std::uint8_t>(n >> 8), static_cast<std::uint8_t>(n)});
    }
    return header + body;
}

const std::string kNodeId = "b840" + std::string(128, 'a');

struct BadMessage {
    std::string hex;
    MessageErrc code;
    MessageField field;
    rlp::Errc rlp = rlp::Errc::empty_input;  // checked when code == rlp
};

TEST(RlpxMessages, BadHellos) {
    const std::string good_caps = "c6c58365746844";  // [[eth, 68]]
    const BadMessage cases[] = {
        {"", MessageErrc::rlp, MessageField::hello, rlp::Errc::empty_input},
        {"80", MessageErrc::rlp, MessageField::hello, rlp::Errc::expected_list},
        {hello_hex("05", "80", good_caps, "80", kNodeId) + "00", MessageErrc::rlp,
         MessageField::hello, rlp::Errc::trailing_bytes},
        {"c0", MessageErrc::missing_field, MessageField::hello_protocol_version},
        {hello_hex("00", "80", good_caps, "80", kNodeId), MessageErrc::rlp,
         MessageField::hello_protocol_version, rlp::Errc::leading_zero_in_integer},
        {hello_hex("89010000000000000000", "80", good_caps, "80", kNodeId), MessageErrc::rlp,
         MessageField::hello_protocol_version, rlp::Errc::integer_overflow},
        {hello_hex("05", "c0", good_caps, "80", kNodeId), MessageErrc::rlp,
         MessageField::hello_client_id, rlp::Errc::expected_string},
        {hello_hex("05", "80", "80", "80", kNodeId), MessageErrc::rlp,
         MessageField::hello_capabilities, rlp::Errc::expected_list},
        {hello_hex("05", "80", "c28080", "80", kNodeId), MessageErrc::rlp,
         MessageField::hello_capability, rlp::Errc::expected_list},
        {hello_hex("05", "80", "c2c180", "80", kNodeId), MessageErrc::missing_field,
         MessageField::hello_capability_version},
        {hello_hex("05", "80", "c1c0", "80", kNodeId), MessageErrc::missing_field,
         MessageField::hello_capability_name},
        {hello_hex("05", "80", "c3c2c080", "80", kNodeId), MessageErrc::rlp,
         MessageField::hello_capability_name, rlp::Errc::expected_string},
        {hello_hex("05", "80", "c3c28000", "80", kNodeId), MessageErrc::rlp,
         MessageField::hello_capability_version, rlp::Errc::leading_zero_in_integer},
        {hello_hex("05", "80", good_caps, "", ""), MessageErrc::missing_field,
         MessageField::hello_listen_port},
        {hello_hex("05", "80", good_caps, "c0", kNodeId), MessageErrc::rlp,
         MessageField::hello_listen_port, rlp::Errc::expected_string},
        {hello_hex("05", "80", good_caps, "80", ""), MessageErrc::missing_field,
         MessageField::hello_node_id},
        {hello_hex("05", "80", good_caps, "80", "b83f" + std::string(126, 'a')),
         MessageErrc::wrong_size, MessageField::hello_node_id},
        {hello_hex("05", "80", good_caps, "80", "c0"), MessageErrc::rlp,
         MessageField::hello_node_id, rlp::Errc::expected_string},
        {hello_hex("05", "80", good_caps, "80", "b841" + std::string(130, 'a')),
         MessageErrc::wrong_size, MessageField::hello_node_id},
        {hello_hex("05", "80", good_caps, "80", "b840" + std::string(126, 'a')), MessageErrc::rlp,
         MessageField::hello_node_id, rlp::Errc::length_past_input},
    };
    for (const auto& c : cases) {
        auto r = decode_hello(from_hex(c.hex));
        ASSERT_FALSE(r) << c.hex;
        EXPECT_EQ(r.error().code, c.code) << c.hex << ": " << to_string(r.error());
        EXPECT_EQ(r.error().field, c.field) << c.hex << ": " << to_string(r.error());
        if (c.code == MessageErrc::rlp) {
            EXPECT_EQ(r.error().rlp, c.rlp) << c.hex << ": " << to_string(r.error());
        }
    }
    // The good base of the table decodes, with extra elements after the node id.
    auto ok = decode_hello(from_hex(hello_hex("05", "80", good_caps, "80", kNodeId, "c0c10101")));
    ASSERT_TRUE(ok) << to_string(ok.error());
    EXPECT_EQ(ok->capabilities[0].name, "eth");

    // Too many capabilities.
    std::string many;
    for (std::size_t i = 0; i <= kMaxCapabilities; ++i) many += "c482616101";
    const std::size_t n = many.size() / 2;
    const std::string list =
        "f9" + hex::encode(Bytes{static_cast<std::uint8_t>(n >> 8), static_cast<std::uint8_t>(n)}) +
        many;
    auto r = decode_hello(from_hex(hello_hex("05", "80", list, "80", kNodeId)));
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().code, MessageErrc::too_many_capabilities);

    // The one-line message names the message, the field and the offset.
    r = decode_hello(
        from_hex(hello_hex("05", "80", good_caps, "80", "b83f" + std::string(126, 'a'))));
    ASSERT_FALSE(r);
    EXPECT_EQ(to_string(r.error()),
              "Hello field node id: wrong size (63 bytes, expected 64) at offset 12");
    r = decode_hello(from_hex("c0"));
    ASSERT_FALSE(r);
    EXPECT_EQ(to_string(r.error()),
              "Hello field protocol version: missing (the list ends before it) at offset 1");
}

TEST(RlpxMessages, BadStatuses) {
    const std::string hash = "a0" + std::string(64, '1');
    auto status = [&](std::string_view td, std::string_view head, std::string_view fork,
                      std::string_view version = "44") {
        const std::string body = std::string(version) + "01" + std::string(td) + std::string(head) +
                                 hash + std::string(fork);
        const std::size_t n = body.size() / 2;
        return (n < 56 ? hex::encode(Bytes{static_cast<std::uint8_t>(0xc0 + n)})
                       : "f8" + hex::encode(Bytes{static_cast<std::uint8_t>(n)})) +
               body;
    };
    const std::string fork = "c684deadbeef80";
    ASSERT_TRUE(decode_status(from_hex(status("80", hash, fork))));
    ASSERT_TRUE(decode_status(from_hex(status("80", hash, "c784deadbeef8001"))));  // extra
    const BadMessage cases[] = {
        {"c0", MessageErrc::missing_field, MessageField::status_version},
        {"c2", MessageErrc::rlp, MessageField::status, rlp::Errc::length_past_input},
        {status("a1" + std::string(66, '1'), hash, fork), MessageErrc::rlp,
         MessageField::status_total_difficulty, rlp::Errc::integer_overflow},
        {status("80", "9f" + std::string(62, '1'), fork), MessageErrc::wrong_size,
         MessageField::status_head},
        {status("80", hash, "c58300000080"), MessageErrc::wrong_size,
         MessageField::status_fork_hash},
        {status("80", hash, "c584deadbeef"), MessageErrc::missing_field,
         MessageField::status_fork_next},
        {status("80", hash, "80"), MessageErrc::rlp, MessageField::status_fork_id,
         rlp::Errc::expected_list},
        {status("80", hash, ""), MessageErrc::missing_field, MessageField::status_fork_id},
        {status("80", hash, fork, "00"), MessageErrc::rlp, MessageField::status_version,
         rlp::Errc::leading_zero_in_integer},
    };
    for (const auto& c : cases) {
        auto r = decode_status(from_hex(c.hex));
        ASSERT_FALSE(r) << c.hex;
        EXPECT_EQ(r.error().code, c.code) << c.hex << ": " << to_string(r.error());
        EXPECT_EQ(r.error().field, c.field) << c.hex << ": " << to_string(r.error());
        if (c.code == MessageErrc::rlp) {
            EXPECT_EQ(r.error().rlp, c.rlp) << c.hex << ": " << to_string(r.error());
        }
    }
    auto r = decode_status(from_hex(status("80", hash, "c58300000080")));
    EXPECT_EQ(to_string(r.error()),
              "Status field fork id hash: wrong size (3 bytes, expected 4) at offset 72");
}

TEST(RlpxMessages, BadDisconnectPingPong) {
    const BadMessage cases[] = {
        {"", MessageErrc::rlp, MessageField::disconnect, rlp::Errc::empty_input},
        {"c108c0", MessageErrc::rlp, MessageField::disconnect, rlp::Errc::trailing_bytes},
        {"c3820100", MessageErrc::reason_out_of_range, MessageField::disconnect_reason},
        {"c1c0", MessageErrc::rlp, MessageField::disconnect_reason, rlp::Errc::expected_string},
        {"c100", MessageErrc::rlp, MessageField::disconnect_reason,
         rlp::Errc::leading_zero_in_integer},
        {"c2", MessageErrc::rlp, MessageField::disconnect, rlp::Errc::length_past_input},
    };
    for (const auto& c : cases) {
        auto r = decode_disconnect(from_hex(c.hex));
        ASSERT_FALSE(r) << c.hex;
        EXPECT_EQ(r.error().code, c.code) << c.hex << ": " << to_string(r.error());
        EXPECT_EQ(r.error().field, c.field) << c.hex << ": " << to_string(r.error());
        if (c.code == MessageErrc::rlp) {
            EXPECT_EQ(r.error().rlp, c.rlp) << c.hex << ": " << to_string(r.error());
        }
    }
    auto d = decode_disconnect(from_hex("c3820100"));
    EXPECT_EQ(to_string(d.error()), "Disconnect field reason: reason above 255 at offset 1");

    EXPECT_TRUE(decode_ping(from_hex("c0")));
    EXPECT_TRUE(decode_ping(from_hex("c180")));  // elements a later version adds
    auto p = decode_ping(from_hex("80"));
    ASSERT_FALSE(p);
    EXPECT_EQ(p.error().field, MessageField::ping);
    EXPECT_EQ(p.error().rlp, rlp::Errc::expected_list);
    EXPECT_EQ(to_string(p.error()),
              "Ping: " + std::string(rlp::describe(rlp::Errc::expected_list)) + " at offset 0");
    p = decode_pong(from_hex(""));
    ASSERT_FALSE(p);
    EXPECT_EQ(p.error().field, MessageField::pong);
    p = decode_pong(from_hex("c0c0"));
    ASSERT_FALSE(p);
    EXPECT_EQ(p.error().rlp, rlp::Errc::trailing_bytes);
}

}  // namespace
}  // namespace keel::rlpx
