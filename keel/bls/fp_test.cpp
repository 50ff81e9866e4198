// Fp and Fp2 against GMP: random and edge values (0, 1, p - 1, values near 2^384 reduced),
// every operation, Montgomery constants, byte encodings and their range check.
#include <gmp.h>
#include <gtest/gtest.h>

#include <random>

#include "keel/bls/detail/fp2.hpp"
#include "keel/bls/detail/fp_inverse.hpp"

namespace keel::bls {
namespace {

using detail::Limbs;

/// An mpz holding a limb array's integer.
struct Mpz {
    mpz_t v;
    Mpz() { mpz_init(v); }
    explicit Mpz(const Limbs& l) {
        mpz_init(v);
        mpz_import(v, 6, -1, sizeof(std::uint64_t), 0, 0, l.data());
    }
    ~Mpz() { mpz_clear(v); }
    Mpz(const Mpz&) = delete;
    Mpz& operator=(const Mpz&) = delete;
};

Limbs to_limbs(const mpz_t v) {
    Limbs l{};
    std::size_t n = 0;
    mpz_export(l.data(), &n, -1, sizeof(std::uint64_t), 0, 0, v);
    return l;
}

const Mpz& modulus() {
    static const Mpz p(detail::kP);
    return p;
}

/// A uniformly random value below p, and its mpz.
Limbs random_below_p(std::mt19937_64& rng) {
    for (;;) {
        Limbs l{};
        for (auto& w : l) w = rng();
        l[5] &= (std::uint64_t{1} << 61) - 1;
        Mpz m(l);
        if (mpz_cmp(m.v, modulus().v) < 0) return l;
    }
}

std::vector<Limbs> samples() {
    std::mt19937_64 rng(42);
    std::vector<Limbs> out{Limbs{},
                           Limbs{1, 0, 0, 0, 0, 0},
                           Limbs{2, 0, 0, 0, 0, 0},
                           detail::p_with_low(detail::kP[0] - 1),
                           detail::p_with_low(detail::kP[0] - 2),
                           detail::kPMinus1Over2};
    for (int i = 0; i < 200; ++i) out.push_back(random_below_p(rng));
    return out;
}

Limbs mod_op(const Limbs& a, const Limbs& b, void (*op)(mpz_ptr, mpz_srcptr, mpz_srcptr)) {
    Mpz x(a), y(b), r;
    op(r.v, x.v, y.v);
    mpz_mod(r.v, r.v, modulus().v);
    return to_limbs(r.v);
}

TEST(BlsFp, MontgomeryConstants) {
    Mpz r;
    mpz_ui_pow_ui(r.v, 2, 384);
    mpz_mod(r.v, r.v, modulus().v);
    EXPECT_EQ(to_limbs(r.v), detail::kR);
    mpz_mul(r.v, r.v, r.v);
    mpz_mod(r.v, r.v, modulus().v);
    EXPECT_EQ(to_limbs(r.v), detail::kR2);
    // -p^-1 mod 2^64
    EXPECT_EQ(detail::kP[0] * detail::kPInv, ~std::uint64_t{0});
}

TEST(BlsFp, ArithmeticMatchesGmp) {
    const auto vals = samples();
    for (std::size_t i = 0; i < vals.size(); ++i) {
        const Limbs& a = vals[i];
        const Limbs& b = vals[(i * 7 + 3) % vals.size()];
        const Fp fa = Fp::from_canonical(a), fb = Fp::from_canonical(b);
        ASSERT_EQ(fa.canonical(), a);
        ASSERT_EQ((fa + fb).canonical(), mod_op(a, b, mpz_add)) << i;
        ASSERT_EQ((fa - fb).canonical(), mod_op(a, b, mpz_sub)) << i;
        ASSERT_EQ((fa * fb).canonical(), mod_op(a, b, mpz_mul)) << i;
        ASSERT_EQ(fa.square().canonical(), mod_op(a, a, mpz_mul)) << i;
        ASSERT_EQ((-fa).canonical(), mod_op(Limbs{}, a, mpz_sub)) << i;
        if (!fa.is_zero()) {
            Mpz x(a), inv;
            ASSERT_NE(mpz_invert(inv.v, x.v, modulus().v), 0);
            ASSERT_EQ(fa.inverse().canonical(), to_limbs(inv.v)) << i;
            ASSERT_EQ(fa.inverse_vartime().canonical(), to_limbs(inv.v)) << i;
        }
        // Squares: Legendre symbol agrees, and sqrt gives a root when there is one.
        Mpz x(a);
        const bool square = mpz_legendre(x.v, modulus().v) >= 0;
        ASSERT_EQ(fa.is_square(), square) << i;
        const auto root = fa.sqrt();
        ASSERT_EQ(root.has_value(), square) << i;
        if (root) {
            ASSERT_EQ(root->square(), fa) << i;
        }
    }
    EXPECT_TRUE(Fp::zero().inverse().is_zero());
    EXPECT_TRUE(Fp::zero().inverse_vartime().is_zero());
}

// The divsteps inversion on the integers themselves, against GMP: random values, and shapes
// that stress the step count and the signs (powers of two, p minus powers of two, all-ones runs,
// small values). A batch count below the bound, a wrong sign fix-up or a carry slip shows here.
TEST(BlsFp, DivstepsInverseMatchesGmp) {
    std::vector<Limbs> vals;
    for (unsigned k = 0; k < 381; ++k) {
        Limbs two_k{};
        two_k[k / 64] = std::uint64_t{1} << (k % 64);
        vals.push_back(two_k);
        Mpz x(two_k), d;
        mpz_sub(d.v, modulus().v, x.v);
        vals.push_back(to_limbs(d.v));  // p - 2^k
        Mpz ones;
        mpz_ui_pow_ui(ones.v, 2, k + 1);
        mpz_sub_ui(ones.v, ones.v, 1);
        mpz_mod(ones.v, ones.v, modulus().v);
        vals.push_back(to_limbs(ones.v));  // 2^(k+1) - 1
    }
    for (std::uint64_t v = 1; v < 300; ++v) vals.push_back(Limbs{v, 0, 0, 0, 0, 0});
    std::mt19937_64 rng(7);
    for (int i = 0; i < 20000; ++i) vals.push_back(random_below_p(rng));
    for (std::size_t i = 0; i < vals.size(); ++i) {
        Mpz x(vals[i]), inv;
        ASSERT_NE(mpz_invert(inv.v, x.v, modulus().v), 0) << i;
        ASSERT_EQ(detail::inverse_mod_p(vals[i]), to_limbs(inv.v)) << i;
    }
    EXPECT_EQ(detail::inverse_mod_p(Limbs{}), Limbs{});
}

TEST(BlsFp, PowMatchesGmpForEveryExponentShape) {
    // Fp::pow chooses its windows from the exponent's bits: exponents of every length (empty and
    // all-zero included), lone bits, long runs of ones and of zeros across limb boundaries, and
    // random ones, against GMP's modular exponentiation.
    std::mt19937_64 rng(7);
    std::vector<std::vector<std::uint64_t>> exps{
        {},
        {0},
        {0, 0, 0},
        {1},
        {2},
        {31},
        {32},
        {33},
        {~0ull},
        {0, 1},
        {1, 0},
        {0x8000000000000001ull, 0x8000000000000000ull},
        {~0ull, ~0ull, ~0ull, ~0ull, ~0ull, ~0ull},
        {0x10, 0, 0, 0, 0, 0x4000000000000000ull},
        {detail::kPMinus2.begin(), detail::kPMinus2.end()}};
    for (std::size_t n = 1; n <= 6; ++n)
        for (int i = 0; i < 8; ++i) {
            std::vector<std::uint64_t> e(n);
            for (auto& w : e) w = rng() & (i % 2 == 0 ? ~0ull : rng());  // sparse on odd i
            exps.push_back(e);
        }
    const Fp base = Fp::from_canonical(random_below_p(rng));
    const Mpz b(base.canonical());
    for (const auto& e : exps) {
        Mpz x, want;
        if (!e.empty()) mpz_import(x.v, e.size(), -1, sizeof(std::uint64_t), 0, 0, e.data());
        mpz_powm(want.v, b.v, x.v, modulus().v);
        ASSERT_EQ(base.pow(e).canonical(), to_limbs(want.v)) << "exponent limbs " << e.size();
    }
    EXPECT_EQ(Fp::zero().pow(std::vector<std::uint64_t>{5}), Fp::zero());
    EXPECT_EQ(Fp::zero().pow(std::vector<std::uint64_t>{0}), Fp::one());
}

/// The 768-bit integer of twelve limbs.
void import_wide(mpz_t out, const detail::Wide& w) {
    mpz_import(out, 12, -1, sizeof(std::uint64_t), 0, 0, w.data());
}

// The pieces of the lazy Fp2 product, portable and (where the CPU has MULX/ADX) assembly:
// 768-bit products, Montgomery reduction of anything below p·R (inputs up to 2p included) and
// the wide subtractions, all against GMP.
TEST(BlsFp, WideProductsAndReductionMatchGmp) {
    const auto vals = samples();
    Mpz r_inv, pr;  // R^-1 mod p, and p·R
    mpz_ui_pow_ui(pr.v, 2, 384);
    ASSERT_NE(mpz_invert(r_inv.v, pr.v, modulus().v), 0);
    mpz_mul(pr.v, pr.v, modulus().v);
    for (std::size_t i = 0; i + 1 < vals.size(); ++i) {
        // Inputs below p and below 2p (x + p): redc's bound is p·R, 4p^2 is below it.
        for (const bool twice : {false, true}) {
            const Limbs a = twice ? detail::add_plain(vals[i], detail::kP) : vals[i];
            const Limbs& b = vals[i + 1];
            Mpz x(a), y(b), prod, expect;
            mpz_mul(prod.v, x.v, y.v);
            const detail::Wide w = detail::mul_wide(a, b);
            Mpz got;
            import_wide(got.v, w);
            ASSERT_EQ(mpz_cmp(got.v, prod.v), 0) << i;
            mpz_mul(expect.v, prod.v, r_inv.v);
            mpz_mod(expect.v, expect.v, modulus().v);
            ASSERT_EQ(detail::redc(w), to_limbs(expect.v)) << i;
            ASSERT_EQ(detail::mont_mul(a, b), to_limbs(expect.v)) << i;
#if defined(__x86_64__)
            if (detail::g_mulx_adx) {
                detail::Wide wx{};
                detail::mul_wide_x86(a, b, wx);
                ASSERT_EQ(wx, w) << i;
                ASSERT_EQ(detail::redc_x86(w), to_limbs(expect.v)) << i;
                ASSERT_EQ(detail::mont_mul_mulx_adx(a, b), to_limbs(expect.v)) << i;
            }
#endif
        }
        // a - b plus p·R when negative, for products of values below p.
        const detail::Wide u = detail::mul_wide(vals[i], vals[i]);
        const detail::Wide v = detail::mul_wide(vals[i + 1], vals[i + 1]);
        Mpz mu, mv, diff;
        import_wide(mu.v, u);
        import_wide(mv.v, v);
        mpz_sub(diff.v, mu.v, mv.v);
        if (mpz_sgn(diff.v) < 0) mpz_add(diff.v, diff.v, pr.v);
        const detail::Wide d = detail::wide_sub_mod(u, v);
        Mpz got;
        import_wide(got.v, d);
        ASSERT_EQ(mpz_cmp(got.v, diff.v), 0) << i;
#if defined(__x86_64__)
        detail::Wide dx{};
        detail::wide_sub_mod_x86(u, v, dx);
        ASSERT_EQ(dx, d) << i;
        if (mpz_cmp(mu.v, mv.v) >= 0) {
            detail::wide_sub_x86(u, v, dx);
            ASSERT_EQ(dx, detail::wide_sub(u, v)) << i;
        }
        ASSERT_EQ(detail::add_plain_x86(vals[i], vals[i + 1]),
                  detail::add_plain(vals[i], vals[i + 1]));
#endif
    }
}

TEST(BlsFp, BytesRoundTripAndRangeCheck) {
    for (const Limbs& a : samples()) {
        std::array<std::uint8_t, 48> be{};
        Fp::from_canonical(a).to_bytes(be);
        auto back = Fp::from_bytes(be);
        ASSERT_TRUE(back.has_value());
        EXPECT_EQ(back->canonical(), a);
    }
    // p itself and 2^384 - 1 are out of range.
    std::array<std::uint8_t, 48> be{};
    for (std::size_t i = 0; i < 6; ++i) {
        for (int b = 0; b < 8; ++b) {
            be[8 * i + b] = static_cast<std::uint8_t>(detail::kP[5 - i] >> (56 - 8 * b));
        }
    }
    EXPECT_FALSE(Fp::from_bytes(be).has_value());
    be.fill(0xff);
    EXPECT_FALSE(Fp::from_bytes(be).has_value());
}

TEST(BlsFp, WideReductionMatchesGmp) {
    std::mt19937_64 rng(7);
    for (std::size_t len : {0, 1, 7, 8, 48, 63, 64, 100}) {
        std::vector<std::uint8_t> bytes(len);
        for (auto& b : bytes) b = static_cast<std::uint8_t>(rng());
        if (len == 64) std::fill(bytes.begin(), bytes.end(), 0xff);
        Mpz x, r;
        if (len != 0) mpz_import(x.v, len, 1, 1, 0, 0, bytes.data());
        mpz_mod(r.v, x.v, modulus().v);
        EXPECT_EQ(Fp::from_bytes_wide(bytes).canonical(), to_limbs(r.v)) << len;
    }
}

TEST(BlsFp, LexicographicallyLargest) {
    EXPECT_FALSE(Fp::zero().lexicographically_largest());
    EXPECT_FALSE(Fp::from_canonical(detail::kPMinus1Over2).lexicographically_largest());
    EXPECT_TRUE(
        (Fp::from_canonical(detail::kPMinus1Over2) + Fp::one()).lexicographically_largest());
    EXPECT_TRUE((-Fp::one()).lexicographically_largest());
}

/// (a0 + a1·u)(b0 + b1·u) with u^2 = -1, by GMP.
std::pair<Limbs, Limbs> fp2_mul_gmp(const Limbs& a0, const Limbs& a1, const Limbs& b0,
                                    const Limbs& b1) {
    Mpz x0(a0), x1(a1), y0(b0), y1(b1), t, c0, c1;
    mpz_mul(c0.v, x0.v, y0.v);
    mpz_mul(t.v, x1.v, y1.v);
    mpz_sub(c0.v, c0.v, t.v);
    mpz_mod(c0.v, c0.v, modulus().v);
    mpz_mul(c1.v, x0.v, y1.v);
    mpz_mul(t.v, x1.v, y0.v);
    mpz_add(c1.v, c1.v, t.v);
    mpz_mod(c1.v, c1.v, modulus().v);
    return {to_limbs(c0.v), to_limbs(c1.v)};
}

TEST(BlsFp2, ArithmeticMatchesGmp) {
    const auto vals = samples();
    int squares = 0;
    for (std::size_t i = 0; i + 3 < vals.size(); ++i) {
        const Fp2 a(Fp::from_canonical(vals[i]), Fp::from_canonical(vals[i + 1]));
        const Fp2 b(Fp::from_canonical(vals[i + 2]), Fp::from_canonical(vals[i + 3]));
        const auto [c0, c1] = fp2_mul_gmp(vals[i], vals[i + 1], vals[i + 2], vals[i + 3]);
        const Fp2 prod = a * b;
        ASSERT_EQ(prod.c0.canonical(), c0) << i;
        ASSERT_EQ(prod.c1.canonical(), c1) << i;
        ASSERT_EQ(a.square(), a * a) << i;
        ASSERT_EQ(a.mul_by_xi(), a * Fp2(Fp::one(), Fp::one())) << i;
        if (!a.is_zero()) {
            ASSERT_EQ(a * a.inverse(), Fp2::one()) << i;
            ASSERT_EQ(a.inverse_vartime(), a.inverse()) << i;
        }
        const auto root = a.sqrt();
        ASSERT_EQ(root.has_value(), a.is_square()) << i;
        if (root) {
            ++squares;
            ASSERT_EQ(root->square(), a) << i;
        }
        // Every square has a root: a^2 always does.
        const auto r2 = a.square().sqrt();
        ASSERT_TRUE(r2.has_value()) << i;
        ASSERT_EQ(r2->square(), a.square()) << i;
    }
    // About half of random elements are squares; both branches ran.
    EXPECT_GT(squares, 40);
    EXPECT_LT(squares, 160);
    // -1 is a square in Fp2 (it is u^2); its root is ±u.
    const auto u = (-Fp2::one()).sqrt();
    ASSERT_TRUE(u.has_value());
    EXPECT_EQ(u->square(), -Fp2::one());
}

TEST(BlsFp2, Sgn0FollowsRfc9380) {
    EXPECT_FALSE(Fp2::zero().sgn0());
    EXPECT_TRUE(Fp2::one().sgn0());
    EXPECT_TRUE(Fp2(Fp::zero(), Fp::one()).sgn0());        // c0 = 0: sign of c1
    EXPECT_FALSE(Fp2(Fp::from_u64(2), Fp::one()).sgn0());  // c0 even and non-zero
}

}  // namespace
}  // namespace keel::bls
