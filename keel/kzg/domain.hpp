#pragma once
/// Evaluation domains of KZG over Fr: the n-th roots of unity (n a power of two up to 2^32)
/// built from PRIMITIVE_ROOT_OF_UNITY = 7, the bit-reversal permutation the spec stores
/// evaluations in, and radix-2 FFTs (consensus-specs fulu/polynomial-commitments-sampling.md:
/// fft_field). Tables for 4096 (a blob) and 8192 (an extended blob) are built once.

#include <cstddef>
#include <span>
#include <vector>

#include "keel/kzg/fr.hpp"

namespace keel::kzg {

/// FIELD_ELEMENTS_PER_EXT_BLOB, FIELD_ELEMENTS_PER_CELL, CELLS_PER_EXT_BLOB.
inline constexpr std::size_t kFieldElementsPerExtBlob = 8192;
inline constexpr std::size_t kFieldElementsPerCell = 64;
inline constexpr std::size_t kCellsPerExtBlob = kFieldElementsPerExtBlob / kFieldElementsPerCell;

/// reverse_bits(i, n): i's low log2(n) bits in reverse order (n a power of two).
std::size_t reverse_bits(std::size_t i, std::size_t n) noexcept;
/// Permutes v in place into bit-reversed order (an involution; v.size() a power of two).
void bit_reverse(std::span<Fr> v) noexcept;

/// compute_roots_of_unity(n): ω^0 .. ω^(n-1) in natural order, ω = 7^((r-1)/n), for n = 64,
/// 128 (FK20's convolutions), 4096 or 8192 (built once with 1/n, so that a cell's inverse FFT
/// inverts nothing; fft() builds other sizes for itself).
std::span<const Fr> roots_of_unity(std::size_t n);

/// In place: v (coefficients) -> evaluations at ω^0 .. ω^(n-1) (n = v.size(), a power of two);
/// with `inverse`, evaluations -> coefficients (the roots taken backwards, scaled by 1/n).
void fft(std::span<Fr> v, bool inverse = false);

}  // namespace keel::kzg
