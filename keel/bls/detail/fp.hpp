#pragma once
/// Fp, the base field of BLS12-381: integers modulo the 381-bit prime
///   p =
///   0x1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffaaab
/// held as six 64-bit limbs, least significant first, in Montgomery form (a·R mod p, R = 2^384).
///
/// Every operation here runs in constant time: no branch or memory index depends on a value
/// (conditional subtractions are masks), so secret-key arithmetic can use them. Inversion is a
/// fixed count of divsteps, square roots fixed exponentiation chains. The arithmetic is portable
/// C++ on 128-bit products and constexpr, so constants (R^2, the curve's coefficients) are computed
/// by the compiler from their canonical values.
///
/// Montgomery multiplication is CIOS (Koç, Acar, Kaliski 1996) with the "no carry" shortcut:
/// p's top limb is below 2^63 - 1, so the running sum never needs a seventh word and one final
/// conditional subtraction brings the result below p.

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

#include "keel/bls/detail/fp_limbs.hpp"
#include "keel/bls/detail/fp_x86.hpp"

namespace keel::bls {

namespace detail {

/// a·b·R^-1 mod p, by the fastest path this CPU runs (outside constant evaluation).
inline Limbs mont_mul_dispatch(const Limbs& a, const Limbs& b) noexcept {
#if defined(__x86_64__)
    if (g_mulx_adx) return mont_mul_mulx_adx(a, b);
#endif
    return mont_mul(a, b);
}

}  // namespace detail

/// a && b with both always evaluated and no branch (for flags derived from secret values).
constexpr bool both(bool a, bool b) noexcept {
    return (static_cast<unsigned>(a) & static_cast<unsigned>(b)) != 0;
}
/// a || b with both always evaluated and no branch.
constexpr bool either(bool a, bool b) noexcept {
    return (static_cast<unsigned>(a) | static_cast<unsigned>(b)) != 0;
}

/// Six little-endian limbs of a big-endian hex literal ("0x1a01…", at most 96 digits): for
/// constants written as the specs print them. Not a parser for input: no checks beyond digits.
consteval detail::Limbs limbs_from_hex(std::string_view hex) {
    if (hex.starts_with("0x")) hex.remove_prefix(2);
    detail::Limbs l{};
    std::size_t bit = 0;
    for (std::size_t i = hex.size(); i-- > 0; bit += 4) {
        const char c = hex[i];
        const std::uint64_t d = c >= '0' && c <= '9'   ? static_cast<std::uint64_t>(c - '0')
                                : c >= 'a' && c <= 'f' ? static_cast<std::uint64_t>(c - 'a' + 10)
                                                       : static_cast<std::uint64_t>(c - 'A' + 10);
        l[bit / 64] |= d << (bit % 64);
    }
    return l;
}

/// An element of Fp (Montgomery form inside; use from_canonical / canonical to convert).
class Fp {
  public:
    /// Zero.
    constexpr Fp() noexcept = default;

    /// The element equal to the canonical integer `v` (< p, as six little-endian limbs).
    static constexpr Fp from_canonical(const detail::Limbs& v) noexcept {
        return Fp(detail::mont_mul(v, detail::kR2));
    }
    /// The element equal to `v`.
    static constexpr Fp from_u64(std::uint64_t v) noexcept {
        return from_canonical({v, 0, 0, 0, 0, 0});
    }
    static constexpr Fp zero() noexcept { return Fp(); }
    static constexpr Fp one() noexcept { return Fp(detail::kR); }
    /// The element of a canonical hex literal (< p), computed by the compiler.
    static consteval Fp from_hex(std::string_view hex) {
        return from_canonical(limbs_from_hex(hex));
    }
    /// From the Montgomery representation itself (for tables and tests).
    static constexpr Fp from_montgomery(const detail::Limbs& m) noexcept { return Fp(m); }

    /// The canonical integer value, six little-endian limbs, < p.
    constexpr detail::Limbs canonical() const noexcept {
        return detail::mont_mul(m_, detail::Limbs{1, 0, 0, 0, 0, 0});
    }
    /// The Montgomery representation.
    constexpr const detail::Limbs& montgomery() const noexcept { return m_; }

    /// 48 big-endian bytes of the canonical value, or nullopt when the integer is >= p.
    static std::optional<Fp> from_bytes(std::span<const std::uint8_t, 48> be) noexcept;
    /// The canonical value as 48 big-endian bytes.
    void to_bytes(std::span<std::uint8_t, 48> be) const noexcept;
    /// An integer of any length (big-endian) reduced mod p: hash_to_field's 64-byte strings.
    static Fp from_bytes_wide(std::span<const std::uint8_t> be) noexcept;

    friend constexpr Fp operator+(const Fp& a, const Fp& b) noexcept {
#if defined(__x86_64__)
        if !consteval {
            return Fp(detail::add_mod_x86(a.m_, b.m_));
        }
#endif
        return Fp(detail::add_mod(a.m_, b.m_));
    }
    friend constexpr Fp operator-(const Fp& a, const Fp& b) noexcept {
#if defined(__x86_64__)
        if !consteval {
            return Fp(detail::sub_mod_x86(a.m_, b.m_));
        }
#endif
        return Fp(detail::sub_mod(a.m_, b.m_));
    }
    friend constexpr Fp operator-(const Fp& a) noexcept { return Fp() - a; }
    friend constexpr Fp operator*(const Fp& a, const Fp& b) noexcept {
        if consteval {
            return Fp(detail::mont_mul(a.m_, b.m_));
        } else {
            return Fp(detail::mont_mul_dispatch(a.m_, b.m_));
        }
    }
    Fp& operator+=(const Fp& b) noexcept { return *this = *this + b; }
    Fp& operator-=(const Fp& b) noexcept { return *this = *this - b; }
    Fp& operator*=(const Fp& b) noexcept { return *this = *this * b; }

    /// a^2: on MULX/ADX CPUs the square's 21 limb products and one reduction (sqr_wide_x86),
    /// else the multiplication.
    constexpr Fp square() const noexcept {
#if defined(__x86_64__)
        if !consteval {
            if (detail::g_mulx_adx) {
                detail::Wide w;
                detail::sqr_wide_x86(m_, w);
                return Fp(detail::redc_x86(w));
            }
        }
#endif
        return *this * *this;
    }
    constexpr Fp dbl() const noexcept { return *this + *this; }

    /// Constant-time equality (the representation is canonical: always < p).
    friend constexpr bool operator==(const Fp& a, const Fp& b) noexcept {
        std::uint64_t diff = 0;
        for (std::size_t i = 0; i < 6; ++i) diff |= a.m_[i] ^ b.m_[i];
        return diff == 0;
    }
    constexpr bool is_zero() const noexcept { return *this == Fp(); }

    /// a^e for a public exponent given as little-endian limbs (square and multiply, always
    /// multiplying and selecting by mask, so the time does not depend on `a`).
    Fp pow(std::span<const std::uint64_t> exponent) const noexcept;
    /// 1/a; zero for zero. Constant time (divsteps, detail/fp_inverse.hpp).
    Fp inverse() const noexcept;
    /// 1/a by the binary extended Euclidean algorithm (Kaliski's almost inverse), a quarter
    /// faster than inverse() but with time depending on a: for public values only (hashing to
    /// the curve, decoding points, square roots of public data). Zero for zero.
    Fp inverse_vartime() const noexcept;
    /// A square root (a^((p+1)/4), as p = 3 mod 4), or nullopt when a is not a square.
    std::optional<Fp> sqrt() const noexcept;
    /// True when a is a square (zero included): Euler's criterion.
    bool is_square() const noexcept;
    /// sgn0(a) of RFC 9380 (§4.1): the parity of the canonical value.
    bool sgn0() const noexcept { return (canonical()[0] & 1) != 0; }
    /// The larger of a and -a in canonical value (ZCash serialization's "sort" flag).
    bool lexicographically_largest() const noexcept;

    /// a if `flag` else b, without a branch.
    static constexpr Fp select(bool flag, const Fp& a, const Fp& b) noexcept {
        const std::uint64_t mask = 0 - static_cast<std::uint64_t>(flag);
        detail::Limbs r{};
        for (std::size_t i = 0; i < 6; ++i) r[i] = (a.m_[i] & mask) | (b.m_[i] & ~mask);
        return Fp(r);
    }

  private:
    constexpr explicit Fp(const detail::Limbs& m) noexcept : m_(m) {}
    detail::Limbs m_{};
};

}  // namespace keel::bls
