// recover_cells_and_kzg_proofs (consensus-specs fulu/polynomial-commitments-sampling.md,
// "Reconstruction"): a blob's polynomial from at least half of its extension's cells, then every
// cell and proof again.
#include <algorithm>
#include <vector>

#include "keel/common/batch_inverse.hpp"
#include "keel/kzg/cell_proofs.hpp"
#include "keel/kzg/domain.hpp"
#include "keel/kzg/field_and_points.hpp"
#include "keel/kzg/kzg.hpp"

namespace keel::kzg {

namespace {

// construct_vanishing_polynomial: Z(X) = Π (X^64 - w_i) over the missing cells i, with
// w_i = ω_128^reverse_bits(i, 128) (X^64 - w_i vanishes on cell i's whole coset), in
// coefficient form over the extended domain: the short product's coefficients 64 apart.
std::vector<Fr> vanishing_polynomial(const std::vector<bool>& present) {
    const auto roots = roots_of_unity(kCellsPerExtBlob);
    std::vector<Fr> short_poly{Fr::one()};
    for (std::size_t i = 0; i < kCellsPerExtBlob; ++i) {
        if (present[i]) continue;
        const Fr w = roots[reverse_bits(i, kCellsPerExtBlob)];
        // short_poly · (X - w)
        short_poly.push_back(Fr::zero());
        for (std::size_t j = short_poly.size() - 1; j > 0; --j)
            short_poly[j] = short_poly[j - 1] - w * short_poly[j];
        short_poly[0] = -(w * short_poly[0]);
    }
    std::vector<Fr> z(kFieldElementsPerExtBlob);
    for (std::size_t i = 0; i < short_poly.size(); ++i)
        z[i * kFieldElementsPerCell] = short_poly[i];
    return z;
}

// coset_fft_field: evaluations of the coefficients v over 7·<ω_8192> (v_i scaled by 7^i, then
// the FFT); with `inverse`, back (the inverse FFT, then v_i scaled by 7^-i).
void coset_fft(std::vector<Fr>& v, bool inverse) {
    const Fr shift = inverse ? Fr::from_u64(7).inverse_vartime() : Fr::from_u64(7);
    if (inverse) fft(v, /*inverse=*/true);
    Fr factor = Fr::one();
    for (auto& x : v) {
        x *= factor;
        factor *= shift;
    }
    if (!inverse) fft(v);
}

}  // namespace

Result<CellsAndProofs, Error> recover_cells_and_kzg_proofs(
    std::span<const std::uint64_t> cell_indices, std::span<const BytesView> cells) {
    const std::size_t n = cell_indices.size();
    if (cells.size() != n) return input_error(Errc::length_mismatch, 0);
    if (n < kCellsPerExtBlob / 2 || n > kCellsPerExtBlob)
        return input_error(Errc::wrong_cell_count, 0);
    for (std::size_t i = 0; i < n; ++i) {
        if (cell_indices[i] >= kCellsPerExtBlob) return input_error(Errc::bad_cell_index, i);
        if (i > 0 && cell_indices[i] <= cell_indices[i - 1])
            return input_error(Errc::cell_indices_not_ascending, i);
    }

    // E: the extension's evaluations as the cells hold them (bit-reversed order, 64 to a
    // cell), the missing ones zero; then in natural order.
    std::vector<Fr> evaluations(kFieldElementsPerExtBlob);
    std::vector<bool> present(kCellsPerExtBlob);
    for (std::size_t i = 0; i < n; ++i) {
        const std::size_t at = static_cast<std::size_t>(cell_indices[i]) * kFieldElementsPerCell;
        std::size_t bad = 0;
        if (cells[i].size() != kBytesPerCell ||
            !detail::field_elements(
                cells[i], std::span(evaluations).subspan(at, kFieldElementsPerCell), &bad))
            return input_error(Errc::bad_cell, i);
        present[static_cast<std::size_t>(cell_indices[i])] = true;
    }
    bit_reverse(evaluations);

    // (E·Z) agrees with (P·Z) on the domain, and P·Z has degree < 8192: its coefficients are
    // the inverse FFT of E·Z's evaluations. P = (P·Z) / Z, divided over a coset of the domain,
    // where Z has no root.
    std::vector<Fr> zero = vanishing_polynomial(present);
    std::vector<Fr> product = zero;
    fft(product);
    for (std::size_t i = 0; i < product.size(); ++i) product[i] *= evaluations[i];
    fft(product, /*inverse=*/true);
    coset_fft(product, /*inverse=*/false);
    coset_fft(zero, /*inverse=*/false);
    invert_all_vartime<Fr>(zero);
    for (std::size_t i = 0; i < product.size(); ++i) product[i] *= zero[i];
    coset_fft(product, /*inverse=*/true);

    // The blob's 4,096 coefficients (the spec keeps those), the upper half zero.
    std::fill(product.begin() + kFieldElementsPerBlob, product.end(), Fr::zero());
    return detail::cells_and_proofs(std::move(product));
}

}  // namespace keel::kzg
