#pragma once
/// Points of BLS12-381 in affine coordinates, the form the group code (g1.hpp, g2.hpp), the
/// pairing (pairing.hpp) and hashing to the curve (hash_to_curve.hpp) hand to each other.
///
///   E1 / Fp:  y^2 = x^3 + 4            (G1: public keys in Ethereum)
///   E2 / Fp2: y^2 = x^3 + 4(1 + u)     (G2: signatures)
///
/// The point at infinity has `infinity` set and zero coordinates.

#include "keel/bls/detail/fp.hpp"
#include "keel/bls/detail/fp2.hpp"

namespace keel::bls {

/// b of E1.
inline constexpr Fp kB1 = Fp::from_canonical({4, 0, 0, 0, 0, 0});
/// b of E2: 4(1 + u).
inline constexpr Fp2 kB2{kB1, kB1};

/// A point of E1 (not necessarily in the subgroup G1) in affine coordinates.
struct G1Affine {
    Fp x, y;
    bool infinity = false;

    /// y^2 = x^3 + 4, or the point at infinity.
    bool on_curve() const noexcept { return infinity || y.square() == x.square() * x + kB1; }
    friend bool operator==(const G1Affine& a, const G1Affine& b) noexcept {
        return a.infinity == b.infinity && (a.infinity || (a.x == b.x && a.y == b.y));
    }
};

/// A point of E2 (not necessarily in the subgroup G2) in affine coordinates.
struct G2Affine {
    Fp2 x, y;
    bool infinity = false;

    /// y^2 = x^3 + 4(1 + u), or the point at infinity.
    bool on_curve() const noexcept { return infinity || y.square() == x.square() * x + kB2; }
    friend bool operator==(const G2Affine& a, const G2Affine& b) noexcept {
        return a.infinity == b.infinity && (a.infinity || (a.x == b.x && a.y == b.y));
    }
};

}  // namespace keel::bls
