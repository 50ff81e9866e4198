// EIP-2537's byte-level operations: agreement between addition and MSM, the subgroup of the map
// outputs, and each error with its offset. The official cases (execution-spec-tests'
// eip2537_bls_12_381_precompiles, with expected outputs and gas) run through keel evm statetest
// in test/spec (evm_state_eest_prague).
#include "keel/bls/eip2537.hpp"

#include <gtest/gtest.h>

#include "keel/bls/g1.hpp"
#include "keel/bls/g2.hpp"

namespace keel::bls::eip2537 {
namespace {

void put(const Fp& v, std::uint8_t* out) {
    v.to_bytes(std::span<std::uint8_t, 48>(out + 16, 48));
}

Bytes g1_bytes(const G1Affine& p) {
    Bytes b(128, 0);
    put(p.x, b.data());
    put(p.y, b.data() + 64);
    return b;
}

Bytes g2_bytes(const G2Affine& q) {
    Bytes b(256, 0);
    put(q.x.c0, b.data());
    put(q.x.c1, b.data() + 64);
    put(q.y.c0, b.data() + 128);
    put(q.y.c1, b.data() + 192);
    return b;
}

Bytes cat(Bytes a, const Bytes& b) {
    a.insert(a.end(), b.begin(), b.end());
    return a;
}

Bytes scalar(std::uint8_t v) {
    Bytes s(32, 0);
    s[31] = v;
    return s;
}

TEST(Eip2537, AddEqualsMsmByTwo) {
    const Bytes g = g1_bytes(kG1Generator);
    const auto sum = g1_add(cat(g, g));
    const auto twice = g1_msm(cat(g, scalar(2)));
    ASSERT_TRUE(sum && twice);
    EXPECT_EQ(*sum, *twice);
    const Bytes q = g2_bytes(kG2Generator);
    const auto sum2 = g2_add(cat(q, q));
    const auto twice2 = g2_msm(cat(q, scalar(2)));
    ASSERT_TRUE(sum2 && twice2);
    EXPECT_EQ(*sum2, *twice2);
    // G + (-G) is the point at infinity: all zero.
    G1Affine neg = kG1Generator;
    neg.y = -neg.y;
    const auto zero = g1_add(cat(g, g1_bytes(neg)));
    ASSERT_TRUE(zero);
    EXPECT_EQ(*zero, G1Bytes{});
}

TEST(Eip2537, PairingCheck) {
    G1Affine neg = kG1Generator;
    neg.y = -neg.y;
    const Bytes q = g2_bytes(kG2Generator);
    // e(G1, G2) · e(-G1, G2) == 1; e(G1, G2) alone is not 1.
    const auto yes = pairing_check(cat(cat(g1_bytes(kG1Generator), q), cat(g1_bytes(neg), q)));
    const auto no = pairing_check(cat(g1_bytes(kG1Generator), q));
    ASSERT_TRUE(yes && no);
    EXPECT_TRUE(*yes);
    EXPECT_FALSE(*no);
    EXPECT_EQ(pairing_check({}).error(), (Error{Errc::bad_length, 0}));
}

TEST(Eip2537, MapsLandInTheSubgroups) {
    Bytes u(64, 0);
    u[63] = 7;
    const auto p = map_fp_to_g1(u);
    ASSERT_TRUE(p);
    // An MSM checks the subgroup of its input: the mapped point must pass it.
    EXPECT_TRUE(g1_msm(cat(Bytes(p->begin(), p->end()), scalar(1))).has_value());
    Bytes u2(128, 0);
    u2[63] = 7, u2[127] = 9;
    const auto q = map_fp2_to_g2(u2);
    ASSERT_TRUE(q);
    EXPECT_TRUE(g2_msm(cat(Bytes(q->begin(), q->end()), scalar(1))).has_value());
}

TEST(Eip2537, ErrorsNameTheElement) {
    const Bytes g = g1_bytes(kG1Generator);
    Bytes padded = cat(g, g);
    padded[128] = 1;  // the second point's x has a non-zero top byte
    EXPECT_EQ(g1_add(padded).error(), (Error{Errc::bad_padding, 128}));
    Bytes off = cat(g, g);
    off[255] ^= 1;  // the second point's y changed: off the curve
    EXPECT_EQ(g1_add(off).error(), (Error{Errc::not_on_curve, 128}));
    Bytes big(64, 0xff);
    std::fill(big.begin(), big.begin() + 16, 0);
    EXPECT_EQ(map_fp_to_g1(big).error(), (Error{Errc::not_in_field, 0}));
    EXPECT_EQ(g1_add(g).error().code, Errc::bad_length);
    EXPECT_EQ(g1_msm(g).error().code, Errc::bad_length);
}

TEST(Eip2537, DiscountTables) {
    EXPECT_EQ(msm_discount(1, false), 1000u);
    EXPECT_EQ(msm_discount(2, false), 949u);
    EXPECT_EQ(msm_discount(128, false), 519u);
    EXPECT_EQ(msm_discount(1000, false), 519u);
    EXPECT_EQ(msm_discount(2, true), 1000u);
    EXPECT_EQ(msm_discount(128, true), 524u);
}

}  // namespace
}  // namespace keel::bls::eip2537
