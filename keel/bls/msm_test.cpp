// Multi-scalar multiplication against the sum of separate multiplications: every window width
// the sizes below select, zero and full-width scalars, the point at infinity, repeated and
// opposite points (a bucket that doubles or cancels), on G1 and G2; and G1FixedBases.
#include "keel/bls/msm.hpp"

#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <random>
#include <vector>

#include "keel/bls/fixed_msm.hpp"

namespace keel::bls {
namespace {

using Limbs4 = std::array<std::uint64_t, 4>;

Scalar random_scalar(std::mt19937_64& rng) {
    Limbs4 k{};
    for (auto& v : k) v = rng();
    switch (rng() % 4) {
        case 0:
            return Scalar(Limbs4{k[0] >> (rng() % 64), 0, 0, 0});  // short
        case 1:
            return Scalar(Limbs4{~0ull, ~0ull, ~0ull, ~0ull});  // 2^256 - 1, above r
        default:
            return Scalar(k);
    }
}

template <class Point, class Affine>
std::vector<Affine> test_points(std::mt19937_64& rng, Point g, std::size_t n) {
    std::vector<Affine> pts;
    for (std::size_t i = 0; i < n; ++i) {
        switch (i % 7) {
            case 3:
                pts.push_back(Affine{{}, {}, true});  // infinity
                break;
            case 5:
                pts.push_back(pts[i - 1]);  // repeated: P + P in one bucket
                break;
            case 6:
                pts.push_back((-Point::from_affine(pts[i - 1])).to_affine_vartime());
                break;
            default:
                pts.push_back(
                    g.mul_vartime(Scalar(Limbs4{rng(), rng(), 0, 0})).to_affine_vartime());
        }
    }
    return pts;
}

template <class Point, class Affine>
Point naive(const std::vector<Affine>& pts, const std::vector<Scalar>& ks) {
    Point sum = Point::identity();
    for (std::size_t i = 0; i < pts.size(); ++i) {
        sum = sum.add_vartime(Point::from_affine(pts[i]).mul_vartime(ks[i]));
    }
    return sum;
}

TEST(Msm, G1MatchesSeparateMultiplications) {
    std::mt19937_64 rng(2537);
    for (std::size_t n : {0u, 1u, 2u, 3u, 7u, 8u, 16u, 33u, 70u, 130u}) {
        const auto pts = test_points<G1Jacobian, G1Affine>(rng, g1_generator(), n);
        std::vector<Scalar> ks(n);
        for (auto& k : ks) k = random_scalar(rng);
        if (n > 2) ks[1] = Scalar{};  // a zero scalar
        ASSERT_EQ(g1_msm(pts, ks), (naive<G1Jacobian, G1Affine>(pts, ks))) << n;
    }
}

TEST(Msm, G2MatchesSeparateMultiplications) {
    std::mt19937_64 rng(4844);
    for (std::size_t n : {0u, 1u, 2u, 5u, 9u, 40u}) {
        const auto pts = test_points<G2Jacobian, G2Affine>(rng, g2_generator(), n);
        std::vector<Scalar> ks(n);
        for (auto& k : ks) k = random_scalar(rng);
        ASSERT_EQ(g2_msm(pts, ks), (naive<G2Jacobian, G2Affine>(pts, ks))) << n;
    }
}

TEST(Msm, FixedBasesMatchSeparateMultiplications) {
    // The odd-multiple tables and the width-6 NAF (digits up to ±31, a carry into bit 256 for
    // 2^256 - 1) against separate multiplications, from the first base and from inside the
    // table; infinity, repeated and opposite bases included.
    std::mt19937_64 rng(7594);
    const auto pts = test_points<G1Jacobian, G1Affine>(rng, g1_generator(), 70);
    const G1FixedBases bases(pts);
    ASSERT_EQ(bases.size(), pts.size());
    for (std::size_t first : {0u, 1u, 5u, 69u, 70u}) {
        for (std::size_t n : {0u, 1u, 2u, 9u, 64u}) {
            if (first + n > pts.size()) continue;
            std::vector<Scalar> ks(n);
            for (auto& k : ks) k = random_scalar(rng);
            if (n > 2) ks[1] = Scalar{};
            const std::vector<G1Affine> sub(pts.begin() + static_cast<std::ptrdiff_t>(first),
                                            pts.begin() + static_cast<std::ptrdiff_t>(first + n));
            ASSERT_EQ(bases.msm(ks, first), (naive<G1Jacobian, G1Affine>(sub, ks)))
                << first << " " << n;
        }
    }
    // Every digit value: the scalars 1 .. 63 on one base, and [r]P = O.
    const std::vector<G1Affine> g = {kG1Generator};
    const G1FixedBases one(g);
    for (std::uint64_t k = 1; k < 64; ++k)
        ASSERT_EQ(one.msm(std::vector<Scalar>{Scalar(Limbs4{k, 0, 0, 0})}),
                  g1_generator().mul_vartime(Scalar(Limbs4{k, 0, 0, 0})))
            << k;
    EXPECT_TRUE(one.msm(std::vector<Scalar>{Scalar(kR)}).is_identity());
}

TEST(Msm, FixedBasesRowsMatchOneSumEach) {
    // msm_rows sums its rows' points in affine, pairwise across rows: repeated bases with equal
    // scalars (a doubling in a round), opposite bases with equal scalars (a sum at infinity),
    // bases at infinity, zero scalars, rows of one column, and a first row inside the table.
    std::mt19937_64 rng(4844);
    const auto pts = test_points<G1Jacobian, G1Affine>(rng, g1_generator(), 84);
    const G1FixedBases bases(pts);
    for (const std::size_t cols : {1u, 7u, 12u}) {
        for (const std::size_t first_row : {0u, 1u}) {
            const std::size_t rows = 84 / cols - first_row;
            std::vector<Scalar> ks(rows * cols);
            for (auto& k : ks) k = random_scalar(rng);
            for (std::size_t i = 0; i < ks.size(); ++i) {
                const std::size_t at = first_row * cols + i;
                if (i > 0 && (at % 7 == 5 || at % 7 == 6)) ks[i] = ks[i - 1];  // same, opposite
                if (i % 11 == 3) ks[i] = Scalar{};
            }
            const auto sums = bases.msm_rows(ks, cols, first_row);
            ASSERT_EQ(sums.size(), rows);
            for (std::size_t k = 0; k < rows; ++k)
                ASSERT_EQ(sums[k],
                          bases.msm(std::span(ks).subspan(k * cols, cols), (first_row + k) * cols))
                    << cols << " " << first_row << " " << k;
        }
    }
    // A row whose points cancel: P and -P with one scalar.
    const G1Affine g = kG1Generator;
    const std::vector<G1Affine> pair = {g, {g.x, -g.y, false}};
    const G1FixedBases opposite(pair);
    const std::vector<Scalar> same = {Scalar(Limbs4{12345, 0, 0, 0}),
                                      Scalar(Limbs4{12345, 0, 0, 0})};
    EXPECT_TRUE(opposite.msm_rows(same, 2)[0].is_identity());
}

TEST(Msm, KnownSums) {
    // [2]G + [3]G - [5]G = O and [r]G = O: the window sums carry across limbs correctly.
    const G1Affine g = kG1Generator;
    const G1Affine neg = {g.x, -g.y, false};
    const std::vector<G1Affine> pts = {g, g, neg};
    const std::vector<Scalar> ks = {Scalar(Limbs4{2, 0, 0, 0}), Scalar(Limbs4{3, 0, 0, 0}),
                                    Scalar(Limbs4{5, 0, 0, 0})};
    EXPECT_TRUE(g1_msm(pts, ks).is_identity());
    const std::vector<G1Affine> one = {g, g};
    const std::vector<Scalar> order = {Scalar(kR), Scalar(Limbs4{1, 0, 0, 0})};
    EXPECT_EQ(g1_msm(one, order), g1_generator());
    EXPECT_EQ(detail::msm_window_bits(1), 2u);
    EXPECT_EQ(detail::msm_window_bits(1u << 20), 16u);
}

}  // namespace
}  // namespace keel::bls
