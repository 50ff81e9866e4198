#include "keel/bls/fixed_msm.hpp"

#include <algorithm>
#include <array>
#include <cstdint>

#include "keel/bls/msm.hpp"
#include "keel/common/assert.hpp"
#include "keel/common/batch_inverse.hpp"
#include "keel/common/parallel.hpp"

namespace keel::bls {

namespace {

constexpr int kWidth = 6;
constexpr std::size_t kDigits = 257;  // a 256-bit scalar's NAF may carry into bit 256

// The width-6 NAF of k into `naf` (zeros between digits; digits odd in (-32, 32)), least
// significant first; returns one past the highest nonzero digit. A window is read wherever the
// running value (k plus the carry of the digits taken) has its lowest bit set, so runs of
// zeros cost one test a bit and no multi-limb arithmetic.
std::size_t naf(const Scalar& k, std::span<std::int8_t, kDigits> out) noexcept {
    std::fill(out.begin(), out.end(), std::int8_t{0});
    std::uint32_t carry = 0;
    std::size_t top = 0;
    for (std::size_t bit = 0; bit < kDigits;) {
        if (detail::scalar_window(k, bit, 1) == carry) {
            ++bit;  // the running value's bit is zero (0 + 0, or 1 + the carry 1 leaving 0 up)
            continue;
        }
        std::int32_t word =
            static_cast<std::int32_t>(detail::scalar_window(k, bit, kWidth) + carry);
        carry = static_cast<std::uint32_t>(word >> (kWidth - 1)) & 1;
        word -= static_cast<std::int32_t>(carry << kWidth);
        out[bit] = static_cast<std::int8_t>(word);
        top = bit + 1;
        bit += kWidth;
    }
    return top;
}

// Sums lists of affine points in place: list k holds len[k] points from pts[start[k]]; after
// the call each holds at most one, their sum. Rounds of pairwise additions across all lists,
// one batched inversion a round. Handles infinity, equal points (a doubling) and opposite
// points (infinity).
void sum_lists(std::vector<G1Affine>& pts, std::span<const std::size_t> start,
               std::span<std::size_t> len, std::vector<Fp>& inv) {
    while (true) {
        std::size_t pairs = 0;
        for (std::size_t k = 0; k < len.size(); ++k) pairs += len[k] / 2;
        if (pairs == 0) return;
        // The denominators of every pair: x_b - x_a, or 2·y_a for a doubling, zero when no
        // division is needed (an infinity in the pair, or opposite points).
        inv.resize(pairs);
        std::size_t j = 0;
        for (std::size_t k = 0; k < len.size(); ++k) {
            for (std::size_t i = 0; i + 1 < len[k]; i += 2, ++j) {
                const G1Affine& a = pts[start[k] + i];
                const G1Affine& b = pts[start[k] + i + 1];
                if (a.infinity || b.infinity)
                    inv[j] = Fp{};
                else if (a.x == b.x)
                    inv[j] = a.y == b.y ? a.y.dbl() : Fp{};
                else
                    inv[j] = b.x - a.x;
            }
        }
        invert_all_vartime<Fp>(inv);
        j = 0;
        for (std::size_t k = 0; k < len.size(); ++k) {
            const std::size_t n = len[k];
            G1Affine* list = &pts[start[k]];
            std::size_t out = 0;
            for (std::size_t i = 0; i + 1 < n; i += 2, ++j) {
                const G1Affine a = list[i], b = list[i + 1];
                G1Affine r;
                if (a.infinity) {
                    r = b;
                } else if (b.infinity) {
                    r = a;
                } else if (inv[j].is_zero()) {
                    r = G1Affine{Fp{}, Fp{}, true};  // b = -a
                } else {
                    // The doubling's slope 3x^2 / 2y; the addition's (y_b - y_a) / (x_b - x_a).
                    Fp num = b.y - a.y;
                    if (a.x == b.x) {
                        const Fp x2 = a.x.square();
                        num = x2.dbl() + x2;
                    }
                    const Fp lambda = num * inv[j];
                    const Fp x3 = lambda.square() - a.x - b.x;
                    r = G1Affine{x3, lambda * (a.x - x3) - a.y, false};
                }
                list[out++] = r;
            }
            if (n % 2 == 1) list[out++] = list[n - 1];
            len[k] = out;
        }
    }
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

std::vector<G1Jacobian> G1FixedBases::msm_rows(std::span<const Scalar> scalars, std::size_t cols,
                                               std::size_t first_row) const {
    KEEL_ASSERT(cols > 0 && scalars.size() % cols == 0);
    const std::size_t rows = scalars.size() / cols, n = scalars.size();
    const std::size_t first = first_row * cols;
    KEEL_ASSERT(first <= size_ && n <= size_ - first);
    std::vector<std::int8_t> digits(n * kDigits);
    std::size_t top = 0;
    for (std::size_t i = 0; i < n; ++i)
        top = std::max(
            top, naf(scalars[i], std::span<std::int8_t, kDigits>(&digits[i * kDigits], kDigits)));
    // The accumulators stay affine too: each bit, a row's list is its accumulator twice (the
    // doubling, a pair of the first round) and the bit's points. (Rows taken in blocks, for
    // their bases' multiples to stay in cache, measured slower: the inversions are then shared
    // by fewer additions.)
    std::vector<G1Affine> acc(rows, G1Affine{Fp{}, Fp{}, true});
    std::vector<G1Affine> pts;
    pts.reserve(n + 2 * rows);
    std::vector<std::size_t> start(rows), len(rows);
    std::vector<Fp> inv;
    for (std::size_t bit = top; bit-- > 0;) {
        pts.clear();
        for (std::size_t k = 0; k < rows; ++k) {
            start[k] = pts.size();
            if (!acc[k].infinity) {
                pts.push_back(acc[k]);
                pts.push_back(acc[k]);
            }
            for (std::size_t i = k * cols; i < (k + 1) * cols; ++i) {
                const int d = digits[i * kDigits + bit];
                if (d == 0) continue;
                const G1Affine& m = multiples_[(first + i) * kMultiples +
                                               static_cast<std::size_t>((d < 0 ? -d : d) / 2)];
                pts.push_back(d > 0 ? m : G1Affine{m.x, -m.y, m.infinity});
            }
            len[k] = pts.size() - start[k];
        }
        sum_lists(pts, start, len, inv);
        for (std::size_t k = 0; k < rows; ++k)
            acc[k] = len[k] == 1 ? pts[start[k]] : G1Affine{Fp{}, Fp{}, true};
    }
    std::vector<G1Jacobian> out(rows);
    for (std::size_t k = 0; k < rows; ++k) out[k] = G1Jacobian::from_affine(acc[k]);
    return out;
}

}  // namespace keel::bls
