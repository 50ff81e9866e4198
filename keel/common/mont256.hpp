#pragma once
/// Arithmetic modulo a prime p < 2^255 in Montgomery form over four little-endian 64-bit limbs
/// (R = 2^256), shared by the 256-bit prime fields: alt_bn128's base field (keel/bn254) and
/// BLS12-381's scalar field (keel/kzg). Everything is constexpr; the comparisons branch on the
/// values, so these serve public data only (precompile inputs, blobs).

#include <array>
#include <cstdint>

namespace keel::mont256 {

__extension__ typedef unsigned __int128 u128;
using Limbs = std::array<std::uint64_t, 4>;

constexpr bool geq(const Limbs& a, const Limbs& b) noexcept {
    for (int i = 3; i >= 0; --i) {
        const auto k = static_cast<std::size_t>(i);
        if (a[k] != b[k]) return a[k] > b[k];
    }
    return true;
}

/// a - b mod 2^256.
constexpr Limbs sub_raw(const Limbs& a, const Limbs& b) noexcept {
    Limbs r{};
    std::uint64_t borrow = 0;
    for (std::size_t i = 0; i < 4; ++i) {
        const u128 d = static_cast<u128>(a[i]) - b[i] - borrow;
        r[i] = static_cast<std::uint64_t>(d);
        borrow = static_cast<std::uint64_t>(d >> 64) & 1;
    }
    return r;
}

/// The modulus and its Montgomery constants, all derived from p at compile time.
struct Modulus {
    Limbs p;
    std::uint64_t inv;  ///< -p^-1 mod 2^64
    Limbs r;            ///< R mod p (one in Montgomery form)
    Limbs r2;           ///< R^2 mod p (multiplying by it enters Montgomery form)
};

/// a + b mod p for a, b < p (p < 2^255: the sum never carries out of 256 bits).
constexpr Limbs add_mod(const Limbs& a, const Limbs& b, const Limbs& p) noexcept {
    Limbs r{};
    std::uint64_t carry = 0;
    for (std::size_t i = 0; i < 4; ++i) {
        const u128 s = static_cast<u128>(a[i]) + b[i] + carry;
        r[i] = static_cast<std::uint64_t>(s);
        carry = static_cast<std::uint64_t>(s >> 64);
    }
    return geq(r, p) ? sub_raw(r, p) : r;
}

/// a - b mod p for a, b < p.
constexpr Limbs sub_mod(const Limbs& a, const Limbs& b, const Limbs& p) noexcept {
    if (geq(a, b)) return sub_raw(a, b);
    return add_mod(a, sub_raw(p, b), p);  // a + (p - b), both below p
}

/// Montgomery multiplication (CIOS): a·b·2^-256 mod p.
constexpr Limbs mul(const Limbs& a, const Limbs& b, const Modulus& m) noexcept {
    std::uint64_t t[6] = {};
    for (std::size_t i = 0; i < 4; ++i) {
        std::uint64_t carry = 0;
        for (std::size_t j = 0; j < 4; ++j) {
            const u128 s = static_cast<u128>(a[j]) * b[i] + t[j] + carry;
            t[j] = static_cast<std::uint64_t>(s);
            carry = static_cast<std::uint64_t>(s >> 64);
        }
        u128 s = static_cast<u128>(t[4]) + carry;
        t[4] = static_cast<std::uint64_t>(s);
        t[5] = static_cast<std::uint64_t>(s >> 64);
        const std::uint64_t q = t[0] * m.inv;
        s = static_cast<u128>(q) * m.p[0] + t[0];
        carry = static_cast<std::uint64_t>(s >> 64);
        for (std::size_t j = 1; j < 4; ++j) {
            s = static_cast<u128>(q) * m.p[j] + t[j] + carry;
            t[j - 1] = static_cast<std::uint64_t>(s);
            carry = static_cast<std::uint64_t>(s >> 64);
        }
        s = static_cast<u128>(t[4]) + carry;
        t[3] = static_cast<std::uint64_t>(s);
        t[4] = t[5] + static_cast<std::uint64_t>(s >> 64);
    }
    Limbs r{t[0], t[1], t[2], t[3]};
    if (t[4] != 0 || geq(r, m.p)) r = sub_raw(r, m.p);
    return r;
}

/// The constants of p (odd, below 2^255): -p^-1 by Newton's iteration (each step doubles the
/// correct low bits), R and R^2 by doubling 1 modulo p.
constexpr Modulus make_modulus(const Limbs& p) noexcept {
    std::uint64_t x = 1;
    for (int i = 0; i < 7; ++i) x *= 2 - p[0] * x;
    Limbs v{1, 0, 0, 0}, r{};
    for (int i = 0; i < 512; ++i) {
        v = add_mod(v, v, p);
        if (i == 255) r = v;  // 2^256 mod p
    }
    return Modulus{p, ~x + 1, r, v};
}

}  // namespace keel::mont256
