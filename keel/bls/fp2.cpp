#include "keel/bls/fp2.hpp"

namespace keel::bls {

Fp2 Fp2::inverse() const noexcept {
    const Fp t = norm().inverse();
    return {c0 * t, -(c1 * t)};
}

Fp2 Fp2::pow(std::span<const std::uint64_t> exponent) const noexcept {
    Fp2 r = one();
    for (std::size_t i = exponent.size(); i-- > 0;) {
        for (int bit = 63; bit >= 0; --bit) {
            r = r.square();
            if ((exponent[i] >> bit) & 1) r *= *this;
        }
    }
    return r;
}

std::optional<Fp2> Fp2::sqrt() const noexcept {
    // Algorithm 9: a1 = a^((p-3)/4), alpha = a1^2·a, x0 = a1·a; alpha = -1 means the root is
    // u·x0, otherwise it is (1 + alpha)^((p-1)/2)·x0. Checked by squaring at the end.
    const Fp2 a1 = pow(detail::kPMinus3Over4);
    const Fp2 alpha = a1.square() * *this;
    const Fp2 x0 = a1 * *this;
    Fp2 x;
    if (alpha == -one()) {
        x = Fp2(-x0.c1, x0.c0);  // u·x0
    } else {
        x = (alpha + one()).pow(detail::kPMinus1Over2) * x0;
    }
    if (x.square() != *this) return std::nullopt;
    return x;
}

}  // namespace keel::bls
