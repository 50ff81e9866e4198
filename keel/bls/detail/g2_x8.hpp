#pragma once
/// G2 doublings for eight points at once on AVX-512 IFMA (fp_x8.hpp): the long runs of
/// doublings in cofactor clearing (two multiplications by x per hashed message) cost about a
/// fourteenth of the scalar ones when a batch fills the lanes. Only where fp_x8_supported().

#include <span>

#include "keel/bls/g2.hpp"

namespace keel::bls {

/// points[i] = [2^n]points[i] for all eight (dbl-2009-l per lane; complete on G2's curve, which
/// has no point of order two; the identity stays the identity). Requires fp_x8_supported().
void g2_double_x8(std::span<G2Jacobian, 8> points, unsigned n) noexcept;

}  // namespace keel::bls
