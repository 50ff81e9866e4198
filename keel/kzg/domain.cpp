#include "keel/kzg/domain.hpp"

#include <bit>
#include <utility>

#include "keel/common/assert.hpp"

namespace keel::kzg {

namespace {

std::vector<Fr> compute_roots(std::size_t n) {
    KEEL_ASSERT(std::has_single_bit(n) && n <= (std::size_t{1} << 32));
    // (r - 1) / n: r - 1 = 2^32 · odd, so the division is a right shift by log2(n).
    std::array<std::uint64_t, 4> e = bls::kR;
    e[0] -= 1;
    const int shift = std::countr_zero(n);
    for (int s = 0; s < shift; ++s) {
        for (int i = 0; i < 4; ++i) {
            e[static_cast<std::size_t>(i)] >>= 1;
            if (i < 3) e[static_cast<std::size_t>(i)] |= e[static_cast<std::size_t>(i) + 1] << 63;
        }
    }
    const Fr w = Fr::from_u64(7).pow(e);
    std::vector<Fr> out(n);
    Fr acc = Fr::one();
    for (auto& x : out) {
        x = acc;
        acc *= w;
    }
    return out;
}

}  // namespace

std::size_t reverse_bits(std::size_t i, std::size_t n) noexcept {
    const int bits = std::countr_zero(n);
    std::size_t r = 0;
    for (int b = 0; b < bits; ++b) r |= ((i >> b) & 1) << (bits - 1 - b);
    return r;
}

void bit_reverse(std::span<Fr> v) noexcept {
    const std::size_t n = v.size();
    for (std::size_t i = 0; i < n; ++i) {
        const std::size_t j = reverse_bits(i, n);
        if (i < j) std::swap(v[i], v[j]);
    }
}

std::span<const Fr> roots_of_unity(std::size_t n) {
    static const std::vector<Fr> r64 = compute_roots(64);
    static const std::vector<Fr> r4096 = compute_roots(4096);
    static const std::vector<Fr> r8192 = compute_roots(8192);
    if (n == 64) return r64;
    if (n == 4096) return r4096;
    if (n == 8192) return r8192;
    KEEL_ASSERT(false && "roots_of_unity: only 64, 4096 and 8192 are kept");
    return {};
}

void fft(std::span<Fr> v, bool inverse) {
    const std::size_t n = v.size();
    KEEL_ASSERT(std::has_single_bit(n));
    if (n == 1) return;
    std::vector<Fr> owned;
    std::span<const Fr> roots;
    if (n == 64 || n == 4096 || n == 8192) {
        roots = roots_of_unity(n);
    } else {
        owned = compute_roots(n);
        roots = owned;
    }
    // Iterative Cooley-Tukey: inputs in bit-reversed order, butterflies of growing span; the
    // twiddle of span m at j is ω_n^(j·n/m) (ω^-... for the inverse).
    bit_reverse(v);
    for (std::size_t m = 2; m <= n; m <<= 1) {
        const std::size_t half = m / 2, step = n / m;
        for (std::size_t start = 0; start < n; start += m) {
            for (std::size_t j = 0; j < half; ++j) {
                const std::size_t k = j * step;
                const Fr& w = inverse && k != 0 ? roots[n - k] : roots[k];
                const Fr t = v[start + j + half] * w;
                v[start + j + half] = v[start + j] - t;
                v[start + j] = v[start + j] + t;
            }
        }
    }
    if (inverse) {
        const Fr inv_n = Fr::from_u64(n).inverse_vartime();
        for (auto& x : v) x *= inv_n;
    }
}

}  // namespace keel::kzg
