#pragma once
/// The optimal ate pairing of BLS12-381, e: G1 × G2 -> GT ⊂ Fp12 (Vercauteren, "Optimal
/// pairings", 2010): e(P, Q) = final_exponentiation(f_{x,Q}(P)) with the curve parameter
/// x = -0xd201000000010000.
///
/// final_exponentiation raises to 3·(p^12 - 1)/r rather than (p^12 - 1)/r (the hard part uses
/// Hayashida, Hayasaka and Teruya's chain, which is cheapest for the multiple 3; see pairing.cpp).
/// Since gcd(3, r) = 1 this is still a non-degenerate bilinear pairing, and "the product of
/// pairings is one" — all signature verification asks — is the same statement either way.
/// zkcrypto/bls12_381 uses the same exponent: pairing(G1, G2) equals its published
/// Gt::generator() (pairing_test.cpp).
///
/// Inputs must be points of G1 and G2 (on the curve and in the order-r subgroup: callers check
/// untrusted points first); points at infinity are allowed and contribute the factor 1. Nothing
/// here depends on secret data, so the loop may branch on the public parameter x and the final
/// exponentiation inverts in variable time.

#include <span>
#include <utility>

#include "keel/bls/affine.hpp"
#include "keel/bls/detail/fp12.hpp"

namespace keel::bls {

/// The product over all pairs of the Miller functions f_{|x|,Q}(P), conjugated because x < 0:
/// one accumulator, squared once per bit of x for all pairs together. Pairs with a point at
/// infinity are skipped. Not yet a pairing value: finish with final_exponentiation.
Fp12 miller_loop(std::span<const std::pair<G1Affine, G2Affine>> pairs);

/// f^(3·(p^12 - 1)/r) (see the header comment). Zero maps to zero.
Fp12 final_exponentiation(const Fp12& f) noexcept;

/// e(P, Q)^3 in the sense of the header comment; one when either point is infinity.
Fp12 pairing(const G1Affine& p, const G2Affine& q);

/// Π e(P_i, Q_i) == 1, by one multi-Miller loop and one final exponentiation: the check behind
/// signature and batch verification.
bool pairing_product_is_one(std::span<const std::pair<G1Affine, G2Affine>> pairs);

}  // namespace keel::bls
