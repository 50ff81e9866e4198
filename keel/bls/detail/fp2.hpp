#pragma once
/// Fp2 = Fp[u] / (u^2 + 1), the field G2's coordinates live in: c0 + c1·u.
///
/// Constant time like Fp (fp.hpp), except sqrt and inverse_vartime (public data only). The
/// non-residue ξ = 1 + u builds the tower above it (Fp6 = Fp2[v] / (v^3 - ξ)).

#include <optional>
#include <span>

#include "keel/bls/detail/fp.hpp"

namespace keel::bls {

class Fp2 {
  public:
    Fp c0, c1;

    constexpr Fp2() noexcept = default;
    constexpr Fp2(const Fp& a0, const Fp& a1) noexcept : c0(a0), c1(a1) {}

    static constexpr Fp2 zero() noexcept { return {}; }
    static constexpr Fp2 one() noexcept { return {Fp::one(), Fp::zero()}; }

    friend constexpr Fp2 operator+(const Fp2& a, const Fp2& b) noexcept {
        return {a.c0 + b.c0, a.c1 + b.c1};
    }
    friend constexpr Fp2 operator-(const Fp2& a, const Fp2& b) noexcept {
        return {a.c0 - b.c0, a.c1 - b.c1};
    }
    friend constexpr Fp2 operator-(const Fp2& a) noexcept { return {-a.c0, -a.c1}; }
    /// Karatsuba: three Fp multiplications (on x86-64 with MULX/ADX: three unreduced products
    /// and two Montgomery reductions, mul_lazy).
    friend constexpr Fp2 operator*(const Fp2& a, const Fp2& b) noexcept {
#if defined(__x86_64__)
        if !consteval {
            if (detail::g_mulx_adx) return mul_lazy(a, b);
        }
#endif
        const Fp v0 = a.c0 * b.c0;
        const Fp v1 = a.c1 * b.c1;
        return {v0 - v1, (a.c0 + a.c1) * (b.c0 + b.c1) - v0 - v1};
    }
    /// Multiplication by an element of Fp.
    friend constexpr Fp2 operator*(const Fp2& a, const Fp& b) noexcept {
        return {a.c0 * b, a.c1 * b};
    }
    Fp2& operator+=(const Fp2& b) noexcept { return *this = *this + b; }
    Fp2& operator-=(const Fp2& b) noexcept { return *this = *this - b; }
    Fp2& operator*=(const Fp2& b) noexcept { return *this = *this * b; }

    /// (c0 + c1)(c0 - c1) + 2·c0·c1·u: two Fp multiplications (on x86-64 with MULX/ADX, of
    /// unreduced factors below 2p: square_lazy).
    constexpr Fp2 square() const noexcept {
#if defined(__x86_64__)
        if !consteval {
            if (detail::g_mulx_adx) return square_lazy();
        }
#endif
        return {(c0 + c1) * (c0 - c1), (c0 * c1).dbl()};
    }
    constexpr Fp2 dbl() const noexcept { return {c0.dbl(), c1.dbl()}; }
    /// c0 - c1·u: the Frobenius map x -> x^p on Fp2.
    constexpr Fp2 conjugate() const noexcept { return {c0, -c1}; }
    /// Times ξ = 1 + u: (c0 - c1) + (c0 + c1)·u.
    constexpr Fp2 mul_by_xi() const noexcept { return {c0 - c1, c0 + c1}; }
    /// c0^2 + c1^2, the norm down to Fp.
    constexpr Fp norm() const noexcept { return c0.square() + c1.square(); }

    friend constexpr bool operator==(const Fp2& a, const Fp2& b) noexcept {
        // Both halves compared, no early exit: the time does not depend on the values.
        return both(a.c0 == b.c0, a.c1 == b.c1);
    }
    constexpr bool is_zero() const noexcept { return *this == Fp2(); }

    /// a if `flag` else b, without a branch.
    static constexpr Fp2 select(bool flag, const Fp2& a, const Fp2& b) noexcept {
        return {Fp::select(flag, a.c0, b.c0), Fp::select(flag, a.c1, b.c1)};
    }

#if defined(__x86_64__)
    /// a·b with lazy reduction: a0·b0, a1·b1 and (a0 + a1)(b0 + b1) as 768-bit products, then
    /// c0 = redc(a0·b0 - a1·b1 (+ p·R when negative)) and c1 = redc(the cross product minus both):
    /// two reductions instead of three. Needs MULX/ADX (detail::g_mulx_adx). Constant time.
    static Fp2 mul_lazy(const Fp2& a, const Fp2& b) noexcept;
    /// square() with the factors c0 + c1, c0 + (p - c1) and 2·c0 left unreduced (below 2p,
    /// which the Montgomery multiplication accepts: 4p^2 < p·R). Needs MULX/ADX.
    Fp2 square_lazy() const noexcept {
        using namespace detail;
        const Limbs& a0 = c0.montgomery();
        const Limbs& a1 = c1.montgomery();
        const Limbs sum = add_plain_x86(a0, a1);
        const Limbs diff = add_plain_x86(a0, sub_mod_x86(kP, a1));  // p - a1 in (0, p]
        return {Fp::from_montgomery(mont_mul_mulx_adx(sum, diff)),
                Fp::from_montgomery(mont_mul_mulx_adx(add_plain_x86(a0, a0), a1))};
    }
#endif

    /// 1/a = conj(a) / norm(a); zero for zero. Constant time.
    Fp2 inverse() const noexcept;
    /// As inverse(), in variable time (Fp::inverse_vartime): public values only.
    Fp2 inverse_vartime() const noexcept;
    /// a^e for a public exponent (little-endian limbs).
    Fp2 pow(std::span<const std::uint64_t> exponent) const noexcept;
    /// A square root, or nullopt when a is not a square in Fp2: through Fp (the norm's root,
    /// then a root of (c0 ± g) / 2). Variable time: for public values only (decoding points,
    /// hashing to the curve).
    std::optional<Fp2> sqrt() const noexcept;
    /// sqrt() given g, a square root of norm(): one Fp exponentiation (two when c1 is zero);
    /// nullopt when g is not a root of the norm. Variable time, public values only.
    std::optional<Fp2> sqrt_from_norm_root(const Fp& g) const noexcept;
    /// sqrt_from_norm_root in two halves around its exponentiation, so that callers with many
    /// roots to take can raise them together (hash_to_curve's batches): d = sqrt_radicand(g),
    /// then sqrt_finish(d, d^((p-3)/4)). That power gives both d's root candidate s = d·t and
    /// 1/s = s·t^2 (s·t = ±1), so no inversion follows. c1 must be non-zero (else use sqrt()).
    Fp sqrt_radicand(const Fp& g) const noexcept;
    std::optional<Fp2> sqrt_finish(const Fp& d, const Fp& t) const noexcept;
    /// True when a is a square in Fp2 (its norm is a square in Fp).
    bool is_square() const noexcept { return norm().is_square(); }
    /// sgn0 of RFC 9380 §4.1 for m = 2: sign of c0, or of c1 when c0 is zero.
    bool sgn0() const noexcept { return c0.sgn0() || (c0.is_zero() && c1.sgn0()); }
    /// ZCash serialization's "sort" flag: c1 lexicographically largest, or c0 when c1 is zero.
    bool lexicographically_largest() const noexcept {
        return c1.lexicographically_largest() || (c1.is_zero() && c0.lexicographically_largest());
    }
};

}  // namespace keel::bls
