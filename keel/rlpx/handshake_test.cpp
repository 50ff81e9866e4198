// The EIP-8 handshake: every packet of eip8_handshake.json (Auth1-3, Ack1-3) and the secrets
// derived from (Auth2, Ack2); initiator <-> recipient round trips in memory; and a table of bad
// packets, each with its error code and offset.
#include "keel/rlpx/handshake.hpp"
#include "keel/rlpx/test_helpers.hpp"

#include <gtest/gtest.h>

#include <memory>
#include <random>
#include <string>
#include <vector>

#include "keel/common/hex.hpp"
#include "keel/common/uint256.hpp"
#include "keel/crypto/secp256k1.hpp"
#include "keel/rlp/encode.hpp"
#include "test/testutil/data.hpp"
#include "test/testutil/hex.hpp"
#include "test/testutil/vectors.hpp"

namespace keel::rlpx {
namespace {

using test::fixed_of;
using test::hex_bytes;
namespace secp = crypto::secp256k1;
using crypto::PublicKey;
using testutil::fixed_from_hex;
using testutil::from_hex;

// The EIP-8 vectors, loaded once.
struct Eip8 {
    nlohmann::json json;
    Bytes32 static_a, static_b, eph_a, eph_b, nonce_a, nonce_b;
    PublicKey static_pub_a, static_pub_b, eph_pub_a, eph_pub_b;
    Bytes auth1, auth2, auth3, ack1, ack2, ack3;

    Eip8() {
        json = testutil::load_json(testutil::vectors_dir("rlpx") / "eip8_handshake.json");
        const auto& k = json.at("keys");
        static_a = fixed_of<Bytes32>(k.at("static_priv_A"));
        static_b = fixed_of<Bytes32>(k.at("static_priv_B"));
        eph_a = fixed_of<Bytes32>(k.at("ephemeral_priv_A"));
        eph_b = fixed_of<Bytes32>(k.at("ephemeral_priv_B"));
        nonce_a = fixed_of<Bytes32>(k.at("nonce_A"));
        nonce_b = fixed_of<Bytes32>(k.at("nonce_B"));
        static_pub_a = fixed_of<PublicKey>(k.at("static_pub_A"));
        static_pub_b = fixed_of<PublicKey>(k.at("static_pub_B"));
        eph_pub_a = fixed_of<PublicKey>(k.at("ephemeral_pub_A"));
        eph_pub_b = fixed_of<PublicKey>(k.at("ephemeral_pub_B"));
        const auto& auth = json.at("auth");
        const auto& ack = json.at("ack");
        auth1 = hex_bytes(auth.at(0).at("packet"));
        auth2 = hex_bytes(auth.at(1).at("packet"));
        auth3 = hex_bytes(auth.at(2).at("packet"));
        ack1 = hex_bytes(ack.at(0).at("packet"));
        ack2 = hex_bytes(ack.at(1).at("packet"));
        ack3 = hex_bytes(ack.at(2).at("packet"));
    }
};

const Eip8& eip8() {
    static const Eip8 v;
    return v;
}

// A deterministic RandomSource over mt19937_64.
RandomSource seeded_source(std::uint64_t seed) {
    auto rng = std::make_shared<std::mt19937_64>(seed);
    return [rng](MutableBytesView out) {
        for (auto& b : out) b = static_cast<std::uint8_t>((*rng)());
        return true;
    };
}

// A source that works `good` times, then fails.
RandomSource failing_source(int good) {
    auto left = std::make_shared<int>(good);
    return [left](MutableBytesView out) {
        if ((*left)-- <= 0) return false;
        for (auto& b : out) b = 0x42;
        return true;
    };
}

// --- the EIP-8 vectors ---

TEST(HandshakeVectors, KeysMatchTheirPublicKeys) {
    const auto& v = eip8();
    EXPECT_EQ(secp::public_key_of(v.static_a).value(), v.static_pub_a);
    EXPECT_EQ(secp::public_key_of(v.static_b).value(), v.static_pub_b);
    EXPECT_EQ(secp::public_key_of(v.eph_a).value(), v.eph_pub_a);
    EXPECT_EQ(secp::public_key_of(v.eph_b).value(), v.eph_pub_b);
}

TEST(HandshakeVectors, AuthPacketsDecode) {
    const auto& v = eip8();
    const auto& auths = v.json.at("auth");
    ASSERT_EQ(auths.size(), 3u);
    for (std::size_t i = 1; i < 3; ++i) {
        const auto& t = auths.at(i);
        SCOPED_TRACE(t.at("name").get<std::string>());
        const Bytes packet = hex_bytes(t.at("packet"));
        EXPECT_EQ(handshake_packet_size(packet).value(), packet.size());
        EXPECT_EQ(packet.size(), 2 + t.at("size_prefix").get<std::size_t>());
        auto m = read_auth_packet(v.static_b, packet);
        ASSERT_TRUE(m.has_value()) << to_string(m.error());
        const auto& e = t.at("expected");
        EXPECT_EQ(hex::encode(m->signature.view()), e.at("signature").get<std::string>());
        EXPECT_EQ(hex::encode(m->initiator_id.view()), e.at("initiator_pubkey").get<std::string>());
        EXPECT_EQ(hex::encode(m->nonce.view()), e.at("nonce").get<std::string>());
        EXPECT_EQ(m->version, e.at("version").get<std::uint64_t>());
        std::string rest;
        if (e.contains("rest_rlp"))
            for (const auto& item : e.at("rest_rlp")) rest += item.get<std::string>();
        EXPECT_EQ(hex::encode(m->rest), rest);
    }
}

TEST(HandshakeVectors, AckPacketsDecode) {
    const auto& v = eip8();
    const auto& acks = v.json.at("ack");
    ASSERT_EQ(acks.size(), 3u);
    for (std::size_t i = 1; i < 3; ++i) {
        const auto& t = acks.at(i);
        SCOPED_TRACE(t.at("name").get<std::string>());
        const Bytes packet = hex_bytes(t.at("packet"));
        EXPECT_EQ(handshake_packet_size(packet).value(), packet.size());
        auto m = read_ack_packet(v.static_a, packet);
        ASSERT_TRUE(m.has_value()) << to_string(m.error());
        const auto& e = t.at("expected");
        EXPECT_EQ(hex::encode(m->ephemeral_key.view()), e.at("random_pubkey").get<std::string>());
        EXPECT_EQ(hex::encode(m->nonce.view()), e.at("nonce").get<std::string>());
        EXPECT_EQ(m->version, e.at("version").get<std::uint64_t>());
        std::string rest;
        if (e.contains("rest_rlp"))
            for (const auto& item : e.at("rest_rlp")) rest += item.get<std::string>();
        EXPECT_EQ(hex::encode(m->rest), rest);
    }
}

TEST(HandshakeVectors, PreEip8PacketsAreRefused) {
    const auto& v = eip8();
    ASSERT_EQ(v.auth1.size(), kLegacyAuthSize);
    ASSERT_EQ(v.ack1.size(), kLegacyAckSize);
    EXPECT_EQ(read_auth_packet(v.static_b, v.auth1).error(),
              (HandshakeError{HandshakeErrc::pre_eip8, 0}));
    EXPECT_EQ(read_ack_packet(v.static_a, v.ack1).error(),
              (HandshakeError{HandshakeErrc::pre_eip8, 0}));
    auto b = Handshake::recipient(v.static_b, v.eph_b, v.nonce_b).value();
    EXPECT_EQ(b.read_auth(v.auth1).error().code, HandshakeErrc::pre_eip8);
    auto a = Handshake::initiator(v.static_a, v.static_pub_b, v.eph_a, v.nonce_a).value();
    ASSERT_TRUE(a.make_auth().has_value());
    EXPECT_EQ(a.read_ack(v.ack1).error().code, HandshakeErrc::pre_eip8);
    // An incremental reader sees a legacy packet's 0x04 as a size of 1024 or more and waits.
    EXPECT_EQ(handshake_packet_size(v.auth1).value(), 2 + 0x048cu);
    // The other message's legacy size is not taken for it: a 210-byte auth is just truncated.
    EXPECT_EQ(read_auth_packet(v.static_b, v.ack1).error().code, HandshakeErrc::truncated);
}

TEST(HandshakeVectors, RecipientDerivesTheEip8Secrets) {
    // Node B reads Auth2 (recovering A's ephemeral key from the signature), answers, and derives
    // the EIP-8 aes and mac secrets; its ingress MAC, seeded with (mac ^ nonce_B) || Auth2, then
    // fed "foo", gives the EIP-8 value.
    const auto& v = eip8();
    const auto& s = v.json.at("secrets_Auth2_Ack2");
    auto b = Handshake::recipient(v.static_b, v.eph_b, v.nonce_b).value();
    EXPECT_EQ(b.role(), Role::recipient);
    ASSERT_TRUE(b.read_auth(v.auth2).has_value());
    EXPECT_EQ(b.remote_id(), v.static_pub_a);
    EXPECT_EQ(b.remote_version(), 4u);
    EXPECT_FALSE(b.done());
    auto ack = b.make_ack();
    ASSERT_TRUE(ack.has_value());
    ASSERT_TRUE(b.done());
    Secrets sec = b.secrets();
    EXPECT_EQ(hex::encode(sec.aes.view()), s.at("aes_secret").get<std::string>());
    EXPECT_EQ(hex::encode(sec.mac.view()), s.at("mac_secret").get<std::string>());
    EXPECT_EQ(sec.remote_id, v.static_pub_a);
    sec.ingress_mac.update(as_bytes("foo"));
    EXPECT_EQ(hex::encode(sec.ingress_mac.finalize().view()),
              s.at("ingress_mac_B_after_foo").get<std::string>());

    // Our ack carries B's ephemeral key and nonce, readable by A.
    auto m = read_ack_packet(v.static_a, *ack);
    ASSERT_TRUE(m.has_value()) << to_string(m.error());
    EXPECT_EQ(m->ephemeral_key, v.eph_pub_b);
    EXPECT_EQ(m->nonce, v.nonce_b);
    EXPECT_EQ(m->version, kHandshakeVersion);
    EXPECT_TRUE(m->rest.empty());

    // Auth3 (version 56, extra elements) gives the same secrets.
    auto b3 = Handshake::recipient(v.static_b, v.eph_b, v.nonce_b).value();
    ASSERT_TRUE(b3.read_auth(v.auth3).has_value());
    EXPECT_EQ(b3.remote_version(), 56u);
    ASSERT_TRUE(b3.make_ack().has_value());
    EXPECT_EQ(b3.secrets().aes, sec.aes);
    EXPECT_EQ(b3.secrets().mac, sec.mac);
}

TEST(HandshakeVectors, InitiatorDerivesTheEip8Secrets) {
    const auto& v = eip8();
    const auto& s = v.json.at("secrets_Auth2_Ack2");
    for (const Bytes* ack : {&v.ack2, &v.ack3}) {
        auto a = Handshake::initiator(v.static_a, v.static_pub_b, v.eph_a, v.nonce_a).value();
        EXPECT_EQ(a.role(), Role::initiator);
        EXPECT_EQ(a.remote_id(), v.static_pub_b);
        auto auth = a.make_auth();
        ASSERT_TRUE(auth.has_value()) << to_string(auth.error());
        ASSERT_TRUE(a.read_ack(*ack).has_value());
        ASSERT_TRUE(a.done());
        const Secrets sec = a.secrets();
        EXPECT_EQ(hex::encode(sec.aes.view()), s.at("aes_secret").get<std::string>());
        EXPECT_EQ(hex::encode(sec.mac.view()), s.at("mac_secret").get<std::string>());
        EXPECT_EQ(sec.remote_id, v.static_pub_b);
        EXPECT_EQ(a.remote_version(), ack == &v.ack2 ? 4u : 57u);
    }
}

TEST(HandshakeVectors, OurAuthIsSignedByTheEphemeralKey) {
    // The EIP-8 signature recovers A's ephemeral key from ECDH-x(static A, static B) ^ nonce_A,
    // and so does ours (libsecp256k1 signs with RFC 6979 nonces, so not with the EIP's bytes).
    const auto& v = eip8();
    const Bytes32 shared = secp::ecdh_x(v.static_b, v.static_pub_a).value();
    Hash32 h;
    for (std::size_t i = 0; i < 32; ++i) h[i] = shared[i] ^ v.nonce_a[i];
    auto recover = [&](const FixedBytes<65>& sig) {
        return secp::recover_public_key(h, Uint256::load_be(sig.data()),
                                        Uint256::load_be(sig.data() + 32), sig[64]);
    };
    const auto& e = v.json.at("auth").at(1).at("expected");
    EXPECT_EQ(recover(fixed_of<FixedBytes<65>>(e.at("signature"))).value(), v.eph_pub_a);

    auto a = Handshake::initiator(v.static_a, v.static_pub_b, v.eph_a, v.nonce_a).value();
    const Bytes auth = a.make_auth().value();
    auto m = read_auth_packet(v.static_b, auth);
    ASSERT_TRUE(m.has_value()) << to_string(m.error());
    EXPECT_EQ(recover(m->signature).value(), v.eph_pub_a);
    EXPECT_LE(m->signature[64], 1);
    EXPECT_EQ(m->initiator_id, v.static_pub_a);
    EXPECT_EQ(m->nonce, v.nonce_a);
    EXPECT_EQ(m->version, kHandshakeVersion);
    EXPECT_TRUE(m->rest.empty());
    // And B, reading it, derives the EIP-8 secrets.
    auto b = Handshake::recipient(v.static_b, v.eph_b, v.nonce_b).value();
    ASSERT_TRUE(b.read_auth(auth).has_value());
    ASSERT_TRUE(b.make_ack().has_value());
    EXPECT_EQ(hex::encode(b.secrets().aes.view()),
              v.json.at("secrets_Auth2_Ack2").at("aes_secret").get<std::string>());
}

TEST(HandshakeVectors, DeriveSecretsFromTheIntermediateValues) {
    const auto& v = eip8();
    const auto& s = v.json.at("secrets_Auth2_Ack2");
    SecretsInput in;
    in.role = Role::recipient;
    in.ecdhe = fixed_of<Bytes32>(s.at("intermediate_derived_here").at("ecdhe_shared_x"));
    in.initiator_nonce = v.nonce_a;
    in.recipient_nonce = v.nonce_b;
    in.auth_packet = v.auth2;
    in.ack_packet = v.ack2;
    in.remote_id = v.static_pub_a;
    Secrets b = derive_secrets(in);
    EXPECT_EQ(hex::encode(b.aes.view()), s.at("aes_secret").get<std::string>());
    EXPECT_EQ(hex::encode(b.mac.view()), s.at("mac_secret").get<std::string>());
    b.ingress_mac.update(as_bytes("foo"));
    EXPECT_EQ(hex::encode(b.ingress_mac.finalize().view()),
              s.at("ingress_mac_B_after_foo").get<std::string>());
    // A's view of the same session mirrors B's: egress_A = ingress_B and the other way round.
    in.role = Role::initiator;
    in.remote_id = v.static_pub_b;
    Secrets a = derive_secrets(in);
    EXPECT_EQ(a.aes, b.aes);
    EXPECT_EQ(a.mac, b.mac);
    a.egress_mac.update(as_bytes("foo"));
    EXPECT_EQ(a.egress_mac.finalize(), b.ingress_mac.finalize());
    EXPECT_EQ(a.ingress_mac.finalize(), b.egress_mac.finalize());
}

// --- round trips ---

struct Peers {
    Handshake a;
    Handshake b;
};

void expect_mirrored(const Secrets& a, const Secrets& b) {
    EXPECT_EQ(a.aes, b.aes);
    EXPECT_EQ(a.mac, b.mac);
    EXPECT_EQ(a.egress_mac.finalize(), b.ingress_mac.finalize());
    EXPECT_EQ(a.ingress_mac.finalize(), b.egress_mac.finalize());
    EXPECT_NE(a.egress_mac.finalize(), a.ingress_mac.finalize());
    // The states continue alike after the same input.
    crypto::Keccak256 ae = a.egress_mac, bi = b.ingress_mac;
    ae.update(as_bytes("frame bytes"));
    bi.update(as_bytes("frame bytes"));
    EXPECT_EQ(ae.finalize(), bi.finalize());
}

TEST(HandshakeRoundTrip, RandomKeysDeriveMirroredSecrets) {
    for (int i = 0; i < 20; ++i) {
        const Bytes32 ka = secp::generate_secret_key().value();
        const Bytes32 kb = secp::generate_secret_key().value();
        const PublicKey pa = secp::public_key_of(ka).value();
        const PublicKey pb = secp::public_key_of(kb).value();
        auto a = Handshake::initiator(ka, pb).value();
        auto b = Handshake::recipient(kb).value();
        const Bytes auth = a.make_auth().value();
        EXPECT_EQ(handshake_packet_size(auth).value(), auth.size());
        ASSERT_TRUE(b.read_auth(auth).has_value());
        EXPECT_EQ(b.remote_id(), pa);
        const Bytes ack = b.make_ack().value();
        EXPECT_EQ(handshake_packet_size(ack).value(), ack.size());
        ASSERT_TRUE(a.read_ack(ack).has_value());
        ASSERT_TRUE(a.done() && b.done());
        const Secrets sa = a.secrets(), sb = b.secrets();
        expect_mirrored(sa, sb);
        EXPECT_EQ(sa.remote_id, pb);
        EXPECT_EQ(sb.remote_id, pa);
        EXPECT_EQ(a.remote_version(), kHandshakeVersion);
        EXPECT_EQ(b.remote_version(), kHandshakeVersion);
    }
}

TEST(HandshakeRoundTrip, SeededSourcesAreDeterministic) {
    auto run = [](std::uint64_t seed) {
        std::mt19937_64 rng(seed);
        const Bytes32 ka = testutil::random_secret(rng, secp::kOrder);
        const Bytes32 kb = testutil::random_secret(rng, secp::kOrder);
        auto a =
            Handshake::initiator(ka, secp::public_key_of(kb).value(), seeded_source(seed)).value();
        auto b = Handshake::recipient(kb, seeded_source(seed + 1)).value();
        Bytes auth = a.make_auth().value();
        EXPECT_TRUE(b.read_auth(auth).has_value());
        Bytes ack = b.make_ack().value();
        EXPECT_TRUE(a.read_ack(ack).has_value());
        expect_mirrored(a.secrets(), b.secrets());
        return std::pair{auth, ack};
    };
    EXPECT_EQ(run(5), run(5));
    EXPECT_NE(run(5).first, run(6).first);
}

TEST(HandshakeRoundTrip, PaddingIsBetween100And300Bytes) {
    // Our auth body is 169 bytes of RLP (the ack body 102): the rest is padding.
    std::size_t min_pad = 1000, max_pad = 0;
    std::mt19937_64 rng(8);
    const Bytes32 ka = testutil::random_secret(rng, secp::kOrder);
    const Bytes32 kb = testutil::random_secret(rng, secp::kOrder);
    const PublicKey pb = secp::public_key_of(kb).value();
    for (std::uint64_t seed = 0; seed < 400; ++seed) {
        auto a = Handshake::initiator(ka, pb, seeded_source(seed)).value();
        const Bytes auth = a.make_auth().value();
        const Bytes body = open_handshake_packet(kb, auth, kLegacyAuthSize).value();
        ASSERT_EQ(encode_auth_body(read_auth_packet(kb, auth).value()).size(), 169u);
        const std::size_t pad = body.size() - 169;
        min_pad = std::min(min_pad, pad);
        max_pad = std::max(max_pad, pad);
        EXPECT_LE(auth.size(), 2 + kMaxHandshakeSize);
    }
    EXPECT_GE(min_pad, kMinPadding);
    EXPECT_LE(max_pad, kMaxPadding);
    EXPECT_LT(min_pad, 120u);  // the range is used, not one fixed length
    EXPECT_GT(max_pad, 280u);
}

// Builds an auth packet for `to` from initiator keys, with a correct signature unless the
// message's signature is given, and any version / extra elements.
struct AuthBuilder {
    Bytes32 static_secret;
    Bytes32 ephemeral_secret;
    Bytes32 nonce;
    PublicKey to;

    AuthMessage message() const {
        AuthMessage m;
        const Bytes32 shared = secp::ecdh_x(static_secret, to).value();
        Bytes32 h;
        for (std::size_t i = 0; i < 32; ++i) h[i] = shared[i] ^ nonce[i];
        const auto sig = secp::sign_recoverable(h, ephemeral_secret).value();
        sig.r.to_be_bytes(m.signature.data());
        sig.s.to_be_bytes(m.signature.data() + 32);
        m.signature[64] = sig.recovery_id;
        m.initiator_id = secp::public_key_of(static_secret).value();
        m.nonce = nonce;
        return m;
    }
};

Bytes seal(const PublicKey& to, BytesView body, std::size_t padding = 100) {
    EciesRandom r;
    r.ephemeral_secret = fixed_from_hex<Bytes32>(
        "0x1111111111111111111111111111111111111111111111111111111111111111");
    const Bytes pad(padding, 0xab);
    auto p = seal_handshake_packet(to, body, pad, r);
    EXPECT_TRUE(p.has_value());
    return p.value_or(Bytes{});
}

TEST(HandshakeRoundTrip, FutureVersionsAndExtraElementsAreAccepted) {
    const auto& v = eip8();
    AuthBuilder builder{v.static_a, v.eph_a, v.nonce_a, v.static_pub_b};
    AuthMessage m = builder.message();
    m.version = 0xffffffffffffffffull;
    rlp::Encoder extra;
    extra.add_uint(7);
    auto l = extra.begin_list();
    extra.add_string(Bytes(70, 1));
    extra.end_list(l);
    m.rest = extra.take();
    // No padding at all is accepted too (only our own packets must be padded).
    const Bytes auth = seal(v.static_pub_b, encode_auth_body(m), 0);
    auto b = Handshake::recipient(v.static_b, v.eph_b, v.nonce_b).value();
    ASSERT_TRUE(b.read_auth(auth).has_value());
    EXPECT_EQ(b.remote_version(), m.version);
    EXPECT_EQ(read_auth_packet(v.static_b, auth).value().rest, m.rest);
    ASSERT_TRUE(b.make_ack().has_value());
    EXPECT_EQ(hex::encode(b.secrets().aes.view()),
              v.json.at("secrets_Auth2_Ack2").at("aes_secret").get<std::string>());

    // A version below 4 is not refused either (EIP-8: the version is informational).
    m.version = 0;
    m.rest.clear();
    EXPECT_TRUE(read_auth_packet(v.static_b, seal(v.static_pub_b, encode_auth_body(m))));
}

TEST(HandshakeRoundTrip, AFailedReadLeavesTheHandshakeUsable) {
    const auto& v = eip8();
    auto b = Handshake::recipient(v.static_b, v.eph_b, v.nonce_b).value();
    Bytes bad = v.auth2;
    bad[100] ^= 1;
    EXPECT_EQ(b.read_auth(bad).error().code, HandshakeErrc::bad_mac);
    ASSERT_TRUE(b.read_auth(v.auth2).has_value());
    auto a = Handshake::initiator(v.static_a, v.static_pub_b, v.eph_a, v.nonce_a).value();
    ASSERT_TRUE(a.make_auth().has_value());
    EXPECT_EQ(a.read_ack(BytesView(v.ack2).first(100)).error().code, HandshakeErrc::truncated);
    EXPECT_FALSE(a.done());
    ASSERT_TRUE(a.read_ack(v.ack2).has_value());
    EXPECT_TRUE(a.done());
}

// --- construction errors ---

TEST(HandshakeErrors, ConstructionChecksKeysAndRandomness) {
    const auto& v = eip8();
    EXPECT_EQ(Handshake::initiator(Bytes32{}, v.static_pub_b).error(),
              (HandshakeError{HandshakeErrc::invalid_secret_key, 0}));
    EXPECT_EQ(Handshake::recipient(secp::kOrder.to_bytes32()).error().code,
              HandshakeErrc::invalid_secret_key);
    PublicKey off = v.static_pub_b;
    off[63] ^= 1;
    EXPECT_EQ(Handshake::initiator(v.static_a, off).error(),
              (HandshakeError{HandshakeErrc::invalid_public_key, 0}));
    EXPECT_EQ(Handshake::initiator(v.static_a, PublicKey{}).error().code,
              HandshakeErrc::invalid_public_key);
    EXPECT_EQ(Handshake::initiator(v.static_a, v.static_pub_b, Bytes32{}, v.nonce_a).error().code,
              HandshakeErrc::invalid_secret_key);
    EXPECT_EQ(Handshake::recipient(v.static_b, failing_source(0)).error().code,
              HandshakeErrc::random_failed);
    EXPECT_EQ(Handshake::recipient(v.static_b, failing_source(1)).error().code,
              HandshakeErrc::random_failed);
    // Randomness for the packet (padding, ECIES) fails later.
    auto a = Handshake::initiator(v.static_a, v.static_pub_b, failing_source(2)).value();
    EXPECT_EQ(a.make_auth().error().code, HandshakeErrc::random_failed);
    auto a2 =
        Handshake::initiator(v.static_a, v.static_pub_b, v.eph_a, v.nonce_a, failing_source(2))
            .value();
    EXPECT_EQ(a2.make_auth().error().code, HandshakeErrc::random_failed);
}

TEST(HandshakeErrors, PacketSizeFromThePrefix) {
    EXPECT_EQ(handshake_packet_size({}).error(), (HandshakeError{HandshakeErrc::truncated, 0}));
    EXPECT_EQ(handshake_packet_size(Bytes{0x01}).error(),
              (HandshakeError{HandshakeErrc::truncated, 1}));
    EXPECT_EQ(handshake_packet_size(Bytes{0x08, 0x00}).value(), 2 + 2048u);
    EXPECT_EQ(handshake_packet_size(Bytes{0x08, 0x01}).error(),
              (HandshakeError{HandshakeErrc::too_large, 0}));
    EXPECT_EQ(handshake_packet_size(Bytes{0xff, 0xff}).error().code, HandshakeErrc::too_large);
    EXPECT_EQ(handshake_packet_size(Bytes{0x00, 113}).value(), 115u);
    EXPECT_EQ(handshake_packet_size(Bytes{0x00, 112}).error(),
              (HandshakeError{HandshakeErrc::too_small, 0}));
    EXPECT_EQ(handshake_packet_size(Bytes{0x00, 0x00}).error().code, HandshakeErrc::too_small);
    // Only the first two bytes count.
    EXPECT_EQ(handshake_packet_size(Bytes{0x01, 0xb3, 0xff, 0xff}).value(), 437u);
}

// --- the table of bad packets ---

struct BadCase {
    std::string name;
    Bytes packet;
    HandshakeError expected;
};

std::vector<BadCase> bad_auth_cases() {
    const auto& v = eip8();
    const Bytes& good = v.auth2;  // 437 bytes
    const std::size_t tag = good.size() - 32;
    std::vector<BadCase> out;
    auto with = [&](std::size_t i, std::uint8_t b) {
        Bytes p = good;
        p[i] = b;
        return p;
    };
    out.push_back({"empty", {}, {HandshakeErrc::truncated, 0}});
    out.push_back({"one byte", {0x01}, {HandshakeErrc::truncated, 1}});
    out.push_back({"prefix only", {0x01, 0xb3}, {HandshakeErrc::truncated, 2}});
    out.push_back(
        {"truncated", Bytes(good.begin(), good.end() - 1), {HandshakeErrc::truncated, 436}});
    Bytes longer = good;
    longer.push_back(0);
    out.push_back({"trailing byte", longer, {HandshakeErrc::trailing_bytes, 437}});
    out.push_back({"prefix one larger", with(1, 0xb4), {HandshakeErrc::truncated, 437}});
    out.push_back({"prefix one smaller", with(1, 0xb2), {HandshakeErrc::trailing_bytes, 436}});
    // A smaller prefix with the packet cut to fit it: the prefix is authenticated.
    Bytes cut = with(1, 0xb2);
    cut.pop_back();
    out.push_back({"prefix and length both wrong", cut, {HandshakeErrc::bad_mac, 2 + 434 - 32}});
    Bytes big(2 + 2049, 0x04);
    big[0] = 0x08;
    big[1] = 0x01;
    out.push_back({"oversize (2049)", big, {HandshakeErrc::too_large, 0}});
    Bytes huge(2 + 0xffff, 0);
    huge[0] = huge[1] = 0xff;
    out.push_back({"oversize (65535)", huge, {HandshakeErrc::too_large, 0}});
    Bytes tiny(2 + 112, 0x04);
    tiny[0] = 0;
    tiny[1] = 112;
    out.push_back({"below the ECIES overhead", tiny, {HandshakeErrc::too_small, 0}});
    out.push_back({"legacy auth", v.auth1, {HandshakeErrc::pre_eip8, 0}});
    out.push_back({"compressed key tag", with(2, 0x02), {HandshakeErrc::bad_key_prefix, 2}});
    Bytes off_curve = good;
    off_curve[2 + 64] ^= 1;  // R's last y byte
    out.push_back({"R not on the curve", off_curve, {HandshakeErrc::invalid_ecies_key, 3}});
    Bytes zero_r = good;
    std::fill(zero_r.begin() + 3, zero_r.begin() + 67, 0);
    out.push_back({"R all zeros", zero_r, {HandshakeErrc::invalid_ecies_key, 3}});
    out.push_back({"iv changed", with(70, good[70] ^ 0x80), {HandshakeErrc::bad_mac, tag}});
    out.push_back({"ciphertext changed", with(200, good[200] ^ 1), {HandshakeErrc::bad_mac, tag}});
    out.push_back({"tag changed", with(436, good[436] ^ 1), {HandshakeErrc::bad_mac, tag}});
    return out;
}

TEST(HandshakeErrors, BadAuthPackets) {
    const auto& v = eip8();
    for (const BadCase& c : bad_auth_cases()) {
        SCOPED_TRACE(c.name);
        auto r = read_auth_packet(v.static_b, c.packet);
        ASSERT_FALSE(r.has_value());
        EXPECT_EQ(r.error(), c.expected)
            << to_string(r.error()) << " / expected " << to_string(c.expected);
        const std::string line = to_string(r.error());
        EXPECT_EQ(line.find('\n'), std::string::npos);
        // The stateful reader reports the same.
        auto b = Handshake::recipient(v.static_b, v.eph_b, v.nonce_b).value();
        EXPECT_EQ(b.read_auth(c.packet).error(), c.expected);
    }
    // The right packet for someone else: their key does not open it.
    EXPECT_EQ(read_auth_packet(v.static_a, v.auth2).error().code, HandshakeErrc::bad_mac);
    EXPECT_EQ(read_auth_packet(Bytes32{}, v.auth2).error(),
              (HandshakeError{HandshakeErrc::invalid_secret_key, 0}));
}

TEST(HandshakeErrors, BadAckPackets) {
    const auto& v = eip8();
    const Bytes& good = v.ack2;
    EXPECT_EQ(read_ack_packet(v.static_a, v.ack1).error().code, HandshakeErrc::pre_eip8);
    EXPECT_EQ(read_ack_packet(v.static_a, BytesView(good).first(300)).error(),
              (HandshakeError{HandshakeErrc::truncated, 300}));
    Bytes p = good;
    p[300] ^= 4;
    EXPECT_EQ(read_ack_packet(v.static_a, p).error(),
              (HandshakeError{HandshakeErrc::bad_mac, good.size() - 32}));
    EXPECT_EQ(read_ack_packet(v.static_b, good).error().code, HandshakeErrc::bad_mac);
    // A 307-byte ack starting with 0x04 is not taken for a legacy auth.
    Bytes odd(kLegacyAuthSize, 0x04);
    EXPECT_EQ(read_ack_packet(v.static_a, odd).error().code, HandshakeErrc::truncated);
}

// Bodies with bad RLP or bad fields, sealed correctly for B: the errors come from the body.
TEST(HandshakeErrors, BadAuthBodies) {
    const auto& v = eip8();
    AuthBuilder builder{v.static_a, v.eph_a, v.nonce_a, v.static_pub_b};
    const AuthMessage good = builder.message();
    const Bytes good_body = encode_auth_body(good);
    ASSERT_EQ(good_body[0], 0xf8);           // long list: two header bytes
    const std::size_t list = kBodyOffset;    // offset of the list header in the packet
    const std::size_t sig_at = list + 2;     // first field
    const std::size_t key_at = sig_at + 67;  // after b8 41 + 65 bytes
    const std::size_t nonce_at = key_at + 66;
    const std::size_t version_at = nonce_at + 33;

    auto body_with = [](const std::vector<Bytes>& items) {
        rlp::Encoder e;
        auto l = e.begin_list();
        for (const Bytes& item : items) e.add_raw(item);
        e.end_list(l);
        return e.take();
    };
    auto str = [](BytesView s) {
        rlp::Encoder e;
        e.add_string(s);
        return e.take();
    };
    const Bytes sig = str(good.signature.view());
    const Bytes key = str(good.initiator_id.view());
    const Bytes nonce = str(good.nonce.view());
    const Bytes version{0x04};

    struct Case {
        std::string name;
        Bytes body;
        HandshakeError expected;
    };
    std::vector<Case> cases;
    cases.push_back({"empty body", {}, {HandshakeErrc::not_a_list, list}});
    cases.push_back(
        {"a string, not a list", str(Bytes(200, 7)), {HandshakeErrc::not_a_list, list}});
    cases.push_back({"garbage", {0x01, 0x02, 0x03}, {HandshakeErrc::not_a_list, list}});
    cases.push_back(
        {"list longer than the body", {0xf9, 0x07, 0xd0, 0xc0}, {HandshakeErrc::not_a_list, list}});
    cases.push_back(
        {"non-canonical list header", {0xf8, 0x02, 0x80, 0x80}, {HandshakeErrc::not_a_list, list}});
    Bytes noncanon = body_with({sig, key, nonce, {0x81, 0x04}});
    cases.push_back({"non-canonical version", noncanon, {HandshakeErrc::bad_rlp, version_at}});
    Bytes bad_tail = body_with({sig, key, nonce, version, {0xb8, 0x01, 0xff}});
    cases.push_back(
        {"non-canonical extra element", bad_tail, {HandshakeErrc::bad_rlp, version_at + 1}});
    cases.push_back({"empty list", body_with({}), {HandshakeErrc::bad_signature_field, list + 1}});
    cases.push_back(
        {"signature 64 bytes",
         body_with({str(BytesView(good.signature.view()).first(64)), key, nonce, version}),
         {HandshakeErrc::bad_signature_field, sig_at}});
    cases.push_back({"signature a list",
                     body_with({{0xc0}, key, nonce, version}),
                     {HandshakeErrc::bad_signature_field, sig_at}});
    cases.push_back(
        {"key missing", body_with({sig}), {HandshakeErrc::bad_public_key_field, key_at}});
    cases.push_back({"key 65 bytes (with 0x04)",
                     body_with({sig, str(Bytes(65, 4)), nonce, version}),
                     {HandshakeErrc::bad_public_key_field, key_at}});
    PublicKey off = good.initiator_id;
    off[10] ^= 1;
    cases.push_back({"key not on the curve",
                     body_with({sig, str(off.view()), nonce, version}),
                     {HandshakeErrc::invalid_public_key, key_at}});
    cases.push_back(
        {"nonce missing", body_with({sig, key}), {HandshakeErrc::bad_nonce_field, nonce_at}});
    cases.push_back({"nonce 33 bytes",
                     body_with({sig, key, str(Bytes(33, 1)), version}),
                     {HandshakeErrc::bad_nonce_field, nonce_at}});
    cases.push_back({"version missing",
                     body_with({sig, key, nonce}),
                     {HandshakeErrc::bad_version_field, version_at}});
    cases.push_back({"version 9 bytes",
                     body_with({sig, key, nonce, str(Bytes(9, 1))}),
                     {HandshakeErrc::bad_version_field, version_at}});
    cases.push_back({"version with a leading zero",
                     body_with({sig, key, nonce, {0x82, 0, 1}}),
                     {HandshakeErrc::bad_version_field, version_at}});
    cases.push_back({"version a list",
                     body_with({sig, key, nonce, {0xc0}}),
                     {HandshakeErrc::bad_version_field, version_at}});

    for (const Case& c : cases) {
        SCOPED_TRACE(c.name);
        const Bytes packet = seal(v.static_pub_b, c.body);
        auto r = read_auth_packet(v.static_b, packet);
        ASSERT_FALSE(r.has_value());
        EXPECT_EQ(r.error(), c.expected)
            << to_string(r.error()) << " / expected " << to_string(c.expected);
        auto b = Handshake::recipient(v.static_b, v.eph_b, v.nonce_b).value();
        EXPECT_EQ(b.read_auth(packet).error(), c.expected);
        EXPECT_FALSE(b.done());
    }
    // The good body passes through the same helper.
    EXPECT_TRUE(read_auth_packet(v.static_b, seal(v.static_pub_b, good_body)).has_value());
}

TEST(HandshakeErrors, SignaturesThatRecoverNothing) {
    const auto& v = eip8();
    AuthBuilder builder{v.static_a, v.eph_a, v.nonce_a, v.static_pub_b};
    auto try_sig = [&](const FixedBytes<65>& sig) {
        AuthMessage m = builder.message();
        m.signature = sig;
        auto b = Handshake::recipient(v.static_b, v.eph_b, v.nonce_b).value();
        return b.read_auth(seal(v.static_pub_b, encode_auth_body(m)));
    };
    const FixedBytes<65> good = builder.message().signature;
    EXPECT_TRUE(try_sig(good).has_value());
    FixedBytes<65> s = good;
    std::fill(s.data(), s.data() + 32, 0);  // r = 0
    EXPECT_EQ(try_sig(s).error(), (HandshakeError{HandshakeErrc::invalid_signature, kBodyOffset}));
    s = good;
    std::fill(s.data() + 32, s.data() + 64, 0xff);  // s >= n
    EXPECT_EQ(try_sig(s).error().code, HandshakeErrc::invalid_signature);
    s = good;
    s[64] = 4;  // recovery id above 3
    EXPECT_EQ(try_sig(s).error().code, HandshakeErrc::invalid_signature);
    // r = 5 has no curve point (see secp256k1_test.cpp).
    s = FixedBytes<65>{};
    s[31] = 5;
    s[63] = 1;
    EXPECT_EQ(try_sig(s).error().code, HandshakeErrc::invalid_signature);
    // A valid signature by another key: accepted (it only yields the ephemeral key), but the
    // secrets then differ from the initiator's, so the first frame's MAC would fail.
    s = good;
    s[64] ^= 1;
    auto b = Handshake::recipient(v.static_b, v.eph_b, v.nonce_b).value();
    AuthMessage m = builder.message();
    m.signature = s;
    if (b.read_auth(seal(v.static_pub_b, encode_auth_body(m)))) {
        ASSERT_TRUE(b.make_ack().has_value());
        EXPECT_NE(hex::encode(b.secrets().aes.view()),
                  v.json.at("secrets_Auth2_Ack2").at("aes_secret").get<std::string>());
    }
}

TEST(HandshakeErrors, BadAckBodies) {
    const auto& v = eip8();
    auto try_body = [&](BytesView body) {
        return read_ack_packet(v.static_a, seal(v.static_pub_a, body));
    };
    AckMessage m;
    m.ephemeral_key = v.eph_pub_b;
    m.nonce = v.nonce_b;
    EXPECT_TRUE(try_body(encode_ack_body(m)).has_value());
    const std::size_t key_at = kBodyOffset + 2;  // after the long list header f8 64
    const Bytes body = encode_ack_body(m);
    ASSERT_EQ(body[0], 0xf8);
    AckMessage off = m;
    off.ephemeral_key[0] ^= 1;
    EXPECT_EQ(try_body(encode_ack_body(off)).error(),
              (HandshakeError{HandshakeErrc::invalid_public_key, key_at}));
    off.ephemeral_key = PublicKey{};
    EXPECT_EQ(try_body(encode_ack_body(off)).error().code, HandshakeErrc::invalid_public_key);
    EXPECT_EQ(try_body(Bytes{0xc0}).error(),
              (HandshakeError{HandshakeErrc::bad_public_key_field, kBodyOffset + 1}));
    EXPECT_EQ(try_body(Bytes{0x80}).error().code, HandshakeErrc::not_a_list);
    Bytes no_version(body.begin(), body.end() - 1);
    no_version[1] -= 1;
    EXPECT_EQ(try_body(no_version).error().code, HandshakeErrc::bad_version_field);
    // An auth body is not an ack.
    AuthBuilder builder{v.static_b, v.eph_b, v.nonce_b, v.static_pub_a};
    EXPECT_EQ(try_body(encode_auth_body(builder.message())).error().code,
              HandshakeErrc::bad_public_key_field);
    auto a = Handshake::initiator(v.static_a, v.static_pub_b, v.eph_a, v.nonce_a).value();
    ASSERT_TRUE(a.make_auth().has_value());
    EXPECT_EQ(a.read_ack(seal(v.static_pub_a, encode_ack_body(off))).error().code,
              HandshakeErrc::invalid_public_key);
    EXPECT_FALSE(a.done());
}

TEST(HandshakeErrors, SealRefusesOversizeBodies) {
    const auto& v = eip8();
    EciesRandom r;
    r.ephemeral_secret = v.eph_a;
    const Bytes body(2048 - 113 + 1, 0);
    EXPECT_EQ(seal_handshake_packet(v.static_pub_b, body, {}, r).error(),
              (HandshakeError{HandshakeErrc::too_large, 0}));
    auto p = seal_handshake_packet(v.static_pub_b, BytesView(body).first(2048 - 113), {}, r);
    ASSERT_TRUE(p.has_value());
    EXPECT_EQ(p->size(), 2 + 2048u);
    EXPECT_EQ(handshake_packet_size(*p).value(), p->size());
    PublicKey off = v.static_pub_b;
    off[0] ^= 1;
    EXPECT_EQ(seal_handshake_packet(off, Bytes{0xc0}, {}, r).error().code,
              HandshakeErrc::invalid_public_key);
}

TEST(HandshakeErrors, EveryErrorHasItsOwnMessage) {
    std::vector<std::string_view> seen;
    for (int i = 0; i <= static_cast<int>(HandshakeErrc::cipher_failed); ++i) {
        const std::string_view d = describe(static_cast<HandshakeErrc>(i));
        EXPECT_NE(d, "unknown handshake error") << i;
        for (auto s : seen) EXPECT_NE(d, s) << i;
        seen.push_back(d);
    }
    EXPECT_EQ(to_string(HandshakeError{HandshakeErrc::too_large, 0}),
              "handshake size prefix is above 2048 at offset 0");
}

}  // namespace
}  // namespace keel::rlpx
