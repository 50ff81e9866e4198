// FpX8 (AVX-512 IFMA, eight lanes) against the scalar Fp: products, sums, differences and powers
// lane by lane, on random and edge values, including chains that use the lazily reduced bounds.
#include <gtest/gtest.h>

#include <array>
#include <random>

#include "keel/bls/detail/fp_x8.hpp"

namespace keel::bls {
namespace {

std::array<Fp, 8> random_lanes(std::mt19937_64& rng) {
    std::array<Fp, 8> out;
    for (auto& f : out) {
        detail::Limbs l{};
        for (auto& w : l) w = rng();
        l[5] &= (std::uint64_t{1} << 60) - 1;
        f = Fp::from_montgomery(detail::reduce_once(
            detail::reduce_once(detail::reduce_once(detail::reduce_once(detail::reduce_once(
                detail::reduce_once(detail::reduce_once(detail::reduce_once(l)))))))));
    }
    return out;
}

std::array<Fp, 8> unpack(const FpX8& v) {
    std::array<Fp, 8> out;
    x8::store(v, out);
    return out;
}

TEST(BlsFpX8, MatchesScalarArithmetic) {
    if (!fp_x8_supported()) GTEST_SKIP() << "this CPU has no AVX-512 IFMA (scalar paths only)";
    std::mt19937_64 rng(8);
    const Fp minus_one = -Fp::one();
    for (int round = 0; round < 200; ++round) {
        auto a = random_lanes(rng), b = random_lanes(rng);
        if (round == 0) {
            a = {Fp::zero(), Fp::one(), minus_one, minus_one,
                 Fp::zero(), Fp::one(), minus_one, Fp::from_u64(2)};
            b = {Fp::zero(), minus_one,  minus_one,  Fp::one(),
                 minus_one,  Fp::zero(), Fp::zero(), minus_one};
        }
        const FpX8 va = x8::load(a), vb = x8::load(b);
        const auto prod = unpack(x8::mul(va, vb));
        const auto sum = unpack(x8::add(va, vb));
        const auto diff = unpack(x8::sub(va, vb));
        // Lazy bounds: (a - b + 4p)·(a + b) and a chain of squarings of sums.
        const auto mixed = unpack(x8::mul(x8::sub(va, vb), x8::add(va, vb)));
        FpX8 chain = va;
        Fp expect_chain[8];
        for (int lane = 0; lane < 8; ++lane) expect_chain[lane] = a[lane];
        for (int k = 0; k < 5; ++k) {
            chain = x8::mul(x8::add(chain, vb), x8::sub(chain, vb));
            for (int lane = 0; lane < 8; ++lane)
                expect_chain[lane] =
                    (expect_chain[lane] + b[lane]) * (expect_chain[lane] - b[lane]);
        }
        const auto chained = unpack(chain);
        for (int lane = 0; lane < 8; ++lane) {
            ASSERT_EQ(prod[lane], a[lane] * b[lane]) << round << " lane " << lane;
            ASSERT_EQ(sum[lane], a[lane] + b[lane]) << round << " lane " << lane;
            ASSERT_EQ(diff[lane], a[lane] - b[lane]) << round << " lane " << lane;
            ASSERT_EQ(mixed[lane], (a[lane] - b[lane]) * (a[lane] + b[lane])) << round;
            ASSERT_EQ(chained[lane], expect_chain[lane]) << round << " lane " << lane;
        }
    }
}

TEST(BlsFpX8, PowMatchesScalar) {
    if (!fp_x8_supported()) GTEST_SKIP() << "this CPU has no AVX-512 IFMA (scalar paths only)";
    std::mt19937_64 rng(9);
    for (int round = 0; round < 4; ++round) {
        const auto a = random_lanes(rng);
        const auto got = unpack(x8::pow(x8::load(a), detail::kPPlus1Over4));
        const auto inv = unpack(x8::pow(x8::load(a), detail::kPMinus2));
        for (int lane = 0; lane < 8; ++lane) {
            EXPECT_EQ(got[lane], a[lane].pow(detail::kPPlus1Over4)) << lane;
            EXPECT_EQ(inv[lane], a[lane].inverse()) << lane;
        }
    }
    std::array<Fp, 8> lanes;
    lanes.fill(Fp::from_u64(3));
    EXPECT_EQ(unpack(x8::broadcast(Fp::from_u64(3))), lanes);
}

}  // namespace
}  // namespace keel::bls
