#pragma once
/// Eight Fp elements at once, on AVX-512 IFMA (VPMADD52LUQ/HUQ: 52 x 52-bit products added to
/// 64-bit lanes), for batch work: many independent field operations side by side, such as the
/// square roots of a batch's hashes to the curve. On this project's Xeon one 8-lane Montgomery
/// multiplication costs about as much as one scalar MULX multiplication (~40 ns), so eight
/// independent products run about eight times faster; a single dependent chain gains nothing.
///
/// Layout: radix 2^52, eight limbs per element (416 bits), limb j of the eight lanes in
/// limb[j][0..8) — one 512-bit vector per limb. Montgomery form with R' = 2^416, p < 2^381.
///
/// Values are lazily reduced. Every operation returns limbs below 2^52; mul returns values below
/// 2p and accepts factors below 2^16·p (a·b < p·R' is all Montgomery's bound needs); add and sub
/// return the exact sum / difference plus, for sub, a multiple 2^k·p of p above b, without
/// reduction (mul's bound is really (a/p)·(b/p) < 2^416/p, about 2^35). Callers keep track of
/// bounds; store() reduces fully.
///
/// Only for CPUs with AVX-512F and AVX-512IFMA (fp_x8_supported(), decided once); callers keep
/// their scalar path for the others. Constant time like Fp (no branch or index on values).

#include <cstdint>
#include <span>

#include "keel/bls/detail/fp.hpp"

namespace keel::bls {

struct FpX8 {
    std::uint64_t limb[8][8];  ///< limb[j][lane] (no alignment promised: unaligned vector moves)
};

/// True when the CPU runs AVX-512F and AVX-512IFMA (decided once, at start-up).
bool fp_x8_supported() noexcept;

namespace x8 {

/// The eight elements of `in` (lane i = in[i]).
FpX8 load(std::span<const Fp, 8> in) noexcept;
/// Lane i into out[i], fully reduced.
void store(const FpX8& a, std::span<Fp, 8> out) noexcept;
/// Every lane set to `a`.
FpX8 broadcast(const Fp& a) noexcept;

/// a·b·2^-416 mod p per lane: below 2p for factors below 2^16·p.
FpX8 mul(const FpX8& a, const FpX8& b) noexcept;
/// a + b per lane (no reduction).
FpX8 add(const FpX8& a, const FpX8& b) noexcept;
/// a - b + 2^k·p per lane, for b < 2^k·p and 2 <= k <= 17 (no reduction).
FpX8 sub(const FpX8& a, const FpX8& b, unsigned log2_multiple = 2) noexcept;
/// a^e per lane for a public exponent (little-endian limbs), 4-bit fixed windows like Fp::pow.
FpX8 pow(const FpX8& a, std::span<const std::uint64_t> exponent) noexcept;

}  // namespace x8

}  // namespace keel::bls
