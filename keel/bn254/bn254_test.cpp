// BN254: the field against GMP, the group laws, the pairing's bilinearity and non-degeneracy,
// and the byte-level checks of EIP-196/197. The official suites' bn254 cases (legacy state tests
// stZeroKnowledge*, stPreCompiledContracts*) run through keel evm statetest in test/spec.
#include "keel/bn254/bn254.hpp"

#include <gmp.h>

#include <random>

#include <gtest/gtest.h>

#include "keel/bn254/curve.hpp"
#include "keel/common/hex.hpp"

namespace keel::bn254 {
namespace {

const char* kP = "30644e72e131a029b85045b68181585d97816a916871ca8d3c208c16d87cfd47";

std::array<std::uint8_t, 32> be_of(const char* hex) {
    std::array<std::uint8_t, 32> out{};
    const auto b = hex::decode(hex);
    std::copy(b->begin(), b->end(), out.begin() + (32 - b->size()));
    return out;
}

Fp fp(const char* dec) {
    mpz_t v;
    mpz_init_set_str(v, dec, 10);
    std::array<std::uint8_t, 32> be{};
    std::size_t n = 0;
    std::uint8_t tmp[32];
    mpz_export(tmp, &n, 1, 1, 1, 0, v);
    std::copy(tmp, tmp + n, be.begin() + (32 - n));
    mpz_clear(v);
    return *Fp::from_bytes(be.data());
}

// The generator of G2 (EIP-197).
G2Affine g2_generator() {
    return {
        Fp2{fp("10857046999023057135944570762232829481370756359578518086990519993285655852781"),
            fp("11559732032986387107991004021392285783925812861821192530917403151452391805634")},
        Fp2{fp("8495653923123431417604973247489272438418190587263600148770280649306958101930"),
            fp("4082367875863433681332203403145435568316851327593401208105741076214120093531")},
        false};
}

const G1Affine kG1{Fp::from_u64(1), Fp::from_u64(2), false};

TEST(Bn254Field, MultiplicationAgreesWithGmp) {
    std::mt19937_64 rng(7);
    mpz_t p, a, b, c;
    mpz_inits(p, a, b, c, nullptr);
    mpz_set_str(p, kP, 16);
    for (int i = 0; i < 2000; ++i) {
        std::array<std::uint8_t, 32> ab{}, bb{};
        for (auto& x : ab) x = static_cast<std::uint8_t>(rng());
        for (auto& x : bb) x = static_cast<std::uint8_t>(rng());
        ab[0] &= 0x2f, bb[0] &= 0x2f;  // below p
        const Fp fa = *Fp::from_bytes(ab.data()), fb = *Fp::from_bytes(bb.data());
        std::uint8_t out[32];
        (fa * fb).to_bytes(out);
        mpz_import(a, 32, 1, 1, 1, 0, ab.data());
        mpz_import(b, 32, 1, 1, 1, 0, bb.data());
        mpz_mul(c, a, b);
        mpz_mod(c, c, p);
        mpz_t got;
        mpz_init(got);
        mpz_import(got, 32, 1, 1, 1, 0, out);
        ASSERT_EQ(mpz_cmp(got, c), 0) << "case " << i;
        mpz_clear(got);
        if (!fa.is_zero()) {
            ASSERT_EQ(fa * fa.inverse(), Fp::one());
        }
        ASSERT_EQ((fa - fb) + fb, fa);
    }
    mpz_clears(p, a, b, c, nullptr);
    EXPECT_FALSE(Fp::from_bytes(be_of(kP).data()).has_value());  // p itself is not an element
}

TEST(Bn254Field, Fp12InverseAndFrobenius) {
    Fp12 f;
    for (std::size_t i = 0; i < 6; ++i)
        f.c[i] = Fp2{Fp::from_u64(3 * i + 1), Fp::from_u64(7 * i + 2)};
    EXPECT_TRUE((f * f.inverse()).is_one());
    // Twelve p-power Frobenius maps are the identity; six are the conjugation.
    EXPECT_EQ(f.frobenius(12), f);
    EXPECT_EQ(f.frobenius(6), f.conj());
    EXPECT_EQ((f * f).frobenius(1), f.frobenius(1) * f.frobenius(1));
}

TEST(Bn254Group, LawsAndOrder) {
    ASSERT_TRUE(on_curve(kG1));
    const G1 g = G1::from_affine(kG1);
    const auto three = G1::from_affine(kG1).mul({3, 0, 0, 0}).to_affine();
    const auto sum = (g.dbl() + g).to_affine();
    EXPECT_EQ(three.x, sum.x);
    EXPECT_EQ(three.y, sum.y);
    EXPECT_TRUE(g.mul(kOrder).is_infinity());
    Fp::Limbs r_minus_1 = kOrder;
    r_minus_1[0] -= 1;
    const auto neg = g.mul(r_minus_1).to_affine();
    EXPECT_EQ(neg.x, kG1.x);
    EXPECT_EQ(neg.y, -kG1.y);
    const G2Affine q = g2_generator();
    ASSERT_TRUE(on_curve(q));
    EXPECT_TRUE(in_g2(q));
}

TEST(Bn254Pairing, BilinearAndNonDegenerate) {
    const G1 g = G1::from_affine(kG1);
    const G2 q = G2::from_affine(g2_generator());
    const Fp::Limbs a{0x1234567890abcdef, 0x0fedcba987654321, 0x1111, 0};
    const Fp::Limbs b{0xdeadbeefcafef00d, 0x42, 0, 0};
    // a·b mod r, small enough here to be a·b exactly (a < 2^144, b < 2^71).
    mpz_t ma, mb, mab;
    mpz_inits(ma, mb, mab, nullptr);
    mpz_import(ma, 4, -1, 8, 0, 0, a.data());
    mpz_import(mb, 4, -1, 8, 0, 0, b.data());
    mpz_mul(mab, ma, mb);
    Fp::Limbs ab{};
    mpz_export(ab.data(), nullptr, -1, 8, 0, 0, mab);
    mpz_clears(ma, mb, mab, nullptr);
    // e(aP, bQ) · e(-abP, Q) == 1
    const G1Affine ps[2] = {g.mul(a).to_affine(), (-g.mul(ab)).to_affine()};
    const G2Affine qs[2] = {q.mul(b).to_affine(), g2_generator()};
    EXPECT_TRUE(pairing_product_is_one(ps, qs, 2));
    // ... and not with a different multiple; e(P, Q) itself is not 1.
    const G1Affine off[2] = {g.mul(a).to_affine(), (-g.mul(a)).to_affine()};
    EXPECT_FALSE(pairing_product_is_one(off, qs, 2));
    EXPECT_FALSE(pairing_product_is_one(&kG1, qs + 1, 1));
    // Infinity contributes 1.
    const G1Affine inf{};
    EXPECT_TRUE(pairing_product_is_one(&inf, qs + 1, 1));
}

TEST(Bn254Precompiles, EncodingsAndErrors) {
    // ECADD(G, G) == ECMUL(G, 2); short input is zero-padded: ECADD(G) = G + O = G.
    Bytes g(64, 0);
    g[31] = 1, g[63] = 2;
    Bytes add_in = g;
    add_in.insert(add_in.end(), g.begin(), g.end());
    Bytes mul_in = g;
    mul_in.resize(96, 0);
    mul_in[95] = 2;
    const auto sum = g1_add(add_in), twice = g1_mul(mul_in);
    ASSERT_TRUE(sum && twice);
    EXPECT_EQ(*sum, *twice);
    const auto same = g1_add(g);
    ASSERT_TRUE(same);
    EXPECT_TRUE(std::equal(same->begin(), same->end(), g.begin()));
    // Errors name the coordinate.
    Bytes off_curve = add_in;
    off_curve[127] = 3;  // (1, 3)
    EXPECT_EQ(g1_add(off_curve).error(), (Error{Errc::not_on_curve, 64}));
    Bytes big = add_in;
    const auto p = be_of(kP);
    std::copy(p.begin(), p.end(), big.begin() + 32);  // y = p
    EXPECT_EQ(g1_add(big).error(), (Error{Errc::coordinate_too_large, 32}));
    EXPECT_EQ(pairing_check(Bytes(191, 0)).error().code, Errc::bad_length);
    const auto empty = pairing_check({});
    ASSERT_TRUE(empty);
    EXPECT_TRUE(*empty);
}

}  // namespace
}  // namespace keel::bn254
