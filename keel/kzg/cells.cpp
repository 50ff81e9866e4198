// The cells of EIP-7594 (consensus-specs fulu/polynomial-commitments-sampling.md): a blob
// extended to twice its evaluations and cut into 128 cells of 64, and the batch check of cell
// proofs by the universal verification equation.
#include <algorithm>
#include <string_view>

#include "keel/bls/g2.hpp"
#include "keel/kzg/cell_proofs.hpp"
#include "keel/kzg/domain.hpp"
#include "keel/kzg/field_and_points.hpp"
#include "keel/kzg/kzg.hpp"
#include "keel/kzg/setup.hpp"

namespace keel::kzg {

namespace {

constexpr std::string_view kCellBatchDomain = "RCKZGCBATCH__V1_";

// The exponent e of a cell's coset shift h = ω_8192^e: reverse_bits(64·k, 8192), which is
// reverse_bits(k, 128) (the low six bits of 64·k are zero).
std::size_t shift_exponent(std::size_t cell_index) {
    return reverse_bits(cell_index, kCellsPerExtBlob);
}

Fr challenge(std::span<const BytesView> commitments,
             std::span<const std::uint64_t> commitment_indices,
             std::span<const std::uint64_t> cell_indices, std::span<const BytesView> cells,
             std::span<const BytesView> proofs) {
    Bytes data(kCellBatchDomain.begin(), kCellBatchDomain.end());
    detail::append_u64(data, kFieldElementsPerBlob);
    detail::append_u64(data, kFieldElementsPerCell);
    detail::append_u64(data, commitments.size());
    detail::append_u64(data, cell_indices.size());
    for (const auto& c : commitments) data.insert(data.end(), c.begin(), c.end());
    for (std::size_t k = 0; k < cells.size(); ++k) {
        detail::append_u64(data, commitment_indices[k]);
        detail::append_u64(data, cell_indices[k]);
        data.insert(data.end(), cells[k].begin(), cells[k].end());  // canonical: checked < r
        data.insert(data.end(), proofs[k].begin(), proofs[k].end());
    }
    return detail::hash_to_field(data);
}

Result<std::vector<Fr>, Error> cell_evals(BytesView cell, std::size_t index) {
    std::vector<Fr> evals(kFieldElementsPerCell);
    std::size_t bad = 0;
    if (cell.size() != kBytesPerCell || !detail::field_elements(cell, evals, &bad))
        return input_error(Errc::bad_cell, index);
    return evals;
}

}  // namespace

namespace {

// polynomial_eval_to_coeff of the blob, in the first half of an extended blob's worth of
// elements (the upper half zero). The evaluations are stored bit-reversed; an inverse FFT of
// the natural order gives the coefficients.
Result<std::vector<Fr>, Error> coefficients(BytesView blob) {
    if (blob.size() != kBytesPerBlob) return input_error(Errc::bad_blob, 0);
    std::vector<Fr> ext(kFieldElementsPerExtBlob);
    std::size_t bad = 0;
    if (!detail::field_elements(blob, std::span(ext).first(kFieldElementsPerBlob), &bad))
        return input_error(Errc::bad_blob, bad * 32);
    const auto coeffs = std::span(ext).first(kFieldElementsPerBlob);
    bit_reverse(coeffs);
    fft(coeffs, /*inverse=*/true);
    return ext;
}

// The extension of `coeffs` (coefficients, upper half zero): all 8192 evaluations, stored
// bit-reversed again, 64 to a cell.
Bytes cells_of(std::vector<Fr> ext) {
    fft(ext);
    bit_reverse(ext);
    Bytes out(kFieldElementsPerExtBlob * 32);
    for (std::size_t i = 0; i < ext.size(); ++i)
        ext[i].to_bytes(std::span<std::uint8_t, 32>(out.data() + 32 * i, 32));
    return out;
}

}  // namespace

Result<Bytes, Error> compute_cells(BytesView blob) {
    auto ext = coefficients(blob);
    if (!ext) return std::unexpected(ext.error());
    return cells_of(std::move(*ext));
}

Result<CellsAndProofs, Error> compute_cells_and_kzg_proofs(BytesView blob) {
    auto ext = coefficients(blob);
    if (!ext) return std::unexpected(ext.error());
    return detail::cells_and_proofs(std::move(*ext));
}

namespace detail {

CellsAndProofs cells_and_proofs(std::vector<Fr> ext) {
    CellsAndProofs out;
    const std::vector<bls::G1Jacobian> proofs =
        cell_proofs(std::span(ext).first(kFieldElementsPerBlob));
    out.cells = cells_of(std::move(ext));
    out.proofs.reserve(proofs.size());
    for (const auto& p : proofs) out.proofs.push_back(compressed(p.to_affine_vartime()));
    return out;
}

bls::G1Jacobian cell_proof_by_division(std::span<const Fr> coefficients, std::size_t cell_index) {
    // Cell k's coset is h·<ω_64> with h = ω_8192^e, e = shift_exponent(k): its vanishing
    // polynomial is X^64 - h^64, and h^64 = ω_8192^(64e). Dividing the coefficients by it from
    // the top down leaves a quotient of 4096 - 64 coefficients (the remainder is not needed).
    constexpr std::size_t kQuotient = kFieldElementsPerBlob - kFieldElementsPerCell;
    const Fr c = roots_of_unity(
        kFieldElementsPerExtBlob)[kFieldElementsPerCell * shift_exponent(cell_index)];
    std::vector<Fr> rest(coefficients.begin(), coefficients.end());
    std::vector<Fr> quotient(kQuotient);
    for (std::size_t j = kFieldElementsPerBlob - 1; j >= kFieldElementsPerCell; --j) {
        quotient[j - kFieldElementsPerCell] = rest[j];
        rest[j - kFieldElementsPerCell] += c * rest[j];
    }
    return g1_lincomb(setup::g1_monomial().first(kQuotient), quotient);
}

}  // namespace detail

Result<Bytes32, Error> compute_verify_cell_kzg_proof_batch_challenge(
    std::span<const BytesView> commitments, std::span<const std::uint64_t> commitment_indices,
    std::span<const std::uint64_t> cell_indices, std::span<const BytesView> cells,
    std::span<const BytesView> proofs) {
    const std::size_t n = cell_indices.size();
    if (commitment_indices.size() != n || cells.size() != n || proofs.size() != n)
        return input_error(Errc::length_mismatch, 0);
    for (std::size_t i = 0; i < commitments.size(); ++i)
        if (commitments[i].size() != kBytesPerPoint) return input_error(Errc::bad_commitment, i);
    for (std::size_t k = 0; k < n; ++k) {
        if (auto e = cell_evals(cells[k], k); !e) return std::unexpected(e.error());
        if (proofs[k].size() != kBytesPerPoint) return input_error(Errc::bad_proof, k);
    }
    return challenge(commitments, commitment_indices, cell_indices, cells, proofs).to_bytes32();
}

Result<bool, Error> verify_cell_kzg_proof_batch(std::span<const BytesView> commitments,
                                                std::span<const std::uint64_t> cell_indices,
                                                std::span<const BytesView> cells,
                                                std::span<const BytesView> proofs) {
    const std::size_t n = cells.size();
    if (commitments.size() != n || cell_indices.size() != n || proofs.size() != n)
        return input_error(Errc::length_mismatch, 0);

    // The distinct commitments in order of first appearance, each checked once; every cell
    // names its commitment by index into them.
    std::vector<BytesView> distinct;
    std::vector<bls::G1Affine> distinct_points;
    std::vector<std::uint64_t> commitment_indices(n);
    for (std::size_t k = 0; k < n; ++k) {
        const auto it = std::find_if(distinct.begin(), distinct.end(), [&](BytesView d) {
            return std::equal(d.begin(), d.end(), commitments[k].begin(), commitments[k].end());
        });
        if (it != distinct.end()) {
            commitment_indices[k] = static_cast<std::uint64_t>(it - distinct.begin());
            continue;
        }
        const auto p = detail::g1_point(commitments[k]);
        if (!p) return input_error(Errc::bad_commitment, k);
        commitment_indices[k] = distinct.size();
        distinct.push_back(commitments[k]);
        distinct_points.push_back(*p);
    }
    std::vector<std::vector<Fr>> evals(n);
    std::vector<bls::G1Affine> proof_points(n);
    for (std::size_t k = 0; k < n; ++k) {
        if (cell_indices[k] >= kCellsPerExtBlob) return input_error(Errc::bad_cell_index, k);
        auto e = cell_evals(cells[k], k);
        if (!e) return std::unexpected(e.error());
        evals[k] = std::move(*e);
        const auto p = detail::g1_point(proofs[k]);
        if (!p) return input_error(Errc::bad_proof, k);
        proof_points[k] = *p;
    }
    if (n == 0) return true;

    // The universal verification equation: e(LL, [τ^64]G2) == e(RLC - RLI + RLP, G2) with
    //   LL  = Σ_k r^k π_k,
    //   RLC = Σ_i (Σ_{k of commitment i} r^k) C_i,
    //   RLI = [Σ_k r^k I_k(τ)]G1, I_k the degree-63 interpolation of cell k over its coset,
    //   RLP = Σ_k r^k h_k^64 π_k, h_k the coset's shift.
    const std::vector<Fr> r =
        powers(challenge(distinct, commitment_indices, cell_indices, cells, proofs), n);
    std::vector<Fr> weights(distinct.size());
    for (std::size_t k = 0; k < n; ++k) weights[commitment_indices[k]] += r[k];

    const auto roots8192 = roots_of_unity(kFieldElementsPerExtBlob);
    std::vector<Fr> interpolation(kFieldElementsPerCell), rp(n), coeffs(kFieldElementsPerCell);
    for (std::size_t k = 0; k < n; ++k) {
        // The cell holds its coset's evaluations in bit-reversed order: the coset's j-th element
        // is h·ω_64^reverse_bits(j, 64). In natural order they are the evaluations of
        // q(x) = I(h·x) over the 64th roots of unity, so I's i-th coefficient is q's times h^-i.
        for (std::size_t i = 0; i < kFieldElementsPerCell; ++i)
            coeffs[i] = evals[k][reverse_bits(i, kFieldElementsPerCell)];
        fft(coeffs, /*inverse=*/true);
        const std::size_t e = shift_exponent(cell_indices[k]);
        const Fr h_inv = roots8192[(kFieldElementsPerExtBlob - e) % kFieldElementsPerExtBlob];
        Fr scale = r[k];
        for (std::size_t i = 0; i < kFieldElementsPerCell; ++i) {
            interpolation[i] += coeffs[i] * scale;
            scale *= h_inv;
        }
        // h^64 = ω_8192^(64·e).
        rp[k] = r[k] * roots8192[(kFieldElementsPerCell * e) % kFieldElementsPerExtBlob];
    }
    const bls::G1Jacobian ll = detail::g1_lincomb(proof_points, r);
    const bls::G1Jacobian rl =
        detail::g1_lincomb(distinct_points, weights)
            .add_vartime(-detail::g1_lincomb(setup::g1_monomial().first(kFieldElementsPerCell),
                                             interpolation))
            .add_vartime(detail::g1_lincomb(proof_points, rp));
    const bls::G2Affine neg_g2{bls::kG2Generator.x, -bls::kG2Generator.y, false};
    return detail::pairing_check(ll, setup::g2_monomial()[kFieldElementsPerCell], rl, neg_g2);
}

}  // namespace keel::kzg
