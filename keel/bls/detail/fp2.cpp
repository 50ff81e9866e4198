#include "keel/bls/detail/fp2.hpp"

namespace keel::bls {

#if defined(__x86_64__)
Fp2 Fp2::mul_lazy(const Fp2& a, const Fp2& b) noexcept {
    using namespace detail;
    Wide aa, bb, cross;
    mul_wide_x86(a.c0.montgomery(), b.c0.montgomery(), aa);
    mul_wide_x86(a.c1.montgomery(), b.c1.montgomery(), bb);
    // The sums stay below 2p < 2^382 unreduced; their product below 4p^2, and the cross terms
    // a0·b1 + a1·b0 below 2p^2 < p·R, as redc needs.
    mul_wide_x86(add_plain_x86(a.c0.montgomery(), a.c1.montgomery()),
                 add_plain_x86(b.c0.montgomery(), b.c1.montgomery()), cross);
    wide_sub_x86(cross, aa, cross);
    wide_sub_x86(cross, bb, cross);
    wide_sub_mod_x86(aa, bb, aa);
    return {Fp::from_montgomery(redc_x86(aa)), Fp::from_montgomery(redc_x86(cross))};
}
#endif

Fp2 Fp2::inverse() const noexcept {
    const Fp t = norm().inverse();
    return {c0 * t, -(c1 * t)};
}

Fp2 Fp2::inverse_vartime() const noexcept {
    const Fp t = norm().inverse_vartime();
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
    if (c1.is_zero()) {
        // a in Fp: its root is in Fp, or i times the root of -a (-1 is not a square mod p).
        if (auto r = c0.sqrt()) return Fp2(*r, Fp::zero());
        const auto r = (-c0).sqrt();
        return Fp2(Fp::zero(), *r);
    }
    const auto g = norm().sqrt();
    if (!g) return std::nullopt;
    return sqrt_from_norm_root(*g);
}

std::optional<Fp2> Fp2::sqrt_from_norm_root(const Fp& g) const noexcept {
    if (c1.is_zero()) return sqrt();
    const Fp d = sqrt_radicand(g);
    return sqrt_finish(d, d.pow(detail::kPMinus3Over4));
}

namespace {

constexpr Fp kHalf = Fp::from_hex(
    "0xd0088f51cbff34d258dd3db21a5d66bb23ba5c279c2895fb39869507b587b120f55ffff58a9ffffdcff7ffff"
    "fffd556");

}  // namespace

Fp Fp2::sqrt_radicand(const Fp& g) const noexcept {
    return (c0 + g) * kHalf;
}

std::optional<Fp2> Fp2::sqrt_finish(const Fp& d, const Fp& t) const noexcept {
    // As for complex numbers: a root is x0 + x1·u with x0^2 = d = (c0 + g) / 2 and
    // x1 = c1 / (2·x0). d and d' = (c0 - g) / 2 multiply to -c1^2 / 4, a non-square (-1 is not
    // a square mod p), so exactly one of them is a square. s = d·t = d^((p+1)/4) is a root of d
    // when d is a square and a root of -d otherwise (then x0 = c1 / (2s) squares to d', x1 = s).
    // s·t = d^((p-1)/2) = ±1, so 1/s = s·t^2.
    const Fp s = d * t;
    if (s.is_zero()) return std::nullopt;  // only when c1 = 0 (callers use sqrt())
    const Fp x1 = c1 * (s * t.square() * kHalf);
    const Fp2 x = s.square() == d ? Fp2(s, x1) : Fp2(x1, s);
    if (x.square() != *this) return std::nullopt;  // g was not a root of the norm
    return x;
}

}  // namespace keel::bls
