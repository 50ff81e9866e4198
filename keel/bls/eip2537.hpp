#pragma once
/// The BLS12-381 operations of EIP-2537 (the EVM's precompiles 0x0b-0x11, Prague) on their
/// byte encodings:
///   Fp:   64 bytes, big-endian, the top 16 zero, the value below p;
///   Fp2:  c0 ‖ c1 (128 bytes);
///   G1:   x ‖ y (128 bytes), G2: x ‖ y in Fp2 (256 bytes); all zero is the point at infinity;
///   a scalar: 32 bytes big-endian, any 256-bit integer (not reduced mod r).
/// Points must be on their curve; those of MSM and the pairing check also in their subgroup
/// (addition does not check it, as the EIP says). Inputs of the wrong length are errors; MSM and
/// the pairing check need at least one item. Variable time (public inputs).

#include <array>
#include <cstdint>
#include <string_view>

#include "keel/common/bytes.hpp"
#include "keel/common/result.hpp"

namespace keel::bls::eip2537 {

enum class Errc : std::uint8_t {
    bad_length,       ///< not the length the operation takes (or not a multiple of an item)
    bad_padding,      ///< an Fp element's top 16 bytes are not zero
    not_in_field,     ///< an Fp element is not below p
    not_on_curve,     ///< a point is not on E1 / E2
    not_in_subgroup,  ///< a point of an MSM or the pairing check is outside G1 / G2
};

/// One short phrase for the code, e.g. "Fp element padding is not zero".
std::string_view describe(Errc code) noexcept;
/// The code and the byte offset in the input of the element or point at fault.
using Error = InputError<Errc>;

using G1Bytes = std::array<std::uint8_t, 128>;
using G2Bytes = std::array<std::uint8_t, 256>;

/// BLS12_G1ADD: two G1 points (256 bytes).
[[nodiscard]] Result<G1Bytes, Error> g1_add(BytesView in) noexcept;
/// BLS12_G2ADD: two G2 points (512 bytes).
[[nodiscard]] Result<G2Bytes, Error> g2_add(BytesView in) noexcept;
/// BLS12_G1MSM: k (point, scalar) pairs of 160 bytes, k >= 1.
[[nodiscard]] Result<G1Bytes, Error> g1_msm(BytesView in) noexcept;
/// BLS12_G2MSM: k (point, scalar) pairs of 288 bytes, k >= 1.
[[nodiscard]] Result<G2Bytes, Error> g2_msm(BytesView in) noexcept;
/// BLS12_PAIRING_CHECK: k (G1, G2) pairs of 384 bytes, k >= 1; whether Π e(P_i, Q_i) == 1.
[[nodiscard]] Result<bool, Error> pairing_check(BytesView in) noexcept;
/// BLS12_MAP_FP_TO_G1: an Fp element (64 bytes) through the SWU map and cofactor clearing.
[[nodiscard]] Result<G1Bytes, Error> map_fp_to_g1(BytesView in) noexcept;
/// BLS12_MAP_FP2_TO_G2: an Fp2 element (128 bytes), likewise.
[[nodiscard]] Result<G2Bytes, Error> map_fp2_to_g2(BytesView in) noexcept;

/// The MSM discount (per mille) for k pairs, G1 or G2; the last entry from k = 128 on.
std::uint64_t msm_discount(std::size_t k, bool g2) noexcept;

}  // namespace keel::bls::eip2537
