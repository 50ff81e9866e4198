#pragma once
/// KZG commitments of EIP-4844 over BLS12-381 (consensus-specs deneb/polynomial-commitments.md),
/// on keel/bls: what the execution layer needs, the point-evaluation check behind the 0x0a
/// precompile, and the versioned hash that names a commitment in a blob transaction.
///
/// The mainnet trusted setup (the KZG ceremony's, `trusted_setup_4096.json` in consensus-specs,
/// `../shared/vectors/kzg/trusted_setup.txt` here) enters only through [τ]G2, its second G2
/// monomial point, which verify_kzg_proof needs; kzg_test checks the constant against the file.

#include <cstdint>
#include <string_view>

#include "keel/common/bytes.hpp"
#include "keel/common/result.hpp"

namespace keel::kzg {

/// The scalar field's modulus r (BLS_MODULUS), big-endian.
extern const Bytes32 kBlsModulus;
/// FIELD_ELEMENTS_PER_BLOB.
inline constexpr std::uint64_t kFieldElementsPerBlob = 4096;
/// VERSIONED_HASH_VERSION_KZG.
inline constexpr std::uint8_t kVersionedHashVersion = 0x01;

enum class Errc : std::uint8_t {
    bad_commitment,  ///< not a compressed G1 point in the subgroup (or infinity)
    bad_proof,       ///< likewise, the proof
    z_not_in_field,  ///< z >= r
    y_not_in_field,  ///< y >= r
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

}  // namespace keel::kzg
