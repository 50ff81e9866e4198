// ECIES (devp2p / go-ethereum crypto/ecies, ECIES_AES128_SHA256): the KDF and ECDH vectors of
// ecies_geth.json, the pre-EIP-8 handshake packets of EIP-8 (plain ECIES, so their plaintext is a
// known-answer test of decryption), packet layout, round trips, and every kind of bad packet.
#include "keel/rlpx/ecies.hpp"
#include "keel/rlpx/test_helpers.hpp"

#include <gtest/gtest.h>

#include <random>
#include <string>

#include "keel/common/hex.hpp"
#include "keel/crypto/hmac.hpp"
#include "keel/crypto/secp256k1.hpp"
#include "keel/crypto/sha256.hpp"
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

nlohmann::json geth_vectors() {
    return testutil::load_json(testutil::vectors_dir("rlpx") / "ecies_geth.json");
}

nlohmann::json eip8_vectors() {
    return testutil::load_json(testutil::vectors_dir("rlpx") / "eip8_handshake.json");
}

struct KeyPair {
    Bytes32 secret;
    PublicKey pub;
};

KeyPair key_pair(std::mt19937_64& rng) {
    const Bytes32 s = testutil::random_secret(rng, secp::kOrder);
    return {s, secp::public_key_of(s).value()};
}

EciesRandom fixed_random(std::mt19937_64& rng) {
    EciesRandom r;
    r.ephemeral_secret = testutil::random_secret(rng, secp::kOrder);
    for (auto& b : r.iv.bytes) b = static_cast<std::uint8_t>(rng());
    return r;
}

TEST(EciesKdf, GethVectors) {
    const auto v = geth_vectors().at("concat_kdf_sha256");
    const std::string input = v.at("input_utf8").get<std::string>();
    const auto& cases = v.at("cases");
    ASSERT_EQ(cases.size(), 4u);
    for (const auto& c : cases) {
        const std::size_t n = c.at("length").get<std::size_t>();
        Bytes out(n);
        concat_kdf_sha256(as_bytes(input), out);
        EXPECT_EQ(hex::encode(out), c.at("output").get<std::string>()) << "length " << n;
    }
}

TEST(EciesKdf, KeysSplitTheKdfOutput) {
    const Bytes32 z =
        fixed_from_hex<Bytes32>("167ccc13ac5e8a26b131c3446030c60fbfac6aa8e31149d0869f93626a4cdf62");
    Bytes k(32);
    concat_kdf_sha256(z.view(), k);
    const EciesKeys keys = ecies_keys(z);
    EXPECT_EQ(hex::encode(keys.enc.view()), hex::encode(BytesView(k).first(16)));
    EXPECT_EQ(keys.mac, crypto::sha256(BytesView(k).subspan(16)));
    // Zero-length output writes nothing.
    concat_kdf_sha256(z.view(), MutableBytesView());
}

TEST(Ecies, DecryptsThePreEip8HandshakePackets) {
    // Auth1 and Ack1 of EIP-8 are bare ECIES packets (no prefix, empty shared MAC data) made by
    // another implementation: decrypting them is a known-answer test of the whole scheme.
    const auto v = eip8_vectors();
    const auto& keys = v.at("keys");
    const auto& auth1 = v.at("auth").at(0);
    const auto& ack1 = v.at("ack").at(0);
    ASSERT_EQ(auth1.at("name"), "Auth1");
    ASSERT_EQ(ack1.at("name"), "Ack1");
    const auto b = fixed_of<Bytes32>(keys.at("static_priv_B"));
    const auto a = fixed_of<Bytes32>(keys.at("static_priv_A"));

    auto plain = ecies_decrypt(b, hex_bytes(auth1.at("packet")), {});
    ASSERT_TRUE(plain.has_value()) << to_string(plain.error());
    EXPECT_EQ(hex::encode(*plain), auth1.at("expected_plaintext").get<std::string>());

    plain = ecies_decrypt(a, hex_bytes(ack1.at("packet")), {});
    ASSERT_TRUE(plain.has_value()) << to_string(plain.error());
    EXPECT_EQ(hex::encode(*plain), ack1.at("expected_plaintext").get<std::string>());

    // Anyone else's key: the tag does not match.
    EXPECT_EQ(ecies_decrypt(a, hex_bytes(auth1.at("packet")), {}).error().code, EciesErrc::bad_mac);
}

TEST(Ecies, DecryptsTheEip8PacketsWithTheirPrefixAsMacData) {
    const auto v = eip8_vectors();
    const auto b = fixed_of<Bytes32>(v.at("keys").at("static_priv_B"));
    for (const auto& auth : v.at("auth")) {
        if (auth.at("name") == "Auth1") continue;
        const Bytes packet = hex_bytes(auth.at("packet"));
        const Bytes mac_data = hex_bytes(auth.at("shared_mac_data"));
        ASSERT_EQ(hex::encode(BytesView(packet).first(2)), hex::encode(mac_data));
        const BytesView ecies = BytesView(packet).subspan(2);
        auto plain = ecies_decrypt(b, ecies, mac_data);
        ASSERT_TRUE(plain.has_value()) << to_string(plain.error());
        EXPECT_EQ(plain->size(), ecies.size() - kEciesOverhead);
        EXPECT_GE(plain->front(), 0xf8);  // an RLP list of more than 55 bytes
        // The prefix is authenticated: without it, or with another one, the tag fails.
        EXPECT_EQ(ecies_decrypt(b, ecies, {}).error().code, EciesErrc::bad_mac);
        const Bytes other{mac_data[0], static_cast<std::uint8_t>(mac_data[1] ^ 1)};
        EXPECT_EQ(ecies_decrypt(b, ecies, other).error().code, EciesErrc::bad_mac);
    }
}

TEST(Ecies, PacketLayout) {
    // 0x04 || R(64) || iv(16) || AES-128-CTR(kE, iv, m) || HMAC-SHA256(kM, iv || c || s2)(32).
    const auto v = geth_vectors();
    ASSERT_TRUE(v.contains("packet_layout"));
    std::mt19937_64 rng(1);
    const KeyPair to = key_pair(rng);
    const EciesRandom r = fixed_random(rng);
    const Bytes msg = testutil::seeded_bytes(100, 3);
    const Bytes mac_data = {0x01, 0xb3};
    auto packet = ecies_encrypt(to.pub, msg, mac_data, r);
    ASSERT_TRUE(packet.has_value()) << to_string(packet.error());
    ASSERT_EQ(packet->size(), msg.size() + 113);
    EXPECT_EQ(kEciesOverhead, 113u);
    const BytesView p = *packet;
    EXPECT_EQ(p[0], 0x04);
    EXPECT_EQ(hex::encode(p.subspan(1, 64)),
              hex::encode(secp::public_key_of(r.ephemeral_secret).value().view()));
    EXPECT_EQ(hex::encode(p.subspan(65, 16)), hex::encode(r.iv.view()));

    // Recompute the keys from the recipient's side and check the tag with crypto::hmac_sha256.
    const Bytes32 z = secp::ecdh_x(to.secret, *PublicKey::from(p.subspan(1, 64))).value();
    EXPECT_EQ(z, secp::ecdh_x(r.ephemeral_secret, to.pub).value());
    const EciesKeys keys = ecies_keys(z);
    Bytes tagged(p.begin() + 65, p.end() - 32);
    tagged.insert(tagged.end(), mac_data.begin(), mac_data.end());
    EXPECT_EQ(hex::encode(p.last(32)), hex::encode(crypto::hmac_sha256(keys.mac, tagged).view()));

    // CTR is a stream cipher: the same inputs with another message give c ^ c' = m ^ m'.
    Bytes msg2 = msg;
    msg2[0] ^= 0xff;
    msg2[99] ^= 0x5a;
    const Bytes packet2 = ecies_encrypt(to.pub, msg2, mac_data, r).value();
    for (std::size_t i = 0; i < msg.size(); ++i)
        EXPECT_EQ(p[81 + i] ^ packet2[81 + i], msg[i] ^ msg2[i]) << i;
    // Deterministic for fixed random inputs.
    EXPECT_EQ(ecies_encrypt(to.pub, msg, mac_data, r).value(), *packet);
}

TEST(Ecies, RoundTrips) {
    std::mt19937_64 rng(2);
    for (std::size_t n : {0, 1, 15, 16, 17, 31, 32, 33, 255, 1000, 4096}) {
        const KeyPair to = key_pair(rng);
        const Bytes msg = testutil::seeded_bytes(n, static_cast<std::uint32_t>(n));
        const Bytes mac_data = testutil::seeded_bytes(n % 7, 9);
        auto packet = ecies_encrypt(to.pub, msg, mac_data, fixed_random(rng));
        ASSERT_TRUE(packet.has_value());
        auto plain = ecies_decrypt(to.secret, *packet, mac_data);
        ASSERT_TRUE(plain.has_value()) << n << ": " << to_string(plain.error());
        EXPECT_EQ(*plain, msg) << n;
        // decrypt_to into a larger buffer reports the size.
        Bytes big(n + 10, 0xee);
        auto size = ecies_decrypt_to(to.secret, *packet, mac_data, big);
        ASSERT_TRUE(size.has_value());
        EXPECT_EQ(*size, n);
        EXPECT_TRUE(std::equal(msg.begin(), msg.end(), big.begin()));
        EXPECT_EQ(big[n], 0xee);
    }
}

TEST(Ecies, FreshRandomnessEachTime) {
    std::mt19937_64 rng(3);
    const KeyPair to = key_pair(rng);
    const Bytes msg = testutil::seeded_bytes(50);
    auto a = ecies_encrypt(to.pub, msg, {});
    auto b = ecies_encrypt(to.pub, msg, {});
    ASSERT_TRUE(a && b);
    EXPECT_NE(*a, *b);
    EXPECT_EQ(ecies_decrypt(to.secret, *a, {}).value(), msg);
    EXPECT_EQ(ecies_decrypt(to.secret, *b, {}).value(), msg);
    auto r = random_ecies_inputs();
    ASSERT_TRUE(r.has_value());
    EXPECT_TRUE(secp::is_valid_secret_key(r->ephemeral_secret));
}

class EciesBadPacket : public ::testing::Test {
  protected:
    void SetUp() override {
        std::mt19937_64 rng(11);
        to_ = key_pair(rng);
        packet_ = ecies_encrypt(to_.pub, msg_, mac_data_, fixed_random(rng)).value();
        ASSERT_EQ(ecies_decrypt(to_.secret, packet_, mac_data_).value(), msg_);
    }

    EciesError decrypt_error(BytesView packet) const {
        auto r = ecies_decrypt(to_.secret, packet, mac_data_);
        EXPECT_FALSE(r.has_value());
        if (r) return {};
        // Every error is one line naming what was wrong and where.
        const std::string line = to_string(r.error());
        EXPECT_EQ(line.find('\n'), std::string::npos);
        EXPECT_NE(line.find(" at offset "), std::string::npos);
        return r.error();
    }

    KeyPair to_;
    Bytes msg_ = testutil::seeded_bytes(40, 5);
    Bytes mac_data_ = {0x00, 0x99};
    Bytes packet_;
};

TEST_F(EciesBadPacket, TooShort) {
    for (std::size_t n : {0, 1, 65, 81, 112}) {
        const EciesError e = decrypt_error(BytesView(packet_).first(n));
        EXPECT_EQ(e.code, EciesErrc::too_short) << n;
        EXPECT_EQ(e.offset, n);
    }
    // Exactly the overhead: an empty message, whose tag here cannot match.
    EXPECT_EQ(decrypt_error(BytesView(packet_).first(113)).code, EciesErrc::bad_mac);
}

TEST_F(EciesBadPacket, WrongKeyPrefix) {
    for (std::uint8_t tag : {0x00, 0x02, 0x03, 0x05, 0x06, 0x07, 0xff}) {
        Bytes p = packet_;
        p[0] = tag;
        EXPECT_EQ(decrypt_error(p), (EciesError{EciesErrc::bad_key_prefix, 0})) << int(tag);
    }
}

TEST_F(EciesBadPacket, InvalidCurvePointsAreRejectedBeforeEcdh) {
    // R off secp256k1 (the invalid-curve oracle of go-ethereum c974722dc0): y off by one, all
    // zeros (infinity's stand-in), x = 1 with y = 1, and coordinates not below p.
    std::vector<Bytes> bad_rs;
    Bytes r(packet_.begin() + 1, packet_.begin() + 65);
    r[63] ^= 1;
    bad_rs.push_back(r);
    bad_rs.push_back(Bytes(64, 0));
    Bytes one(64, 0);
    one[31] = 1;
    one[63] = 1;
    bad_rs.push_back(one);
    bad_rs.push_back(Bytes(64, 0xff));
    Bytes x_is_p(packet_.begin() + 1, packet_.begin() + 65);
    secp::kPrime.to_be_bytes(x_is_p.data());
    bad_rs.push_back(x_is_p);
    for (const Bytes& bad : bad_rs) {
        Bytes p = packet_;
        std::copy(bad.begin(), bad.end(), p.begin() + 1);
        EXPECT_EQ(decrypt_error(p), (EciesError{EciesErrc::invalid_public_key, 1}));
    }
}

TEST_F(EciesBadPacket, AnyChangedByteFailsTheTag) {
    // R (to another valid point), iv, ciphertext and tag are all covered.
    const std::size_t tag_at = packet_.size() - 32;
    for (std::size_t i = 65; i < packet_.size(); ++i) {
        Bytes p = packet_;
        p[i] ^= 0x01;
        EXPECT_EQ(decrypt_error(p), (EciesError{EciesErrc::bad_mac, tag_at})) << i;
    }
    // Another valid R: the ECDH gives another key, so the tag fails too.
    std::mt19937_64 rng(12);
    Bytes p = packet_;
    const PublicKey other = key_pair(rng).pub;
    std::copy(other.begin(), other.end(), p.begin() + 1);
    EXPECT_EQ(decrypt_error(p).code, EciesErrc::bad_mac);
    // Extra or missing bytes at the end move the tag.
    p = packet_;
    p.push_back(0);
    EXPECT_EQ(decrypt_error(p).code, EciesErrc::bad_mac);
    EXPECT_EQ(decrypt_error(BytesView(packet_).first(packet_.size() - 1)).code, EciesErrc::bad_mac);
}

TEST_F(EciesBadPacket, WrongSharedMacDataOrKey) {
    auto r = ecies_decrypt(to_.secret, packet_, {});
    EXPECT_EQ(r.error().code, EciesErrc::bad_mac);
    std::mt19937_64 rng(13);
    r = ecies_decrypt(key_pair(rng).secret, packet_, mac_data_);
    EXPECT_EQ(r.error().code, EciesErrc::bad_mac);
    r = ecies_decrypt(Bytes32{}, packet_, mac_data_);
    EXPECT_EQ(r.error(), (EciesError{EciesErrc::invalid_secret_key, 0}));
    r = ecies_decrypt(secp::kOrder.to_bytes32(), packet_, mac_data_);
    EXPECT_EQ(r.error().code, EciesErrc::invalid_secret_key);
}

TEST(Ecies, EncryptRejectsBadKeys) {
    std::mt19937_64 rng(14);
    const KeyPair to = key_pair(rng);
    EciesRandom r = fixed_random(rng);
    PublicKey off = to.pub;
    off[63] ^= 1;
    EXPECT_EQ(ecies_encrypt(off, Bytes{1, 2, 3}, {}, r).error(),
              (EciesError{EciesErrc::invalid_public_key, 0}));
    EXPECT_EQ(ecies_encrypt(PublicKey{}, Bytes{1, 2, 3}, {}).error().code,
              EciesErrc::invalid_public_key);
    r.ephemeral_secret = Bytes32{};
    EXPECT_EQ(ecies_encrypt(to.pub, Bytes{1, 2, 3}, {}, r).error(),
              (EciesError{EciesErrc::invalid_secret_key, 0}));
}

TEST(Ecies, EveryErrorHasItsOwnMessage) {
    const EciesErrc all[] = {EciesErrc::too_short,          EciesErrc::bad_key_prefix,
                             EciesErrc::invalid_public_key, EciesErrc::bad_mac,
                             EciesErrc::invalid_secret_key, EciesErrc::random_failed,
                             EciesErrc::cipher_failed};
    for (std::size_t i = 0; i < std::size(all); ++i) {
        EXPECT_FALSE(describe(all[i]).empty());
        EXPECT_NE(describe(all[i]), "unknown ECIES error");
        for (std::size_t j = 0; j < i; ++j) EXPECT_NE(describe(all[i]), describe(all[j]));
    }
    EXPECT_EQ(to_string(EciesError{EciesErrc::bad_mac, 7}),
              "ECIES message authentication code does not match at offset 7");
}

}  // namespace
}  // namespace keel::rlpx
