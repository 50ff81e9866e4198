#include "keel/bls/g1.hpp"

namespace keel::bls {

template class Jacobian<G1Traits>;
template class Projective<G1Traits>;

bool in_g1(const G1Jacobian& p) noexcept {
    // [x^2]P = [|x|]([|x|]P): the sign of x cancels.
    const G1Jacobian x2p = p.mul_by_x_abs().mul_by_x_abs();
    return g1_phi(p) == -x2p;
}

bool in_g1(const G1Affine& p) noexcept {
    return in_g1(G1Jacobian::from_affine(p));
}

G1Jacobian g1_mul_glv(const G1Jacobian& p, const Scalar& k) noexcept {
    // Base-x^2 digits: two divisions by |x| per digit; x^6 > 2^256, so three digits suffice.
    std::array<std::uint64_t, 4> n = k.limbs();
    std::array<std::array<std::uint64_t, 2>, 3> digits{};
    std::array<G1Jacobian, 3> points;
    G1Jacobian q = p;
    for (std::size_t i = 0; i < 3; ++i) {
        const std::uint64_t r0 = detail::divmod_u64(n, kBlsXAbs);
        const std::uint64_t r1 = detail::divmod_u64(n, kBlsXAbs);
        // r0 + r1·|x| < x^2 < 2^128.
        const detail::u128 d = static_cast<detail::u128>(r1) * kBlsXAbs + r0;
        digits[i] = {static_cast<std::uint64_t>(d), static_cast<std::uint64_t>(d >> 64)};
        points[i] = q;
        q = -g1_phi(q);  // [x^2]q
    }
    return G1Jacobian::sum_of_products_vartime(points, digits);
}

G1Jacobian clear_cofactor_g1(const G1Jacobian& p) noexcept {
    // 1 - x = |x| + 1 as x < 0.
    return p.mul_by_x_abs().add_vartime(p);
}

}  // namespace keel::bls
