#include "keel/bls/g2.hpp"

namespace keel::bls {

template class Jacobian<G2Traits>;

namespace {

struct PsiConstants {
    Fp2 cx, cy;
};

/// (p - 1) / 3 as limbs, by long division (p = 1 mod 3).
detail::Limbs p_minus_1_over_3() noexcept {
    detail::Limbs q{};
    std::uint64_t rem = 0;
    for (std::size_t i = 6; i-- > 0;) {
        const std::uint64_t limb = i == 0 ? detail::kP[0] - 1 : detail::kP[i];
        const detail::u128 cur = (static_cast<detail::u128>(rem) << 64) | limb;
        q[i] = static_cast<std::uint64_t>(cur / 3);
        rem = static_cast<std::uint64_t>(cur % 3);
    }
    return q;
}

/// cx, cy of ψ, computed once from their definition (public exponents, so pow's cost is paid
/// once per process).
const PsiConstants& psi_constants() noexcept {
    static const PsiConstants c = [] {
        const Fp2 xi{Fp::one(), Fp::one()};
        const detail::Limbs e3 = p_minus_1_over_3();
        return PsiConstants{xi.pow(e3).inverse(), xi.pow(detail::kPMinus1Over2).inverse()};
    }();
    return c;
}

/// [x]P for the negative BLS parameter x.
G2Jacobian mul_by_x(const G2Jacobian& p) noexcept {
    return -p.mul_by_x_abs();
}

}  // namespace

G2Jacobian g2_psi(const G2Jacobian& p) noexcept {
    const PsiConstants& c = psi_constants();
    return {p.x.conjugate() * c.cx, p.y.conjugate() * c.cy, p.z.conjugate()};
}

bool in_g2(const G2Jacobian& p) noexcept {
    return g2_psi(p) == mul_by_x(p);
}

bool in_g2(const G2Affine& p) noexcept {
    return in_g2(G2Jacobian::from_affine(p));
}

G2Jacobian g2_mul_gls(const G2Jacobian& p, const Scalar& k) noexcept {
    std::array<std::uint64_t, 4> n = k.limbs();
    std::array<std::array<std::uint64_t, 2>, 5> digits{};
    std::array<G2Jacobian, 5> points;
    G2Jacobian q = p;
    for (std::size_t i = 0; i < 5; ++i) {
        digits[i] = {detail::divmod_u64(n, kBlsXAbs), 0};
        points[i] = q;
        q = -g2_psi(q);  // [|x|]q
    }
    return G2Jacobian::sum_of_products_vartime(points, digits);
}

G2Jacobian clear_cofactor_g2(const G2Jacobian& p) noexcept {
    // RFC 9380 appendix G.3, step by step (c1 = x).
    const G2Jacobian t1 = mul_by_x(p);
    G2Jacobian t2 = g2_psi(p);
    G2Jacobian t3 = g2_psi(g2_psi(p.dbl()));
    t3 = t3.add_vartime(-t2);
    t2 = mul_by_x(t1.add_vartime(t2));
    t3 = t3.add_vartime(t2);
    t3 = t3.add_vartime(-t1);
    return t3.add_vartime(-p);
}

}  // namespace keel::bls
