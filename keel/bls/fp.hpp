#pragma once
/// Fp, the base field of BLS12-381: integers modulo the 381-bit prime
///   p =
///   0x1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffaaab
/// held as six 64-bit limbs, least significant first, in Montgomery form (a·R mod p, R = 2^384).
///
/// Every operation here runs in constant time: no branch or memory index depends on a value
/// (conditional subtractions are masks), so secret-key arithmetic can use them. Inversion and
/// square roots are fixed exponentiation chains. The arithmetic is portable C++ on 128-bit
/// products and constexpr, so constants (R^2, the curve's coefficients) are computed by the
/// compiler from their canonical values.
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

namespace keel::bls {

namespace detail {

__extension__ typedef unsigned __int128 u128;

/// A 384-bit number, six limbs, least significant first.
using Limbs = std::array<std::uint64_t, 6>;

/// The modulus p.
inline constexpr Limbs kP{0xb9feffffffffaaab, 0x1eabfffeb153ffff, 0x6730d2a0f6b0f624,
                          0x64774b84f38512bf, 0x4b1ba7b6434bacd7, 0x1a0111ea397fe69a};
/// -p^-1 mod 2^64.
inline constexpr std::uint64_t kPInv = 0x89f3fffcfffcfffd;

/// r = a + b + carry_in; returns the carry out.
constexpr std::uint64_t add_carry(std::uint64_t a, std::uint64_t b, std::uint64_t carry,
                                  std::uint64_t& r) noexcept {
    const u128 s = static_cast<u128>(a) + b + carry;
    r = static_cast<std::uint64_t>(s);
    return static_cast<std::uint64_t>(s >> 64);
}

/// r = a - b - borrow_in; returns the borrow out (0 or 1).
constexpr std::uint64_t sub_borrow(std::uint64_t a, std::uint64_t b, std::uint64_t borrow,
                                   std::uint64_t& r) noexcept {
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

#if defined(__x86_64__)
/// True when the CPU has BMI2 (MULX) and ADX (ADCX/ADOX), decided once at start-up (fp.cpp);
/// false until then, which only means the portable path.
extern const bool g_mulx_adx;

/// mont_mul with MULX and the two carry chains of ADCX/ADOX (Intel's "New Instructions
/// Supporting Large Integer Arithmetic"): per limb of b, t += a·b[i] with the low halves on the
/// carry flag and the high halves on the overflow flag, then t += m·p and the shift by one limb,
/// done by renaming registers (the code is unrolled). Same no-carry argument as mont_mul: the
/// top word never overflows. Callers must check g_mulx_adx (the assembler accepts the
/// instructions whatever the target; the CPU may not run them).
inline Limbs mont_mul_mulx_adx(const Limbs& a, const Limbs& b) noexcept {
    std::uint64_t t0 = 0, t1 = 0, t2 = 0, t3 = 0, t4 = 0, t5 = 0, t6 = 0;
    std::uint64_t lo, hi, z;
    // The pointers are read-write operands: the final subtraction reuses their registers.
    const std::uint64_t* pa = a.data();
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
        "mulxq 32(%[a]), %[lo], %[hi]\n\t"
        "adcxq %[lo], %[t4]\n\t"
        "adoxq %[hi], %[t5]\n\t"
        "mulxq 40(%[a]), %[lo], %[hi]\n\t"
        "adcxq %[lo], %[t5]\n\t"
        "adoxq %[hi], %[t6]\n\t"
        "adcxq %[z], %[t6]\n\t"
        "movq %[t0], %%rdx\n\t"
        "imulq %[pinv], %%rdx\n\t"
        "xorl %k[z], %k[z]\n\t"
        "mulxq %[p0], %[lo], %[hi]\n\t"
        "adcxq %[lo], %[t0]\n\t"
        "adoxq %[hi], %[t1]\n\t"
        "mulxq %[p1], %[lo], %[hi]\n\t"
        "adcxq %[lo], %[t1]\n\t"
        "adoxq %[hi], %[t2]\n\t"
        "mulxq %[p2], %[lo], %[hi]\n\t"
        "adcxq %[lo], %[t2]\n\t"
        "adoxq %[hi], %[t3]\n\t"
        "mulxq %[p3], %[lo], %[hi]\n\t"
        "adcxq %[lo], %[t3]\n\t"
        "adoxq %[hi], %[t4]\n\t"
        "mulxq %[p4], %[lo], %[hi]\n\t"
        "adcxq %[lo], %[t4]\n\t"
        "adoxq %[hi], %[t5]\n\t"
        "mulxq %[p5], %[lo], %[hi]\n\t"
        "adcxq %[lo], %[t5]\n\t"
        "adoxq %[hi], %[t6]\n\t"
        "adcxq %[z], %[t6]\n\t"
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
        "adoxq %[hi], %[t5]\n\t"
        "mulxq 32(%[a]), %[lo], %[hi]\n\t"
        "adcxq %[lo], %[t5]\n\t"
        "adoxq %[hi], %[t6]\n\t"
        "mulxq 40(%[a]), %[lo], %[hi]\n\t"
        "adcxq %[lo], %[t6]\n\t"
        "adoxq %[hi], %[t0]\n\t"
        "adcxq %[z], %[t0]\n\t"
        "movq %[t1], %%rdx\n\t"
        "imulq %[pinv], %%rdx\n\t"
        "xorl %k[z], %k[z]\n\t"
        "mulxq %[p0], %[lo], %[hi]\n\t"
        "adcxq %[lo], %[t1]\n\t"
        "adoxq %[hi], %[t2]\n\t"
        "mulxq %[p1], %[lo], %[hi]\n\t"
        "adcxq %[lo], %[t2]\n\t"
        "adoxq %[hi], %[t3]\n\t"
        "mulxq %[p2], %[lo], %[hi]\n\t"
        "adcxq %[lo], %[t3]\n\t"
        "adoxq %[hi], %[t4]\n\t"
        "mulxq %[p3], %[lo], %[hi]\n\t"
        "adcxq %[lo], %[t4]\n\t"
        "adoxq %[hi], %[t5]\n\t"
        "mulxq %[p4], %[lo], %[hi]\n\t"
        "adcxq %[lo], %[t5]\n\t"
        "adoxq %[hi], %[t6]\n\t"
        "mulxq %[p5], %[lo], %[hi]\n\t"
        "adcxq %[lo], %[t6]\n\t"
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
        "adoxq %[hi], %[t5]\n\t"
        "mulxq 24(%[a]), %[lo], %[hi]\n\t"
        "adcxq %[lo], %[t5]\n\t"
        "adoxq %[hi], %[t6]\n\t"
        "mulxq 32(%[a]), %[lo], %[hi]\n\t"
        "adcxq %[lo], %[t6]\n\t"
        "adoxq %[hi], %[t0]\n\t"
        "mulxq 40(%[a]), %[lo], %[hi]\n\t"
        "adcxq %[lo], %[t0]\n\t"
        "adoxq %[hi], %[t1]\n\t"
        "adcxq %[z], %[t1]\n\t"
        "movq %[t2], %%rdx\n\t"
        "imulq %[pinv], %%rdx\n\t"
        "xorl %k[z], %k[z]\n\t"
        "mulxq %[p0], %[lo], %[hi]\n\t"
        "adcxq %[lo], %[t2]\n\t"
        "adoxq %[hi], %[t3]\n\t"
        "mulxq %[p1], %[lo], %[hi]\n\t"
        "adcxq %[lo], %[t3]\n\t"
        "adoxq %[hi], %[t4]\n\t"
        "mulxq %[p2], %[lo], %[hi]\n\t"
        "adcxq %[lo], %[t4]\n\t"
        "adoxq %[hi], %[t5]\n\t"
        "mulxq %[p3], %[lo], %[hi]\n\t"
        "adcxq %[lo], %[t5]\n\t"
        "adoxq %[hi], %[t6]\n\t"
        "mulxq %[p4], %[lo], %[hi]\n\t"
        "adcxq %[lo], %[t6]\n\t"
        "adoxq %[hi], %[t0]\n\t"
        "mulxq %[p5], %[lo], %[hi]\n\t"
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
        "adoxq %[hi], %[t5]\n\t"
        "mulxq 16(%[a]), %[lo], %[hi]\n\t"
        "adcxq %[lo], %[t5]\n\t"
        "adoxq %[hi], %[t6]\n\t"
        "mulxq 24(%[a]), %[lo], %[hi]\n\t"
        "adcxq %[lo], %[t6]\n\t"
        "adoxq %[hi], %[t0]\n\t"
        "mulxq 32(%[a]), %[lo], %[hi]\n\t"
        "adcxq %[lo], %[t0]\n\t"
        "adoxq %[hi], %[t1]\n\t"
        "mulxq 40(%[a]), %[lo], %[hi]\n\t"
        "adcxq %[lo], %[t1]\n\t"
        "adoxq %[hi], %[t2]\n\t"
        "adcxq %[z], %[t2]\n\t"
        "movq %[t3], %%rdx\n\t"
        "imulq %[pinv], %%rdx\n\t"
        "xorl %k[z], %k[z]\n\t"
        "mulxq %[p0], %[lo], %[hi]\n\t"
        "adcxq %[lo], %[t3]\n\t"
        "adoxq %[hi], %[t4]\n\t"
        "mulxq %[p1], %[lo], %[hi]\n\t"
        "adcxq %[lo], %[t4]\n\t"
        "adoxq %[hi], %[t5]\n\t"
        "mulxq %[p2], %[lo], %[hi]\n\t"
        "adcxq %[lo], %[t5]\n\t"
        "adoxq %[hi], %[t6]\n\t"
        "mulxq %[p3], %[lo], %[hi]\n\t"
        "adcxq %[lo], %[t6]\n\t"
        "adoxq %[hi], %[t0]\n\t"
        "mulxq %[p4], %[lo], %[hi]\n\t"
        "adcxq %[lo], %[t0]\n\t"
        "adoxq %[hi], %[t1]\n\t"
        "mulxq %[p5], %[lo], %[hi]\n\t"
        "adcxq %[lo], %[t1]\n\t"
        "adoxq %[hi], %[t2]\n\t"
        "adcxq %[z], %[t2]\n\t"
        "movq 32(%[b]), %%rdx\n\t"
        "xorl %k[z], %k[z]\n\t"
        "mulxq 0(%[a]), %[lo], %[hi]\n\t"
        "adcxq %[lo], %[t4]\n\t"
        "adoxq %[hi], %[t5]\n\t"
        "mulxq 8(%[a]), %[lo], %[hi]\n\t"
        "adcxq %[lo], %[t5]\n\t"
        "adoxq %[hi], %[t6]\n\t"
        "mulxq 16(%[a]), %[lo], %[hi]\n\t"
        "adcxq %[lo], %[t6]\n\t"
        "adoxq %[hi], %[t0]\n\t"
        "mulxq 24(%[a]), %[lo], %[hi]\n\t"
        "adcxq %[lo], %[t0]\n\t"
        "adoxq %[hi], %[t1]\n\t"
        "mulxq 32(%[a]), %[lo], %[hi]\n\t"
        "adcxq %[lo], %[t1]\n\t"
        "adoxq %[hi], %[t2]\n\t"
        "mulxq 40(%[a]), %[lo], %[hi]\n\t"
        "adcxq %[lo], %[t2]\n\t"
        "adoxq %[hi], %[t3]\n\t"
        "adcxq %[z], %[t3]\n\t"
        "movq %[t4], %%rdx\n\t"
        "imulq %[pinv], %%rdx\n\t"
        "xorl %k[z], %k[z]\n\t"
        "mulxq %[p0], %[lo], %[hi]\n\t"
        "adcxq %[lo], %[t4]\n\t"
        "adoxq %[hi], %[t5]\n\t"
        "mulxq %[p1], %[lo], %[hi]\n\t"
        "adcxq %[lo], %[t5]\n\t"
        "adoxq %[hi], %[t6]\n\t"
        "mulxq %[p2], %[lo], %[hi]\n\t"
        "adcxq %[lo], %[t6]\n\t"
        "adoxq %[hi], %[t0]\n\t"
        "mulxq %[p3], %[lo], %[hi]\n\t"
        "adcxq %[lo], %[t0]\n\t"
        "adoxq %[hi], %[t1]\n\t"
        "mulxq %[p4], %[lo], %[hi]\n\t"
        "adcxq %[lo], %[t1]\n\t"
        "adoxq %[hi], %[t2]\n\t"
        "mulxq %[p5], %[lo], %[hi]\n\t"
        "adcxq %[lo], %[t2]\n\t"
        "adoxq %[hi], %[t3]\n\t"
        "adcxq %[z], %[t3]\n\t"
        "movq 40(%[b]), %%rdx\n\t"
        "xorl %k[z], %k[z]\n\t"
        "mulxq 0(%[a]), %[lo], %[hi]\n\t"
        "adcxq %[lo], %[t5]\n\t"
        "adoxq %[hi], %[t6]\n\t"
        "mulxq 8(%[a]), %[lo], %[hi]\n\t"
        "adcxq %[lo], %[t6]\n\t"
        "adoxq %[hi], %[t0]\n\t"
        "mulxq 16(%[a]), %[lo], %[hi]\n\t"
        "adcxq %[lo], %[t0]\n\t"
        "adoxq %[hi], %[t1]\n\t"
        "mulxq 24(%[a]), %[lo], %[hi]\n\t"
        "adcxq %[lo], %[t1]\n\t"
        "adoxq %[hi], %[t2]\n\t"
        "mulxq 32(%[a]), %[lo], %[hi]\n\t"
        "adcxq %[lo], %[t2]\n\t"
        "adoxq %[hi], %[t3]\n\t"
        "mulxq 40(%[a]), %[lo], %[hi]\n\t"
        "adcxq %[lo], %[t3]\n\t"
        "adoxq %[hi], %[t4]\n\t"
        "adcxq %[z], %[t4]\n\t"
        "movq %[t5], %%rdx\n\t"
        "imulq %[pinv], %%rdx\n\t"
        "xorl %k[z], %k[z]\n\t"
        "mulxq %[p0], %[lo], %[hi]\n\t"
        "adcxq %[lo], %[t5]\n\t"
        "adoxq %[hi], %[t6]\n\t"
        "mulxq %[p1], %[lo], %[hi]\n\t"
        "adcxq %[lo], %[t6]\n\t"
        "adoxq %[hi], %[t0]\n\t"
        "mulxq %[p2], %[lo], %[hi]\n\t"
        "adcxq %[lo], %[t0]\n\t"
        "adoxq %[hi], %[t1]\n\t"
        "mulxq %[p3], %[lo], %[hi]\n\t"
        "adcxq %[lo], %[t1]\n\t"
        "adoxq %[hi], %[t2]\n\t"
        "mulxq %[p4], %[lo], %[hi]\n\t"
        "adcxq %[lo], %[t2]\n\t"
        "adoxq %[hi], %[t3]\n\t"
        "mulxq %[p5], %[lo], %[hi]\n\t"
        "adcxq %[lo], %[t3]\n\t"
        "adoxq %[hi], %[t4]\n\t"
        "adcxq %[z], %[t4]\n\t"
        "movq %[t6], %[lo]\n\t"
        "subq %[p0], %[lo]\n\t"
        "movq %[t0], %[hi]\n\t"
        "sbbq %[p1], %[hi]\n\t"
        "movq %[t1], %[z]\n\t"
        "sbbq %[p2], %[z]\n\t"
        "movq %[t2], %[t5]\n\t"
        "sbbq %[p3], %[t5]\n\t"
        "movq %[t3], %%rdx\n\t"
        "sbbq %[p4], %%rdx\n\t"
        "movq %[t4], %[a]\n\t"
        "sbbq %[p5], %[a]\n\t"
        "cmovaeq %[lo], %[t6]\n\t"
        "cmovaeq %[hi], %[t0]\n\t"
        "cmovaeq %[z], %[t1]\n\t"
        "cmovaeq %[t5], %[t2]\n\t"
        "cmovaeq %%rdx, %[t3]\n\t"
        "cmovaeq %[a], %[t4]\n\t"
        : [t0] "+&r"(t0), [t1] "+&r"(t1), [t2] "+&r"(t2), [t3] "+&r"(t3), [t4] "+&r"(t4),
          [t5] "+&r"(t5), [t6] "+&r"(t6), [lo] "=&r"(lo), [hi] "=&r"(hi), [z] "=&r"(z),
          [a] "+&r"(pa), [b] "+&r"(pb)
        : [pinv] "m"(kPInv), [p0] "m"(kP[0]), [p1] "m"(kP[1]), [p2] "m"(kP[2]), [p3] "m"(kP[3]),
          [p4] "m"(kP[4]), [p5] "m"(kP[5])
        : "rdx", "cc", "memory");
    // Six rounds rotated the names: the result is (t6, t0, t1, t2, t3, t4), already brought
    // below p by the final subtraction of p kept only when it did not borrow (cmovae).
    return Limbs{t6, t0, t1, t2, t3, t4};
}
#endif

/// a·b·R^-1 mod p, by the fastest path this CPU runs (outside constant evaluation).
inline Limbs mont_mul_dispatch(const Limbs& a, const Limbs& b) noexcept {
#if defined(__x86_64__)
    if (g_mulx_adx) return mont_mul_mulx_adx(a, b);
#endif
    return mont_mul(a, b);
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
inline constexpr Limbs kPMinus1Over2 = shift_right(p_with_low(kP[0] - 1), 1);

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
        detail::Limbs s{};
        std::uint64_t carry = 0;
        for (std::size_t i = 0; i < 6; ++i)
            carry = detail::add_carry(a.m_[i], b.m_[i], carry, s[i]);
        return Fp(detail::reduce_once(s));  // a + b < 2p < 2^384: no carry out
    }
    friend constexpr Fp operator-(const Fp& a, const Fp& b) noexcept {
        detail::Limbs d{};
        std::uint64_t borrow = 0;
        for (std::size_t i = 0; i < 6; ++i)
            borrow = detail::sub_borrow(a.m_[i], b.m_[i], borrow, d[i]);
        // Add p back when it went below zero (mask, no branch).
        const std::uint64_t mask = 0 - borrow;
        std::uint64_t carry = 0;
        for (std::size_t i = 0; i < 6; ++i)
            carry = detail::add_carry(d[i], detail::kP[i] & mask, carry, d[i]);
        return Fp(d);
    }
    friend constexpr Fp operator-(const Fp& a) noexcept { return Fp() - a; }
    friend constexpr Fp operator*(const Fp& a, const Fp& b) noexcept {
        if
            consteval {
                return Fp(detail::mont_mul(a.m_, b.m_));
            }
        else {
            return Fp(detail::mont_mul_dispatch(a.m_, b.m_));
        }
    }
    Fp& operator+=(const Fp& b) noexcept { return *this = *this + b; }
    Fp& operator-=(const Fp& b) noexcept { return *this = *this - b; }
    Fp& operator*=(const Fp& b) noexcept { return *this = *this * b; }

    constexpr Fp square() const noexcept { return *this * *this; }
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
    /// 1/a (a^(p-2)); zero for zero. Constant time.
    Fp inverse() const noexcept;
    /// 1/a by the binary extended Euclidean algorithm, about ten times faster than inverse()
    /// but with time depending on a: for public values only (hashing to the curve, decoding
    /// points, square roots of public data). Zero for zero.
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
