#pragma once
/// Scalars of BLS12-381: integers modulo the group order
///   r = 0x73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001
/// as four little-endian 64-bit limbs (plain, not Montgomery form: scalars are only read bit by
/// bit by scalar multiplication). Secret keys are scalars; the reductions here are constant
/// time (masks, no branches on the value).

#include <array>
#include <cstdint>
#include <optional>
#include <span>

#include "keel/common/bytes.hpp"

namespace keel::bls {

/// r, the order of G1, G2 and GT.
inline constexpr std::array<std::uint64_t, 4> kR{0xffffffff00000001, 0x53bda402fffe5bfe,
                                                 0x3339d80809a1d805, 0x73eda753299d7d48};

class Scalar {
  public:
    constexpr Scalar() noexcept = default;
    constexpr explicit Scalar(const std::array<std::uint64_t, 4>& limbs) noexcept : l_(limbs) {}

    /// 32 big-endian bytes, or nullopt when the integer is >= r.
    static std::optional<Scalar> from_bytes(std::span<const std::uint8_t, 32> be) noexcept;
    /// An integer of any length (big-endian) reduced mod r, in time that depends only on the
    /// length (KeyGen's 48-byte OKM).
    static Scalar from_bytes_wide(std::span<const std::uint8_t> be) noexcept;
    /// 32 big-endian bytes.
    void to_bytes(std::span<std::uint8_t, 32> be) const noexcept;

    constexpr const std::array<std::uint64_t, 4>& limbs() const noexcept { return l_; }
    /// Bit i (0 = least significant).
    constexpr bool bit(std::size_t i) const noexcept { return (l_[i / 64] >> (i % 64)) & 1; }
    bool is_zero() const noexcept { return (l_[0] | l_[1] | l_[2] | l_[3]) == 0; }
    friend bool operator==(const Scalar&, const Scalar&) = default;

    /// The value mod r, for any 256-bit value: two masked subtractions of r (2^256 < 3r).
    /// Constant time.
    Scalar reduced() const noexcept;

    /// Overwrites the value with zeros in a way the compiler keeps (for secret keys).
    void wipe() noexcept;

  private:
    std::array<std::uint64_t, 4> l_{};
};

/// KeyGen(IKM, key_info) of draft-irtf-cfrg-bls-signature-05 §2.3 (the same HKDF_mod_r as
/// EIP-2333's derive_master_SK): HKDF-SHA256 with salt "BLS-SIG-KEYGEN-SALT-" hashed again
/// until the key is non-zero, L = 48 bytes reduced mod r. nullopt when IKM is shorter than 32
/// bytes. Intermediate secrets are wiped.
std::optional<Scalar> key_gen(BytesView ikm, BytesView key_info = {});

}  // namespace keel::bls
