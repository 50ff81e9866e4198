// Fp6 and Fp12: field axioms on random elements, the sparse products against full ones,
// Frobenius maps and their constants against exponentiation by powers of p (exponents from
// GMP), and cyclotomic squaring against squaring on elements of the cyclotomic subgroup.
#include <gmp.h>
#include <gtest/gtest.h>

#include <array>

#include <random>
#include <vector>

#include "keel/bls/detail/fp12.hpp"

namespace keel::bls {
namespace {

/// An integer as little-endian 64-bit limbs (for the pow exponents).
std::vector<std::uint64_t> limbs_of(const mpz_t v) {
    std::vector<std::uint64_t> out((mpz_sizeinbase(v, 2) + 63) / 64 + 1, 0);
    std::size_t n = 0;
    mpz_export(out.data(), &n, -1, sizeof(std::uint64_t), 0, 0, v);
    out.resize(n);
    return out;
}

/// p^k as an mpz (the caller clears it).
void p_power(mpz_t out, unsigned long k) {
    mpz_init(out);
    mpz_import(out, 6, -1, sizeof(std::uint64_t), 0, 0, detail::kP.data());
    mpz_pow_ui(out, out, k);
}

/// (p^k - 1)·num/den as limbs.
std::vector<std::uint64_t> p_power_exponent(unsigned long k, long add, unsigned long num = 1,
                                            unsigned long den = 1) {
    mpz_t e;
    p_power(e, k);
    if (add >= 0) {
        mpz_add_ui(e, e, static_cast<unsigned long>(add));
    } else {
        mpz_sub_ui(e, e, static_cast<unsigned long>(-add));
    }
    mpz_mul_ui(e, e, num);
    EXPECT_TRUE(mpz_divisible_ui_p(e, den));
    mpz_divexact_ui(e, e, den);
    auto out = limbs_of(e);
    mpz_clear(e);
    return out;
}

struct Rng {
    std::mt19937_64 g{7};
    Fp fp() {
        detail::Limbs l{};
        for (auto& w : l) w = g();
        l[5] &= (std::uint64_t{1} << 60) - 1;  // below 2^380 < p
        return Fp::from_canonical(l);
    }
    Fp2 fp2() { return {fp(), fp()}; }
    Fp6 fp6() { return {fp2(), fp2(), fp2()}; }
    Fp12 fp12() { return {fp6(), fp6()}; }
};

constexpr int kRounds = 20;

TEST(Fp6, FieldAxioms) {
    Rng rng;
    for (int i = 0; i < kRounds; ++i) {
        const Fp6 a = rng.fp6(), b = rng.fp6(), c = rng.fp6();
        EXPECT_EQ((a * b) * c, a * (b * c));
        EXPECT_EQ(a * b, b * a);
        EXPECT_EQ(a * (b + c), a * b + a * c);
        EXPECT_EQ(a.square(), a * a);
        EXPECT_EQ(a * a.inverse(), Fp6::one());
        EXPECT_EQ(a * Fp6::one(), a);
        EXPECT_EQ(a - a, Fp6::zero());
        EXPECT_EQ(a.dbl(), a + a);
    }
    EXPECT_EQ(Fp6::zero().inverse(), Fp6::zero());
}

TEST(Fp6, SparseProducts) {
    Rng rng;
    for (int i = 0; i < kRounds; ++i) {
        const Fp6 a = rng.fp6();
        const Fp2 b0 = rng.fp2(), b1 = rng.fp2();
        EXPECT_EQ(a.mul_by_v(), a * Fp6(Fp2(), Fp2::one(), Fp2()));
        EXPECT_EQ(a.mul_by_01(b0, b1), a * Fp6(b0, b1, Fp2()));
        EXPECT_EQ(a.mul_by_1(b1), a * Fp6(Fp2(), b1, Fp2()));
    }
}

TEST(Fp12, FrobeniusConstants) {
    // γ[k][i] = ξ^(i·(p^k - 1)/6).
    const Fp2 xi = Fp2::one().mul_by_xi();
    for (unsigned long k = 1; k <= 3; ++k) {
        for (unsigned long i = 0; i < 6; ++i) {
            EXPECT_EQ(detail::kFrobeniusGamma[k - 1][i], xi.pow(p_power_exponent(k, -1, i, 6)))
                << "k=" << k << " i=" << i;
        }
    }
}

TEST(Fp12, FieldAxioms) {
    Rng rng;
    for (int i = 0; i < kRounds; ++i) {
        const Fp12 a = rng.fp12(), b = rng.fp12(), c = rng.fp12();
        EXPECT_EQ((a * b) * c, a * (b * c));
        EXPECT_EQ(a * b, b * a);
        EXPECT_EQ(a * (b + c), a * b + a * c);
        EXPECT_EQ(a.square(), a * a);
        EXPECT_EQ(a * a.inverse(), Fp12::one());
        EXPECT_EQ(a * Fp12::one(), a);
        EXPECT_TRUE((a * a.inverse()).is_one());
        EXPECT_EQ(Fp12::select(true, a, b), a);
        EXPECT_EQ(Fp12::select(false, a, b), b);
    }
    EXPECT_EQ(Fp12::zero().inverse(), Fp12::zero());
}

TEST(Fp12, LineProductMatchesFullProduct) {
    Rng rng;
    for (int i = 0; i < kRounds; ++i) {
        const Fp12 f = rng.fp12();
        const Fp2 a = rng.fp2(), b = rng.fp2(), c = rng.fp2();
        const Fp12 line{Fp6(a, b, Fp2()), Fp6(Fp2(), c, Fp2())};
        EXPECT_EQ(f.mul_by_line(a, b, c), f * line);
    }
}

TEST(Fp12, FrobeniusIsPowerOfP) {
    Rng rng;
    std::vector<std::vector<std::uint64_t>> powers;
    for (unsigned long k = 1; k <= 3; ++k) powers.push_back(p_power_exponent(k, 0));
    const auto p6 = p_power_exponent(6, 0);
    for (int i = 0; i < 3; ++i) {
        const Fp12 a = rng.fp12();
        for (std::size_t k = 1; k <= 3; ++k) {
            EXPECT_EQ(a.frobenius_map(k), a.pow(powers[k - 1])) << "k=" << k;
            // Fp6's own map, checked inside Fp12 (a0 embedded as a0 + 0·w).
            EXPECT_EQ(Fp12(a.c0.frobenius_map(k), Fp6()), Fp12(a.c0, Fp6()).pow(powers[k - 1]));
        }
        EXPECT_EQ(a.conjugate(), a.pow(p6));
        EXPECT_EQ(a.frobenius_map(1).frobenius_map(2), a.frobenius_map(3));
    }
}

TEST(Fp12, CyclotomicSquare) {
    Rng rng;
    for (int i = 0; i < kRounds; ++i) {
        // f^((p^6 - 1)(p^2 + 1)) lies in the cyclotomic subgroup.
        const Fp12 a = rng.fp12();
        const Fp12 t = a.conjugate() * a.inverse();
        const Fp12 g = t.frobenius_map(2) * t;
        EXPECT_EQ(g.cyclotomic_square(), g.square());
        EXPECT_EQ(g * g.conjugate(), Fp12::one());
        // Several in a row stay in the subgroup.
        EXPECT_EQ(g.cyclotomic_square().cyclotomic_square(), g.square().square());
    }
}

TEST(Fp12, CompressedCyclotomicSquare) {
    Rng rng;
    for (int i = 0; i < kRounds; ++i) {
        const Fp12 a = rng.fp12();
        const Fp12 t = a.conjugate() * a.inverse();
        const Fp12 g = t.frobenius_map(2) * t;
        // Squaring compressed agrees with squaring whole, over a run of squarings, and every
        // step decompresses (together, one inversion) to the whole square.
        std::array<Fp12::Compressed, 5> steps;
        std::array<Fp12, 5> expected;
        Fp12::Compressed c = g.compress();
        Fp12 whole = g;
        for (std::size_t k = 0; k < steps.size(); ++k) {
            c = Fp12::compressed_square(c);
            whole = whole.square();
            steps[k] = c;
            expected[k] = whole;
        }
        std::array<Fp12, 5> out;
        ASSERT_TRUE(Fp12::decompress_vartime(steps, out));
        for (std::size_t k = 0; k < steps.size(); ++k) EXPECT_EQ(out[k], expected[k]) << k;
        std::array<Fp12, 1> one_out;
        ASSERT_TRUE(Fp12::decompress_vartime(std::span(&steps[2], 1), one_out));
        EXPECT_EQ(one_out[0], expected[2]);
    }
    // One (B = C = 0) has no unique A: refused, as is a size mismatch.
    const std::array<Fp12::Compressed, 1> one{Fp12::one().compress()};
    std::array<Fp12, 1> out;
    EXPECT_FALSE(Fp12::decompress_vartime(one, out));
    EXPECT_FALSE(Fp12::decompress_vartime(one, std::span<Fp12>()));
}

}  // namespace
}  // namespace keel::bls
