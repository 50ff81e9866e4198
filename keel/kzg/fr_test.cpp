// Fr against keel::Uint256's modular arithmetic (an independent implementation: the EVM's
// ADDMOD/MULMOD), the roots of unity, and the FFT against a direct evaluation.
#include "keel/kzg/fr.hpp"

#include <random>

#include <gtest/gtest.h>

#include "keel/common/uint256.hpp"
#include "keel/kzg/domain.hpp"

namespace keel::kzg::fr_test {
namespace {

const Uint256 kModulus = Uint256::from_limbs(bls::kR);

Uint256 as_uint(const Fr& f) {
    return Uint256::from_be_bytes(f.to_bytes32());
}

Fr from_uint(const Uint256& v) {
    Bytes32 b;
    v.to_be_bytes(b.data());
    return *Fr::from_bytes(std::span<const std::uint8_t, 32>(b.data(), 32));
}

Uint256 random_below_r(std::mt19937_64& rng) {
    for (;;) {
        Bytes32 b;
        for (auto& x : b) x = static_cast<std::uint8_t>(rng());
        b[0] &= 0x7f;
        const Uint256 v = Uint256::from_be_bytes(b);
        if (v < kModulus) return v;
    }
}

TEST(Fr, ArithmeticMatchesUint256ModularArithmetic) {
    std::mt19937_64 rng(7);
    const Uint256 r_minus_1 = kModulus - Uint256(1);
    for (int i = 0; i < 2000; ++i) {
        // Random values, with the edges (0, 1, r - 1) mixed in.
        const Uint256 a = i % 10 == 0 ? r_minus_1 : i % 10 == 1 ? Uint256(0) : random_below_r(rng);
        const Uint256 b = i % 7 == 0 ? r_minus_1 : i % 7 == 1 ? Uint256(1) : random_below_r(rng);
        const Fr fa = from_uint(a), fb = from_uint(b);
        ASSERT_EQ(as_uint(fa), a);
        EXPECT_EQ(as_uint(fa + fb), addmod(a, b, kModulus));
        EXPECT_EQ(as_uint(fa * fb), mulmod(a, b, kModulus));
        EXPECT_EQ(as_uint(fa - fb), addmod(a, kModulus - b, kModulus));
        if (!fa.is_zero()) {
            EXPECT_EQ(fa * fa.inverse_vartime(), Fr::one());
        }
    }
    EXPECT_TRUE(Fr().inverse_vartime().is_zero());
    EXPECT_EQ(as_uint(Fr::from_u64(12345)), Uint256(12345));
}

TEST(Fr, BytesAtAndAboveTheModulusAreRefusedOrReduced) {
    Bytes32 r;
    bls::Scalar(bls::kR).to_bytes(std::span<std::uint8_t, 32>(r.data(), 32));
    EXPECT_FALSE(Fr::from_bytes(std::span<const std::uint8_t, 32>(r.data(), 32)));
    EXPECT_TRUE(Fr::from_bytes_reduced(std::span<const std::uint8_t, 32>(r.data(), 32)).is_zero());
    Bytes32 ff;
    std::fill(ff.begin(), ff.end(), 0xff);
    // 2^256 - 1 mod r, by Uint256's own reduction.
    const Uint256 all = Uint256::from_be_bytes(ff);
    EXPECT_EQ(as_uint(Fr::from_bytes_reduced(std::span<const std::uint8_t, 32>(ff.data(), 32))),
              addmod(all, Uint256(0), kModulus));
}

TEST(Domain, RootsOfUnityHaveTheirOrder) {
    for (const std::size_t n : {64u, 4096u, 8192u}) {
        const auto roots = roots_of_unity(n);
        ASSERT_EQ(roots.size(), n);
        EXPECT_EQ(roots[0], Fr::one());
        EXPECT_EQ(roots[1].pow(n), Fr::one());
        EXPECT_NE(roots[1].pow(n / 2), Fr::one());  // primitive
        EXPECT_EQ(roots[n / 2], -Fr::one());
    }
    // The 64th roots are every 128th 8192nd root.
    EXPECT_EQ(roots_of_unity(64)[3], roots_of_unity(8192)[3 * 128]);
    EXPECT_EQ(reverse_bits(1, 8192), 4096u);
    EXPECT_EQ(reverse_bits(6, 8), 3u);
}

TEST(Domain, FftEvaluatesAndInverts) {
    std::mt19937_64 rng(11);
    for (const std::size_t n : {1u, 2u, 16u, 64u}) {
        std::vector<Fr> coeffs(n);
        for (auto& c : coeffs) c = from_uint(random_below_r(rng));
        std::vector<Fr> v = coeffs;
        fft(v);
        // Direct evaluation at ω^i.
        const Fr w = n == 1 ? Fr::one() : roots_of_unity(64)[64 / n];  // ω_n = ω_64^(64/n)
        for (std::size_t i = 0; i < n; ++i) {
            const Fr x = w.pow(i);
            Fr y;
            for (std::size_t j = n; j-- > 0;) y = y * x + coeffs[j];
            EXPECT_EQ(v[i], y) << "n " << n << " i " << i;
        }
        fft(v, /*inverse=*/true);
        EXPECT_EQ(v, coeffs);
    }
}

}  // namespace
}  // namespace keel::kzg::fr_test
