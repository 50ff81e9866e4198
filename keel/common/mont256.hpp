#pragma once
/// Arithmetic modulo a prime p < 2^255 in Montgomery form over four little-endian 64-bit limbs
/// (R = 2^256), shared by the 256-bit prime fields: alt_bn128's base field (keel/bn254) and
/// BLS12-381's scalar field (keel/kzg). Everything is constexpr; the comparisons branch on the
/// values, so these serve public data only (precompile inputs, blobs).

#include <array>
#include <cstddef>
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

#if defined(__x86_64__)
namespace detail {

/// Whether this CPU runs MULX (BMI2) and ADCX/ADOX (ADX): read once, at start-up.
inline const bool kMulxAdx = __builtin_cpu_supports("bmi2") && __builtin_cpu_supports("adx");

/// mul() with MULX and the two carry chains of ADCX/ADOX, unrolled: per limb of b, t += a·b[i]
/// (low halves on the carry flag, high halves on the overflow flag), then t += q·p and the
/// shift by one limb, done by renaming the five registers. As p < 2^255 (its top limb below
/// 2^63 - 1) and a, b < p, t stays below 2p and within five limbs: no carry is lost and one
/// conditional subtraction (CMOV, where it does not borrow) ends it. Callers check kMulxAdx.
/// (The modulus is read through one pointer, p at offsets 0-24 and -p^-1 at 32: few enough
/// registers for an unoptimized sanitizer build.)
inline Limbs mul_mulx_adx(const Limbs& a, const Limbs& b, const Modulus& m) noexcept {
    static_assert(offsetof(Modulus, p) == 0 && offsetof(Modulus, inv) == 32);
    std::uint64_t t0 = 0, t1 = 0, t2 = 0, t3 = 0, t4 = 0;
    std::uint64_t lo, hi, z;
    const std::uint64_t* pa = a.data();  // read-write: the last subtraction reuses its register
    const std::uint64_t* pb = b.data();
    asm("movq 0(%[b]), %%rdx\n\t"
        "xorl %k[z], %k[z]\n\t"
        "mulxq 0(%[a]), %[lo], %[hi]\n\t"
        "adcxq %[lo], %[t0]\n\t"
        "adoxq %[hi], %[t1]\n\t"
        "mulxq 8(%[a]), %[lo], %[hi]\n\t"
        "adcxq %[lo], %[t1]\n\t"
        "adoxq %[hi], %[t2]\n\t"
        "mulxq 16(%[a]), %[lo], %[hi]\n\t"
        "adcxq %[lo], %[t2]\n\t"
        "adoxq %[hi], %[t3]\n\t"
        "mulxq 24(%[a]), %[lo], %[hi]\n\t"
        "adcxq %[lo], %[t3]\n\t"
        "adoxq %[hi], %[t4]\n\t"
        "adcxq %[z], %[t4]\n\t"
        "movq %[t0], %%rdx\n\t"
        "imulq 32(%[m]), %%rdx\n\t"
        "xorl %k[z], %k[z]\n\t"
        "mulxq 0(%[m]), %[lo], %[hi]\n\t"
        "adcxq %[lo], %[t0]\n\t"
        "adoxq %[hi], %[t1]\n\t"
        "mulxq 8(%[m]), %[lo], %[hi]\n\t"
        "adcxq %[lo], %[t1]\n\t"
        "adoxq %[hi], %[t2]\n\t"
        "mulxq 16(%[m]), %[lo], %[hi]\n\t"
        "adcxq %[lo], %[t2]\n\t"
        "adoxq %[hi], %[t3]\n\t"
        "mulxq 24(%[m]), %[lo], %[hi]\n\t"
        "adcxq %[lo], %[t3]\n\t"
        "adoxq %[hi], %[t4]\n\t"
        "adcxq %[z], %[t4]\n\t"
        "movq 8(%[b]), %%rdx\n\t"
        "xorl %k[z], %k[z]\n\t"
        "mulxq 0(%[a]), %[lo], %[hi]\n\t"
        "adcxq %[lo], %[t1]\n\t"
        "adoxq %[hi], %[t2]\n\t"
        "mulxq 8(%[a]), %[lo], %[hi]\n\t"
        "adcxq %[lo], %[t2]\n\t"
        "adoxq %[hi], %[t3]\n\t"
        "mulxq 16(%[a]), %[lo], %[hi]\n\t"
        "adcxq %[lo], %[t3]\n\t"
        "adoxq %[hi], %[t4]\n\t"
        "mulxq 24(%[a]), %[lo], %[hi]\n\t"
        "adcxq %[lo], %[t4]\n\t"
        "adoxq %[hi], %[t0]\n\t"
        "adcxq %[z], %[t0]\n\t"
        "movq %[t1], %%rdx\n\t"
        "imulq 32(%[m]), %%rdx\n\t"
        "xorl %k[z], %k[z]\n\t"
        "mulxq 0(%[m]), %[lo], %[hi]\n\t"
        "adcxq %[lo], %[t1]\n\t"
        "adoxq %[hi], %[t2]\n\t"
        "mulxq 8(%[m]), %[lo], %[hi]\n\t"
        "adcxq %[lo], %[t2]\n\t"
        "adoxq %[hi], %[t3]\n\t"
        "mulxq 16(%[m]), %[lo], %[hi]\n\t"
        "adcxq %[lo], %[t3]\n\t"
        "adoxq %[hi], %[t4]\n\t"
        "mulxq 24(%[m]), %[lo], %[hi]\n\t"
        "adcxq %[lo], %[t4]\n\t"
        "adoxq %[hi], %[t0]\n\t"
        "adcxq %[z], %[t0]\n\t"
        "movq 16(%[b]), %%rdx\n\t"
        "xorl %k[z], %k[z]\n\t"
        "mulxq 0(%[a]), %[lo], %[hi]\n\t"
        "adcxq %[lo], %[t2]\n\t"
        "adoxq %[hi], %[t3]\n\t"
        "mulxq 8(%[a]), %[lo], %[hi]\n\t"
        "adcxq %[lo], %[t3]\n\t"
        "adoxq %[hi], %[t4]\n\t"
        "mulxq 16(%[a]), %[lo], %[hi]\n\t"
        "adcxq %[lo], %[t4]\n\t"
        "adoxq %[hi], %[t0]\n\t"
        "mulxq 24(%[a]), %[lo], %[hi]\n\t"
        "adcxq %[lo], %[t0]\n\t"
        "adoxq %[hi], %[t1]\n\t"
        "adcxq %[z], %[t1]\n\t"
        "movq %[t2], %%rdx\n\t"
        "imulq 32(%[m]), %%rdx\n\t"
        "xorl %k[z], %k[z]\n\t"
        "mulxq 0(%[m]), %[lo], %[hi]\n\t"
        "adcxq %[lo], %[t2]\n\t"
        "adoxq %[hi], %[t3]\n\t"
        "mulxq 8(%[m]), %[lo], %[hi]\n\t"
        "adcxq %[lo], %[t3]\n\t"
        "adoxq %[hi], %[t4]\n\t"
        "mulxq 16(%[m]), %[lo], %[hi]\n\t"
        "adcxq %[lo], %[t4]\n\t"
        "adoxq %[hi], %[t0]\n\t"
        "mulxq 24(%[m]), %[lo], %[hi]\n\t"
        "adcxq %[lo], %[t0]\n\t"
        "adoxq %[hi], %[t1]\n\t"
        "adcxq %[z], %[t1]\n\t"
        "movq 24(%[b]), %%rdx\n\t"
        "xorl %k[z], %k[z]\n\t"
        "mulxq 0(%[a]), %[lo], %[hi]\n\t"
        "adcxq %[lo], %[t3]\n\t"
        "adoxq %[hi], %[t4]\n\t"
        "mulxq 8(%[a]), %[lo], %[hi]\n\t"
        "adcxq %[lo], %[t4]\n\t"
        "adoxq %[hi], %[t0]\n\t"
        "mulxq 16(%[a]), %[lo], %[hi]\n\t"
        "adcxq %[lo], %[t0]\n\t"
        "adoxq %[hi], %[t1]\n\t"
        "mulxq 24(%[a]), %[lo], %[hi]\n\t"
        "adcxq %[lo], %[t1]\n\t"
        "adoxq %[hi], %[t2]\n\t"
        "adcxq %[z], %[t2]\n\t"
        "movq %[t3], %%rdx\n\t"
        "imulq 32(%[m]), %%rdx\n\t"
        "xorl %k[z], %k[z]\n\t"
        "mulxq 0(%[m]), %[lo], %[hi]\n\t"
        "adcxq %[lo], %[t3]\n\t"
        "adoxq %[hi], %[t4]\n\t"
        "mulxq 8(%[m]), %[lo], %[hi]\n\t"
        "adcxq %[lo], %[t4]\n\t"
        "adoxq %[hi], %[t0]\n\t"
        "mulxq 16(%[m]), %[lo], %[hi]\n\t"
        "adcxq %[lo], %[t0]\n\t"
        "adoxq %[hi], %[t1]\n\t"
        "mulxq 24(%[m]), %[lo], %[hi]\n\t"
        "adcxq %[lo], %[t1]\n\t"
        "adoxq %[hi], %[t2]\n\t"
        "adcxq %[z], %[t2]\n\t"
        "movq %[t4], %[lo]\n\t"
        "subq 0(%[m]), %[lo]\n\t"
        "movq %[t0], %[hi]\n\t"
        "sbbq 8(%[m]), %[hi]\n\t"
        "movq %[t1], %[z]\n\t"
        "sbbq 16(%[m]), %[z]\n\t"
        "movq %[t2], %[a]\n\t"
        "sbbq 24(%[m]), %[a]\n\t"
        "cmovaeq %[lo], %[t4]\n\t"
        "cmovaeq %[hi], %[t0]\n\t"
        "cmovaeq %[z], %[t1]\n\t"
        "cmovaeq %[a], %[t2]\n\t"
        : [t0] "+&r"(t0), [t1] "+&r"(t1), [t2] "+&r"(t2), [t3] "+&r"(t3), [t4] "+&r"(t4),
          [lo] "=&r"(lo), [hi] "=&r"(hi), [z] "=&r"(z), [a] "+&r"(pa)
        : [b] "r"(pb), [m] "r"(&m)
        : "rdx", "cc", "memory");
    // Four rounds rotated the names: the result is (t4, t0, t1, t2).
    return Limbs{t4, t0, t1, t2};
}

}  // namespace detail
#endif

/// Montgomery multiplication (CIOS) in portable C++: a·b·2^-256 mod p.
constexpr Limbs mul_portable(const Limbs& a, const Limbs& b, const Modulus& m) noexcept {
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

/// Montgomery multiplication: a·b·2^-256 mod p, for a, b < p. At run time on a CPU with MULX
/// and ADX, detail::mul_mulx_adx (18.7 ns against 32.9 ns a dependent multiplication on Zen 4);
/// in constant evaluation and elsewhere mul_portable.
constexpr Limbs mul(const Limbs& a, const Limbs& b, const Modulus& m) noexcept {
#if defined(__x86_64__)
    if !consteval {
        if (detail::kMulxAdx) return detail::mul_mulx_adx(a, b, m);
    }
#endif
    return mul_portable(a, b, m);
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
