#pragma once
/// Multi-scalar multiplication on G1 and G2: Σ [k_i]P_i for public points and scalars, the
/// operation behind KZG commitments (EIP-4844, a commitment is an MSM over the trusted setup)
/// and EIP-2537's G1MSM / G2MSM precompiles (https://eips.ethereum.org/EIPS/eip-2537).
///
/// Pippenger's bucket method: the scalars are cut into windows of c bits, as signed digits in
/// [-2^(c-1), 2^(c-1)); in each window every point is added once into the bucket of its digit's
/// magnitude (negated for a negative digit), and the buckets are summed by a running sum
/// (Σ_j j·B_j with 2·2^(c-1) additions), the windows joined by c doublings. For n points this
/// costs about (256/c)·(n + 2^c) additions instead of the ~n·(256 doublings + 128 additions) of
/// n separate multiplications; c grows with log2(n).
///
/// Variable time (branches on the scalars and points): public data only. Scalars are used as the
/// 256-bit integers their limbs hold (not reduced mod r, as EIP-2537 takes them); points at
/// infinity and zero scalars contribute nothing. Points must be on their curve (the caller's
/// decoding checks that, and the subgroup where the rules ask for it).

#include <bit>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "keel/bls/affine.hpp"
#include "keel/bls/g1.hpp"
#include "keel/bls/g2.hpp"
#include "keel/bls/scalar.hpp"
#include "keel/common/assert.hpp"

namespace keel::bls {

namespace detail {

/// Bits [start, start + c) of k (c <= 32), bits past 256 read as zero.
inline std::uint32_t scalar_window(const Scalar& k, std::size_t start, std::size_t c) noexcept {
    const auto& l = k.limbs();
    const std::size_t limb = start / 64, shift = start % 64;
    if (limb >= 4) return 0;
    std::uint64_t v = l[limb] >> shift;
    if (shift + c > 64 && limb + 1 < 4) v |= l[limb + 1] << (64 - shift);
    return static_cast<std::uint32_t>(v & ((std::uint64_t{1} << c) - 1));
}

/// The window width for n points: about log2(n) - 2, at least 2 and at most 16 (2^15 buckets
/// of signed digits are 2^15 points of memory: G2 Jacobian points are 288 bytes each).
constexpr std::size_t msm_window_bits(std::size_t n) noexcept {
    const std::size_t w = static_cast<std::size_t>(std::bit_width(n));
    return w <= 4 ? 2 : (w - 2 > 16 ? 16 : w - 2);
}

/// The scalars cut into signed windows of c bits: digits in [-2^(c-1), 2^(c-1)), Σ d_w·2^(cw)
/// = k, one window more than 256/c to take the last carry; digits[i·windows + w].
inline void signed_windows(std::span<const Scalar> scalars, std::size_t c, std::size_t windows,
                           std::vector<std::int32_t>& digits) {
    digits.resize(scalars.size() * windows);
    const std::int32_t half = std::int32_t{1} << (c - 1), full = std::int32_t{1} << c;
    for (std::size_t i = 0; i < scalars.size(); ++i) {
        std::int32_t carry = 0;
        for (std::size_t w = 0; w < windows; ++w) {
            std::int32_t d = static_cast<std::int32_t>(scalar_window(scalars[i], w * c, c)) + carry;
            carry = d >= half ? 1 : 0;
            d -= carry * full;
            digits[i * windows + w] = d;
        }
    }
}

template <class Point, class Affine>
Point msm_vartime(std::span<const Affine> points, std::span<const Scalar> scalars) {
    KEEL_ASSERT(points.size() == scalars.size());
    const std::size_t n = points.size();
    Point acc = Point::identity();
    if (n == 0) return acc;
    if (n == 1) return Point::from_affine(points[0]).mul_vartime(scalars[0]);
    // Signed digits: a negative digit adds the negated point (free in affine), so 2^(c-1)
    // buckets serve a c-bit window, halving the buckets' running sum.
    const std::size_t c = msm_window_bits(n);
    const std::size_t windows = 256 / c + 1;
    std::vector<std::int32_t> digits;
    signed_windows(scalars, c, windows, digits);
    std::vector<Point> buckets(std::size_t{1} << (c - 1));
    for (std::size_t w = windows; w-- > 0;) {
        for (std::size_t i = 0; i < c; ++i) acc = acc.dbl();
        for (auto& b : buckets) b = Point::identity();
        for (std::size_t i = 0; i < n; ++i) {
            const std::int32_t d = digits[i * windows + w];
            if (d > 0) {
                Point& b = buckets[static_cast<std::size_t>(d - 1)];
                b = b.add_mixed_vartime(points[i]);
            } else if (d < 0) {
                Point& b = buckets[static_cast<std::size_t>(-d - 1)];
                const Affine& p = points[i];
                b = b.add_mixed_vartime(Affine{p.x, -p.y, p.infinity});
            }
        }
        // Σ_j j·B_j: the running sum holds B_top + ... + B_j when it is added the j-th time.
        Point running = Point::identity(), total = Point::identity();
        for (std::size_t j = buckets.size(); j-- > 0;) {
            running = running.add_vartime(buckets[j]);
            total = total.add_vartime(running);
        }
        acc = acc.add_vartime(total);
    }
    return acc;
}

}  // namespace detail

/// Σ [scalars[i]]points[i] on E1 (the spans have the same size, asserted). Variable time.
inline G1Jacobian g1_msm(std::span<const G1Affine> points, std::span<const Scalar> scalars) {
    return detail::msm_vartime<G1Jacobian>(points, scalars);
}

/// Σ [scalars[i]]points[i] on E2 (the spans have the same size, asserted). Variable time.
inline G2Jacobian g2_msm(std::span<const G2Affine> points, std::span<const Scalar> scalars) {
    return detail::msm_vartime<G2Jacobian>(points, scalars);
}

}  // namespace keel::bls
