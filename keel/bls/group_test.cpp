// G1 and G2: group laws on random points, generators, endomorphisms, subgroup checks against
// [r]P == O, cofactor clearing, and the constantine scalar-multiplication vectors for both
// scalar multiplications.
#include <gtest/gtest.h>

#include <array>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "keel/bls/detail/fp_x8.hpp"
#include "keel/bls/detail/g2_x8.hpp"
#include "keel/bls/detail/test_values.hpp"
#include "keel/bls/g1.hpp"
#include "keel/bls/g2.hpp"
#include "keel/bls/hash_to_curve.hpp"
#include "test/testutil/vectors.hpp"

namespace keel::bls {
namespace {

std::mt19937_64& rng() {
    static std::mt19937_64 r(20240607);
    return r;
}

/// A uniformly random field element (rejection sampling below p).
Fp random_fp() {
    for (;;) {
        detail::Limbs l{};
        for (auto& v : l) v = rng()();
        l[5] &= (1ull << 61) - 1;
        bool below = false;
        for (std::size_t i = 6; i-- > 0;) {
            if (l[i] != detail::kP[i]) {
                below = l[i] < detail::kP[i];
                break;
            }
        }
        if (below) return Fp::from_canonical(l);
    }
}

Fp2 random_fp2() {
    return {random_fp(), random_fp()};
}

using Limbs4 = std::array<std::uint64_t, 4>;

Scalar random_scalar(unsigned bits = 255) {
    Limbs4 k{};
    for (auto& v : k) v = rng()();
    for (unsigned i = bits; i < 256; ++i) k[i / 64] &= ~(1ull << (i % 64));
    return Scalar(k);
}

Scalar small(std::uint64_t v) {
    return Scalar(Limbs4{v, 0, 0, 0});
}

/// A random point of E1 (almost surely not in G1: the cofactor is large).
G1Jacobian random_e1() {
    for (;;) {
        const Fp x = random_fp();
        if (const auto y = (x.square() * x + kB1).sqrt()) return G1Jacobian::from_affine({x, *y});
    }
}
G2Jacobian random_e2() {
    for (;;) {
        const Fp2 x = random_fp2();
        if (const auto y = (x.square() * x + kB2).sqrt()) return G2Jacobian::from_affine({x, *y});
    }
}

/// The same point with Z scaled by a random λ: (λ^2 X, λ^3 Y, λ Z).
template <class J>
J rescale(const J& p) {
    typename J::Field l;
    if constexpr (std::is_same_v<typename J::Field, Fp>)
        l = random_fp();
    else
        l = random_fp2();
    return {p.x * l.square(), p.y * l.square() * l, p.z * l};
}

Scalar add_scalars(const Scalar& a, const Scalar& b) {
    Limbs4 s{};
    std::uint64_t carry = 0;
    for (std::size_t i = 0; i < 4; ++i)
        carry = detail::add_carry(a.limbs()[i], b.limbs()[i], carry, s[i]);
    return Scalar(s);
}

template <class J>
void check_group_laws(const J& g, J (*random_point)()) {
    const J o = J::identity();
    for (int iter = 0; iter < 8; ++iter) {
        const J a = g.mul_ct(random_scalar());
        const J b = iter % 2 ? random_point() : g.mul_vartime(random_scalar());
        const J c = rescale(g.mul_vartime(random_scalar()));
        ASSERT_TRUE(a.on_curve() && b.on_curve() && c.on_curve());
        EXPECT_EQ((a + b) + c, a + (b + c));
        EXPECT_EQ(a + b, b + a);
        EXPECT_EQ(a + o, a);
        EXPECT_EQ(o + a, a);
        EXPECT_TRUE((a + (-a)).is_identity());
        EXPECT_TRUE((a - a).is_identity());
        EXPECT_EQ(a + a, a.dbl());
        EXPECT_EQ(a + rescale(a), a.dbl());
        EXPECT_EQ(a.add_vartime(rescale(a)), a.dbl());
        EXPECT_TRUE(a.add_vartime(-rescale(a)).is_identity());
        EXPECT_EQ(a.add_vartime(b), a + b);
        EXPECT_EQ(a.add_vartime(o), a);
        EXPECT_EQ(o.add_vartime(b), b);
        EXPECT_EQ(a.add_mixed(b.to_affine()), a + b);
        EXPECT_EQ(a.add_mixed(a.to_affine()), a.dbl());
        EXPECT_TRUE(a.add_mixed((-a).to_affine()).is_identity());
        EXPECT_EQ(a.add_mixed(o.to_affine()), a);
        EXPECT_EQ(o.add_mixed(b.to_affine()), b);
        EXPECT_EQ(a.add_mixed_vartime(b.to_affine()), a + b);
        EXPECT_EQ(a.add_mixed_vartime(a.to_affine()), a.dbl());
        EXPECT_TRUE(a.add_mixed_vartime((-a).to_affine()).is_identity());
        EXPECT_EQ(a.add_mixed_vartime(o.to_affine()), a);
        EXPECT_EQ(o.add_mixed_vartime(b.to_affine()), b);
        EXPECT_EQ(J::from_affine(c.to_affine()), c);
        EXPECT_EQ(c.to_affine(), rescale(c).to_affine());
        EXPECT_NE(a, b);
        EXPECT_NE(a, o);
        EXPECT_TRUE(o.dbl().is_identity());
        EXPECT_TRUE(o.to_affine().infinity);
        // Scalar multiplication: distributes, both flavours agree.
        const Scalar k1 = random_scalar(254), k2 = random_scalar(254);
        const Scalar k12 = add_scalars(k1, k2);
        EXPECT_EQ(b.mul_ct(k1) + b.mul_ct(k2), b.mul_ct(k12));
        EXPECT_EQ(b.mul_vartime(k1) + b.mul_vartime(k2), b.mul_vartime(k12));
        EXPECT_EQ(b.mul_ct(k1), b.mul_vartime(k1));
        EXPECT_EQ(b.mul_ct(k1).mul_ct(k2), b.mul_ct(k2).mul_ct(k1));
    }
    // Small and edge scalars.
    EXPECT_TRUE(g.mul_ct(Scalar()).is_identity());
    EXPECT_TRUE(g.mul_vartime(Scalar()).is_identity());
    EXPECT_EQ(g.mul_ct(small(1)), g);
    EXPECT_EQ(g.mul_ct(small(2)), g.dbl());
    EXPECT_EQ(g.mul_vartime(small(3)), g.dbl() + g);
    EXPECT_EQ(g.mul_ct(Scalar(Limbs4{~0ull, ~0ull, ~0ull, ~0ull})),
              g.mul_vartime(Scalar(Limbs4{~0ull, ~0ull, ~0ull, ~0ull})));
    EXPECT_EQ(g.mul_by_x_abs(), g.mul_vartime(small(kBlsXAbs)));
    // [r]G = O, [r - 1]G = -G.
    EXPECT_TRUE(g.mul_ct(Scalar(kR)).is_identity());
    EXPECT_TRUE(g.mul_vartime(kR).is_identity());
    const Scalar r1(Limbs4{kR[0] - 1, kR[1], kR[2], kR[3]});
    EXPECT_EQ(g.mul_ct(r1), -g);
    EXPECT_EQ(g.mul_vartime(r1), -g);
    // mul_ct's complete additions at the last window (r = 1 mod 16): for k = r + 30 the
    // accumulator [r + 15]P = 15P meets table[15] = 15P (a doubling); for k = 2r + 28 it is
    // 14P against table[14]; for k = 2r it is -2P against table[2] (the identity comes out).
    const Scalar two_r = add_scalars(Scalar(kR), Scalar(kR));
    EXPECT_EQ(g.mul_ct(add_scalars(Scalar(kR), small(30))), g.mul_vartime(small(30)));
    EXPECT_EQ(g.mul_ct(add_scalars(two_r, small(28))), g.mul_vartime(small(28)));
    EXPECT_TRUE(g.mul_ct(two_r).is_identity());
    // Digits with zeros (table[0] = O added in most windows), and the point at infinity.
    for (const Scalar& k : {small(16), small(0x10001), Scalar(Limbs4{0, 0, 0, 1ull << 60}),
                            Scalar(Limbs4{1, 0, 0, 0xf000000000000000}),
                            Scalar(Limbs4{0xf0f0f0f0f0f0f0f0, 0, 0x0f0f0f0f0f0f0f0f, 0})}) {
        EXPECT_EQ(g.mul_ct(k), g.mul_vartime(k));
        EXPECT_TRUE(o.mul_ct(k).is_identity());
    }
    EXPECT_TRUE(o.mul_ct(random_scalar()).is_identity());
}

TEST(BlsG1, GeneratorAndGroupLaws) {
    const G1Jacobian g = g1_generator();
    ASSERT_TRUE(kG1Generator.on_curve());
    EXPECT_TRUE(g.in_subgroup_by_order());
    EXPECT_TRUE(in_g1(g));
    check_group_laws<G1Jacobian>(g, random_e1);
}

TEST(BlsG2, GeneratorAndGroupLaws) {
    const G2Jacobian g = g2_generator();
    ASSERT_TRUE(kG2Generator.on_curve());
    EXPECT_TRUE(g.in_subgroup_by_order());
    EXPECT_TRUE(in_g2(g));
    check_group_laws<G2Jacobian>(g, random_e2);
}

template <class F>
F random_field() {
    if constexpr (std::is_same_v<F, Fp>)
        return random_fp();
    else
        return random_fp2();
}

/// The same projective point with every coordinate scaled by a random λ.
template <class P>
P rescale_projective(const P& p) {
    const auto l = random_field<typename P::Field>();
    return {p.x * l, p.y * l, p.z * l};
}

/// The complete projective formulas (projective.hpp) against the Jacobian ones, on points of the
/// subgroup and on random points of the whole curve (E(F_q) has odd order, so they are complete
/// there too), with the identity, P + P and P + (-P).
template <class Traits>
void check_projective_laws(const Jacobian<Traits>& g, Jacobian<Traits> (*random_point)()) {
    using J = Jacobian<Traits>;
    using P = Projective<Traits>;
    using F = typename Traits::Field;
    const P o = P::identity();
    const J oj = J::identity();
    // 3b by additions.
    for (int i = 0; i < 4; ++i) {
        const F v = random_field<F>();
        EXPECT_EQ(Traits::mul_by_3b(v), v * (Traits::b() + Traits::b() + Traits::b()));
    }
    // The identity: (0 : 1 : 0), to and from Jacobian and affine.
    EXPECT_TRUE(o.on_curve());
    EXPECT_TRUE(o.is_identity());
    EXPECT_TRUE(o.dbl().is_identity());
    EXPECT_TRUE((o + o).is_identity());
    EXPECT_TRUE((o - o).is_identity());
    EXPECT_TRUE(o.add_mixed(oj.to_affine()).is_identity());
    EXPECT_TRUE(o.dbl().on_curve());
    EXPECT_EQ(o, rescale_projective(o));
    EXPECT_EQ(P::from_jacobian(oj), o);
    EXPECT_EQ(P::from_jacobian(rescale(g.dbl() + (-g.dbl()))), o);
    EXPECT_EQ(P::from_affine(oj.to_affine()), o);
    EXPECT_TRUE(o.to_affine().infinity);
    const J oj2 = rescale_projective(o.dbl()).to_jacobian();
    EXPECT_TRUE(oj2.is_identity());
    EXPECT_TRUE(both(oj2.x == F::one(), oj2.y == F::one()));  // (1, 1, 0), as curve.hpp keeps it
    for (int iter = 0; iter < 8; ++iter) {
        const J a = iter % 2 ? random_point() : g.mul_vartime(random_scalar());
        const J b = iter % 4 < 2 ? random_point() : g.mul_vartime(random_scalar());
        const P pa = rescale_projective(P::from_jacobian(rescale(a)));
        const P pb = P::from_jacobian(b);
        ASSERT_TRUE(pa.on_curve() && pb.on_curve());
        // Conversions.
        EXPECT_EQ(pa.to_jacobian(), a);
        EXPECT_EQ(pa, P::from_jacobian(a));
        EXPECT_EQ(pa.to_affine(), a.to_affine());
        EXPECT_EQ(P::from_affine(a.to_affine()), pa);
        EXPECT_NE(pa, pb);
        EXPECT_NE(pa, o);
        EXPECT_NE(o, pa);
        EXPECT_NE(pa, -pa);
        // Addition (Algorithm 7) and doubling (Algorithm 9).
        EXPECT_EQ((pa + pb).to_jacobian(), a + b);
        EXPECT_EQ((pa - pb).to_jacobian(), a - b);
        EXPECT_EQ(pa + pb, pb + pa);
        EXPECT_TRUE((pa + pb).on_curve());
        EXPECT_EQ(pa.dbl().to_jacobian(), a.dbl());
        EXPECT_TRUE(pa.dbl().on_curve());
        EXPECT_EQ(pa + pa, pa.dbl());
        EXPECT_EQ(pa + rescale_projective(pa), pa.dbl());
        EXPECT_EQ((pa + rescale_projective(pa)).to_jacobian(), a + a);
        EXPECT_TRUE((pa + (-pa)).is_identity());
        EXPECT_TRUE((pa - rescale_projective(pa)).is_identity());
        EXPECT_TRUE((pa - pa).on_curve());
        EXPECT_EQ(pa + o, pa);
        EXPECT_EQ(o + pa, pa);
        EXPECT_EQ((pa + pb) + pa.dbl(), pa + (pb + pa.dbl()));
        // Mixed addition (Algorithm 8) with an affine point.
        EXPECT_EQ(pa.add_mixed(b.to_affine()).to_jacobian(), a + b);
        EXPECT_EQ(pa.add_mixed(b.to_affine()), pa + pb);
        EXPECT_EQ(pa.add_mixed(a.to_affine()), pa.dbl());
        EXPECT_TRUE(pa.add_mixed((-a).to_affine()).is_identity());
        EXPECT_EQ(pa.add_mixed(oj.to_affine()), pa);
        EXPECT_EQ(o.add_mixed(b.to_affine()), pb);
        // A chain of doublings and additions, as in the multiplications.
        P acc = o;
        J accj = oj;
        for (int i = 0; i < 6; ++i) {
            acc = acc.dbl() + (i % 3 ? pb : o);
            accj = accj.dbl() + (i % 3 ? b : oj);
        }
        EXPECT_EQ(acc.to_jacobian(), accj);
        EXPECT_TRUE(acc.on_curve());
    }
    // lookup_ct reads the right entry, the identity included.
    std::array<P, 5> table;
    for (std::size_t i = 1; i < table.size(); ++i)
        table[i] = P::from_jacobian(g.mul_vartime(small(i)));
    for (std::size_t i = 0; i < table.size(); ++i) {
        EXPECT_EQ(P::lookup_ct(table, i), table[i]);
        EXPECT_EQ(P::lookup_ct(table, i).to_jacobian(), g.mul_vartime(small(i)));
    }
}

TEST(BlsG1, ProjectiveMatchesJacobian) {
    check_projective_laws<G1Traits>(g1_generator(), random_e1);
}

TEST(BlsG2, ProjectiveMatchesJacobian) {
    check_projective_laws<G2Traits>(g2_generator(), random_e2);
}

/// (p - 1) / 3 (p = 1 mod 3).
detail::Limbs p_minus_1_over_3() {
    detail::Limbs n = detail::kP;
    n[0] -= 1;
    EXPECT_EQ(detail::divmod_u64(n, 3), 0u);
    return n;
}

TEST(BlsGroup, NoPointsOfOrderTwo) {
    // A point of order 2 on y^2 = x^3 + b is (α, 0) with α^3 = -b. None exists when -b is not a
    // cube: a^((q - 1)/3) != 1. This is what keeps projective.hpp's formulas complete on all of
    // E1(Fp) and E2(Fp2) (RCB16 §3: the exceptional pairs differ by a point of order 2).
    const detail::Limbs e = p_minus_1_over_3();
    EXPECT_NE((-kB1).pow(e), Fp::one());
    // In Fp2, (q - 1)/3 = (p - 1)/3 · (p + 1), and c^(p + 1) = conj(c)·c.
    const Fp2 c = (-kB2).pow(e);
    EXPECT_NE(c.conjugate() * c, Fp2::one());
    // The criterion itself: -1 = (-1)^3 is a cube, in Fp and in Fp2.
    const Fp2 m = (-Fp2::one()).pow(e);
    EXPECT_EQ(m.conjugate() * m, Fp2::one());
    EXPECT_EQ((-Fp::one()).pow(e), Fp::one());
}

TEST(BlsG1, BetaIsTheRightCubeRootOfUnity) {
    EXPECT_NE(kG1Beta, Fp::one());
    EXPECT_EQ(kG1Beta.square() * kG1Beta, Fp::one());
    // φ acts on G1 as multiplication by -x^2 (mod r).
    const G1Jacobian g = g1_generator();
    EXPECT_EQ(g1_phi(g), -g.mul_by_x_abs().mul_by_x_abs());
}

TEST(BlsG2, PsiActsAsXOnG2) {
    const G2Jacobian g = g2_generator();
    EXPECT_EQ(g2_psi(g), -g.mul_by_x_abs());
    // ψ is a group endomorphism of E2 and commutes with rescaling.
    const G2Jacobian a = random_e2(), b = random_e2();
    EXPECT_EQ(g2_psi(a + b), g2_psi(a) + g2_psi(b));
    EXPECT_EQ(g2_psi(rescale(a)), g2_psi(a));
    EXPECT_TRUE(g2_psi(a).on_curve());
}

TEST(BlsG1, FastSubgroupCheckAgreesWithOrder) {
    int in = 0, out = 0;
    for (int i = 0; i < 24; ++i) {
        G1Jacobian p = random_e1();
        if (i % 2) p = clear_cofactor_g1(p);
        if (i % 6 == 0) p = g1_generator().mul_vartime(random_scalar());
        const bool by_order = p.in_subgroup_by_order();
        EXPECT_EQ(in_g1(p), by_order);
        EXPECT_EQ(in_g1(p.to_affine()), by_order);
        (by_order ? in : out)++;
    }
    EXPECT_GT(in, 8);
    EXPECT_GT(out, 4);
    EXPECT_TRUE(in_g1(G1Jacobian::identity()));
    // A point of small order times a subgroup point: on the curve, not in G1.
    const G1Affine t{Fp::zero(), Fp::from_u64(2)};  // (0, 2): y^2 = 4, order 3
    ASSERT_TRUE(t.on_curve());
    EXPECT_FALSE(in_g1(t));
    EXPECT_FALSE(G1Jacobian::from_affine(t).in_subgroup_by_order());
    EXPECT_TRUE(G1Jacobian::from_affine(t).mul_vartime(small(3)).is_identity());
}

TEST(BlsG2, FastSubgroupCheckAgreesWithOrder) {
    int in = 0, out = 0;
    for (int i = 0; i < 16; ++i) {
        G2Jacobian p = random_e2();
        if (i % 2) p = clear_cofactor_g2(p);
        const bool by_order = p.in_subgroup_by_order();
        EXPECT_EQ(in_g2(p), by_order);
        EXPECT_EQ(in_g2(p.to_affine()), by_order);
        (by_order ? in : out)++;
    }
    EXPECT_EQ(in, 8);
    EXPECT_EQ(out, 8);
    EXPECT_TRUE(in_g2(G2Jacobian::identity()));
}

TEST(BlsGroup, EndomorphismMultiplicationMatchesWnaf) {
    const Limbs4 ones{~0ull, ~0ull, ~0ull, ~0ull};
    const Limbs4 r_minus_1{kR[0] - 1, kR[1], kR[2], kR[3]};
    const G1Jacobian g1 = g1_generator().mul_vartime(random_scalar());
    const G2Jacobian g2 = g2_generator().mul_vartime(random_scalar());
    for (const Scalar& k : {Scalar(), small(1), small(kBlsXAbs), Scalar(ones), Scalar(r_minus_1),
                            Scalar(kR), random_scalar(), random_scalar(), random_scalar(128)}) {
        EXPECT_EQ(g1_mul_glv(g1, k), g1.mul_vartime(k));
        EXPECT_EQ(g2_mul_gls(g2, k), g2.mul_vartime(k));
    }
    // Outside the subgroup the endomorphism shortcut does not apply: the results differ.
    const G1Jacobian e1 = random_e1();
    const Scalar k = random_scalar();
    EXPECT_NE(g1_mul_glv(e1, k), e1.mul_vartime(k));
}

/// Σ d_i·|x|^i (Horner, variable time); the test fails on overflow of 256 bits.
Limbs4 from_digits(const std::array<std::uint64_t, 4>& d) {
    Limbs4 v{};
    for (std::size_t i = 4; i-- > 0;) {
        detail::u128 carry = d[i];
        for (auto& limb : v) {
            const detail::u128 t = static_cast<detail::u128>(limb) * kBlsXAbs + carry;
            limb = static_cast<std::uint64_t>(t);
            carry = t >> 64;
        }
        EXPECT_EQ(static_cast<std::uint64_t>(carry), 0u);
    }
    return v;
}

/// a - b for a >= b (test helper, variable time).
Limbs4 sub_limbs(const Limbs4& a, const Limbs4& b) {
    Limbs4 d{};
    std::uint64_t borrow = 0;
    for (std::size_t i = 0; i < 4; ++i) {
        const detail::u128 t = static_cast<detail::u128>(a[i]) - b[i] - borrow;
        d[i] = static_cast<std::uint64_t>(t);
        borrow = static_cast<std::uint64_t>(t >> 64) & 1;
    }
    EXPECT_EQ(borrow, 0u);
    return d;
}

TEST(BlsScalar, ReducedIsModR) {
    const Limbs4 ones{~0ull, ~0ull, ~0ull, ~0ull};
    const Limbs4 r_minus_1{kR[0] - 1, kR[1], kR[2], kR[3]};
    EXPECT_TRUE(Scalar().reduced().is_zero());
    EXPECT_TRUE(Scalar(kR).reduced().is_zero());
    EXPECT_EQ(Scalar(r_minus_1).reduced(), Scalar(r_minus_1));
    EXPECT_EQ(small(7).reduced(), small(7));
    EXPECT_EQ(add_scalars(Scalar(kR), small(5)).reduced(), small(5));
    EXPECT_TRUE(add_scalars(Scalar(kR), Scalar(kR)).reduced().is_zero());
    // 2^256 - 1 - 2r lies below r.
    EXPECT_EQ(Scalar(ones).reduced(), Scalar(sub_limbs(sub_limbs(ones, kR), kR)));
}

TEST(BlsG2, GlsDigitsRecombineToK) {
    const Limbs4 ones{~0ull, ~0ull, ~0ull, ~0ull};
    const Limbs4 r_minus_1{kR[0] - 1, kR[1], kR[2], kR[3]};
    const std::uint64_t top = kBlsXAbs - 1;
    // r's own digits by the variable-time division: r = |x|^4 - |x|^2 + 1.
    std::array<std::uint64_t, 4> r_digits{};
    Limbs4 n = kR;
    for (auto& d : r_digits) d = detail::divmod_u64(n, kBlsXAbs);
    EXPECT_EQ(n, Limbs4{});
    EXPECT_EQ(r_digits, (std::array<std::uint64_t, 4>{1, 0, top, top}));
    std::vector<Scalar> ks{Scalar(),
                           small(1),
                           small(2),
                           small(top),
                           small(kBlsXAbs),
                           Scalar(r_minus_1),
                           Scalar(from_digits({0, 0, 0, 1})),
                           Scalar(from_digits({0, 1, 0, 0})),
                           Scalar(from_digits({top, 0, top, 0})),
                           Scalar(from_digits({0, top, 0, top - 1})),
                           Scalar(from_digits({top, top, top, top - 1}))};
    for (int i = 0; i < 64; ++i) ks.push_back(random_scalar(i % 2 ? 254 : 128 + i));
    for (const Scalar& k : ks) {
        ASSERT_EQ(k.reduced(), k);  // all below r
        const auto d = g2_gls_digits_ct(k);
        for (const std::uint64_t digit : d) EXPECT_LT(digit, kBlsXAbs);
        EXPECT_EQ(Scalar(from_digits(d)), k);
        // The same digits as the variable-time division of g2_mul_gls.
        Limbs4 v = k.limbs();
        for (const std::uint64_t digit : d) EXPECT_EQ(detail::divmod_u64(v, kBlsXAbs), digit);
        EXPECT_EQ(v, Limbs4{});
    }
    EXPECT_EQ(g2_gls_digits_ct(Scalar()), (std::array<std::uint64_t, 4>{}));
    EXPECT_EQ(g2_gls_digits_ct(Scalar(r_minus_1)), (std::array<std::uint64_t, 4>{0, 0, top, top}));
    // At or above r the digits are those of k mod r.
    EXPECT_EQ(g2_gls_digits_ct(Scalar(kR)), (std::array<std::uint64_t, 4>{}));
    EXPECT_EQ(Scalar(from_digits(g2_gls_digits_ct(Scalar(ones)))), Scalar(ones).reduced());
}

TEST(BlsG2, GlsCtMatchesOtherMultiplications) {
    const Limbs4 ones{~0ull, ~0ull, ~0ull, ~0ull};
    const Limbs4 r_minus_1{kR[0] - 1, kR[1], kR[2], kR[3]};
    const std::uint64_t top = kBlsXAbs - 1;
    std::vector<Scalar> ks{Scalar(),
                           small(1),
                           small(2),
                           small(top),
                           small(kBlsXAbs),
                           Scalar(r_minus_1),
                           Scalar(kR),
                           add_scalars(Scalar(kR), small(1)),
                           add_scalars(Scalar(kR), small(30)),
                           Scalar(ones),
                           Scalar(from_digits({0, 0, 0, 1})),
                           Scalar(from_digits({0, 0, 1, 0})),
                           Scalar(from_digits({1, 0, 0, top - 1})),
                           Scalar(from_digits({top, top, top, top - 1})),
                           random_scalar(64),
                           random_scalar(128)};
    for (int i = 0; i < 6; ++i) ks.push_back(random_scalar());
    const G2Jacobian g = g2_generator();
    const G2Jacobian p = rescale(g.mul_vartime(random_scalar()));
    const G2Jacobian o = G2Jacobian::identity();
    for (const Scalar& k : ks) {
        const G2Jacobian want = p.mul_vartime(k);
        EXPECT_EQ(g2_mul_gls_ct(p, k), want);
        EXPECT_EQ(g2_mul_gls_ct(p, k), p.mul_ct(k));
        EXPECT_EQ(g2_mul_gls_ct(p, k), g2_mul_gls(p, k));
        EXPECT_EQ(g2_mul_gls_ct(g, k), g.mul_vartime(k));
        EXPECT_TRUE(g2_mul_gls_ct(o, k).is_identity());
        EXPECT_TRUE(g2_mul_gls_ct(p, k).on_curve());
    }
    EXPECT_TRUE(g2_mul_gls_ct(p, Scalar()).is_identity());
    EXPECT_TRUE(g2_mul_gls_ct(p, Scalar(kR)).is_identity());
    EXPECT_EQ(g2_mul_gls_ct(p, small(1)), p);
    EXPECT_EQ(g2_mul_gls_ct(p, Scalar(r_minus_1)), -p);
    EXPECT_EQ(g2_mul_gls_ct(p, small(kBlsXAbs)), -g2_psi(p));
}

TEST(BlsG1, ClearCofactorIsHEff) {
    for (int i = 0; i < 4; ++i) {
        const G1Jacobian p = random_e1();
        const G1Jacobian q = clear_cofactor_g1(p);
        EXPECT_EQ(q, p.mul_vartime(std::array<std::uint64_t, 1>{kG1HEff}));
        EXPECT_TRUE(q.in_subgroup_by_order());
    }
}

TEST(BlsG2, ClearCofactorIsHEff) {
    // h_eff of RFC 9380 §8.8.2, as little-endian limbs.
    const std::string hex =
        "bc69f08f2ee75b3584c6a0ea91b352888e2a8e9145ad7689986ff031508ffe1329c2f178731db956d82bf015"
        "d1212b02ec0ec69d7477c1ae954cbc06689f6a359894c0adebbf6b4e8020005aaa95551";
    std::array<std::uint64_t, 12> h{};
    for (std::size_t i = 0; i < hex.size(); ++i) {
        const char c = hex[hex.size() - 1 - i];
        const std::uint64_t v = c <= '9' ? c - '0' : c - 'a' + 10;
        h[i / 16] |= v << (4 * (i % 16));
    }
    for (int i = 0; i < 3; ++i) {
        const G2Jacobian p = random_e2();
        const G2Jacobian q = clear_cofactor_g2(p);
        EXPECT_TRUE(q.in_subgroup_by_order());
        EXPECT_FALSE(q.is_identity());
        EXPECT_EQ(q, p.mul_vartime(h));
    }
}

// ---- constantine scalar-multiplication vectors ----

using test::fp_of;

Scalar scalar_hex(std::string s) {
    if (s.starts_with("0x")) s = s.substr(2);
    s.insert(0, 64 - s.size(), '0');
    const Bytes b = testutil::from_hex(s);
    Limbs4 k{};
    for (std::size_t i = 0; i < 32; ++i)
        k[(31 - i) / 8] |= std::uint64_t{b[i]} << (8 * ((31 - i) % 8));
    return Scalar(k);
}

G1Affine g1_json(const nlohmann::json& j) {
    return {fp_of(j["x"].get<std::string>()), fp_of(j["y"].get<std::string>())};
}
Fp2 fp2_json(const nlohmann::json& j) {
    return {fp_of(j["c0"].get<std::string>()), fp_of(j["c1"].get<std::string>())};
}
G2Affine g2_json(const nlohmann::json& j) {
    return {fp2_json(j["x"]), fp2_json(j["y"])};
}

G1Jacobian mul_endo(const G1Jacobian& p, const Scalar& k) {
    return g1_mul_glv(p, k);
}
G2Jacobian mul_endo(const G2Jacobian& p, const Scalar& k) {
    return g2_mul_gls(p, k);
}

template <class J, class Parse>
int run_scalar_mul_file(const std::string& name, Parse parse) {
    const auto json =
        testutil::load_json(testutil::vectors_dir("bls/constantine-scalar-mul") / name);
    int n = 0;
    for (const auto& v : json.at("vectors")) {
        const auto p = parse(v.at("P"));
        const auto q = parse(v.at("Q"));
        const Scalar k = scalar_hex(v.at("scalar").get<std::string>());
        const J pj = J::from_affine(p);
        EXPECT_TRUE(pj.on_curve()) << name << " #" << v.at("id");
        EXPECT_EQ(pj.mul_ct(k).to_affine(), q) << name << " #" << v.at("id");
        EXPECT_EQ(pj.mul_vartime(k).to_affine(), q) << name << " #" << v.at("id");
        EXPECT_EQ(mul_endo(pj, k).to_affine(), q) << name << " #" << v.at("id");
        if constexpr (std::is_same_v<J, G2Jacobian>) {
            EXPECT_EQ(g2_mul_gls_ct(pj, k).to_affine(), q) << name << " #" << v.at("id");
        }
        ++n;
    }
    return n;
}

TEST(BlsGroupVectors, ConstantineScalarMul) {
    int total = 0;
    for (const char* bits : {"32", "64", "128", "255"}) {
        const std::string suffix = std::string(bits) + "bit.json";
        const int n1 =
            run_scalar_mul_file<G1Jacobian>("tv_BLS12_381_scalar_mul_G1_" + suffix, g1_json);
        const int n2 =
            run_scalar_mul_file<G2Jacobian>("tv_BLS12_381_scalar_mul_G2_" + suffix, g2_json);
        EXPECT_EQ(n1, 40);
        EXPECT_EQ(n2, 40);
        total += n1 + n2;
    }
    EXPECT_EQ(total, 320);
}

// Eight G2 doublings chains at once on AVX-512 IFMA against the scalar doubling, with the identity
// and points outside the subgroup (images of the SWU map) among the lanes; and batched cofactor
// clearing against clear_cofactor_g2 for counts around the lane width.
TEST(BlsG2, BatchedDoublingAndCofactorClearing) {
    std::mt19937_64 rng(77);
    std::vector<G2Jacobian> pts;
    for (int i = 0; i < 19; ++i) {
        const Fp2 u(Fp::from_u64(rng()), Fp::from_u64(rng()));
        pts.push_back(G2Jacobian::from_affine(map_to_curve_g2(u)));
    }
    pts[3] = G2Jacobian();                // the identity
    pts[5] = g2_generator().dbl().dbl();  // a subgroup point, Z != 1
    if (fp_x8_supported()) {
        for (const unsigned n : {1u, 2u, 9u, 32u}) {
            std::array<G2Jacobian, 8> lanes;
            std::copy_n(pts.begin(), 8, lanes.begin());
            g2_double_x8(lanes, n);
            for (std::size_t i = 0; i < 8; ++i) {
                G2Jacobian expect = pts[i];
                for (unsigned k = 0; k < n; ++k) expect = expect.dbl();
                ASSERT_EQ(lanes[i], expect) << n << " " << i;
            }
        }
    }
    for (const std::size_t count : {1u, 2u, 7u, 8u, 9u, 19u}) {
        std::vector<G2Jacobian> batch(pts.begin(),
                                      pts.begin() + static_cast<std::ptrdiff_t>(count));
        clear_cofactor_g2_many(batch);
        for (std::size_t i = 0; i < count; ++i) {
            ASSERT_EQ(batch[i], clear_cofactor_g2(pts[i])) << count << " " << i;
            ASSERT_TRUE(in_g2(batch[i])) << count << " " << i;
        }
    }
}

}  // namespace
}  // namespace keel::bls
