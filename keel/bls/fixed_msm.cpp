#include "keel/bls/fixed_msm.hpp"

#include <algorithm>
#include <array>
#include <cstdint>

#include "keel/common/assert.hpp"
#include "keel/common/batch_inverse.hpp"
#include "keel/common/parallel.hpp"

namespace keel::bls {

namespace {

constexpr int kWidth = 6;
constexpr std::size_t kDigits = 257;  // a 256-bit scalar's NAF may carry into bit 256

// Bits [at, at + count) of k (count <= 32), zero past bit 255.
std::uint32_t bits_at(const Scalar& k, std::size_t at, std::size_t count) noexcept {
    const auto& l = k.limbs();
    const std::size_t limb = at / 64, shift = at % 64;
    if (limb >= 4) return 0;
    std::uint64_t v = l[limb] >> shift;
    if (shift + count > 64 && limb + 1 < 4) v |= l[limb + 1] << (64 - shift);
    return static_cast<std::uint32_t>(v & ((std::uint64_t{1} << count) - 1));
}

// The width-6 NAF of k into `naf` (zeros between digits; digits odd in (-32, 32)), least
// significant first; returns one past the highest nonzero digit. A window is read wherever the
// running value (k plus the carry of the digits taken) has its lowest bit set, so runs of
// zeros cost one test a bit and no multi-limb arithmetic.
std::size_t naf(const Scalar& k, std::span<std::int8_t, kDigits> out) noexcept {
    std::fill(out.begin(), out.end(), std::int8_t{0});
    std::uint32_t carry = 0;
    std::size_t top = 0;
    for (std::size_t bit = 0; bit < kDigits;) {
        if (bits_at(k, bit, 1) == carry) {
            ++bit;  // the running value's bit is zero (0 + 0, or 1 + the carry 1 leaving 0 up)
            continue;
        }
        std::int32_t word = static_cast<std::int32_t>(bits_at(k, bit, kWidth) + carry);
        carry = static_cast<std::uint32_t>(word >> (kWidth - 1)) & 1;
        word -= static_cast<std::int32_t>(carry << kWidth);
        out[bit] = static_cast<std::int8_t>(word);
        top = bit + 1;
        bit += kWidth;
    }
    return top;
}

}  // namespace

G1FixedBases::G1FixedBases(std::span<const G1Affine> points)
    : size_(points.size()), multiples_(points.size() * kMultiples) {
    // In chunks, each with one inversion for all its multiples' Z coordinates.
    constexpr std::size_t kChunk = 256;
    parallel::for_ranges(points.size(), kChunk, [&](std::size_t begin, std::size_t end) {
        std::vector<G1Jacobian> jac(kChunk * kMultiples);
        std::vector<Fp> z_inv(kChunk * kMultiples);
        for (std::size_t lo = begin; lo < end; lo += kChunk) {
            const std::size_t hi = std::min(end, lo + kChunk);
            const std::size_t count = (hi - lo) * kMultiples;
            for (std::size_t i = lo; i < hi; ++i) {
                G1Jacobian* m = &jac[(i - lo) * kMultiples];
                m[0] = G1Jacobian::from_affine(points[i]);
                const G1Jacobian twice = m[0].dbl();
                for (std::size_t j = 1; j < kMultiples; ++j) m[j] = m[j - 1].add_vartime(twice);
            }
            for (std::size_t j = 0; j < count; ++j) z_inv[j] = jac[j].z;
            invert_all_vartime<Fp>(std::span(z_inv).first(count));
            for (std::size_t j = 0; j < count; ++j) {
                G1Affine& a = multiples_[lo * kMultiples + j];
                if (jac[j].is_identity()) {
                    a = G1Affine{Fp{}, Fp{}, true};
                    continue;
                }
                const Fp z2 = z_inv[j].square();
                a = G1Affine{jac[j].x * z2, jac[j].y * z2 * z_inv[j], false};
            }
        }
    });
}

G1Jacobian G1FixedBases::msm(std::span<const Scalar> scalars, std::size_t first) const {
    KEEL_ASSERT(first <= size_ && scalars.size() <= size_ - first);
    const std::size_t n = scalars.size();
    std::vector<std::int8_t> digits(n * kDigits);
    std::size_t top = 0;
    for (std::size_t i = 0; i < n; ++i)
        top = std::max(
            top, naf(scalars[i], std::span<std::int8_t, kDigits>(&digits[i * kDigits], kDigits)));
    G1Jacobian acc;
    for (std::size_t bit = top; bit-- > 0;) {
        acc = acc.dbl();
        for (std::size_t i = 0; i < n; ++i) {
            const int d = digits[i * kDigits + bit];
            if (d == 0) continue;
            const G1Affine& m = multiples_[(first + i) * kMultiples +
                                           static_cast<std::size_t>((d < 0 ? -d : d) / 2)];
            acc = acc.add_mixed_vartime(d > 0 ? m : G1Affine{m.x, -m.y, m.infinity});
        }
    }
    return acc;
}

}  // namespace keel::bls
