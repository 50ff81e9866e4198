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
    return powers(Fr::from_u64(7).pow(e), n);
}

// A domain the spec uses: its roots and 1/n (the inverse FFT's scale), built once.
struct Domain {
    explicit Domain(std::size_t n)
        : roots(compute_roots(n)), inv_n(Fr::from_u64(n).inverse_vartime()) {}
    std::vector<Fr> roots;
    Fr inv_n;
};

const Domain* kept_domain(std::size_t n) {
    static const Domain d64(64), d128(128), d4096(4096), d8192(8192);
    switch (n) {
        case 64:
            return &d64;
        case 128:
            return &d128;
        case 4096:
            return &d4096;
        case 8192:
            return &d8192;
        default:
            return nullptr;
    }
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

namespace {

// The FFT over `roots` (v.size() of them); with `inv_n`, the inverse: the roots taken
// backwards, the result scaled by 1/n. Iterative Cooley-Tukey: inputs in bit-reversed order,
// butterflies of growing span; the twiddle of span m at j is ω_n^(j·n/m).
void fft_over(std::span<Fr> v, std::span<const Fr> roots, const Fr* inv_n) {
    const std::size_t n = v.size();
    const bool inverse = inv_n != nullptr;
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
    if (inverse)
        for (auto& x : v) x *= *inv_n;
}

}  // namespace

std::span<const Fr> roots_of_unity(std::size_t n) {
    const Domain* d = kept_domain(n);
    KEEL_ASSERT(d != nullptr && "roots_of_unity: only 64, 128, 4096 and 8192 are kept");
    return d->roots;
}

void fft(std::span<Fr> v, bool inverse) {
    const std::size_t n = v.size();
    KEEL_ASSERT(std::has_single_bit(n));
    if (n == 1) return;
    if (const Domain* kept = kept_domain(n)) {
        fft_over(v, kept->roots, inverse ? &kept->inv_n : nullptr);
    } else {
        const Domain built(n);  // other sizes: tests
        fft_over(v, built.roots, inverse ? &built.inv_n : nullptr);
    }
}

}  // namespace keel::kzg
