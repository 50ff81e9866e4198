#pragma once
/// Multi-scalar multiplication over G1 points known in advance (a KZG trusted setup, FK20's
/// transformed setup), Σ [k_i]P_i for public scalars.
///
/// Each point's odd multiples P, 3P, ..., 31P are computed once and kept in affine form (16
/// points a base, ~1.6 KiB); an MSM then interleaves the scalars' width-6 non-adjacent forms
/// over one chain of doublings (Straus): about 255/7 mixed additions a point and 255 doublings
/// in all, no buckets to fill or sum. For a few dozen points that is half Pippenger's time on
/// the bare points (msm.hpp): FK20's 64-point sums, 2.67 -> 1.26 ms on Zen 4. For thousands of
/// points Pippenger wins (its buckets fill with few real additions: a 4,096-point KZG
/// commitment takes 79 ms there and 93 ms here), so commitments stay on msm.hpp. Width 7
/// (twice the memory) measured 3 % faster on FK20: not worth it.
///
/// Variable time (branches on the scalars): public data only. Scalars are taken as the 256-bit
/// integers their limbs hold (not reduced); points at infinity and zero scalars contribute
/// nothing. Points must be on the curve (no subgroup check is needed: nothing here uses the
/// endomorphism).

#include <cstddef>
#include <span>
#include <vector>

#include "keel/bls/affine.hpp"
#include "keel/bls/g1.hpp"
#include "keel/bls/scalar.hpp"

namespace keel::bls {

class G1FixedBases {
  public:
    /// Odd multiples of each point; the table is built over the thread pool.
    explicit G1FixedBases(std::span<const G1Affine> points);

    std::size_t size() const noexcept { return size_; }

    /// Σ [scalars[i]]P_(first + i): the bases from `first` on, as many as there are scalars
    /// (first + scalars.size() <= size(), asserted). One thread.
    G1Jacobian msm(std::span<const Scalar> scalars, std::size_t first = 0) const;

    /// Many sums at once: row k is Σ_i [scalars[k·cols + i]]P_(k·cols + i), for every row of
    /// `cols` scalars (scalars.size() a multiple of cols, within size(); asserted). The rows
    /// share each bit's work: a row's points for the bit are summed in affine coordinates,
    /// pairwise in rounds with one inversion for every pair of every row (Montgomery's trick:
    /// ~6 multiplications an addition instead of a mixed addition's 11), and the row's sum
    /// joins its Jacobian accumulator once. One thread; FK20 calls it on a share of the rows
    /// per thread.
    std::vector<G1Jacobian> msm_rows(std::span<const Scalar> scalars, std::size_t cols,
                                     std::size_t first_row = 0) const;

    /// Odd multiples kept a base: width-6 digits are odd and below 32.
    static constexpr std::size_t kMultiples = 16;

  private:
    std::size_t size_ = 0;
    std::vector<G1Affine> multiples_;  ///< base i's (2j + 1)·P at i·kMultiples + j
};

}  // namespace keel::bls
