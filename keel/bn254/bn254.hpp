#pragma once
/// BN254 (alt_bn128) for the EVM's precompiles 0x06-0x08 (EIP-196, EIP-197): point addition and
/// scalar multiplication in G1 and the pairing check, on their byte encodings:
///   a G1 point: x ‖ y, 32 bytes each, big-endian; (0, 0) is the point at infinity;
///   a G2 point: x ‖ y in Fp2, each as the coefficient of u first, then the constant
///               (x = x_im ‖ x_re), 128 bytes; all zero is the point at infinity.
/// Coordinates must be below p and points on their curve; G2 points must be in the order-r
/// subgroup. Variable time (public inputs).

#include <array>
#include <cstdint>
#include <string_view>

#include "keel/common/bytes.hpp"
#include "keel/common/result.hpp"

namespace keel::bn254 {

enum class Errc : std::uint8_t {
    coordinate_too_large,  ///< a coordinate is not below p
    not_on_curve,          ///< the point is not on E (G1) or on the twist E' (G2)
    not_in_subgroup,       ///< a G2 point outside the order-r subgroup
    bad_length,            ///< pairing input not a multiple of 192 bytes
};

/// One short phrase for the code, e.g. "point is not on the curve".
std::string_view describe(Errc code) noexcept;
/// The code and the byte offset (in the input) of the coordinate or point at fault.
using Error = InputError<Errc>;

/// ECADD: the first 128 bytes of `in` (zero past its end) are two G1 points; their sum.
[[nodiscard]] Result<std::array<std::uint8_t, 64>, Error> g1_add(BytesView in) noexcept;
/// ECMUL: the first 96 bytes of `in` (zero past its end) are a G1 point and a 256-bit scalar.
[[nodiscard]] Result<std::array<std::uint8_t, 64>, Error> g1_mul(BytesView in) noexcept;
/// ECPAIRING: `in` is k pairs (G1, G2) of 192 bytes; whether the product of their pairings is 1
/// (true for k = 0).
[[nodiscard]] Result<bool, Error> pairing_check(BytesView in) noexcept;

}  // namespace keel::bn254
