// mont256: the MULX/ADX multiplication against the portable one, for the two moduli keel uses
// (alt_bn128's base field, BLS12-381's scalar field), on edge values and pseudo-random ones;
// both against the definition (a·b·R^-1: multiplying the product by R again gives a·b·R^0 when
// one side is R^2) and constant evaluation.
#include "keel/common/mont256.hpp"

#include <gtest/gtest.h>

#include <random>
#include <vector>

namespace keel::mont256::mont256_test {
namespace {

constexpr Modulus kBn254 =
    make_modulus({0x3c208c16d87cfd47, 0x97816a916871ca8d, 0xb85045b68181585d, 0x30644e72e131a029});
constexpr Modulus kBlsR =
    make_modulus({0xffffffff00000001, 0x53bda402fffe5bfe, 0x3339d80809a1d805, 0x73eda753299d7d48});

// Values below p: 0, 1, p - 1, p - 2, R mod p, and pseudo-random ones reduced by clearing top
// bits until below p.
std::vector<Limbs> samples(const Modulus& m, std::mt19937_64& rng) {
    const Limbs one{1, 0, 0, 0};
    std::vector<Limbs> out{Limbs{}, one, sub_raw(m.p, one), sub_raw(m.p, {2, 0, 0, 0}), m.r, m.r2};
    for (int i = 0; i < 200; ++i) {
        Limbs v{rng(), rng(), rng(), rng()};
        while (geq(v, m.p)) v[3] >>= 1;
        out.push_back(v);
    }
    return out;
}

void agree(const Modulus& m) {
    std::mt19937_64 rng(256);
    const auto xs = samples(m, rng);
    for (const auto& a : xs) {
        for (const auto& b : xs) {
            const Limbs want = mul_portable(a, b, m);
            ASSERT_FALSE(geq(want, m.p));
            ASSERT_EQ(mul(a, b, m), want);
#if defined(__x86_64__)
            if (detail::kMulxAdx) {
                ASSERT_EQ(detail::mul_mulx_adx(a, b, m), want);
            }
#endif
        }
    }
}

TEST(Mont256, FastMultiplicationAgreesWithPortable) {
    agree(kBn254);
    agree(kBlsR);
}

TEST(Mont256, ToAndFromMontgomeryForm) {
    // x·R^2·R^-1 = x·R (into the form), then ·1·R^-1 = x (out of it); both at run time and in
    // constant evaluation.
    constexpr Limbs x{0x0123456789abcdef, 42, 7, 0x1000};
    constexpr Limbs back = mul(mul(x, kBlsR.r2, kBlsR), {1, 0, 0, 0}, kBlsR);
    static_assert(back == x);
    volatile std::uint64_t low = x[0];  // keeps the run-time path at run time
    const Limbs y{low, 42, 7, 0x1000};
    EXPECT_EQ(mul(mul(y, kBn254.r2, kBn254), {1, 0, 0, 0}, kBn254), y);
    EXPECT_EQ(mul(mul(y, kBlsR.r2, kBlsR), {1, 0, 0, 0}, kBlsR), y);
}

}  // namespace
}  // namespace keel::mont256::mont256_test
