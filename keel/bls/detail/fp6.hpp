#pragma once
/// Fp6 = Fp2[v] / (v^3 - ξ), ξ = 1 + u: the middle floor of the BLS12-381 tower
/// Fp -> Fp2 -> Fp6 -> Fp12 (fp12.hpp). An element is c0 + c1·v + c2·v^2.
///
/// Multiplication is Karatsuba over three coefficients and squaring is Chung and Hasan's SQR2
/// ("Asymmetric squaring formulae", ARITH 2007); both, and the inverse, follow Devegili, Ó
/// hÉigeartaigh, Scott and Dahab, "Multiplication and squaring on pairing-friendly fields" (ePrint
/// 2006/471). Like Fp2, every operation is constant time apart from inverse's fixed exponent chain.

#include <cstddef>

#include "keel/bls/detail/fp2.hpp"

namespace keel::bls {

class Fp6 {
  public:
    Fp2 c0, c1, c2;

    constexpr Fp6() noexcept = default;
    constexpr Fp6(const Fp2& a0, const Fp2& a1, const Fp2& a2) noexcept : c0(a0), c1(a1), c2(a2) {}

    static constexpr Fp6 zero() noexcept { return {}; }
    static constexpr Fp6 one() noexcept { return {Fp2::one(), Fp2(), Fp2()}; }

    friend constexpr Fp6 operator+(const Fp6& a, const Fp6& b) noexcept {
        return {a.c0 + b.c0, a.c1 + b.c1, a.c2 + b.c2};
    }
    friend constexpr Fp6 operator-(const Fp6& a, const Fp6& b) noexcept {
        return {a.c0 - b.c0, a.c1 - b.c1, a.c2 - b.c2};
    }
    friend constexpr Fp6 operator-(const Fp6& a) noexcept { return {-a.c0, -a.c1, -a.c2}; }
    /// Karatsuba: six Fp2 multiplications.
    friend Fp6 operator*(const Fp6& a, const Fp6& b) noexcept;
    /// Multiplication by an element of Fp2 (each coefficient).
    friend constexpr Fp6 operator*(const Fp6& a, const Fp2& b) noexcept {
        return {a.c0 * b, a.c1 * b, a.c2 * b};
    }
    Fp6& operator+=(const Fp6& b) noexcept { return *this = *this + b; }
    Fp6& operator-=(const Fp6& b) noexcept { return *this = *this - b; }
    Fp6& operator*=(const Fp6& b) noexcept { return *this = *this * b; }

    /// Chung–Hasan SQR2: two Fp2 multiplications and three Fp2 squarings.
    Fp6 square() const noexcept;
    constexpr Fp6 dbl() const noexcept { return {c0.dbl(), c1.dbl(), c2.dbl()}; }
    /// Times v: (c0 + c1·v + c2·v^2)·v = ξ·c2 + c0·v + c1·v^2.
    constexpr Fp6 mul_by_v() const noexcept { return {c2.mul_by_xi(), c0, c1}; }

    /// Times the sparse element b0 + b1·v (five Fp2 multiplications), the shape of the
    /// w^0/w^2 half of a Miller-loop line (pairing.cpp).
    Fp6 mul_by_01(const Fp2& b0, const Fp2& b1) const noexcept;
    /// Times the sparse element b1·v (three Fp2 multiplications): the w^3 part of a line.
    constexpr Fp6 mul_by_1(const Fp2& b1) const noexcept {
        return {(c2 * b1).mul_by_xi(), c0 * b1, c1 * b1};
    }

    friend constexpr bool operator==(const Fp6& a, const Fp6& b) noexcept {
        return both(both(a.c0 == b.c0, a.c1 == b.c1), a.c2 == b.c2);
    }
    constexpr bool is_zero() const noexcept {
        return both(both(c0.is_zero(), c1.is_zero()), c2.is_zero());
    }

    /// a if `flag` else b, without a branch.
    static constexpr Fp6 select(bool flag, const Fp6& a, const Fp6& b) noexcept {
        return {Fp2::select(flag, a.c0, b.c0), Fp2::select(flag, a.c1, b.c1),
                Fp2::select(flag, a.c2, b.c2)};
    }

    /// 1/a; zero for zero.
    Fp6 inverse() const noexcept;
    /// As inverse(), in variable time (Fp2::inverse_vartime): public values only.
    Fp6 inverse_vartime() const noexcept;
    /// a^(p^k) for k in 1..3 (other k: compose). Conjugates the coefficients for odd k and
    /// multiplies by the constants ξ^((p^k - 1)/3) and ξ^(2(p^k - 1)/3) (fp6.cpp).
    Fp6 frobenius_map(std::size_t k) const noexcept;

  private:
    template <bool kVartime>
    Fp6 inverse_impl() const noexcept;
};

namespace detail {

/// γ[k - 1][i] = ξ^(i·(p^k - 1)/6) for k = 1..3 and i = 0..5, the constants by which the
/// Frobenius maps of Fp6 and Fp12 scale the coefficient of w^i (w^6 = ξ, v = w^2). Canonical
/// values computed with Python's integers (pow over Fp2 = Fp[u]/(u^2 + 1)) and checked in
/// fp12_test.cpp against Fp2::pow.
extern const Fp2 kFrobeniusGamma[3][6];

}  // namespace detail

}  // namespace keel::bls
