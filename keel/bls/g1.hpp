#pragma once
/// G1: the order-r subgroup of E1: y^2 = x^3 + 4 over Fp (public keys in Ethereum).
///
/// The group law and scalar multiplication are in curve.hpp (G1Jacobian = Jacobian<G1Traits>);
/// this header adds what is particular to E1: the generator, the endomorphism φ, the subgroup
/// check and cofactor clearing. Subgroup checks and cofactor clearing are variable time (they
/// run on public points).

#include "keel/bls/affine.hpp"
#include "keel/bls/detail/curve.hpp"

namespace keel::bls {

/// The coordinate field, the affine form and b = 4 of E1, for Jacobian<> and Projective<>.
struct G1Traits {
    using Field = Fp;
    using Affine = G1Affine;
    static constexpr Fp b() noexcept { return kB1; }
    /// 3b·a = 12a by additions (the m_3b of projective.hpp's complete formulas).
    static constexpr Fp mul_by_3b(const Fp& a) noexcept {
        const Fp a4 = a.dbl().dbl();
        return a4 + a4.dbl();
    }
};

/// A point of E1 in Jacobian coordinates (curve.hpp has the operations).
using G1Jacobian = Jacobian<G1Traits>;
extern template class Jacobian<G1Traits>;
/// A point of E1 in homogeneous projective coordinates (projective.hpp).
using G1Projective = Projective<G1Traits>;
extern template class Projective<G1Traits>;

/// The standard generator of G1 (the ZCash / IETF BLS12-381 generator).
inline constexpr G1Affine kG1Generator{
    Fp::from_hex("17f1d3a73197d7942695638c4fa9ac0fc3688c4f9774b905a14e3a3f171bac586c55e83f"
                 "f97a1aeffb3af00adb22c6bb"),
    Fp::from_hex("08b3f481e3aaa0f1a09e30ed741d8ae4fcf5e095d5d00af600db18cb2c04b3edd03cc744"
                 "a2888ae40caa232946c5e7e1"),
    false};

/// -G1 (verification moves the signature's pairing to the left-hand side: e(-G1, sig)).
inline constexpr G1Affine kG1GeneratorNeg{kG1Generator.x, -kG1Generator.y, false};

/// The generator in Jacobian coordinates.
inline constexpr G1Jacobian g1_generator() noexcept {
    return G1Jacobian::from_affine(kG1Generator);
}

/// β, the cube root of unity in Fp for which φ(P) = [-x^2]P on G1 (the other root, β^2, goes
/// with the other eigenvalue x^2 - 1). group_test checks β^3 = 1 and that in_g1 agrees with
/// [r]P == O.
inline constexpr Fp kG1Beta = Fp::from_hex(
    "5f19672fdf76ce51ba69c6076a0f77eaddb3a93be6f89688de17d813620a00022e01fffffffefffe");

/// φ(x, y) = (β·x, y), the order-3 endomorphism of E1 (Jacobian: (β·X, Y, Z)).
inline G1Jacobian g1_phi(const G1Jacobian& p) noexcept {
    return {p.x * kG1Beta, p.y, p.z};
}

/// True when P (a point of E1) lies in G1: φ(P) == [-x^2]P (Scott, "A note on group membership
/// tests for G1, G2 and GT on BLS pairing-friendly curves", ePrint 2021/1130, §6). Two
/// multiplications by the 64-bit |x| instead of one by the 255-bit r. Variable time.
bool in_g1(const G1Jacobian& p) noexcept;
/// The same for an affine point.
bool in_g1(const G1Affine& p) noexcept;

/// [k]P for P in G1 and a public k, by GLV: k is written in base x^2 (three digits below 2^128;
/// two when k < r) and [x^2]Q = -φ(Q) on G1, so the digits' multiples share one chain of about
/// 128 doublings instead of 255. Wrong for points outside G1 (φ acts as -x^2 only on G1): decode
/// with the subgroup check first. Variable time.
G1Jacobian g1_mul_glv(const G1Jacobian& p, const Scalar& k) noexcept;

/// h_eff of G1 (RFC 9380 §8.8.1): 1 - x = 0xd201000000010001.
inline constexpr std::uint64_t kG1HEff = 0xd201000000010001;

/// Clears the cofactor of a point of E1: [h_eff]P = [1 - x]P = [|x|]P + P (RFC 9380 §7 and
/// §8.8.1, the clear_cofactor step of hash_to_curve for G1). The result lies in G1 for every P on
/// E1. Variable time (for hashing public messages).
G1Jacobian clear_cofactor_g1(const G1Jacobian& p) noexcept;

}  // namespace keel::bls
