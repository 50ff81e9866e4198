#pragma once
/// Homogeneous projective points of E1 and E2, for the constant-time scalar multiplications
/// (Jacobian::mul_ct in curve.hpp, g2_mul_gls_ct in g2.cpp): (X : Y : Z) <-> affine (X/Z, Y/Z),
/// the point at infinity (0 : 1 : 0). Same `Traits` as Jacobian<>, which must also supply
/// `mul_by_3b` (3b·a by additions: 12a on E1, 12ξ·a on E2; g1.hpp, g2.hpp).
///
/// The group law is that of Renes, Costello and Batina, "Complete addition formulas for prime
/// order elliptic curves" (EUROCRYPT 2016, ePrint 2015/1060), for a = 0: Algorithm 7 (addition,
/// 12M + 2m_3b), Algorithm 8 (mixed addition, 11M + 2m_3b) and Algorithm 9 (doubling,
/// 6M + 2S + 1m_3b). Each is one straight-line formula for every input, without a branch or a
/// special case (only the affine identity, which Algorithm 8 cannot represent, is selected by
/// mask), so everything here is constant time.
///
/// Completeness on curves that are not of prime order: the paper (§3, building on Bosma and
/// Lenstra's Theorem 2) shows that the only exceptional pairs (P, Q) of this addition law are
/// those with P - Q of order 2 (a point on the line Y = 0), so it is complete on E(F_q) whenever
/// E(F_q) has no point of order 2; prime order is only the case that the title names. With
/// a = 0 a point of order 2 is (α, 0) with α^3 = -b. #E1(Fp) = h1·r and #E2(Fp2) = h2·r are odd
/// (both cofactors are odd), so neither curve has one (group_test checks that -4 and -4ξ are
/// not cubes), and the formulas are complete on all of E1(Fp) and E2(Fp2): equal points,
/// inverse points and the identity need no special handling. Our inputs are points of the odd
/// prime order subgroups or the identity anyway, so P - Q never has order 2. Algorithm 9 is
/// Algorithm 7 with P = Q, where P - Q = O.

#include <cstddef>
#include <cstdint>
#include <span>

#include "keel/bls/detail/fp.hpp"

namespace keel::bls {

template <class Traits>
class Jacobian;

namespace detail {

/// 1 when a == b, else 0, without a branch (a, b < 2^63).
constexpr std::uint64_t ct_eq_mask(std::uint64_t a, std::uint64_t b) noexcept {
    return ((a ^ b) - 1) >> 63;
}

/// table[index] (index < table.size(), at most 2^63), read by scanning every entry with masks so
/// that neither branches nor memory addresses depend on `index`. `Point` needs a static
/// select(flag, a, b) and a default constructor; both point types use it.
template <class Point>
Point lookup_ct(std::span<const Point> table, std::uint64_t index) noexcept {
    Point t;
    for (std::size_t i = 0; i < table.size(); ++i)
        t = Point::select(ct_eq_mask(i, index) != 0, table[i], t);
    return t;
}

}  // namespace detail

/// A point of E1 or E2 in homogeneous projective coordinates (see the file comment). g1.hpp and
/// g2.hpp name the instances G1Projective and G2Projective.
template <class Traits>
class Projective {
  public:
    using Field = typename Traits::Field;
    using Affine = typename Traits::Affine;

    Field x = Field::zero(), y = Field::one(), z = Field::zero();

    /// The point at infinity.
    constexpr Projective() noexcept = default;
    constexpr Projective(const Field& x0, const Field& y0, const Field& z0) noexcept
        : x(x0), y(y0), z(z0) {}

    static constexpr Projective identity() noexcept { return {}; }

    /// (x : y : 1); infinity maps to (0 : 1 : 0). Constant time.
    static constexpr Projective from_affine(const Affine& a) noexcept {
        return {Field::select(a.infinity, Field::zero(), a.x),
                Field::select(a.infinity, Field::one(), a.y),
                Field::select(a.infinity, Field::zero(), Field::one())};
    }

    /// Jacobian (X, Y, Z) is (X/Z^2, Y/Z^3) = (X·Z : Y : Z^3): 2M + 1S. Infinity (Z = 0) maps to
    /// (0 : 1 : 0). Constant time.
    static Projective from_jacobian(const Jacobian<Traits>& p) noexcept {
        const Field zz = p.z.square();
        return {p.x * p.z, Field::select(p.z.is_zero(), Field::one(), p.y), zz * p.z};
    }

    /// (X : Y : Z) is the Jacobian (X·Z, Y·Z^2, Z): 2M + 1S. Infinity maps to (1, 1, 0), as in
    /// curve.hpp. Constant time.
    Jacobian<Traits> to_jacobian() const noexcept {
        const bool inf = is_identity();
        const Field zz = z.square();
        return {Field::select(inf, Field::one(), x * z), Field::select(inf, Field::one(), y * zz),
                z};
    }

    /// The affine point, with one constant-time inversion (infinity: zero coordinates and
    /// `infinity` set, as affine.hpp wants).
    Affine to_affine() const noexcept {
        const Field zinv = z.inverse();
        return Affine{x * zinv, y * zinv, is_identity()};
    }

    /// True for the point at infinity.
    constexpr bool is_identity() const noexcept { return z.is_zero(); }

    /// Y^2·Z = X^3 + b·Z^3 and not (0 : 0 : 0); true for infinity.
    bool on_curve() const noexcept {
        const bool eq = y.square() * z == x.square() * x + Traits::b() * z.square() * z;
        return both(eq, !both(y.is_zero(), z.is_zero()));
    }

    /// a if `flag` else b, without a branch.
    static constexpr Projective select(bool flag, const Projective& a,
                                       const Projective& b) noexcept {
        return {Field::select(flag, a.x, b.x), Field::select(flag, a.y, b.y),
                Field::select(flag, a.z, b.z)};
    }

    /// table[index] by a masked scan of the whole table (detail::lookup_ct).
    static Projective lookup_ct(std::span<const Projective> table, std::uint64_t index) noexcept {
        return detail::lookup_ct(table, index);
    }

    friend constexpr Projective operator-(const Projective& p) noexcept { return {p.x, -p.y, p.z}; }

    /// P + Q for all P, Q (RCB16 Algorithm 7, a = 0: 12M + 2m_3b).
    friend Projective operator+(const Projective& p, const Projective& q) noexcept {
        const Field xx = p.x * q.x;
        const Field yy = p.y * q.y;
        const Field zz = p.z * q.z;
        const Field xy = (p.x + p.y) * (q.x + q.y) - (xx + yy);  // X1·Y2 + X2·Y1
        const Field yz = (p.y + p.z) * (q.y + q.z) - (yy + zz);  // Y1·Z2 + Y2·Z1
        const Field xz = (p.x + p.z) * (q.x + q.z) - (xx + zz);  // X1·Z2 + X2·Z1
        return finish_add(xx, yy, xy, yz, Traits::mul_by_3b(zz), Traits::mul_by_3b(xz));
    }
    friend Projective operator-(const Projective& p, const Projective& q) noexcept {
        return p + (-q);
    }
    Projective& operator+=(const Projective& q) noexcept { return *this = *this + q; }

    /// P + Q for an affine Q (RCB16 Algorithm 8, a = 0: 11M + 2m_3b). The algorithm takes
    /// Z2 = 1, so it cannot see the point at infinity as Q: that case is selected by mask.
    Projective add_mixed(const Affine& q) const noexcept {
        const Field xx = x * q.x;
        const Field yy = y * q.y;
        const Field xy = (x + y) * (q.x + q.y) - (xx + yy);  // X1·y2 + x2·Y1
        const Field yz = q.y * z + y;                        // Y1 + y2·Z1
        const Field xz = q.x * z + x;                        // X1 + x2·Z1
        const Projective sum =
            finish_add(xx, yy, xy, yz, Traits::mul_by_3b(z), Traits::mul_by_3b(xz));
        return select(q.infinity, *this, sum);
    }

    /// [2]P for all P (RCB16 Algorithm 9, a = 0: 6M + 2S + 1m_3b); infinity stays infinity.
    Projective dbl() const noexcept {
        const Field yy = y.square();
        const Field yy8 = yy.dbl().dbl().dbl();
        const Field bzz = Traits::mul_by_3b(z.square());  // 3b·Z^2
        const Field d = yy - (bzz.dbl() + bzz);           // Y^2 - 9b·Z^2
        const Field x3 = (d * (x * y)).dbl();
        const Field y3 = d * (yy + bzz) + bzz * yy8;
        const Field z3 = (y * z) * yy8;
        return {x3, y3, z3};
    }

    /// Equality of the points the coordinates stand for: X1·Z2 = X2·Z1 and Y1·Z2 = Y2·Z1. This
    /// covers infinity too: two points at infinity give 0 = 0 twice, and infinity against a
    /// finite point gives Y1·Z2 != 0 = Y2·Z1 (Y1 and Z2 are nonzero). Constant time.
    friend bool operator==(const Projective& p, const Projective& q) noexcept {
        return both(p.x * q.z == q.x * p.z, p.y * q.z == q.y * p.z);
    }

  private:
    /// The common tail of Algorithms 7 and 8 given X1X2, Y1Y2, X1Y2 + X2Y1, Y1Z2 + Y2Z1,
    /// 3b·Z1Z2 and 3b·(X1Z2 + X2Z1):
    ///   X3 = xy·(yy - bzz) - yz·bxz
    ///   Y3 = (yy - bzz)(yy + bzz) + 3·xx·bxz
    ///   Z3 = yz·(yy + bzz) + 3·xx·xy
    static Projective finish_add(const Field& xx, const Field& yy, const Field& xy, const Field& yz,
                                 const Field& bzz, const Field& bxz) noexcept {
        const Field xx3 = xx.dbl() + xx;
        const Field s = yy + bzz;
        const Field d = yy - bzz;
        return {xy * d - yz * bxz, d * s + xx3 * bxz, yz * s + xx3 * xy};
    }
};

}  // namespace keel::bls
