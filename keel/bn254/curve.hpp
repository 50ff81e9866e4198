#pragma once
/// The groups of the BN254 pairing: G1 = E(Fp): y^2 = x^3 + 3, and G2 in the sextic twist
/// E'(Fp2): y^2 = x^3 + 3/ξ, both in Jacobian coordinates (X/Z^2, Y/Z^3). Variable time (public
/// data only).

#include <array>
#include <cstdint>

#include "keel/bn254/field.hpp"

namespace keel::bn254 {

/// The group order r (of G1, and of the G2 subgroup), little-endian limbs.
inline constexpr Fp::Limbs kOrder = {0x43e1f593f0000001, 0x2833e84879b97091, 0xb85045b68181585d,
                                     0x30644e72e131a029};

template <class F>
struct Affine {
    F x{}, y{};
    bool infinity = true;
};

/// b of the curve over F: 3 for Fp, 3/ξ for Fp2.
template <class F>
const F& curve_b() noexcept;

template <class F>
bool on_curve(const Affine<F>& p) noexcept {
    return p.infinity || p.y.square() == p.x.square() * p.x + curve_b<F>();
}

template <class F>
struct Jacobian {
    F x{}, y{}, z{};  // z == 0: the point at infinity

    static Jacobian infinity() noexcept { return {F::one(), F::one(), F::zero()}; }
    static Jacobian from_affine(const Affine<F>& a) noexcept {
        return a.infinity ? infinity() : Jacobian{a.x, a.y, F::one()};
    }
    bool is_infinity() const noexcept { return z.is_zero(); }

    Jacobian dbl() const noexcept {
        // dbl-2009-l (a = 0)
        if (is_infinity() || y.is_zero()) return infinity();
        const F a = x.square();
        const F b = y.square();
        const F c = b.square();
        const F d = ((x + b).square() - a - c).dbl();
        const F e = a.dbl() + a;
        const F f = e.square();
        const F x3 = f - d.dbl();
        const F y3 = e * (d - x3) - c.dbl().dbl().dbl();
        const F z3 = (y * z).dbl();
        return {x3, y3, z3};
    }

    Jacobian operator+(const Jacobian& q) const noexcept {
        // add-2007-bl, with the equal and opposite cases
        if (is_infinity()) return q;
        if (q.is_infinity()) return *this;
        const F z1z1 = z.square();
        const F z2z2 = q.z.square();
        const F u1 = x * z2z2;
        const F u2 = q.x * z1z1;
        const F s1 = y * q.z * z2z2;
        const F s2 = q.y * z * z1z1;
        if (u1 == u2) return s1 == s2 ? dbl() : infinity();
        const F h = u2 - u1;
        const F i = h.dbl().square();
        const F j = h * i;
        const F r = (s2 - s1).dbl();
        const F v = u1 * i;
        const F x3 = r.square() - j - v.dbl();
        const F y3 = r * (v - x3) - (s1 * j).dbl();
        const F z3 = ((z + q.z).square() - z1z1 - z2z2) * h;
        return {x3, y3, z3};
    }

    Jacobian operator-() const noexcept { return {x, -y, z}; }

    /// [k]P for a 256-bit k (little-endian limbs), double and add.
    Jacobian mul(const Fp::Limbs& k) const noexcept {
        Jacobian r = infinity();
        for (int i = 255; i >= 0; --i) {
            r = r.dbl();
            if ((k[static_cast<std::size_t>(i / 64)] >> (i % 64)) & 1) r = r + *this;
        }
        return r;
    }

    Affine<F> to_affine() const noexcept {
        if (is_infinity()) return {};
        const F zi = z.inverse();
        const F zi2 = zi.square();
        return {x * zi2, y * zi2 * zi, false};
    }
};

using G1Affine = Affine<Fp>;
using G2Affine = Affine<Fp2>;
using G1 = Jacobian<Fp>;
using G2 = Jacobian<Fp2>;

/// Q in the order-r subgroup of E'(Fp2) (EIP-197 requires it of every G2 input): [r]Q == O.
bool in_g2(const G2Affine& q) noexcept;

/// Whether Π e(P_i, Q_i) == 1 (the optimal ate pairing, Miller loop over 6u + 2 and one final
/// exponentiation for all pairs). Points at infinity contribute 1.
bool pairing_product_is_one(const G1Affine* p, const G2Affine* q, std::size_t n) noexcept;

}  // namespace keel::bn254
