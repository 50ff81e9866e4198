#pragma once
/// What blob.cpp and cells.cpp share: bytes to field elements and points as the spec's
/// bytes_to_bls_field / bytes_to_kzg_commitment check them, hash_to_bls_field, g1_lincomb, and
/// the two-pairing check both verification equations end in.

#include <optional>
#include <span>
#include <vector>

#include "keel/bls/affine.hpp"
#include "keel/bls/g1.hpp"
#include "keel/common/bytes.hpp"
#include "keel/kzg/fr.hpp"

namespace keel::kzg::detail {

/// A 48-byte compressed point of G1 (infinity allowed), or nullopt.
std::optional<bls::G1Affine> g1_point(BytesView bytes) noexcept;

/// `count` consecutive 32-byte field elements of `bytes` (which holds exactly that many), or
/// the index of the first that is >= r.
bool field_elements(BytesView bytes, std::span<Fr> out, std::size_t* bad_index) noexcept;

/// hash_to_bls_field: sha256(data) as a big-endian integer mod r.
Fr hash_to_field(BytesView data) noexcept;

/// A point as 48 compressed bytes (commitments and proofs).
FixedBytes<48> compressed(const bls::G1Affine& p);

/// g1_lincomb: Σ scalars[i]·points[i].
bls::G1Jacobian g1_lincomb(std::span<const bls::G1Affine> points, std::span<const Fr> scalars);

/// e(a, b) · e(c, d) == 1.
bool pairing_check(const bls::G1Jacobian& a, const bls::G2Affine& b, const bls::G1Jacobian& c,
                   const bls::G2Affine& d);

/// Appends a 64-bit big-endian integer (the spec's int.to_bytes(x, 8, KZG_ENDIANNESS)).
void append_u64(Bytes& out, std::uint64_t v);

}  // namespace keel::kzg::detail
