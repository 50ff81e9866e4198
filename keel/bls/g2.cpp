#include "keel/bls/g2.hpp"

#include <algorithm>
#include <array>

#include "keel/bls/detail/fp_x8.hpp"
#include "keel/bls/detail/g2_x8.hpp"

namespace keel::bls {

template class Jacobian<G2Traits>;
template class Projective<G2Traits>;

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

/// Divides n < 2^bits (bits public) in place by |x| and returns the remainder: restoring long
/// division one bit at a time with masks. u128 '/' would call __udivti3, which branches on the
/// operands, and DIV's timing may depend on them.
std::uint64_t divmod_x_abs_ct(std::array<std::uint64_t, 4>& n, std::size_t bits) noexcept {
    std::array<std::uint64_t, 4> q{};
    std::uint64_t rem = 0;  // < |x|
    for (std::size_t i = bits; i-- > 0;) {
        // 2·rem + bit has 65 bits: `top` is the 65th.
        const std::uint64_t top = rem >> 63;
        const std::uint64_t cur = (rem << 1) | ((n[i / 64] >> (i % 64)) & 1);
        const detail::u128 diff = static_cast<detail::u128>(cur) - kBlsXAbs;
        const std::uint64_t below = static_cast<std::uint64_t>(diff >> 64) & 1;
        const std::uint64_t take = top | (below ^ 1);  // 2^64·top + cur >= |x|
        const std::uint64_t mask = 0 - take;
        rem = (static_cast<std::uint64_t>(diff) & mask) | (cur & ~mask);
        q[i / 64] |= take << (i % 64);
    }
    n = q;
    return rem;
}

/// ψ in projective coordinates: (conj(X)·cx : conj(Y)·cy : conj(Z)), as conjugation is a field
/// automorphism (x = X/Z goes to conj(X)/conj(Z)·cx). Constant time.
G2Projective psi_projective(const G2Projective& p) noexcept {
    const PsiConstants& c = psi_constants();
    return {p.x.conjugate() * c.cx, p.y.conjugate() * c.cy, p.z.conjugate()};
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

std::array<std::uint64_t, 4> g2_gls_digits_ct(const Scalar& k) noexcept {
    std::array<std::uint64_t, 4> n = k.reduced().limbs();
    std::array<std::uint64_t, 4> digits{};
    // n < r < 2^255, and each division by |x| > 2^63 takes 63 bits off: 255, 192, 129 bits.
    for (std::size_t i = 0; i < 3; ++i) digits[i] = divmod_x_abs_ct(n, 255 - 63 * i);
    digits[3] = n[0];  // below r / |x|^3 < |x|, so n[1..3] are zero
    return digits;
}

G2Jacobian g2_mul_gls_ct(const G2Jacobian& p, const Scalar& k) noexcept {
    // k = d0 + d1·|x| + d2·|x|^2 + d3·|x|^3 (mod r) with every d_j < |x| < 2^64, and [|x|]Q =
    // -ψ(Q), so [k]P = Σ [d_j]P_j with P_j = [|x|^j]P: one 64-bit multi-scalar multiplication.
    std::array<std::uint64_t, 4> d = g2_gls_digits_ct(k);
    // Signed digits in the GLV-SAC form (Faz-Hernández, Longa, Sánchez, "Efficient and secure
    // algorithms for GLV-based scalar multiplication", 2014, Algorithm 1): with d0 odd, every
    // column i of the digits is s_i·(P_0 + a subset of {P_1, P_2, P_3}) with s_i = ±1, so the
    // table holds 8 sums instead of 16 (half the masked scan per step, 7 table additions
    // instead of 11) and the sign is a negation selected by mask. d0 is made odd by adding 1
    // when it is even, and P taken off again at the end, selected by mask.
    const std::uint64_t even = (d[0] & 1) ^ 1;
    d[0] += even;  // d0 < |x| < 2^64 - 1: no carry
    // d0 = 2^64 + Σ_{i<64} b0_i·2^i with b0_i = 2·bit_{i+1}(d0) - 1, for odd d0 < 2^65; so the
    // top column (i = 64) has sign +1, and column i < 64 is negative where bit i+1 of d0 is 0.
    // For j >= 1, digit i of d_j is b0_i·(a & 1), and a becomes (a - digit) / 2: the subset
    // index of column i collects the bits (a & 1) of the three.
    std::array<std::uint8_t, 65> index{};
    std::array<std::uint8_t, 65> negative{};
    for (std::size_t i = 0; i < 63; ++i)
        negative[i] = static_cast<std::uint8_t>(((d[0] >> (i + 1)) & 1) ^ 1);
    negative[63] = 1;  // bit 64 of d0 < 2^64 is 0
    for (std::size_t j = 1; j < 4; ++j) {
        std::uint64_t a = d[j];  // < |x|: a + 1 below never carries
        for (std::size_t i = 0; i < 65; ++i) {
            const std::uint64_t bit = a & 1;
            index[i] = static_cast<std::uint8_t>(index[i] | (bit << (j - 1)));
            a = (a >> 1) + (bit & negative[i]);  // (a - b0_i·bit) / 2
        }
    }
    // table[m] = P_0 + Σ_{j : bit j-1 of m} P_j, in projective coordinates: the complete
    // formulas of projective.hpp (RCB16 Algorithms 7 and 9) take P = O, an entry equal to the
    // accumulator or to its inverse, all without a case of their own.
    std::array<G2Projective, 8> table;
    const G2Projective p0 = G2Projective::from_jacobian(p);
    table[0] = p0;
    G2Projective q = p0;
    for (std::size_t j = 1; j < 4; ++j) {
        q = -psi_projective(q);  // P_j = [|x|]P_{j-1} on G2
        const std::size_t base = std::size_t{1} << (j - 1);
        for (std::size_t m = 0; m < base; ++m) table[base + m] = table[m] + q;
    }
    G2Projective acc = G2Projective::lookup_ct(table, index[64]);  // sign +1
    for (std::size_t i = 64; i-- > 0;) {
        const G2Projective t = G2Projective::lookup_ct(table, index[i]);
        acc = acc.dbl() + G2Projective::select(negative[i] != 0, -t, t);
    }
    // [d0 + even]P + ... - [even]P.
    return G2Projective::select(even != 0, acc + (-p0), acc).to_jacobian();
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

namespace {

/// [x]P for eight points: the runs of doublings between the set bits of |x| on eight lanes
/// (g2_double_x8), the additions of P one by one (add_vartime: every special case), then the
/// negation for x < 0.
void mul_by_x_x8(std::span<G2Jacobian, 8> pts) noexcept {
    std::array<G2Jacobian, 8> base;
    std::copy(pts.begin(), pts.end(), base.begin());
    unsigned run = 0;
    for (int bit = 62; bit >= 0; --bit) {
        ++run;
        if ((kBlsXAbs >> bit) & 1) {
            g2_double_x8(pts, run);
            run = 0;
            for (std::size_t i = 0; i < 8; ++i) pts[i] = pts[i].add_vartime(base[i]);
        }
    }
    if (run != 0) g2_double_x8(pts, run);
    for (G2Jacobian& p : pts) p = -p;
}

}  // namespace

void clear_cofactor_g2_many(std::span<G2Jacobian> points) noexcept {
    if (!fp_x8_supported() || points.size() < 2) {
        for (G2Jacobian& p : points) p = clear_cofactor_g2(p);
        return;
    }
    for (std::size_t start = 0; start < points.size(); start += 8) {
        const std::size_t n = std::min<std::size_t>(8, points.size() - start);
        std::array<G2Jacobian, 8> p, t1, u, t3;  // lanes past n hold the identity
        std::copy_n(points.begin() + static_cast<std::ptrdiff_t>(start), n, p.begin());
        // clear_cofactor_g2's steps, lane by lane, with its two [x]-multiplications batched.
        t1 = p;
        mul_by_x_x8(t1);
        for (std::size_t i = 0; i < 8; ++i) {
            const G2Jacobian t2 = g2_psi(p[i]);
            t3[i] = g2_psi(g2_psi(p[i].dbl())).add_vartime(-t2);
            u[i] = t1[i].add_vartime(t2);
        }
        mul_by_x_x8(u);
        for (std::size_t i = 0; i < n; ++i)
            points[start + i] = t3[i].add_vartime(u[i]).add_vartime(-t1[i]).add_vartime(-p[i]);
    }
}

}  // namespace keel::bls
