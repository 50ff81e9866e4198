#pragma once
/// The fields of the BN254 (alt_bn128) pairing of EIP-196/197:
///   Fp    p = 21888242871839275222246405745257275088696311157297823662689037894645226208583
///   Fp2   = Fp[u] / (u^2 + 1)
///   Fp12  = Fp2[w] / (w^6 - ξ), ξ = 9 + u (the sextic twist's non-residue)
/// Fp is in Montgomery form (4 limbs, R = 2^256); Fp12 is kept as six Fp2 coefficients of
/// 1, w, ..., w^5, which makes its Frobenius maps a conjugation and a constant per coefficient.
///
/// All of it is for public data (precompile inputs): nothing here is constant time.

#include <array>
#include <cstdint>
#include <optional>

#include "keel/common/bytes.hpp"
#include "keel/common/uint256.hpp"

namespace keel::bn254 {

class Fp {
  public:
    using Limbs = std::array<std::uint64_t, 4>;

    constexpr Fp() noexcept = default;
    static Fp zero() noexcept { return Fp(); }
    static Fp one() noexcept;
    /// The element with this integer value (< p), from a small number.
    static Fp from_u64(std::uint64_t v) noexcept;
    /// 32 big-endian bytes; nullopt when the integer is >= p.
    static std::optional<Fp> from_bytes(const std::uint8_t* be32) noexcept;
    /// 32 big-endian bytes of the integer value.
    void to_bytes(std::uint8_t* be32) const noexcept;

    Fp operator+(const Fp& b) const noexcept;
    Fp operator-(const Fp& b) const noexcept;
    Fp operator-() const noexcept;
    Fp operator*(const Fp& b) const noexcept;
    Fp square() const noexcept { return *this * *this; }
    Fp dbl() const noexcept { return *this + *this; }
    /// a^-1 (a != 0), by Fermat: a^(p-2).
    Fp inverse() const noexcept;
    /// a^e for a little-endian exponent.
    Fp pow(const Limbs& e) const noexcept;
    bool is_zero() const noexcept { return (m_[0] | m_[1] | m_[2] | m_[3]) == 0; }
    friend bool operator==(const Fp&, const Fp&) = default;

  private:
    Limbs m_{};  // Montgomery form: a·R mod p
};

struct Fp2 {
    Fp c0, c1;  // c0 + c1·u

    static Fp2 zero() noexcept { return {}; }
    static Fp2 one() noexcept { return {Fp::one(), Fp()}; }
    Fp2 operator+(const Fp2& b) const noexcept { return {c0 + b.c0, c1 + b.c1}; }
    Fp2 operator-(const Fp2& b) const noexcept { return {c0 - b.c0, c1 - b.c1}; }
    Fp2 operator-() const noexcept { return {-c0, -c1}; }
    Fp2 operator*(const Fp2& b) const noexcept;
    Fp2 operator*(const Fp& b) const noexcept { return {c0 * b, c1 * b}; }
    Fp2 square() const noexcept;
    Fp2 dbl() const noexcept { return {c0.dbl(), c1.dbl()}; }
    Fp2 conj() const noexcept { return {c0, -c1}; }
    Fp2 inverse() const noexcept;
    /// a·ξ = a·(9 + u).
    Fp2 mul_by_xi() const noexcept;
    Fp2 pow(const Fp::Limbs& e) const noexcept;
    bool is_zero() const noexcept { return c0.is_zero() && c1.is_zero(); }
    friend bool operator==(const Fp2&, const Fp2&) = default;
};

struct Fp12 {
    std::array<Fp2, 6> c{};  // Σ c[i]·w^i

    static Fp12 one() noexcept {
        Fp12 r;
        r.c[0] = Fp2::one();
        return r;
    }
    Fp12 operator*(const Fp12& b) const noexcept;
    Fp12 square() const noexcept { return *this * *this; }
    /// The p^6-power Frobenius: w -> -w (the conjugate over Fp6 = Fp2[w^2]).
    Fp12 conj() const noexcept;
    /// The p-power Frobenius, applied `n` times.
    Fp12 frobenius(int n) const noexcept;
    Fp12 inverse() const noexcept;
    bool is_one() const noexcept { return *this == one(); }
    friend bool operator==(const Fp12&, const Fp12&) = default;
};

/// ξ^((p-1)/3) and ξ^((p-1)/2): the twist's Frobenius, π(x, y) = (conj(x)·γ2, conj(y)·γ3).
const Fp2& frobenius_gamma(int i) noexcept;  ///< ξ^(i(p-1)/6), i = 0..5

}  // namespace keel::bn254
