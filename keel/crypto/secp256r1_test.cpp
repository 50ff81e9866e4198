#include "keel/crypto/secp256r1.hpp"

#include <gtest/gtest.h>

#include <openssl/core_names.h>
#include <openssl/ec.h>
#include <openssl/evp.h>
#include <openssl/param_build.h>

#include <cstring>
#include <memory>
#include <random>
#include <stdexcept>

#include "keel/crypto/sha256.hpp"
#include "test/testutil/data.hpp"
#include "test/testutil/hex.hpp"

namespace keel::crypto::secp256r1 {
namespace {

using testutil::fixed_from_hex;
using testutil::random_hash;
using testutil::random_secret;
using testutil::uint256_from_string;

struct PkeyFree {
    void operator()(EVP_PKEY* p) const { EVP_PKEY_free(p); }
};
struct PkeyCtxFree {
    void operator()(EVP_PKEY_CTX* p) const { EVP_PKEY_CTX_free(p); }
};
using Pkey = std::unique_ptr<EVP_PKEY, PkeyFree>;
using PkeyCtx = std::unique_ptr<EVP_PKEY_CTX, PkeyCtxFree>;

Uint256 from_bn(const BIGNUM* b) {
    std::uint8_t buf[32];
    if (BN_bn2binpad(b, buf, 32) != 32) throw std::runtime_error("BN_bn2binpad");
    return Uint256::load_be(buf);
}

// An OpenSSL public key object for x || y.
Pkey openssl_public_key(const PublicKey& key) {
    std::uint8_t oct[65] = {POINT_CONVERSION_UNCOMPRESSED};
    std::memcpy(oct + 1, key.data(), 64);
    OSSL_PARAM_BLD* bld = OSSL_PARAM_BLD_new();
    char group[] = "prime256v1";
    OSSL_PARAM_BLD_push_utf8_string(bld, OSSL_PKEY_PARAM_GROUP_NAME, group, 0);
    OSSL_PARAM_BLD_push_octet_string(bld, OSSL_PKEY_PARAM_PUB_KEY, oct, sizeof oct);
    OSSL_PARAM* params = OSSL_PARAM_BLD_to_param(bld);
    PkeyCtx ctx(EVP_PKEY_CTX_new_from_name(nullptr, "EC", nullptr));
    EVP_PKEY* pkey = nullptr;
    if (EVP_PKEY_fromdata_init(ctx.get()) != 1 ||
        EVP_PKEY_fromdata(ctx.get(), &pkey, EVP_PKEY_PUBLIC_KEY, params) != 1)
        throw std::runtime_error("EVP_PKEY_fromdata");
    OSSL_PARAM_free(params);
    OSSL_PARAM_BLD_free(bld);
    return Pkey(pkey);
}

// OpenSSL's own ECDSA verification of (r, s) over `msg` with `key`: an independent check that a
// recovered key is the signer's.
bool openssl_verifies(const PublicKey& key, const Hash32& msg, const Uint256& r, const Uint256& s) {
    Pkey pkey = openssl_public_key(key);
    ECDSA_SIG* sig = ECDSA_SIG_new();
    std::uint8_t rb[32], sb[32];
    r.to_be_bytes(rb);
    s.to_be_bytes(sb);
    ECDSA_SIG_set0(sig, BN_bin2bn(rb, 32, nullptr), BN_bin2bn(sb, 32, nullptr));
    std::uint8_t* der = nullptr;
    const int der_len = i2d_ECDSA_SIG(sig, &der);
    ECDSA_SIG_free(sig);
    PkeyCtx ctx(EVP_PKEY_CTX_new_from_pkey(nullptr, pkey.get(), nullptr));
    const bool ok =
        EVP_PKEY_verify_init(ctx.get()) == 1 &&
        EVP_PKEY_verify(ctx.get(), der, static_cast<std::size_t>(der_len), msg.data(), 32) == 1;
    OPENSSL_free(der);
    return ok;
}

// RFC 6979 §A.2.5 (https://www.rfc-editor.org/rfc/rfc6979#appendix-A.2.5): P-256, SHA-256,
// message "sample".
const Bytes32 kRfcSecret =
    fixed_from_hex<Bytes32>("0xC9AFA9D845BA75166B5C215767B1D6934E50C3DB36E89B127B8A622B120F6721");
const PublicKey kRfcPublic = fixed_from_hex<PublicKey>(
    "0x60FED4BA255A9D31C961EB74C6356D68C049B8923B61FA6CE669622E60F29FB6"
    "7903FE1008B8BC99A41AE9E95628BC64F2F1B20C2D7E9F5177A3C294D4462299");
const Uint256 kRfcR =
    uint256_from_string("0xEFD48B2AACB6A8FD1140DD9CD45E81D69D2C877B56AAF991C34D0EA84EAF3716");
const Uint256 kRfcS =
    uint256_from_string("0xF7CB1C942D657C41D436C7A1B6E29F65F3E900DBB9AFF4064DC4AB2F843ACDA8");

Hash32 rfc_hash() {
    return sha256(as_bytes("sample"));
}

TEST(Secp256r1, Constants) {
    EXPECT_EQ(kOrder.to_hex(),
              "0xffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551");
    EXPECT_EQ(kPrime.to_hex(),
              "0xffffffff00000001000000000000000000000000ffffffffffffffffffffffff");
    EXPECT_EQ(kHalfOrder.to_hex(),
              "0x7fffffff800000007fffffffffffffffde737d56d38bcf4279dce5617e3192a8");
}

TEST(Secp256r1, Rfc6979PublicKey) {
    EXPECT_EQ(public_key_of(kRfcSecret).value(), kRfcPublic);
    EXPECT_EQ(address_of(kRfcSecret).value(), public_key_to_address(kRfcPublic));
}

TEST(Secp256r1, Rfc6979SignatureRecoversItsKey) {
    // k G has x = r (below n) and an even y (worked out from the RFC's k), so the id is 0.
    auto key = recover_public_key(rfc_hash(), kRfcR, kRfcS, 0);
    ASSERT_TRUE(key.has_value()) << describe(key.error());
    EXPECT_EQ(*key, kRfcPublic);
    // With the other parity the key differs; the low-s twin (r, n - s) flips the parity.
    auto odd = recover_public_key(rfc_hash(), kRfcR, kRfcS, 1);
    ASSERT_TRUE(odd.has_value());
    EXPECT_NE(*odd, kRfcPublic);
    auto low = recover_public_key(rfc_hash(), kRfcR, kOrder - kRfcS, 1);
    ASSERT_TRUE(low.has_value());
    EXPECT_EQ(*low, kRfcPublic);
    EXPECT_EQ(recover_address(rfc_hash(), kRfcR, kRfcS, 0).value(),
              public_key_to_address(kRfcPublic));
    // OpenSSL agrees that the signature verifies under the key (and the check can fail).
    EXPECT_TRUE(openssl_verifies(*key, rfc_hash(), kRfcR, kRfcS));
    EXPECT_FALSE(openssl_verifies(*key, sha256(as_bytes("sample!")), kRfcR, kRfcS));
}

// verify(): the RFC 6979 signature (and its high-s twin: no low-s rule) under the RFC key; a
// changed hash, r, s or key fails; out-of-range values and a point off the curve are refused.
TEST(Secp256r1, VerifyAcceptsTheRfcSignatureOnly) {
    const Uint256 x = Uint256::load_be(kRfcPublic.data());
    const Uint256 y = Uint256::load_be(kRfcPublic.data() + 32);
    EXPECT_TRUE(verify(rfc_hash(), kRfcR, kRfcS, x, y));
    EXPECT_TRUE(verify(rfc_hash(), kRfcR, kOrder - kRfcS, x, y) ==
                openssl_verifies(kRfcPublic, rfc_hash(), kRfcR, kOrder - kRfcS));
    EXPECT_FALSE(verify(sha256(as_bytes("sample!")), kRfcR, kRfcS, x, y));
    EXPECT_FALSE(verify(rfc_hash(), kRfcR + 1, kRfcS, x, y));
    EXPECT_FALSE(verify(rfc_hash(), kRfcR, kRfcS + 1, x, y));
    EXPECT_FALSE(verify(rfc_hash(), kRfcR, kRfcS, x, y + 1));  // off the curve
    EXPECT_FALSE(verify(rfc_hash(), 0, kRfcS, x, y));
    EXPECT_FALSE(verify(rfc_hash(), kRfcR, kOrder, x, y));
    EXPECT_FALSE(verify(rfc_hash(), kRfcR, kRfcS, kPrime, y));
    EXPECT_FALSE(verify(rfc_hash(), kRfcR, kRfcS, 0, 0));  // infinity has no affine form
}

TEST(Secp256r1, OpenSslKeysAndSignaturesRecover) {
    // Key and signature made by OpenSSL alone; keel must recover OpenSSL's public key.
    std::mt19937_64 rng(256);
    for (int i = 0; i < 20; ++i) {
        Pkey pkey(EVP_PKEY_Q_keygen(nullptr, nullptr, "EC", "P-256"));
        ASSERT_NE(pkey, nullptr);
        std::uint8_t oct[65];
        std::size_t oct_len = 0;
        ASSERT_EQ(EVP_PKEY_get_octet_string_param(pkey.get(), OSSL_PKEY_PARAM_PUB_KEY, oct,
                                                  sizeof oct, &oct_len),
                  1);
        ASSERT_EQ(oct_len, 65u);
        PublicKey expected;
        std::memcpy(expected.data(), oct + 1, 64);

        const Hash32 msg = random_hash(rng);
        PkeyCtx ctx(EVP_PKEY_CTX_new_from_pkey(nullptr, pkey.get(), nullptr));
        std::uint8_t der[80];
        std::size_t der_len = sizeof der;
        ASSERT_EQ(EVP_PKEY_sign_init(ctx.get()), 1);
        ASSERT_EQ(EVP_PKEY_sign(ctx.get(), der, &der_len, msg.data(), 32), 1);
        const std::uint8_t* p = der;
        ECDSA_SIG* sig = d2i_ECDSA_SIG(nullptr, &p, static_cast<long>(der_len));
        ASSERT_NE(sig, nullptr);
        const Uint256 r = from_bn(ECDSA_SIG_get0_r(sig));
        const Uint256 s = from_bn(ECDSA_SIG_get0_s(sig));
        ECDSA_SIG_free(sig);

        int matches = 0;
        for (std::uint8_t id = 0; id < 4; ++id) {
            auto key = recover_public_key(msg, r, s, id);
            if (key && *key == expected) ++matches;
        }
        EXPECT_EQ(matches, 1) << "exactly one recovery id gives the signer's key";
    }
}

TEST(Secp256r1, SignRecoverRoundTrips) {
    std::mt19937_64 rng(1);
    for (int i = 0; i < 50; ++i) {
        const Bytes32 secret = random_secret(rng, kOrder);
        const Hash32 msg = random_hash(rng);
        auto sig = sign_recoverable(msg, secret);
        ASSERT_TRUE(sig.has_value());
        EXPECT_LE(sig->s, kHalfOrder) << "normalised to low s";
        EXPECT_LE(sig->recovery_id, 1);
        auto key = recover_public_key(msg, sig->r, sig->s, sig->recovery_id);
        ASSERT_TRUE(key.has_value()) << describe(key.error());
        EXPECT_EQ(*key, public_key_of(secret).value());
        EXPECT_EQ(recover_address(msg, sig->r, sig->s, sig->recovery_id).value(),
                  address_of(secret).value());
        // Any recovered key satisfies the verification equation; OpenSSL checks ours does.
        EXPECT_TRUE(openssl_verifies(*key, msg, sig->r, sig->s));
        Hash32 other = msg;
        other[0] ^= 0x80;
        auto wrong = recover_address(other, sig->r, sig->s, sig->recovery_id);
        EXPECT_TRUE(!wrong || *wrong != address_of(secret).value());
    }
}

// Checks the recovery equation r Q = s R - e G (SEC 1 §4.1.6 step 1.6) for a recovered Q with
// OpenSSL's point arithmetic, R given as its x and y parity. Works for every recovery id.
void expect_recovery_equation(const Uint256& x, std::uint8_t parity, const Hash32& msg,
                              const Uint256& r, const Uint256& s, const PublicKey& q) {
    EC_GROUP* g = EC_GROUP_new_by_curve_name(NID_X9_62_prime256v1);
    BN_CTX* ctx = BN_CTX_new();
    auto bn = [](const Uint256& v) {
        std::uint8_t b[32];
        v.to_be_bytes(b);
        return BN_bin2bn(b, 32, nullptr);
    };
    BIGNUM* bx = bn(x);
    BIGNUM* br = bn(r);
    BIGNUM* bs = bn(s);
    BIGNUM* be = BN_bin2bn(msg.data(), 32, nullptr);
    EC_POINT* big_r = EC_POINT_new(g);
    EC_POINT* pq = EC_POINT_new(g);
    EC_POINT* lhs = EC_POINT_new(g);
    EC_POINT* rhs = EC_POINT_new(g);
    std::uint8_t oct[65] = {POINT_CONVERSION_UNCOMPRESSED};
    std::memcpy(oct + 1, q.data(), 64);
    ASSERT_EQ(EC_POINT_set_compressed_coordinates(g, big_r, bx, parity, ctx), 1);
    ASSERT_EQ(EC_POINT_oct2point(g, pq, oct, sizeof oct, ctx), 1);
    ASSERT_EQ(EC_POINT_mul(g, lhs, be, pq, br, ctx), 1);          // e G + r Q
    ASSERT_EQ(EC_POINT_mul(g, rhs, nullptr, big_r, bs, ctx), 1);  // s R
    EXPECT_EQ(EC_POINT_cmp(g, lhs, rhs, ctx), 0);
    for (EC_POINT* p : {big_r, pq, lhs, rhs}) EC_POINT_free(p);
    for (BIGNUM* b : {bx, br, bs, be}) BN_free(b);
    BN_CTX_free(ctx);
    EC_GROUP_free(g);
}

TEST(Secp256r1, RecoveryIdsAboveOneUseXPlusN) {
    // Bit 1 of the id says R.x = r + n, possible only for r < p - n (~2^128), so no real
    // signature shows it; build R with x >= n directly and check the recovery equation.
    std::mt19937_64 rng(23);
    int checked = 0;
    for (std::uint64_t k = 1; checked < 6 && k < 100; ++k) {
        const Uint256 x = kOrder + k;
        const Hash32 msg = random_hash(rng);
        const Uint256 s = Uint256::from_be_bytes(random_hash(rng)) >> 1;
        for (std::uint8_t parity : {0, 1}) {
            auto q = recover_public_key(msg, k, s, static_cast<std::uint8_t>(2 | parity));
            if (!q) {
                EXPECT_EQ(q.error(), SigError::no_public_key);  // x not on the curve
                continue;
            }
            expect_recovery_equation(x, parity, msg, k, s, *q);
            auto low = recover_public_key(msg, k, s, parity);
            EXPECT_TRUE(!low || *low != *q);
            ++checked;
        }
    }
    EXPECT_EQ(checked, 6);
}

TEST(Secp256r1, RecoveryEquationHoldsForRandomSignatures) {
    std::mt19937_64 rng(5);
    for (int i = 0; i < 10; ++i) {
        const Hash32 msg = random_hash(rng);  // e may exceed n: recovery reduces it
        auto sig = sign_recoverable(msg, random_secret(rng, kOrder));
        ASSERT_TRUE(sig.has_value());
        auto q = recover_public_key(msg, sig->r, sig->s, sig->recovery_id);
        ASSERT_TRUE(q.has_value());
        const Uint256 x = (sig->recovery_id & 2) != 0 ? sig->r + kOrder : sig->r;
        expect_recovery_equation(x, sig->recovery_id & 1, msg, sig->r, sig->s, *q);
    }
}

TEST(Secp256r1, RejectsOutOfRangeValues) {
    const Hash32 m = rfc_hash();
    EXPECT_EQ(recover_address(m, 0, kRfcS, 0).error(), SigError::invalid_r);
    EXPECT_EQ(recover_address(m, kOrder, kRfcS, 0).error(), SigError::invalid_r);
    EXPECT_EQ(recover_address(m, kPrime, kRfcS, 0).error(), SigError::invalid_r);
    EXPECT_EQ(recover_address(m, Uint256::max(), kRfcS, 0).error(), SigError::invalid_r);
    EXPECT_EQ(recover_address(m, kRfcR, 0, 0).error(), SigError::invalid_s);
    EXPECT_EQ(recover_address(m, kRfcR, kOrder, 0).error(), SigError::invalid_s);
    EXPECT_EQ(recover_address(m, kRfcR, kOrder + 5, 0).error(), SigError::invalid_s);
    EXPECT_EQ(recover_address(m, kRfcR, kRfcS, 4).error(), SigError::invalid_recovery_id);
    EXPECT_EQ(recover_address(m, kRfcR, kRfcS, 255).error(), SigError::invalid_recovery_id);
}

TEST(Secp256r1, RejectsAnRWhoseXIsNotOnTheCurve) {
    // 1 - 3 + b is not a square mod p (Euler's criterion), so no point has x = 1.
    for (std::uint8_t id : {0, 1})
        EXPECT_EQ(recover_address(rfc_hash(), 1, kRfcS, id).error(), SigError::no_public_key);
    // A failed decompression leaves nothing behind: the next recovery on this thread works.
    EXPECT_EQ(recover_public_key(rfc_hash(), kRfcR, kRfcS, 0).value(), kRfcPublic);
}

TEST(Secp256r1, RejectsAnXAboveThePrime) {
    // Ids 2 and 3 use x = r + n; OpenSSL would silently reduce x mod p, keel rejects x >= p.
    const Uint256 r = kPrime - kOrder;  // x = p exactly
    for (std::uint8_t id : {2, 3})
        EXPECT_EQ(recover_address(rfc_hash(), r, kRfcS, id).error(), SigError::no_public_key);
    // r + n overflowing 256 bits.
    EXPECT_EQ(recover_address(rfc_hash(), kOrder - 1, kRfcS, 3).error(), SigError::no_public_key);
    EXPECT_EQ(recover_address(rfc_hash(), kRfcR, kRfcS, 2).error(), SigError::no_public_key);
}

TEST(Secp256r1, RejectsBadSecretKeys) {
    EXPECT_EQ(sign_recoverable(rfc_hash(), Bytes32{}).error(), SigError::invalid_secret_key);
    EXPECT_EQ(sign_recoverable(rfc_hash(), kOrder.to_bytes32()).error(),
              SigError::invalid_secret_key);
    EXPECT_EQ(public_key_of(Uint256::max().to_bytes32()).error(), SigError::invalid_secret_key);
    EXPECT_TRUE(address_of((kOrder - 1).to_bytes32()).has_value());
}

}  // namespace
}  // namespace keel::crypto::secp256r1
