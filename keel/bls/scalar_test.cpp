// Scalars mod r against GMP, and KeyGen against EIP-2333's derive_master_SK vectors (the same
// HKDF_mod_r as draft-irtf-cfrg-bls-signature's KeyGen with an empty key_info).
#include <gmp.h>
#include <gtest/gtest.h>

#include <random>
#include <string>

#include "keel/bls/scalar.hpp"
#include "keel/common/hex.hpp"

namespace keel::bls {
namespace {

std::string decimal(const Scalar& s) {
    std::array<std::uint8_t, 32> be{};
    s.to_bytes(be);
    mpz_t v;
    mpz_init(v);
    mpz_import(v, 32, 1, 1, 0, 0, be.data());
    char* str = mpz_get_str(nullptr, 10, v);
    std::string out(str);
    free(str);  // NOLINT: GMP allocates with malloc by default
    mpz_clear(v);
    return out;
}

TEST(BlsScalar, WideReductionMatchesGmp) {
    std::mt19937_64 rng(5);
    mpz_t r, x, m;
    mpz_inits(r, x, m, nullptr);
    mpz_set_str(r, "73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001", 16);
    for (std::size_t len : {0, 1, 31, 32, 33, 48, 64}) {
        for (int trial = 0; trial < 20; ++trial) {
            Bytes b(len);
            for (auto& v : b) v = static_cast<std::uint8_t>(rng());
            if (trial == 0) std::fill(b.begin(), b.end(), 0xff);
            if (len != 0) {
                mpz_import(x, len, 1, 1, 0, 0, b.data());
            } else {
                mpz_set_ui(x, 0);
            }
            mpz_mod(m, x, r);
            char* want = mpz_get_str(nullptr, 10, m);
            EXPECT_EQ(decimal(Scalar::from_bytes_wide(b)), want) << len;
            free(want);  // NOLINT
        }
    }
    mpz_clears(r, x, m, nullptr);
}

TEST(BlsScalar, BytesRangeCheck) {
    Bytes r = *hex::decode("73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001");
    EXPECT_FALSE(Scalar::from_bytes(std::span<const std::uint8_t, 32>(r.data(), 32)));
    r[31] = 0;  // r - 1
    auto s = Scalar::from_bytes(std::span<const std::uint8_t, 32>(r.data(), 32));
    ASSERT_TRUE(s.has_value());
    std::array<std::uint8_t, 32> back{};
    s->to_bytes(back);
    EXPECT_EQ(Bytes(back.begin(), back.end()), r);
    s->wipe();
    EXPECT_TRUE(s->is_zero());
}

TEST(BlsKeyGen, Eip2333MasterKeys) {
    // EIP-2333 test cases 0 and 1: derive_master_SK(seed).
    const auto sk0 =
        key_gen(*hex::decode("c55257c360c07c72029aebc1b53c05ed0362ada38ead3e3e9efa3708e53495531f09a"
                             "6987599d18264c1e1c92f2cf141630c7a3c4ab7c81b2f001698e7463b04"));
    ASSERT_TRUE(sk0.has_value());
    EXPECT_EQ(decimal(*sk0),
              "6083874454709270928345386274498605044986640685124978867557563392430687146096");
    const auto sk1 =
        key_gen(*hex::decode("3141592653589793238462643383279502884197169399375105820974944592"));
    ASSERT_TRUE(sk1.has_value());
    EXPECT_EQ(decimal(*sk1),
              "29757020647961307431480504535336562678282505419141012933316116377660817309383");
    EXPECT_FALSE(key_gen(Bytes(31, 1)).has_value());  // IKM must be at least 32 bytes
}

}  // namespace
}  // namespace keel::bls
