#pragma once
/// How the cell proofs are computed (fk20.cpp, cells.cpp), shared by compute_cells_and_kzg_proofs
/// and recover_cells_and_kzg_proofs.
///
/// All of a blob's 128 cell proofs at once: FK20 (Feist and Khovratovich, "Fast amortized KZG
/// proofs", ePrint 2023/033, the multi-reveal case), instead of the spec's one division and one
/// 4,032-point multi-scalar multiplication per cell.
///
/// With p(X) = Σ c_j X^j (4,096 coefficients), l = 64 elements a cell and m = 64 chunks of l,
/// the quotient of p by X^l - z has the commitment Σ_{u<m-1} z^u·h_u, where
///   h_u = Σ_{b<l} Σ_{a=u+1}^{m-1} c_{la+b}·[τ^(l(a-1-u)+b)]G1
/// does not depend on z. Cell k's coset h·<ω_64> has X^64 - h^64 for vanishing polynomial and
/// h^64 runs over the 128th roots of unity, so the 128 proofs are the evaluations of the G1
/// polynomial Σ h_u Z^u there: one G1 FFT of size 128. For each b, the h_u are a Toeplitz
/// product of the chunk column c_{l·a+b} with setup points, done as a cyclic convolution of
/// size 128: the setup side transformed once per process (64 G1 FFTs, ~1 s on one core, kept as
/// 8,192 fixed bases with their odd multiples, ~13 MB), the coefficient side by field FFTs per
/// blob, the products summed per frequency by 128 multi-scalar multiplications of 64 points
/// (bls::G1FixedBases::msm_rows: each bit's points of a row summed in affine, one inversion for
/// all rows' additions of a round), and one inverse G1 FFT.

#include <span>
#include <vector>

#include "keel/bls/g1.hpp"
#include "keel/kzg/fr.hpp"
#include "keel/kzg/kzg.hpp"

namespace keel::kzg::detail {

/// In place: v (n points, n a power of two up to 8192, the coefficients of a polynomial over
/// G1) -> its evaluations at ω_n^0 .. ω_n^(n-1). With `inverse`, the roots are taken backwards
/// and nothing is scaled: the caller multiplies by 1/n where it is cheapest (a scalar before
/// the transform). The points must lie in G1 (the twiddles multiply by GLV). Variable time.
void g1_fft(std::span<bls::G1Jacobian> v, bool inverse = false);

/// The proofs of the 128 cells, in cell order, of the polynomial with these 4,096
/// coefficients (compute_cells_and_kzg_proofs_polynomialcoeff's proofs). The frequency-domain
/// sums run over the thread pool. Variable time (public data).
std::vector<bls::G1Jacobian> cell_proofs(std::span<const Fr> coefficients);

/// compute_cells_and_kzg_proofs_polynomialcoeff: `ext` holds the 4,096 coefficients and 4,096
/// zeros above them; the cells of its extension and the proofs (cell_proofs), compressed.
CellsAndProofs cells_and_proofs(std::vector<Fr> ext);

/// One cell's proof as the spec computes it (compute_kzg_proof_multi_impl): the coefficients
/// divided by the coset's vanishing polynomial X^64 - h^64, the quotient committed over the
/// monomial setup (a 4,032-point multi-scalar multiplication). Tests check FK20 against it.
bls::G1Jacobian cell_proof_by_division(std::span<const Fr> coefficients, std::size_t cell_index);

}  // namespace keel::kzg::detail
