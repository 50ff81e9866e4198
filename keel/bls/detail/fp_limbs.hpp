#pragma once
/// The integer layer under Fp (fp.hpp): six 64-bit limbs, the modulus p, portable carry
/// helpers, Montgomery multiplication on 128-bit products, and the constants the field derives
/// from p at compile time. Everything here is constexpr and constant time.

#include <array>
#include <cstddef>
#include <cstdint>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace keel::bls::detail {

__extension__ typedef unsigned __int128 u128;

/// A 384-bit number, six limbs, least significant first.
using Limbs = std::array<std::uint64_t, 6>;
/// A 768-bit number (a product before Montgomery reduction), twelve limbs.
using Wide = std::array<std::uint64_t, 12>;

/// The modulus p.
inline constexpr Limbs kP{0xb9feffffffffaaab, 0x1eabfffeb153ffff, 0x6730d2a0f6b0f624,
                          0x64774b84f38512bf, 0x4b1ba7b6434bacd7, 0x1a0111ea397fe69a};
/// -p^-1 mod 2^64.
inline constexpr std::uint64_t kPInv = 0x89f3fffcfffcfffd;

/// r = a + b + carry_in for carry_in 0 or 1; returns the carry out (0 or 1).
constexpr std::uint64_t add_carry(std::uint64_t a, std::uint64_t b, std::uint64_t carry,
                                  std::uint64_t& r) noexcept {
#if defined(__x86_64__)
    if !consteval {
        // g++ turns the 128-bit form into setc/movzx chains; the intrinsic gives ADC.
        unsigned long long out;
        const unsigned char c = _addcarry_u64(static_cast<unsigned char>(carry), a, b, &out);
        r = out;
        return c;
    }
#endif
    const u128 s = static_cast<u128>(a) + b + carry;
    r = static_cast<std::uint64_t>(s);
    return static_cast<std::uint64_t>(s >> 64);
}

/// r = a - b - borrow_in; returns the borrow out (0 or 1).
constexpr std::uint64_t sub_borrow(std::uint64_t a, std::uint64_t b, std::uint64_t borrow,
                                   std::uint64_t& r) noexcept {
#if defined(__x86_64__)
    if !consteval {
        unsigned long long out;
        const unsigned char c = _subborrow_u64(static_cast<unsigned char>(borrow), a, b, &out);
        r = out;
        return c;
    }
#endif
    const u128 d = static_cast<u128>(a) - b - borrow;
    r = static_cast<std::uint64_t>(d);
    return static_cast<std::uint64_t>(d >> 64) & 1;
}

/// r = a - p if a >= p, else a (a < 2p), without a branch.
constexpr Limbs reduce_once(const Limbs& a) noexcept {
    Limbs d{};
    std::uint64_t borrow = 0;
    for (std::size_t i = 0; i < 6; ++i) borrow = sub_borrow(a[i], kP[i], borrow, d[i]);
    const std::uint64_t keep_a = 0 - borrow;  // all ones when a < p
    Limbs r{};
    for (std::size_t i = 0; i < 6; ++i) r[i] = (a[i] & keep_a) | (d[i] & ~keep_a);
    return r;
}

/// a + b mod p for a, b < p.
constexpr Limbs add_mod(const Limbs& a, const Limbs& b) noexcept {
    Limbs s{};
    std::uint64_t carry = 0;
    for (std::size_t i = 0; i < 6; ++i) carry = add_carry(a[i], b[i], carry, s[i]);
    return reduce_once(s);  // a + b < 2p < 2^384: no carry out
}

/// a - b mod p for a, b < p: p added back (masked, no branch) when the difference borrowed.
constexpr Limbs sub_mod(const Limbs& a, const Limbs& b) noexcept {
    Limbs d{};
    std::uint64_t borrow = 0;
    for (std::size_t i = 0; i < 6; ++i) borrow = sub_borrow(a[i], b[i], borrow, d[i]);
    const std::uint64_t mask = 0 - borrow;
    std::uint64_t carry = 0;
    for (std::size_t i = 0; i < 6; ++i) carry = add_carry(d[i], kP[i] & mask, carry, d[i]);
    return d;
}

/// a·b·R^-1 mod p for a, b < p (CIOS, no-carry variant; see the file comment).
constexpr Limbs mont_mul(const Limbs& a, const Limbs& b) noexcept {
    Limbs t{};
    for (std::size_t i = 0; i < 6; ++i) {
        // t += a · b[i]
        u128 acc = static_cast<u128>(a[0]) * b[i] + t[0];
        t[0] = static_cast<std::uint64_t>(acc);
        std::uint64_t carry = static_cast<std::uint64_t>(acc >> 64);
        for (std::size_t j = 1; j < 6; ++j) {
            acc = static_cast<u128>(a[j]) * b[i] + t[j] + carry;
            t[j] = static_cast<std::uint64_t>(acc);
            carry = static_cast<std::uint64_t>(acc >> 64);
        }
        const std::uint64_t top = carry;
        // t = (t + m·p) / 2^64, with m making the low limb vanish
        const std::uint64_t m = t[0] * kPInv;
        acc = static_cast<u128>(m) * kP[0] + t[0];
        carry = static_cast<std::uint64_t>(acc >> 64);
        for (std::size_t j = 1; j < 6; ++j) {
            acc = static_cast<u128>(m) * kP[j] + t[j] + carry;
            t[j - 1] = static_cast<std::uint64_t>(acc);
            carry = static_cast<std::uint64_t>(acc >> 64);
        }
        t[5] = top + carry;
    }
    return reduce_once(t);
}

/// a + b as integers, without reduction (for a, b < 2^383: no carry out).
constexpr Limbs add_plain(const Limbs& a, const Limbs& b) noexcept {
    Limbs s{};
    std::uint64_t carry = 0;
    for (std::size_t i = 0; i < 6; ++i) carry = add_carry(a[i], b[i], carry, s[i]);
    return s;
}

/// The full 768-bit product a·b.
constexpr Wide mul_wide(const Limbs& a, const Limbs& b) noexcept {
    Wide r{};
    for (std::size_t i = 0; i < 6; ++i) {
        std::uint64_t carry = 0;
        for (std::size_t j = 0; j < 6; ++j) {
            const u128 acc = static_cast<u128>(a[j]) * b[i] + r[i + j] + carry;
            r[i + j] = static_cast<std::uint64_t>(acc);
            carry = static_cast<std::uint64_t>(acc >> 64);
        }
        r[i + 6] = carry;
    }
    return r;
}

/// Montgomery reduction t·R^-1 mod p for t < p·R.
constexpr Limbs redc(const Wide& t) noexcept {
    // t + M·p < 2·p·R < 2^768: the carries never leave the twelve limbs.
    Wide w = t;
    for (std::size_t i = 0; i < 6; ++i) {
        const std::uint64_t m = w[i] * kPInv;
        std::uint64_t carry = 0;
        for (std::size_t j = 0; j < 6; ++j) {
            const u128 acc = static_cast<u128>(m) * kP[j] + w[i + j] + carry;
            w[i + j] = static_cast<std::uint64_t>(acc);
            carry = static_cast<std::uint64_t>(acc >> 64);
        }
        for (std::size_t k = i + 6; k < 12; ++k) {  // a whole word first, then 0 or 1
            const u128 acc = static_cast<u128>(w[k]) + carry;
            w[k] = static_cast<std::uint64_t>(acc);
            carry = static_cast<std::uint64_t>(acc >> 64);
        }
    }
    // (t + M·p) / R < 2p: one conditional subtraction.
    return reduce_once(Limbs{w[6], w[7], w[8], w[9], w[10], w[11]});
}

/// a - b for 768-bit a >= b.
constexpr Wide wide_sub(const Wide& a, const Wide& b) noexcept {
    Wide r{};
    std::uint64_t borrow = 0;
    for (std::size_t i = 0; i < 12; ++i) borrow = sub_borrow(a[i], b[i], borrow, r[i]);
    return r;
}

/// a - b, plus p·R where that went below zero (masked): in [0, p·R) for a, b < p·R.
constexpr Wide wide_sub_mod(const Wide& a, const Wide& b) noexcept {
    Wide r{};
    std::uint64_t borrow = 0;
    for (std::size_t i = 0; i < 12; ++i) borrow = sub_borrow(a[i], b[i], borrow, r[i]);
    const std::uint64_t mask = 0 - borrow;
    std::uint64_t carry = 0;
    for (std::size_t i = 0; i < 6; ++i) carry = add_carry(r[i + 6], kP[i] & mask, carry, r[i + 6]);
    return r;
}

/// 2^k mod p (canonical), by doubling: for the Montgomery constants at compile time.
constexpr Limbs pow2_mod_p(std::size_t k) noexcept {
    Limbs x{1, 0, 0, 0, 0, 0};
    for (std::size_t i = 0; i < k; ++i) {
        Limbs d{};
        std::uint64_t carry = 0;
        for (std::size_t j = 0; j < 6; ++j) carry = add_carry(x[j], x[j], carry, d[j]);
        x = reduce_once(d);  // p < 2^383, so 2x < 2^384 needs no seventh limb
    }
    return x;
}

/// R mod p (the Montgomery form of 1) and R^2 mod p (to convert into Montgomery form).
inline constexpr Limbs kR = pow2_mod_p(384);
inline constexpr Limbs kR2 = pow2_mod_p(768);

/// a >> s for 0 < s < 64.
constexpr Limbs shift_right(const Limbs& a, unsigned s) noexcept {
    Limbs r{};
    for (std::size_t i = 0; i < 6; ++i) {
        r[i] = a[i] >> s;
        if (i + 1 < 6) r[i] |= a[i + 1] << (64 - s);
    }
    return r;
}

/// p with its low limb replaced: p = ...aaab, so p + k for small |k| only changes limb 0.
constexpr Limbs p_with_low(std::uint64_t low) noexcept {
    Limbs r = kP;
    r[0] = low;
    return r;
}

/// The public exponents of inversion, square roots and Euler's criterion.
inline constexpr Limbs kPMinus2 = p_with_low(kP[0] - 2);
inline constexpr Limbs kPPlus1Over4 = shift_right(p_with_low(kP[0] + 1), 2);
inline constexpr Limbs kPMinus3Over4 = shift_right(p_with_low(kP[0] - 3), 2);
inline constexpr Limbs kPMinus1Over2 = shift_right(p_with_low(kP[0] - 1), 1);

}  // namespace keel::bls::detail
