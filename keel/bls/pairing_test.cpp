// The optimal ate pairing: the final exponentiation against a plain exponentiation by
// 3·(p^12 - 1)/r, non-degeneracy, bilinearity, inverses, the multi-Miller loop against a
// product of pairings, the order r of the values, and e(G1, G2) against a published value.
#include <gmp.h>
#include <gtest/gtest.h>

#include <array>
#include <random>
#include <string_view>
#include <vector>

#include "keel/bls/g1.hpp"
#include "keel/bls/g2.hpp"
#include "keel/bls/pairing.hpp"

namespace keel::bls {
namespace {

using Pair = std::pair<G1Affine, G2Affine>;

// The generators (g1.hpp, g2.hpp); this test multiplies them with its own affine
// double-and-add (test_mul below), independent of the group code it would otherwise rely on.
const G1Affine kG1 = kG1Generator;
const G2Affine kG2 = kG2Generator;

/// r, the order of G1, G2 and GT, little-endian.
constexpr std::array<std::uint64_t, 4> kR{0xffffffff00000001, 0x53bda402fffe5bfe,
                                          0x3339d80809a1d805, 0x73eda753299d7d48};

// ---- Test-only affine group arithmetic (double and add with an inversion per step): slow and
// variable time, just enough to make multiples of the generators for these checks. The real
// group code is g1.hpp / g2.hpp.
template <class Point>
Point test_add(const Point& a, const Point& b) {
    if (a.infinity) return b;
    if (b.infinity) return a;
    decltype(a.x) lambda;
    if (a.x == b.x) {
        if (!(a.y == b.y) || a.y.is_zero()) return Point{{}, {}, true};
        const auto xx = a.x.square();
        lambda = (xx.dbl() + xx) * a.y.dbl().inverse();
    } else {
        lambda = (b.y - a.y) * (b.x - a.x).inverse();
    }
    Point r;
    r.x = lambda.square() - a.x - b.x;
    r.y = lambda * (a.x - r.x) - a.y;
    return r;
}

template <class Point>
Point test_mul(const Point& p, std::span<const std::uint64_t> scalar) {
    Point r{{}, {}, true};
    for (std::size_t i = scalar.size(); i-- > 0;) {
        for (int bit = 63; bit >= 0; --bit) {
            r = test_add(r, r);
            if ((scalar[i] >> bit) & 1) r = test_add(r, p);
        }
    }
    return r;
}

template <class Point>
Point test_mul(const Point& p, std::uint64_t k) {
    return test_mul(p, std::span<const std::uint64_t>(&k, 1));
}

template <class Point>
Point test_neg(Point p) {
    p.y = -p.y;
    return p;
}
// ---- end of test-only group arithmetic.

/// a·b as two limbs.
std::array<std::uint64_t, 2> mul128(std::uint64_t a, std::uint64_t b) {
    const detail::u128 m = static_cast<detail::u128>(a) * b;
    return {static_cast<std::uint64_t>(m), static_cast<std::uint64_t>(m >> 64)};
}

TEST(Pairing, GeneratorsAreInTheGroups) {
    EXPECT_TRUE(kG1.on_curve());
    EXPECT_TRUE(kG2.on_curve());
    EXPECT_TRUE(test_mul(kG1, kR).infinity);
    EXPECT_TRUE(test_mul(kG2, kR).infinity);
}

TEST(Pairing, FinalExponentiationIsThePowerThreeTimesP12Minus1OverR) {
    mpz_t e, p, r;
    mpz_inits(e, p, r, nullptr);
    mpz_import(p, 6, -1, sizeof(std::uint64_t), 0, 0, detail::kP.data());
    mpz_import(r, 4, -1, sizeof(std::uint64_t), 0, 0, kR.data());
    mpz_pow_ui(e, p, 12);
    mpz_sub_ui(e, e, 1);
    ASSERT_TRUE(mpz_divisible_p(e, r));
    mpz_divexact(e, e, r);
    mpz_mul_ui(e, e, 3);
    std::vector<std::uint64_t> limbs((mpz_sizeinbase(e, 2) + 63) / 64, 0);
    std::size_t n = 0;
    mpz_export(limbs.data(), &n, -1, sizeof(std::uint64_t), 0, 0, e);
    limbs.resize(n);
    mpz_clears(e, p, r, nullptr);

    std::mt19937_64 rng(3);
    for (int i = 0; i < 2; ++i) {
        Fp12 f;
        for (Fp* c : {&f.c0.c0.c0, &f.c0.c0.c1, &f.c0.c1.c0, &f.c0.c1.c1, &f.c0.c2.c0, &f.c0.c2.c1,
                      &f.c1.c0.c0, &f.c1.c0.c1, &f.c1.c1.c0, &f.c1.c1.c1, &f.c1.c2.c0, &f.c1.c2.c1})
            *c = Fp::from_canonical({rng(), rng(), rng(), rng(), rng(), rng() >> 8});
        EXPECT_EQ(final_exponentiation(f), f.pow(limbs));
    }
    // A Miller loop's output too.
    const Pair pq{kG1, kG2};
    const Fp12 m = miller_loop({&pq, 1});
    EXPECT_EQ(final_exponentiation(m), m.pow(limbs));
}

TEST(Pairing, NonDegenerateAndOfOrderR) {
    const Fp12 e = pairing(kG1, kG2);
    EXPECT_FALSE(e.is_one());
    EXPECT_TRUE(e.pow(kR).is_one());
}

TEST(Pairing, InfinityGivesOne) {
    EXPECT_TRUE(pairing(G1Affine{{}, {}, true}, kG2).is_one());
    EXPECT_TRUE(pairing(kG1, G2Affine{{}, {}, true}).is_one());
    EXPECT_TRUE(pairing_product_is_one({}));
}

TEST(Pairing, Bilinear) {
    const Fp12 e = pairing(kG1, kG2);
    std::mt19937_64 rng(11);
    std::vector<std::pair<std::uint64_t, std::uint64_t>> scalars{{1, 2}, {2, 1}, {2, 3}, {5, 7}};
    for (int i = 0; i < 3; ++i) scalars.emplace_back(rng(), rng());
    for (const auto& [a, b] : scalars) {
        const G1Affine ap = test_mul(kG1, a);
        const G2Affine bq = test_mul(kG2, b);
        const auto ab = mul128(a, b);
        const Fp12 expected = e.pow(ab);
        EXPECT_EQ(pairing(ap, bq), expected) << a << " " << b;
        EXPECT_EQ(pairing(test_mul(kG1, ab), kG2), expected) << a << " " << b;
        EXPECT_EQ(pairing(kG1, test_mul(kG2, ab)), expected) << a << " " << b;
        // e(aP, bQ)·e(-abP, Q) = 1
        const std::array<Pair, 2> pairs{Pair{ap, bq}, Pair{test_neg(test_mul(kG1, ab)), kG2}};
        EXPECT_TRUE(pairing_product_is_one(pairs));
    }
}

TEST(Pairing, InversesCancel) {
    const std::array<Pair, 2> pairs{Pair{kG1, kG2}, Pair{test_neg(kG1), kG2}};
    EXPECT_TRUE(pairing_product_is_one(pairs));
    const std::array<Pair, 2> pairs2{Pair{kG1, kG2}, Pair{kG1, test_neg(kG2)}};
    EXPECT_TRUE(pairing_product_is_one(pairs2));
    const std::array<Pair, 2> same{Pair{kG1, kG2}, Pair{kG1, kG2}};
    EXPECT_FALSE(pairing_product_is_one(same));
    EXPECT_EQ(pairing(test_neg(kG1), kG2), pairing(kG1, kG2).conjugate());
}

TEST(Pairing, MultiMillerLoopIsProductOfPairings) {
    std::vector<Pair> pairs;
    Fp12 product = Fp12::one();
    for (std::uint64_t k = 1; k <= 5; ++k) {
        Pair pq{test_mul(kG1, k * 3 + 1), test_mul(kG2, k * k + 2)};
        if (k == 3) pq.first = G1Affine{{}, {}, true};
        if (k == 4) pq.second = G2Affine{{}, {}, true};
        pairs.push_back(pq);
        product *= pairing(pq.first, pq.second);
    }
    EXPECT_EQ(final_exponentiation(miller_loop(pairs)), product);
    EXPECT_FALSE(pairing_product_is_one(pairs));
}

/// e(G1, G2) as published by zkcrypto/bls12_381 (src/pairings.rs, `Gt::generator()`, commented
/// "pairing(&G1Affine::generator(), &G2Affine::generator())" and checked by that crate's tests).
/// Same tower (Fp6 = Fp2[v]/(v^3 - (1 + u)), Fp12 = Fp6[w]/(w^2 - v)); the limbs there are the
/// Montgomery form with R = 2^384, as here, coefficients in the order c0.c0.c0, c0.c0.c1,
/// c0.c1.c0, ..., c1.c2.c1.
Fp12 published_generator_pairing() {
    constexpr std::uint64_t kLimbs[12][6] = {
        {0x1972e433a01f85c5, 0x97d32b76fd772538, 0xc8ce546fc96bcdf9, 0xcef63e7366d40614,
         0xa611342781843780, 0x13f3448a3fc6d825},
        {0xd26331b02e9d6995, 0x9d68a482f7797e7d, 0x9c9b29248d39ea92, 0xf4801ca2e13107aa,
         0xa16c0732bdbcb066, 0x083ca4afba360478},
        {0x59e261db0916b641, 0x2716b6f4b23e960d, 0xc8e55b10a0bd9c45, 0x0bdb0bd99c4deda8,
         0x8cf89ebf57fdaac5, 0x12d6b7929e777a5e},
        {0x5fc85188b0e15f35, 0x34a06e3a8f096365, 0xdb3126a6e02ad62c, 0xfc6f5aa97d9a990b,
         0xa12f55f5eb89c210, 0x1723703a926f8889},
        {0x93588f2971828778, 0x43f65b8611ab7585, 0x3183aaf5ec279fdf, 0xfa73d7e18ac99df6,
         0x64e176a6a64c99b0, 0x179fa78c58388f1f},
        {0x672a0a11ca2aef12, 0x0d11b9b52aa3f16b, 0xa44412d0699d056e, 0xc01d0177221a5ba5,
         0x66e0cede6c735529, 0x05f5a71e9fddc339},
        {0xd30a88a1b062c679, 0x5ac56a5d35fc8304, 0xd0c834a6a81f290d, 0xcd5430c2da3707c7,
         0xf0c27ff780500af0, 0x09245da6e2d72eae},
        {0x9f2e0676791b5156, 0xe2d1c8234918fe13, 0x4c9e459f3c561bf4, 0xa3e85e53b9d3e3c1,
         0x820a121e21a70020, 0x15af618341c59acc},
        {0x7c95658c24993ab1, 0x73eb38721ca886b9, 0x5256d749477434bc, 0x8ba41902ea504a8b,
         0x04a3d3f80c86ce6d, 0x18a64a87fb686eaa},
        {0xbb83e71bb920cf26, 0x2a5277ac92a73945, 0xfc0ee59f94f046a0, 0x7158cdf3786058f7,
         0x7cc1061b82f945f6, 0x03f847aa9fdbe567},
        {0x8078dba56134e657, 0x1cd7ec9a43998a6e, 0xb1aa599a1a993766, 0xc9a0f62f0842ee44,
         0x8e159be3b605dffa, 0x0c86ba0d4af13fc2},
        {0xe80ff2a06a52ffb1, 0x7694ca48721a906c, 0x7583183e03b08514, 0xf567afdd40cee4e2,
         0x9a6d96d2e526a5fc, 0x197e9f49861f2242},
    };
    Fp2 c[6];
    for (int i = 0; i < 6; ++i) {
        detail::Limbs a{}, b{};
        for (int j = 0; j < 6; ++j) a[j] = kLimbs[2 * i][j], b[j] = kLimbs[2 * i + 1][j];
        c[i] = Fp2(Fp::from_montgomery(a), Fp::from_montgomery(b));
    }
    return {Fp6(c[0], c[1], c[2]), Fp6(c[3], c[4], c[5])};
}

TEST(Pairing, MatchesPublishedGeneratorPairing) {
    const Fp12 published = published_generator_pairing();
    EXPECT_TRUE(published.pow(kR).is_one());
    EXPECT_EQ(pairing(kG1, kG2), published);
}

}  // namespace
}  // namespace keel::bls
