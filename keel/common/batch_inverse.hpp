#pragma once
/// Montgomery's trick: many inversions for the price of one (and three multiplications each).

#include <span>
#include <vector>

namespace keel {

/// Every non-zero value of `v` replaced by its inverse, with one inversion for all; zeros stay
/// zero. F is a field element (keel/bls's Fp and Fp2, keel/kzg's Fr: anything with one(),
/// is_zero(), * and inverse_vartime()). Variable time: public values only.
template <class F>
void invert_all_vartime(std::span<F> v) {
    std::vector<F> prefix(v.size());
    F acc = F::one();
    for (std::size_t i = 0; i < v.size(); ++i) {
        prefix[i] = acc;
        if (!v[i].is_zero()) acc = acc * v[i];
    }
    F inv = acc.inverse_vartime();
    for (std::size_t i = v.size(); i-- > 0;) {
        if (v[i].is_zero()) continue;
        const F vi = v[i];
        v[i] = inv * prefix[i];
        inv = inv * vi;
    }
}

}  // namespace keel
