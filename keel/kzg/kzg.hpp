#pragma once
/// KZG commitments of EIP-4844 over BLS12-381 (consensus-specs deneb/polynomial-commitments.md)
/// and the cells of EIP-7594 (fulu/polynomial-commitments-sampling.md), on keel/bls: what the
/// execution layer needs — the point-evaluation check behind the 0x0a precompile, the versioned
/// hash that names a commitment in a blob transaction, the checks of a blob sidecar (a proof per
/// blob, version 0, or a proof per cell, version 1) — and the commitments and proofs a builder
/// or a test makes.
///
/// The mainnet trusted setup (the KZG ceremony's, `trusted_setup_4096.json` in consensus-specs)
/// is embedded (setup.hpp); verify_kzg_proof needs only [τ]G2, kept as a constant so that the
/// precompile never decodes the setup.
///
/// Inputs are bytes, checked as the spec's public methods check them; an Error names the field
/// and where it is (for the list functions, `offset` is the index of the item at fault).

#include <cstdint>
#include <span>
#include <string_view>
#include <utility>
#include <vector>

#include "keel/common/bytes.hpp"
#include "keel/common/result.hpp"

namespace keel::kzg {

/// The scalar field's modulus r (BLS_MODULUS), big-endian.
extern const Bytes32 kBlsModulus;
/// FIELD_ELEMENTS_PER_BLOB.
inline constexpr std::uint64_t kFieldElementsPerBlob = 4096;
/// VERSIONED_HASH_VERSION_KZG.
inline constexpr std::uint8_t kVersionedHashVersion = 0x01;
/// BYTES_PER_BLOB, BYTES_PER_CELL, and the size of a commitment or a proof.
inline constexpr std::size_t kBytesPerBlob = 131072;
inline constexpr std::size_t kBytesPerCell = 2048;
inline constexpr std::size_t kBytesPerPoint = 48;
/// CELLS_PER_EXT_BLOB.
inline constexpr std::size_t kCellsPerBlob = 128;

/// A compressed G1 point: a commitment or a proof.
using G1Bytes = FixedBytes<48>;

enum class Errc : std::uint8_t {
    bad_commitment,              ///< not a compressed G1 point in the subgroup (or infinity)
    bad_proof,                   ///< likewise, the proof
    z_not_in_field,              ///< z >= r
    y_not_in_field,              ///< y >= r
    bad_blob,                    ///< a blob of the wrong size or with a field element >= r
    bad_cell,                    ///< a cell of the wrong size or with a field element >= r
    bad_cell_index,              ///< a cell index >= CELLS_PER_EXT_BLOB
    bad_commitment_index,        ///< a commitment index past the list of commitments
    length_mismatch,             ///< lists that must be as long as each other are not
    wrong_cell_count,            ///< recovery from fewer than half the cells, or more than all
    cell_indices_not_ascending,  ///< recovery's cell indices out of order or repeated
};

/// One short phrase for the code, e.g. "z is not a field element (>= r)".
std::string_view describe(Errc code) noexcept;
/// The code and the byte offset of the field at fault within the arguments as the precompile
/// lays them out (z at 32, y at 64, commitment at 96, proof at 144).
using Error = InputError<Errc>;

/// [τ]G2 of the mainnet setup as it appears in the setup file: compressed, hex, no "0x".
std::string_view tau_g2_hex() noexcept;

/// kzg_to_versioned_hash: 0x01 followed by the last 31 bytes of sha256(commitment).
Hash32 versioned_hash(BytesView commitment) noexcept;

/// verify_kzg_proof: true when `proof` shows that the polynomial committed to by `commitment`
/// takes the value y at z, false when it does not; an Error when an input is malformed (a point
/// encoding, its subgroup, a field element out of range). Variable time (public inputs).
[[nodiscard]] Result<bool, Error> verify_kzg_proof(BytesView commitment, const Bytes32& z,
                                                   const Bytes32& y, BytesView proof) noexcept;

/// blob_to_kzg_commitment. Error: bad_blob (offset: the field element's byte offset).
[[nodiscard]] Result<G1Bytes, Error> blob_to_kzg_commitment(BytesView blob);

/// compute_kzg_proof: the proof that the blob's polynomial takes y at z, and y.
[[nodiscard]] Result<std::pair<G1Bytes, Bytes32>, Error> compute_kzg_proof(BytesView blob,
                                                                           const Bytes32& z);

/// compute_challenge: the Fiat-Shamir evaluation point of a blob and its commitment.
[[nodiscard]] Result<Bytes32, Error> compute_challenge(BytesView blob, BytesView commitment);

/// compute_blob_kzg_proof: the proof at compute_challenge's point (the commitment is not
/// checked to be the blob's, as the spec says).
[[nodiscard]] Result<G1Bytes, Error> compute_blob_kzg_proof(BytesView blob, BytesView commitment);

/// verify_blob_kzg_proof: whether `proof` shows that `commitment` commits to `blob`.
[[nodiscard]] Result<bool, Error> verify_blob_kzg_proof(BytesView blob, BytesView commitment,
                                                        BytesView proof);

/// verify_blob_kzg_proof_batch: all of them at once (one pairing check over a random linear
/// combination); true for empty lists. Errors name the index of the item at fault.
[[nodiscard]] Result<bool, Error> verify_blob_kzg_proof_batch(
    std::span<const BytesView> blobs, std::span<const BytesView> commitments,
    std::span<const BytesView> proofs);

/// compute_cells: the blob extended to FIELD_ELEMENTS_PER_EXT_BLOB evaluations and cut into
/// CELLS_PER_EXT_BLOB cells, returned end to end (cell i at i * kBytesPerCell).
[[nodiscard]] Result<Bytes, Error> compute_cells(BytesView blob);

/// compute_cells_and_kzg_proofs: the blob's cells (compute_cells) and each cell's proof. The
/// proofs are the spec's (the quotient of the blob's polynomial by the vanishing polynomial of
/// the cell's coset, committed), computed all at once by FK20 (cell_proofs.hpp): ~0.2 s a blob
/// on one core (docs/benchmarks.md), after a one-time table of the setup (~1 s, on first use).
struct CellsAndProofs {
    Bytes cells;                  ///< cell i at i * kBytesPerCell
    std::vector<G1Bytes> proofs;  ///< kCellsPerBlob of them
};
[[nodiscard]] Result<CellsAndProofs, Error> compute_cells_and_kzg_proofs(BytesView blob);

/// recover_cells_and_kzg_proofs: every cell and proof of a blob from at least half of its cells
/// (cells[i] is cell cell_indices[i]; the indices strictly ascending and below 128), by the
/// spec's erasure decoding: the missing cells' vanishing polynomial Z, (E·Z) / Z over a coset
/// of the extended domain, E the extension with the missing evaluations zero. Errors:
/// length_mismatch, wrong_cell_count, bad_cell_index and cell_indices_not_ascending (offset: the
/// index at fault), bad_cell. Cells that are not all of one blob's extension are not detected
/// (nor are they by the spec): the result is what the spec's arithmetic makes of them.
[[nodiscard]] Result<CellsAndProofs, Error> recover_cells_and_kzg_proofs(
    std::span<const std::uint64_t> cell_indices, std::span<const BytesView> cells);

/// verify_cell_kzg_proof_batch: whether every proofs[i] shows that cells[i] are the
/// evaluations, over the coset of cell_indices[i], of the polynomial committed to by
/// commitments[i] (commitments may repeat). True for empty lists. Errors name the index.
[[nodiscard]] Result<bool, Error> verify_cell_kzg_proof_batch(
    std::span<const BytesView> commitments, std::span<const std::uint64_t> cell_indices,
    std::span<const BytesView> cells, std::span<const BytesView> proofs);

/// compute_verify_cell_kzg_proof_batch_challenge over distinct commitments and, per cell, the
/// index of its commitment, its cell index, its evaluations (a cell's bytes) and its proof (the
/// spec's internal function, public for its reference tests).
[[nodiscard]] Result<Bytes32, Error> compute_verify_cell_kzg_proof_batch_challenge(
    std::span<const BytesView> commitments, std::span<const std::uint64_t> commitment_indices,
    std::span<const std::uint64_t> cell_indices, std::span<const BytesView> cells,
    std::span<const BytesView> proofs);

}  // namespace keel::kzg
