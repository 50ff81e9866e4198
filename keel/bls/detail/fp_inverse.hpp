#pragma once
/// Constant-time inversion modulo p by Bernstein and Yang's divsteps ("Fast constant-time gcd
/// computation and modular inversion", TCHES 2019, §11), the "safegcd" form that
/// libsecp256k1's doc/safegcd_implementation.md describes: 62 divsteps at a time on the low 64
/// bits of f and g, gathered into a 2x2 matrix scaled by 2^62, then applied to the full f, g and
/// to the Bézout coefficients d, e (kept in [0, p) by adding the multiple of p that makes each
/// division by 2^62 exact). Written for keel from those descriptions.
///
/// The count is fixed: for |f|, |g| <= 2^381, Theorem 11.2 of the paper bounds the divsteps to
/// g = 0 by floor((49·381 + 57) / 17) = 1101; 18 batches of 62 make 1116. Every step is masks,
/// no branch or index depends on the input, so secret values may be inverted (Fp::inverse).
/// About six times faster than the Fermat exponentiation it replaces.

#include "keel/bls/detail/fp_limbs.hpp"

namespace keel::bls::detail {

/// a^-1 mod p for the integer a < p (not Montgomery form), zero for zero. Constant time.
Limbs inverse_mod_p(const Limbs& a) noexcept;

}  // namespace keel::bls::detail
