#pragma once
/// Point encodings of BLS12-381 in the ZCash format that Ethereum uses
/// (https://github.com/zkcrypto/pairing/tree/master/src/bls12_381#serialization):
///
///   G1: compressed 48 bytes (x), uncompressed 96 bytes (x, y);
///   G2: compressed 96 bytes (x), uncompressed 192 bytes (x, y); an Fp2 element is c1 then c0.
///   Fp elements are 48 bytes big-endian. The top three bits of the first byte are flags:
///     bit 7 (0x80) compression: set exactly for the compressed forms;
///     bit 6 (0x40) infinity: the point at infinity, all other bits zero;
///     bit 5 (0x20) sort: compressed only, set when y is the lexicographically largest root.
///
/// Decoders are noexcept, take the bytes as a view and return the affine point or a Error
/// (the code, and the byte offset of the field at fault). On failure nothing else is produced.
/// They check every rule of the format, the field range of each coordinate and that the point is
/// on the curve; subgroup membership is a separate, costlier step chosen with SubgroupCheck.

#include <array>
#include <cstdint>
#include <string_view>

#include "keel/bls/affine.hpp"
#include "keel/common/bytes.hpp"
#include "keel/common/result.hpp"

namespace keel::bls {

/// What was wrong with a point encoding (the module's one error vocabulary: docs/errors.md).
enum class Errc : std::uint8_t {
    bad_length,               ///< not 48/96 bytes (G1) or 96/192 bytes (G2)
    bad_compression_flag,     ///< compression flag does not match the length
    infinity_with_sort_flag,  ///< infinity and sort flags both set
    infinity_not_zero,        ///< infinity flag set but other bits are not zero
    sort_flag_uncompressed,   ///< sort flag set on an uncompressed point
    coordinate_too_large,     ///< a coordinate is not below p
    x_not_on_curve,           ///< compressed: x^3 + b has no square root
    not_on_curve,             ///< uncompressed: (x, y) does not satisfy the curve equation
    not_in_subgroup,          ///< on the curve but not in G1 / G2
    identity_public_key,      ///< a public key that is the point at infinity (KeyValidate)
};

/// One short phrase for the code, e.g. "x is not on the curve".
std::string_view describe(Errc code) noexcept;

/// A point decoding error: the code and the offset of the field at fault (0 for flags, length
/// and curve errors).
using Error = InputError<Errc>;

/// Whether a decoder checks subgroup membership (Ethereum's public keys and signatures must be
/// in the subgroup; the check costs a few multiplications by the 64-bit |x|).
enum class SubgroupCheck : bool { kSkip = false, kCheck = true };

/// A G1 point from 48 (compressed) or 96 (uncompressed) bytes.
[[nodiscard]] Result<G1Affine, Error> g1_from_bytes(BytesView in, SubgroupCheck check) noexcept;
/// A G2 point from 96 (compressed) or 192 (uncompressed) bytes.
[[nodiscard]] Result<G2Affine, Error> g2_from_bytes(BytesView in, SubgroupCheck check) noexcept;

/// The 48-byte compressed encoding of an affine point of E1.
std::array<std::uint8_t, 48> g1_compress(const G1Affine& p) noexcept;
/// The 96-byte uncompressed encoding.
std::array<std::uint8_t, 96> g1_serialize(const G1Affine& p) noexcept;
/// The 96-byte compressed encoding of an affine point of E2.
std::array<std::uint8_t, 96> g2_compress(const G2Affine& p) noexcept;
/// The 192-byte uncompressed encoding.
std::array<std::uint8_t, 192> g2_serialize(const G2Affine& p) noexcept;

}  // namespace keel::bls
