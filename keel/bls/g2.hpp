#pragma once
/// G2: the order-r subgroup of E2: y^2 = x^3 + 4(1 + u) over Fp2 (signatures in Ethereum).
///
/// The group law and scalar multiplication are in curve.hpp (G2Jacobian = Jacobian<G2Traits>);
/// this header adds what is particular to E2: the generator, the endomorphism ψ, the subgroup
/// check and cofactor clearing. Subgroup checks and cofactor clearing are variable time (they
/// run on public points); ψ itself is constant time.

#include <array>
#include <cstdint>
#include <span>

#include "keel/bls/affine.hpp"
#include "keel/bls/detail/curve.hpp"

namespace keel::bls {

/// The coordinate field, the affine form and b = 4(1 + u) of E2, for Jacobian<> and
/// Projective<>.
struct G2Traits {
    using Field = Fp2;
    using Affine = G2Affine;
    static constexpr Fp2 b() noexcept { return kB2; }
    /// 3b·a = 12ξ·a (ξ = 1 + u) by additions and mul_by_xi (the m_3b of projective.hpp's
    /// complete formulas).
    static constexpr Fp2 mul_by_3b(const Fp2& a) noexcept {
        const Fp2 a4 = a.dbl().dbl();
        return (a4 + a4.dbl()).mul_by_xi();
    }
};

/// A point of E2 in Jacobian coordinates (curve.hpp has the operations).
using G2Jacobian = Jacobian<G2Traits>;
extern template class Jacobian<G2Traits>;
/// A point of E2 in homogeneous projective coordinates (projective.hpp).
using G2Projective = Projective<G2Traits>;
extern template class Projective<G2Traits>;

/// The standard generator of G2 (the ZCash / IETF BLS12-381 generator).
inline constexpr G2Affine kG2Generator{
    Fp2{Fp::from_hex("024aa2b2f08f0a91260805272dc51051c6e47ad4fa403b02b4510b647ae3d1770bac"
                     "0326a805bbefd48056c8c121bdb8"),
        Fp::from_hex("13e02b6052719f607dacd3a088274f65596bd0d09920b61ab5da61bbdc7f5049334c"
                     "f11213945d57e5ac7d055d042b7e")},
    Fp2{Fp::from_hex("0ce5d527727d6e118cc9cdc6da2e351aadfd9baa8cbdd3a76d429a695160d12c923a"
                     "c9cc3baca289e193548608b82801"),
        Fp::from_hex("0606c4a02ea734cc32acd2b02bc28b99cb3e287e85a763af267492ab572e99ab3f37"
                     "0d275cec1da1aaa9075ff05f79be")},
    false};

/// The generator in Jacobian coordinates.
inline constexpr G2Jacobian g2_generator() noexcept {
    return G2Jacobian::from_affine(kG2Generator);
}

/// ψ = untwist ∘ Frobenius ∘ twist, the endomorphism of E2 used for cofactor clearing and the
/// subgroup check: ψ(x, y) = (conj(x)·cx, conj(y)·cy) with cx = 1/(1+u)^((p-1)/3) and
/// cy = 1/(1+u)^((p-1)/2) (RFC 9380 appendix G.3). In Jacobian form Z is conjugated too, as
/// conjugation is a field automorphism. Constant time. On G2, ψ(P) = [p]P = [x]P.
G2Jacobian g2_psi(const G2Jacobian& p) noexcept;

/// True when P (a point of E2) lies in G2: ψ(P) == [x]P (Scott, ePrint 2021/1130, §4;
/// x = -0xd201000000010000). One multiplication by the 64-bit |x|. Variable time.
bool in_g2(const G2Jacobian& p) noexcept;
/// The same for an affine point.
bool in_g2(const G2Affine& p) noexcept;

/// [k]P for P in G2 and a public k, by GLS: k is written in base |x| (four 64-bit digits when
/// k < r, five for any 256-bit k) and [|x|]Q = -ψ(Q) on G2, so the digits' multiples share one
/// chain of 64 doublings instead of 255. Wrong for points outside G2 (ψ acts as x only on G2):
/// decode with the subgroup check first. Variable time.
G2Jacobian g2_mul_gls(const G2Jacobian& p, const Scalar& k) noexcept;

/// The digits of k mod r in base |x|, least significant first: k mod r = Σ d_i·|x|^i with every
/// d_i < |x|. Four digits suffice, as r = |x|^4 - |x|^2 + 1 < |x|^4. Constant time: a masked
/// reduction mod r and bitwise restoring long divisions (no branch, memory index or division
/// instruction depends on k).
std::array<std::uint64_t, 4> g2_gls_digits_ct(const Scalar& k) noexcept;

/// [k]P for P in G2 and a secret k (any 256-bit value), in constant time: the digits of
/// g2_gls_digits_ct recoded to signed columns (GLV-SAC), an 8-entry table of P plus the sums of
/// subsets of {[|x|]P, [|x|^2]P, [|x|^3]P} ([|x|]Q = -ψ(Q) on G2), then 64 doublings and 64
/// complete additions of an entry read with lookup_ct and negated by mask, whatever k is, in the
/// projective coordinates of projective.hpp (the complete formulas of Renes–Costello–Batina). Wrong
/// for points outside G2, like g2_mul_gls; the point at infinity gives infinity.
G2Jacobian g2_mul_gls_ct(const G2Jacobian& p, const Scalar& k) noexcept;

/// Clears the cofactor of a point of E2: returns [h_eff]P with h_eff of RFC 9380 §8.8.2, computed
/// the Budroni–Pintore way (RFC 9380 appendix G.3, clear_cofactor_bls12381_g2):
///   [x^2 - x - 1]P + [x - 1]ψ(P) + ψ^2([2]P).
/// The result lies in G2 for every P on E2. This is hash_to_curve's clear_cofactor for G2.
/// Variable time (for hashing public messages).
G2Jacobian clear_cofactor_g2(const G2Jacobian& p) noexcept;
/// clear_cofactor_g2 of every point, in place: eight at a time with the doublings on AVX-512
/// IFMA where the CPU has it (g2_x8.hpp), one by one otherwise.
void clear_cofactor_g2_many(std::span<G2Jacobian> points) noexcept;

}  // namespace keel::bls
