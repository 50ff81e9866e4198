#include "keel/crypto/secp256k1.hpp"

#include <gtest/gtest.h>

#include <secp256k1.h>
#include <secp256k1_recovery.h>

#include <cstring>
#include <random>

#include "keel/crypto/keccak.hpp"
#include "test/testutil/data.hpp"
#include "test/testutil/hex.hpp"
#include "test/testutil/vectors.hpp"

namespace keel::crypto::secp256k1 {
namespace {

using testutil::fixed_from_hex;
using testutil::random_hash;
using testutil::random_secret;
using testutil::uint256_from_string;

Bytes32 secret_of(std::uint64_t k) {
    return Uint256(k).to_bytes32();
}

// The EIP-155 example (https://eips.ethereum.org/EIPS/eip-155#example): secret 0x4646...46 signs
// nonce 9, gas price 20 gwei, gas 21000, to 0x3535...35, value 10^18, chain id 1.
const Hash32 kEip155Hash =
    fixed_from_hex<Hash32>("0xdaf5a779ae972f972197303d7b574746c7ef83eadac0f2791ad23db92e4c8e53");
const Uint256 kEip155R = uint256_from_string(
    "18515461264373351373200002665853028612451056578545711640558177340181847433846");
const Uint256 kEip155S = uint256_from_string(
    "46948507304638947509940763649030358759909902576025900602547168820602576006531");
constexpr std::uint8_t kEip155Parity = 0;  // v = 37 = 1 * 2 + 35 + 0
const Address kEip155Sender = fixed_from_hex<Address>("0x9d8A62f656a8d1615C1294fd71e9CFb3E4855A4F");
const Bytes32 kEip155Secret =
    fixed_from_hex<Bytes32>("0x4646464646464646464646464646464646464646464646464646464646464646");

TEST(Secp256k1, Constants) {
    EXPECT_EQ(kOrder.to_hex(),
              "0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141");
    EXPECT_EQ(kPrime.to_hex(),
              "0xfffffffffffffffffffffffffffffffffffffffffffffffffffffffefffffc2f");
    EXPECT_EQ(kHalfOrder.to_hex(),
              "0x7fffffffffffffffffffffffffffffff5d576e7357a4501ddfe92f46681b20a0");
}

TEST(Secp256k1, Eip155ExampleRecoversItsSender) {
    auto a = recover_address(kEip155Hash, kEip155R, kEip155S, kEip155Parity);
    ASSERT_TRUE(a.has_value()) << describe(a.error());
    EXPECT_EQ(*a, kEip155Sender);
    // The other parity is a different point, so a different (valid or invalid) key.
    auto other = recover_address(kEip155Hash, kEip155R, kEip155S, 1);
    EXPECT_TRUE(!other || *other != kEip155Sender);
}

TEST(Secp256k1, Eip155ExampleSignatureIsRfc6979) {
    auto sig = sign_recoverable(kEip155Hash, kEip155Secret);
    ASSERT_TRUE(sig.has_value());
    EXPECT_EQ(sig->r, kEip155R);
    EXPECT_EQ(sig->s, kEip155S);
    EXPECT_EQ(sig->recovery_id, kEip155Parity);
    EXPECT_EQ(address_of(kEip155Secret).value(), kEip155Sender);
}

TEST(Secp256k1, WellKnownKeyAddresses) {
    EXPECT_EQ(address_of(secret_of(1)).value(),
              fixed_from_hex<Address>("0x7E5F4552091A69125d5DfCb7b8C2659029395Bdf"));
    EXPECT_EQ(address_of(secret_of(2)).value(),
              fixed_from_hex<Address>("0x2B5AD5c4795c026514f8317c7a215E218DcCD6cF"));
    // Key 1 is the generator G (SEC 2 §2.4.1).
    EXPECT_EQ(public_key_of(secret_of(1)).value(),
              fixed_from_hex<PublicKey>(
                  "0x79be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798"
                  "483ada7726a3c4655da4fbfc0e1108a8fd17b448a68554199c47d08ffb10d4b8"));
}

TEST(Secp256k1, SignRecoverRoundTrips) {
    std::mt19937_64 rng(155);
    for (int i = 0; i < 200; ++i) {
        const Bytes32 secret = random_secret(rng, kOrder);
        const Hash32 msg = random_hash(rng);
        auto sig = sign_recoverable(msg, secret);
        ASSERT_TRUE(sig.has_value());
        EXPECT_LE(sig->s, kHalfOrder) << "libsecp256k1 signs with low s";
        EXPECT_LE(sig->recovery_id, 1);
        auto key = recover_public_key(msg, sig->r, sig->s, sig->recovery_id);
        ASSERT_TRUE(key.has_value()) << describe(key.error());
        EXPECT_EQ(*key, public_key_of(secret).value());
        auto addr = recover_address(msg, sig->r, sig->s, sig->recovery_id);
        ASSERT_TRUE(addr.has_value());
        EXPECT_EQ(*addr, address_of(secret).value());
        EXPECT_EQ(*addr, public_key_to_address(*key));
        // A different message recovers to some other key.
        Hash32 other = msg;
        other[31] ^= 1;
        auto wrong = recover_address(other, sig->r, sig->s, sig->recovery_id);
        EXPECT_TRUE(!wrong || *wrong != *addr);
    }
}

TEST(Secp256k1, AgreesWithBareLibsecp256k1) {
    // The same recovery through libsecp256k1's API directly, on its own context.
    secp256k1_context* ctx = secp256k1_context_create(SECP256K1_CONTEXT_NONE);
    ASSERT_NE(ctx, nullptr);
    std::mt19937_64 rng(7);
    for (int i = 0; i < 50; ++i) {
        const Bytes32 secret = random_secret(rng, kOrder);
        const Hash32 msg = random_hash(rng);
        secp256k1_ecdsa_recoverable_signature sig;
        ASSERT_EQ(secp256k1_ecdsa_sign_recoverable(ctx, &sig, msg.data(), secret.data(), nullptr,
                                                   nullptr),
                  1);
        std::uint8_t compact[64];
        int recid = 0;
        secp256k1_ecdsa_recoverable_signature_serialize_compact(ctx, compact, &recid, &sig);
        secp256k1_pubkey pk;
        ASSERT_EQ(secp256k1_ecdsa_recover(ctx, &pk, &sig, msg.data()), 1);
        std::uint8_t ser[65];
        std::size_t len = sizeof ser;
        secp256k1_ec_pubkey_serialize(ctx, ser, &len, &pk, SECP256K1_EC_UNCOMPRESSED);
        Address expected;
        std::memcpy(expected.data(), keccak256(BytesView(ser + 1, 64)).data() + 12, 20);

        auto got = recover_address(msg, Uint256::load_be(compact), Uint256::load_be(compact + 32),
                                   static_cast<std::uint8_t>(recid));
        ASSERT_TRUE(got.has_value());
        EXPECT_EQ(*got, expected);
    }
    secp256k1_context_destroy(ctx);
}

// Checks the recovery equation r Q = s R - e G (SEC 1 §4.1.6 step 1.6) for a recovered Q with
// libsecp256k1's point arithmetic, R given as its x and y parity. Works for every recovery id.
void expect_recovery_equation(const Uint256& x, std::uint8_t parity, const Hash32& msg,
                              const Uint256& r, const Uint256& s, const PublicKey& q) {
    secp256k1_context* ctx = secp256k1_context_create(SECP256K1_CONTEXT_NONE);
    std::uint8_t buf[65];
    buf[0] = static_cast<std::uint8_t>(0x02 | parity);
    x.to_be_bytes(buf + 1);
    secp256k1_pubkey big_r, s_r, r_q, e_g, sum;
    ASSERT_EQ(secp256k1_ec_pubkey_parse(ctx, &big_r, buf, 33), 1);
    buf[0] = 0x04;
    std::memcpy(buf + 1, q.data(), 64);
    ASSERT_EQ(secp256k1_ec_pubkey_parse(ctx, &r_q, buf, 65), 1);
    s_r = big_r;
    ASSERT_EQ(secp256k1_ec_pubkey_tweak_mul(ctx, &s_r, s.to_bytes32().data()), 1);
    ASSERT_EQ(secp256k1_ec_pubkey_tweak_mul(ctx, &r_q, r.to_bytes32().data()), 1);
    const Uint256 e = Uint256::from_be_bytes(msg);  // below n in these tests
    ASSERT_EQ(secp256k1_ec_pubkey_create(ctx, &e_g, e.to_bytes32().data()), 1);
    const secp256k1_pubkey* parts[] = {&r_q, &e_g};
    ASSERT_EQ(secp256k1_ec_pubkey_combine(ctx, &sum, parts, 2), 1);
    EXPECT_EQ(secp256k1_ec_pubkey_cmp(ctx, &sum, &s_r), 0);
    secp256k1_context_destroy(ctx);
}

TEST(Secp256k1, RecoveryIdsAboveOneUseXPlusN) {
    // Bit 1 of the id says R.x = r + n, possible only for r < p - n (~2^128), so no real
    // signature shows it; build R with x >= n directly and check the recovery equation.
    std::mt19937_64 rng(23);
    int checked = 0;
    for (std::uint64_t k = 1; checked < 6 && k < 100; ++k) {
        const Uint256 x = kOrder + k;
        const Hash32 msg = (Uint256::from_be_bytes(random_hash(rng)) >> 8).to_bytes32();  // e < n
        const Uint256 s = Uint256::from_be_bytes(random_hash(rng)) >> 1;
        for (std::uint8_t parity : {0, 1}) {
            auto q = recover_public_key(msg, k, s, static_cast<std::uint8_t>(2 | parity));
            if (!q) {
                EXPECT_EQ(q.error(), SigError::no_public_key);  // x not on the curve
                continue;
            }
            expect_recovery_equation(x, parity, msg, k, s, *q);
            // Without bit 1 the same r is another point (or none).
            auto low = recover_public_key(msg, k, s, parity);
            EXPECT_TRUE(!low || *low != *q);
            ++checked;
        }
    }
    EXPECT_EQ(checked, 6);
}

TEST(Secp256k1, RecoveryEquationHoldsForOrdinaryIds) {
    auto q = recover_public_key(kEip155Hash, kEip155R, kEip155S, kEip155Parity);
    ASSERT_TRUE(q.has_value());
    // e = the hash as a number; it is below n here.
    ASSERT_LT(Uint256::from_be_bytes(kEip155Hash), kOrder);
    // R.x = r and R's y parity = the id's bit 0.
    expect_recovery_equation(kEip155R, kEip155Parity, kEip155Hash, kEip155R, kEip155S, *q);
}

TEST(Secp256k1, HighSIsRecoverable) {
    // (r, n - s) with the other parity is the same signature (EIP-2's malleability): recovery
    // accepts it; rejecting it is a transaction-validity rule (is_low_s()).
    auto a = recover_address(kEip155Hash, kEip155R, kOrder - kEip155S, kEip155Parity ^ 1);
    ASSERT_TRUE(a.has_value());
    EXPECT_EQ(*a, kEip155Sender);
}

TEST(Secp256k1, RejectsOutOfRangeValues) {
    const Hash32& m = kEip155Hash;
    const Uint256& r = kEip155R;
    const Uint256& s = kEip155S;
    EXPECT_EQ(recover_address(m, 0, s, 0).error(), SigError::invalid_r);
    EXPECT_EQ(recover_address(m, kOrder, s, 0).error(), SigError::invalid_r);
    EXPECT_EQ(recover_address(m, kOrder + 1, s, 0).error(), SigError::invalid_r);
    EXPECT_EQ(recover_address(m, kPrime, s, 0).error(), SigError::invalid_r);
    EXPECT_EQ(recover_address(m, Uint256::max(), s, 0).error(), SigError::invalid_r);
    EXPECT_EQ(recover_address(m, r, 0, 0).error(), SigError::invalid_s);
    EXPECT_EQ(recover_address(m, r, kOrder, 0).error(), SigError::invalid_s);
    EXPECT_EQ(recover_address(m, r, Uint256::max(), 1).error(), SigError::invalid_s);
    EXPECT_EQ(recover_address(m, r, s, 4).error(), SigError::invalid_recovery_id);
    EXPECT_EQ(recover_address(m, r, s, 27).error(), SigError::invalid_recovery_id);
    EXPECT_EQ(recover_address(m, r, s, 255).error(), SigError::invalid_recovery_id);
    // r is checked first, then s, then the id.
    EXPECT_EQ(recover_address(m, 0, 0, 9).error(), SigError::invalid_r);
    EXPECT_EQ(recover_address(m, r, 0, 9).error(), SigError::invalid_s);
    // The largest valid values pass the range checks.
    auto edge = recover_public_key(m, kOrder - 1, kOrder - 1, 0);
    EXPECT_TRUE(edge || edge.error() == SigError::no_public_key);
}

TEST(Secp256k1, RejectsAnRWhoseXIsNotOnTheCurve) {
    // 5^3 + 7 = 132 is not a square mod p, so no point has x = 5 (checked with Euler's criterion
    // when writing this test): r = 5 is in range but recovers nothing, for either parity.
    for (std::uint8_t id : {0, 1})
        EXPECT_EQ(recover_address(kEip155Hash, 5, kEip155S, id).error(), SigError::no_public_key);
}

TEST(Secp256k1, RejectsAnXAboveThePrime) {
    // Ids 2 and 3 use x = r + n, which must stay below p: p - n is about 2^128.
    const Uint256 r = kPrime - kOrder;  // x = p
    for (std::uint8_t id : {2, 3})
        EXPECT_EQ(recover_address(kEip155Hash, r, kEip155S, id).error(), SigError::no_public_key);
    EXPECT_EQ(recover_address(kEip155Hash, kEip155R, kEip155S, 2).error(), SigError::no_public_key);
}

TEST(Secp256k1, RejectsBadSecretKeys) {
    const Hash32 m = kEip155Hash;
    EXPECT_EQ(sign_recoverable(m, Bytes32{}).error(), SigError::invalid_secret_key);
    EXPECT_EQ(sign_recoverable(m, kOrder.to_bytes32()).error(), SigError::invalid_secret_key);
    EXPECT_EQ(public_key_of(Uint256::max().to_bytes32()).error(), SigError::invalid_secret_key);
    EXPECT_EQ(address_of(Bytes32{}).error(), SigError::invalid_secret_key);
    EXPECT_TRUE(address_of((kOrder - 1).to_bytes32()).has_value());
}

// --- ECDH and public-key validation (RLPx ECIES) ---

nlohmann::json ecies_vectors() {
    return testutil::load_json(testutil::vectors_dir("rlpx") / "ecies_geth.json");
}

template <class Fixed>
Fixed fixed_of(const nlohmann::json& v) {
    return fixed_from_hex<Fixed>(v.get<std::string>());
}

TEST(Secp256k1Ecdh, GethSharedKeyStatic) {
    // go-ethereum crypto/ecies TestSharedKeyStatic: x of priv1 * pub2, either way round.
    const auto v = ecies_vectors().at("ecdh_shared_static");
    const auto priv1 = fixed_of<Bytes32>(v.at("priv1"));
    const auto priv2 = fixed_of<Bytes32>(v.at("priv2"));
    const auto expected = fixed_of<Bytes32>(v.at("shared_x"));
    auto ab = ecdh_x(priv1, public_key_of(priv2).value());
    auto ba = ecdh_x(priv2, public_key_of(priv1).value());
    ASSERT_TRUE(ab.has_value()) << describe(ab.error());
    ASSERT_TRUE(ba.has_value()) << describe(ba.error());
    EXPECT_EQ(*ab, expected);
    EXPECT_EQ(*ba, expected);
}

TEST(Secp256k1Ecdh, GethLeadingZeroKey) {
    // go-ethereum TestSharedKeyPadding: a secret with a leading zero byte, and both sides agree
    // on a full 32-byte x.
    const auto v = ecies_vectors().at("pubkey_padding");
    const auto priv0 = fixed_of<Bytes32>(v.at("priv0"));
    const auto priv1 = fixed_of<Bytes32>(v.at("priv1"));
    EXPECT_EQ(priv1[0], 0);
    const PublicKey pub0 = fixed_from_hex<PublicKey>(v.at("pub0_x").get<std::string>() +
                                                     v.at("pub0_y").get<std::string>());
    const PublicKey pub1 = fixed_from_hex<PublicKey>(v.at("pub1_x").get<std::string>() +
                                                     v.at("pub1_y").get<std::string>());
    EXPECT_EQ(public_key_of(priv0).value(), pub0);
    EXPECT_EQ(public_key_of(priv1).value(), pub1);
    auto a = ecdh_x(priv0, pub1);
    auto b = ecdh_x(priv1, pub0);
    ASSERT_TRUE(a && b);
    EXPECT_EQ(*a, *b);
}

TEST(Secp256k1Ecdh, RethVector) {
    const auto v = ecies_vectors().at("ecdh_reth");
    auto x = ecdh_x(fixed_of<Bytes32>(v.at("our_secret")), fixed_of<PublicKey>(v.at("remote_pub")));
    ASSERT_TRUE(x.has_value()) << describe(x.error());
    EXPECT_EQ(*x, fixed_of<Bytes32>(v.at("shared_x")));
}

TEST(Secp256k1Ecdh, Eip8EphemeralAgreement) {
    // The EIP-8 handshake's ephemeral ECDH, computed from both ends.
    const auto v = testutil::load_json(testutil::vectors_dir("rlpx") / "eip8_handshake.json");
    const auto& k = v.at("keys");
    const auto eph_a = fixed_of<Bytes32>(k.at("ephemeral_priv_A"));
    const auto eph_b = fixed_of<Bytes32>(k.at("ephemeral_priv_B"));
    EXPECT_EQ(public_key_of(eph_a).value(), fixed_of<PublicKey>(k.at("ephemeral_pub_A")));
    EXPECT_EQ(public_key_of(eph_b).value(), fixed_of<PublicKey>(k.at("ephemeral_pub_B")));
    const auto expected = fixed_of<Bytes32>(
        v.at("secrets_Auth2_Ack2").at("intermediate_derived_here").at("ecdhe_shared_x"));
    EXPECT_EQ(ecdh_x(eph_b, fixed_of<PublicKey>(k.at("ephemeral_pub_A"))).value(), expected);
    EXPECT_EQ(ecdh_x(eph_a, fixed_of<PublicKey>(k.at("ephemeral_pub_B"))).value(), expected);
}

TEST(Secp256k1Ecdh, RandomKeysAgree) {
    std::mt19937_64 rng(4);
    for (int i = 0; i < 50; ++i) {
        const Bytes32 a = random_secret(rng, kOrder);
        const Bytes32 b = random_secret(rng, kOrder);
        auto ab = ecdh_x(a, public_key_of(b).value());
        auto ba = ecdh_x(b, public_key_of(a).value());
        ASSERT_TRUE(ab && ba);
        EXPECT_EQ(*ab, *ba);
    }
    // 1 * P = P: the x of the point itself.
    const PublicKey g = public_key_of(secret_of(1)).value();
    const Bytes32 seven = secret_of(7);
    EXPECT_EQ(ecdh_x(secret_of(1), public_key_of(seven).value()).value(),
              Bytes32::from(public_key_of(seven).value().view().first(32)).value());
    EXPECT_EQ(ecdh_x(seven, g).value(),
              Bytes32::from(public_key_of(seven).value().view().first(32)).value());
}

// Keys that are not on secp256k1 (the invalid-curve attack sends such points as ECIES R).
std::vector<PublicKey> off_curve_keys() {
    std::vector<PublicKey> out;
    out.push_back(PublicKey{});  // (0, 0): also the conventional stand-in for infinity
    PublicKey g = public_key_of(secret_of(1)).value();
    g[63] ^= 1;  // G with y off by one
    out.push_back(g);
    // x = 1, y = 1: on y^2 = x^3 + b only for b = 0, not b = 7.
    PublicKey one{};
    one[31] = 1;
    one[63] = 1;
    out.push_back(one);
    // Coordinates of x = p (not below p), y from G.
    PublicKey big = public_key_of(secret_of(1)).value();
    kPrime.to_be_bytes(big.data());
    out.push_back(big);
    // All 0xff: both coordinates above p.
    PublicKey ff;
    std::memset(ff.data(), 0xff, 64);
    out.push_back(ff);
    return out;
}

TEST(Secp256k1Ecdh, RejectsPointsOffTheCurve) {
    const Bytes32 secret = secret_of(12345);
    for (const PublicKey& bad : off_curve_keys()) {
        EXPECT_EQ(validate_public_key(bad).error(), KeyError::invalid_public_key);
        EXPECT_EQ(parse_public_key(bad.view()).error(), KeyError::invalid_public_key);
        EXPECT_EQ(ecdh_x(secret, bad).error(), KeyError::invalid_public_key);
    }
}

TEST(Secp256k1Ecdh, RejectsBadSecrets) {
    const PublicKey g = public_key_of(secret_of(1)).value();
    EXPECT_EQ(ecdh_x(Bytes32{}, g).error(), KeyError::invalid_secret_key);
    EXPECT_EQ(ecdh_x(kOrder.to_bytes32(), g).error(), KeyError::invalid_secret_key);
    // The secret is checked before the key.
    EXPECT_EQ(ecdh_x(Bytes32{}, PublicKey{}).error(), KeyError::invalid_secret_key);
    EXPECT_FALSE(is_valid_secret_key(Bytes32{}));
    EXPECT_FALSE(is_valid_secret_key(kOrder.to_bytes32()));
    EXPECT_TRUE(is_valid_secret_key((kOrder - 1).to_bytes32()));
    EXPECT_TRUE(ecdh_x((kOrder - 1).to_bytes32(), g).has_value());
    EXPECT_FALSE(describe(KeyError::invalid_public_key).empty());
    EXPECT_NE(describe(KeyError::invalid_public_key), describe(KeyError::invalid_secret_key));
}

TEST(Secp256k1Ecdh, ParsesBothWireForms) {
    const PublicKey g = public_key_of(secret_of(1)).value();
    EXPECT_EQ(parse_public_key(g.view()).value(), g);
    Bytes tagged{0x04};
    tagged.insert(tagged.end(), g.begin(), g.end());
    EXPECT_EQ(parse_public_key(tagged).value(), g);
    tagged[0] = 0x02;  // a compressed tag on 65 bytes
    EXPECT_EQ(parse_public_key(tagged).error(), KeyError::invalid_public_key);
    tagged[0] = 0x06;  // hybrid encodings are not used on the wire
    EXPECT_EQ(parse_public_key(tagged).error(), KeyError::invalid_public_key);
    for (std::size_t n : {0, 1, 33, 63, 66})
        EXPECT_EQ(parse_public_key(Bytes(n, 0x04)).error(), KeyError::invalid_public_key) << n;
    EXPECT_TRUE(validate_public_key(g).has_value());
}

TEST(Secp256k1Ecdh, GeneratesValidDistinctKeys) {
    auto a = generate_secret_key();
    auto b = generate_secret_key();
    ASSERT_TRUE(a && b);
    EXPECT_TRUE(is_valid_secret_key(*a));
    EXPECT_TRUE(is_valid_secret_key(*b));
    EXPECT_NE(*a, *b);
}

}  // namespace
}  // namespace keel::crypto::secp256k1
