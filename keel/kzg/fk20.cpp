#include "keel/kzg/cell_proofs.hpp"

#include <algorithm>
#include <bit>
#include <utility>

#include "keel/bls/fixed_msm.hpp"
#include "keel/common/assert.hpp"
#include "keel/common/parallel.hpp"
#include "keel/kzg/domain.hpp"
#include "keel/kzg/kzg.hpp"
#include "keel/kzg/setup.hpp"

namespace keel::kzg::detail {

namespace {

constexpr std::size_t kL = kFieldElementsPerCell;            // l: elements a cell
constexpr std::size_t kChunks = kFieldElementsPerBlob / kL;  // m: chunks of l coefficients
constexpr std::size_t kN = 2 * kChunks;                      // the convolutions' size
static_assert(kN == kCellsPerExtBlob, "the proofs' FFT reuses the convolutions' size");

// The setup's side of the convolutions, once per process: for each b < l the column
// y_b[t] = [τ^(l·t + b)]G1 (t < m - 1, zero above) transformed by a G1 FFT of size 128, kept
// transposed: row k holds the k-th evaluation of every column, the points of the k-th
// frequency's multi-scalar multiplication, as fixed bases (their odd multiples kept).
const bls::G1FixedBases& setup_rows() {
    static const bls::G1FixedBases rows = [] {
        const auto s = setup::g1_monomial();
        std::vector<bls::G1Jacobian> columns(kL * kN);
        parallel::for_ranges(kL, 1, [&](std::size_t begin, std::size_t end) {
            for (std::size_t b = begin; b < end; ++b) {
                const auto column = std::span(columns).subspan(b * kN, kN);
                for (std::size_t t = 0; t + 1 < kChunks; ++t)
                    column[t] = bls::G1Jacobian::from_affine(s[kL * t + b]);
                g1_fft(column);
            }
        });
        std::vector<bls::G1Affine> transposed(kN * kL);
        for (std::size_t b = 0; b < kL; ++b)
            for (std::size_t k = 0; k < kN; ++k)
                transposed[k * kL + b] = columns[b * kN + k].to_affine_vartime();
        return bls::G1FixedBases(transposed);
    }();
    return rows;
}

}  // namespace

void g1_fft(std::span<bls::G1Jacobian> v, bool inverse) {
    const std::size_t n = v.size();
    KEEL_ASSERT(std::has_single_bit(n) && n <= kFieldElementsPerExtBlob);
    if (n == 1) return;
    // The twiddles ω_n^j (ω_n^-j for the inverse), j < n/2, from the 8192nd roots.
    const auto roots = roots_of_unity(kFieldElementsPerExtBlob);
    const std::size_t stride = kFieldElementsPerExtBlob / n;
    std::vector<bls::Scalar> twiddles(n / 2);
    for (std::size_t j = 0; j < n / 2; ++j) {
        const std::size_t e = j * stride;
        twiddles[j] =
            (inverse && e != 0 ? roots[kFieldElementsPerExtBlob - e] : roots[e]).to_scalar();
    }
    for (std::size_t i = 0; i < n; ++i) {
        const std::size_t j = reverse_bits(i, n);
        if (i < j) std::swap(v[i], v[j]);
    }
    // As domain.cpp's field FFT: butterflies of growing span, twiddle ω_n^(j·n/m) at j.
    for (std::size_t m = 2; m <= n; m <<= 1) {
        const std::size_t half = m / 2, step = n / m;
        for (std::size_t start = 0; start < n; start += m) {
            for (std::size_t j = 0; j < half; ++j) {
                bls::G1Jacobian& lo = v[start + j];
                bls::G1Jacobian& hi = v[start + j + half];
                const bls::G1Jacobian t =
                    j == 0 || hi.is_identity() ? hi : bls::g1_mul_glv(hi, twiddles[j * step]);
                hi = lo.add_vartime(-t);
                lo = lo.add_vartime(t);
            }
        }
    }
}

std::vector<bls::G1Jacobian> cell_proofs(std::span<const Fr> coefficients) {
    KEEL_ASSERT(coefficients.size() == kFieldElementsPerBlob);
    const bls::G1FixedBases& rows = setup_rows();

    // The coefficients' side: for each b the column x_b[i] = c[l·(m-1-i) + b] (i < m, zero
    // above; reversed, so that the Toeplitz product becomes a convolution), scaled by 1/128 for
    // the unscaled inverse G1 FFT below, and transformed. Row k of `scalars` pairs with row k
    // of the setup's table.
    const Fr inv_n = Fr::from_u64(kN).inverse_vartime();
    std::vector<bls::Scalar> scalars(kN * kL);
    std::vector<Fr> column(kN);
    for (std::size_t b = 0; b < kL; ++b) {
        for (std::size_t i = 0; i < kN; ++i)
            column[i] = i < kChunks ? coefficients[kL * (kChunks - 1 - i) + b] * inv_n : Fr::zero();
        fft(column);
        for (std::size_t k = 0; k < kN; ++k) scalars[k * kL + b] = column[k].to_scalar();
    }

    // Σ_b X_b[k]·Y_b[k] for each frequency k, then back: the convolutions' sum, whose entry
    // m - 2 - u is h_u.
    std::vector<bls::G1Jacobian> sums(kN);
    // Rows in shares of 64 or so: each share sums its rows together (G1FixedBases::msm_rows:
    // one inversion for all of a share's additions of a round).
    parallel::for_ranges(kN, 64, [&](std::size_t begin, std::size_t end) {
        const auto part = rows.msm_rows(
            std::span<const bls::Scalar>(scalars).subspan(begin * kL, (end - begin) * kL), kL,
            begin);
        std::copy(part.begin(), part.end(), sums.begin() + static_cast<std::ptrdiff_t>(begin));
    });
    g1_fft(sums, /*inverse=*/true);
    std::vector<bls::G1Jacobian> h(kN);
    for (std::size_t u = 0; u + 1 < kChunks; ++u) h[u] = sums[kChunks - 2 - u];

    // H(Z) = Σ h_u Z^u at the 128th roots of unity; cell k's proof is H at h_k^64, which is
    // ω_128^reverse_bits(k, 128) (cells.cpp: the shift of cell k is ω_8192^reverse_bits(k, 128)).
    g1_fft(h);
    std::vector<bls::G1Jacobian> proofs(kCellsPerExtBlob);
    for (std::size_t k = 0; k < kCellsPerExtBlob; ++k) proofs[k] = h[reverse_bits(k, kN)];
    return proofs;
}

}  // namespace keel::kzg::detail
