#pragma once
/// The scalar field of BLS12-381, Fr = Z/rZ with
///   r = 0x73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001
/// (BLS_MODULUS of consensus-specs), the field KZG's polynomials live in, on keel/common's
/// Montgomery arithmetic (mont256.hpp). Variable time: blobs, cells and challenges are public.

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "keel/bls/scalar.hpp"
#include "keel/common/bytes.hpp"

namespace keel::kzg {

class Fr {
  public:
    constexpr Fr() noexcept = default;

    static Fr zero() noexcept { return Fr(); }
    static Fr one() noexcept;
    static Fr from_u64(std::uint64_t v) noexcept;
    /// 32 big-endian bytes (bytes_to_bls_field), or nullopt when the integer is >= r.
    static std::optional<Fr> from_bytes(std::span<const std::uint8_t, 32> be) noexcept;
    /// 32 big-endian bytes of any value, reduced mod r (hash_to_bls_field's reduction).
    static Fr from_bytes_reduced(std::span<const std::uint8_t, 32> be) noexcept;
    /// 32 big-endian bytes of the canonical value (bls_field_to_bytes).
    void to_bytes(std::span<std::uint8_t, 32> be) const noexcept;
    Bytes32 to_bytes32() const noexcept;
    /// The canonical integer, as keel/bls's multi-scalar multiplication takes it.
    bls::Scalar to_scalar() const noexcept;

    bool is_zero() const noexcept { return (m_[0] | m_[1] | m_[2] | m_[3]) == 0; }
    friend bool operator==(const Fr&, const Fr&) = default;

    friend Fr operator+(const Fr& a, const Fr& b) noexcept;
    friend Fr operator-(const Fr& a, const Fr& b) noexcept;
    friend Fr operator*(const Fr& a, const Fr& b) noexcept;
    Fr operator-() const noexcept { return zero() - *this; }
    Fr& operator+=(const Fr& b) noexcept { return *this = *this + b; }
    Fr& operator-=(const Fr& b) noexcept { return *this = *this - b; }
    Fr& operator*=(const Fr& b) noexcept { return *this = *this * b; }

    /// this^e for a 64-bit exponent. Variable time.
    Fr pow(std::uint64_t e) const noexcept;
    /// this^e for a 256-bit exponent (little-endian limbs). Variable time.
    Fr pow(const std::array<std::uint64_t, 4>& e) const noexcept;
    /// 1/this (this^(r-2)); zero stays zero. Variable time. (Named as keel/bls's fields name
    /// it, so that keel::invert_all_vartime() inverts many at once.)
    Fr inverse_vartime() const noexcept;

  private:
    std::array<std::uint64_t, 4> m_{};  // Montgomery form
};

/// compute_powers: 1, x, x^2, .. x^(n-1).
std::vector<Fr> powers(const Fr& x, std::size_t n);

}  // namespace keel::kzg
