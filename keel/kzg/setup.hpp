#pragma once
/// The mainnet trusted setup of the KZG ceremony (FIELD_ELEMENTS_PER_BLOB = 4096), embedded in
/// the library (trusted_setup.inc) and decoded on first use, each table once per process:
///   - G1 in Lagrange form, bit-reversal permuted (commitments and blob proofs: 4,096 points);
///   - G1 in monomial form (the interpolation term of cell verification uses the first 64);
///   - G2 in monomial form (65 points: [τ]G2 for blob proofs, [τ^64]G2 for cell proofs).
/// The points are the ceremony's and not checked for the subgroup at load (kzg_test checks them
/// against the reference file). Thread-safe (function-local statics).

#include <span>

#include "keel/bls/affine.hpp"

namespace keel::kzg::setup {

inline constexpr std::size_t kG1Points = 4096;
inline constexpr std::size_t kG2Points = 65;

/// bit_reversal_permutation(KZG_SETUP_G1_LAGRANGE).
std::span<const bls::G1Affine> g1_lagrange_brp();
/// KZG_SETUP_G1_MONOMIAL.
std::span<const bls::G1Affine> g1_monomial();
/// KZG_SETUP_G2_MONOMIAL.
std::span<const bls::G2Affine> g2_monomial();

/// The embedded setup file's lines ("4096", "65", then the points in hex).
std::span<const char* const> text_lines() noexcept;

}  // namespace keel::kzg::setup
