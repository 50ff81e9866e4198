#pragma once
/// Fp12 = Fp6[w] / (w^2 - v): the top of the BLS12-381 tower, where pairings land. An element
/// is c0 + c1·w with c0, c1 in Fp6; seen over Fp2 it is Σ g_i·w^i with w^6 = ξ and
/// g0 = c0.c0, g1 = c1.c0, g2 = c0.c1, g3 = c1.c1, g4 = c0.c2, g5 = c1.c2.
///
/// GT, the pairing's target group, is the order-r subgroup of the "cyclotomic subgroup"
/// {f : f^(p^4 - p^2 + 1) = 1} that the easy part of the final exponentiation maps into; there
/// conjugate() is the inverse and cyclotomic_square() is a faster square.

#include <cstddef>
#include <cstdint>
#include <span>

#include "keel/bls/detail/fp6.hpp"

namespace keel::bls {

class Fp12 {
  public:
    Fp6 c0, c1;

    constexpr Fp12() noexcept = default;
    constexpr Fp12(const Fp6& a0, const Fp6& a1) noexcept : c0(a0), c1(a1) {}

    static constexpr Fp12 zero() noexcept { return {}; }
    static constexpr Fp12 one() noexcept { return {Fp6::one(), Fp6()}; }

    friend constexpr Fp12 operator+(const Fp12& a, const Fp12& b) noexcept {
        return {a.c0 + b.c0, a.c1 + b.c1};
    }
    friend constexpr Fp12 operator-(const Fp12& a, const Fp12& b) noexcept {
        return {a.c0 - b.c0, a.c1 - b.c1};
    }
    friend constexpr Fp12 operator-(const Fp12& a) noexcept { return {-a.c0, -a.c1}; }
    /// Karatsuba over Fp6: three Fp6 multiplications (18 Fp2).
    friend Fp12 operator*(const Fp12& a, const Fp12& b) noexcept;
    Fp12& operator+=(const Fp12& b) noexcept { return *this = *this + b; }
    Fp12& operator-=(const Fp12& b) noexcept { return *this = *this - b; }
    Fp12& operator*=(const Fp12& b) noexcept { return *this = *this * b; }

    /// The "complex" squaring: two Fp6 multiplications.
    Fp12 square() const noexcept;
    /// c0 - c1·w = a^(p^6): the inverse of an element of the cyclotomic subgroup.
    constexpr Fp12 conjugate() const noexcept { return {c0, -c1}; }
    /// 1/a; zero for zero.
    Fp12 inverse() const noexcept;
    /// As inverse(), in variable time: public values only (pairings of public points).
    Fp12 inverse_vartime() const noexcept;
    /// a^(p^k) for k in 1..3 (compose for others; k = 6 is conjugate()).
    Fp12 frobenius_map(std::size_t k) const noexcept;
    /// The square of an element of the cyclotomic subgroup (Granger and Scott, "Faster squaring
    /// in the cyclotomic subgroup of sixth degree extensions", PKC 2010, §3.2): nine Fp2
    /// squarings. Wrong for other elements.
    Fp12 cyclotomic_square() const noexcept;

    /// An element of the cyclotomic subgroup without g0 and g3: in Granger and Scott's terms
    /// (fp12.cpp) f = A + B·w + C·w^2 over Fp4, and the squares of B and C need only B and C
    /// (six Fp2 squarings), while A follows from them (decompress_vartime). Karabina's idea
    /// ("Squaring in cyclotomic subgroups", Math. Comp. 2013) in this tower's coordinates.
    struct Compressed {
        Fp2 g1, g4, g2, g5;  // B = g1 + g4·s, C = g2 + g5·s
    };
    constexpr Compressed compress() const noexcept { return {c1.c0, c0.c2, c0.c1, c1.c2}; }
    /// compress() of the cyclotomic square of the element `a` stands for.
    static Compressed compressed_square(const Compressed& a) noexcept;
    /// The elements of `in`, whole, into `out` (same size), with one inversion for all; false
    /// (and `out` unspecified) when one of them has no unique A, e.g. when B = C = 0. Variable
    /// time: public values only.
    static bool decompress_vartime(std::span<const Compressed> in, std::span<Fp12> out) noexcept;

    /// Times the sparse element a + b·v + c·v·w (g0 = a, g2 = b, g3 = c, the rest zero): the
    /// shape of the Miller loop's line functions for BLS12-381's M-type twist (pairing.cpp).
    /// 13 Fp2 multiplications instead of 18.
    Fp12 mul_by_line(const Fp2& a, const Fp2& b, const Fp2& c) const noexcept;

    /// a^e for a public exponent (little-endian limbs), plain square and multiply: for tests
    /// and rare uses; the pairing uses its own chains.
    Fp12 pow(std::span<const std::uint64_t> exponent) const noexcept;

    friend constexpr bool operator==(const Fp12& a, const Fp12& b) noexcept {
        return both(a.c0 == b.c0, a.c1 == b.c1);
    }
    constexpr bool is_one() const noexcept { return *this == one(); }
    constexpr bool is_zero() const noexcept { return both(c0.is_zero(), c1.is_zero()); }

    /// a if `flag` else b, without a branch.
    static constexpr Fp12 select(bool flag, const Fp12& a, const Fp12& b) noexcept {
        return {Fp6::select(flag, a.c0, b.c0), Fp6::select(flag, a.c1, b.c1)};
    }
};

}  // namespace keel::bls
