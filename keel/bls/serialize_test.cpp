// ZCash point encodings: a table of good and bad inputs per rule, round trips, and every
// deserialization_G1 / deserialization_G2 file of ethereum/bls12-381-tests (v0.1.2 and the
// unreleased mask-bit cases).
#include "keel/bls/serialize.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "keel/bls/g1.hpp"
#include "keel/bls/g2.hpp"
#include "test/testutil/vectors.hpp"

namespace keel::bls {
namespace {

using testutil::from_hex;

Scalar scalar_from(std::uint64_t seed) {
    std::mt19937_64 r(seed);
    return Scalar(std::array<std::uint64_t, 4>{r(), r(), r(), r() >> 2});
}

template <std::size_t N>
Bytes to_vec(const std::array<std::uint8_t, N>& a) {
    return Bytes(a.begin(), a.end());
}

TEST(BlsSerialize, RoundTripG1) {
    for (std::uint64_t s = 1; s <= 16; ++s) {
        const G1Affine p = g1_generator().mul_vartime(scalar_from(s)).to_affine();
        for (const Bytes& enc : {to_vec(g1_compress(p)), to_vec(g1_serialize(p))}) {
            const auto back = g1_from_bytes(enc, SubgroupCheck::kCheck);
            ASSERT_TRUE(back.has_value()) << to_string(back.error());
            EXPECT_EQ(*back, p);
        }
        // The other root: flip the sort flag and get -P.
        auto c = g1_compress(p);
        c[0] ^= 0x20;
        const auto neg = g1_from_bytes(c, SubgroupCheck::kCheck);
        ASSERT_TRUE(neg.has_value());
        EXPECT_EQ(*neg, (-G1Jacobian::from_affine(p)).to_affine());
    }
    const G1Affine inf = G1Jacobian::identity().to_affine();
    EXPECT_EQ(to_vec(g1_compress(inf)), from_hex("c0" + std::string(94, '0')));
    EXPECT_EQ(to_vec(g1_serialize(inf)), from_hex("40" + std::string(190, '0')));
    EXPECT_TRUE(g1_from_bytes(to_vec(g1_serialize(inf)), SubgroupCheck::kCheck)->infinity);
}

TEST(BlsSerialize, RoundTripG2) {
    for (std::uint64_t s = 1; s <= 8; ++s) {
        const G2Affine p = g2_generator().mul_vartime(scalar_from(s)).to_affine();
        for (const Bytes& enc : {to_vec(g2_compress(p)), to_vec(g2_serialize(p))}) {
            const auto back = g2_from_bytes(enc, SubgroupCheck::kCheck);
            ASSERT_TRUE(back.has_value()) << to_string(back.error());
            EXPECT_EQ(*back, p);
        }
    }
    const G2Affine inf = G2Jacobian::identity().to_affine();
    EXPECT_EQ(to_vec(g2_compress(inf)), from_hex("c0" + std::string(190, '0')));
    EXPECT_EQ(to_vec(g2_serialize(inf)), from_hex("40" + std::string(382, '0')));
}

TEST(BlsSerialize, GeneratorEncodings) {
    // The well-known compressed generators.
    EXPECT_EQ(
        to_vec(g1_compress(kG1Generator)),
        from_hex("97f1d3a73197d7942695638c4fa9ac0fc3688c4f9774b905a14e3a3f171bac586c55e83ff97a"
                 "1aeffb3af00adb22c6bb"));
    EXPECT_EQ(
        to_vec(g2_compress(kG2Generator)),
        from_hex("93e02b6052719f607dacd3a088274f65596bd0d09920b61ab5da61bbdc7f5049334cf11213945d"
                 "57e5ac7d055d042b7e024aa2b2f08f0a91260805272dc51051c6e47ad4fa403b02b4510b647ae3"
                 "d1770bac0326a805bbefd48056c8c121bdb8"));
}

/// Decodes hex (G1 when `g1`) and returns the error code, or nullopt on success.
std::optional<Errc> g1_err(const std::string& hex, SubgroupCheck c = SubgroupCheck::kCheck) {
    const auto r = g1_from_bytes(from_hex(hex), c);
    if (r) return std::nullopt;
    EXPECT_FALSE(describe(r.error().code).empty());
    return r.error().code;
}
std::optional<Errc> g2_err(const std::string& hex, SubgroupCheck c = SubgroupCheck::kCheck) {
    const auto r = g2_from_bytes(from_hex(hex), c);
    if (r) return std::nullopt;
    return r.error().code;
}

TEST(BlsSerialize, BadInputsG1) {
    const std::string z94(94, '0'), z190(190, '0');
    const std::string p_hex =
        "1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffff"
        "ffaaab";
    EXPECT_EQ(g1_err(""), Errc::bad_length);
    EXPECT_EQ(g1_err("c0" + z94 + "00"), Errc::bad_length);
    EXPECT_EQ(g1_err("40" + z94), Errc::bad_compression_flag);   // 48 bytes, not compressed
    EXPECT_EQ(g1_err("c0" + z190), Errc::bad_compression_flag);  // 96 bytes, compressed
    EXPECT_EQ(g1_err("e0" + z94), Errc::infinity_with_sort_flag);
    EXPECT_EQ(g1_err("c1" + z94), Errc::infinity_not_zero);
    EXPECT_EQ(g1_err("c0" + std::string(93, '0') + "1"), Errc::infinity_not_zero);
    EXPECT_EQ(g1_err("40" + std::string(189, '0') + "1"), Errc::infinity_not_zero);
    EXPECT_EQ(g1_err("a0" + z94), Errc::not_in_subgroup);  // (0, -2) sorted: order 3
    EXPECT_EQ(g1_err("20" + z190), Errc::sort_flag_uncompressed);
    EXPECT_EQ(g1_err("9" + p_hex.substr(1)), Errc::coordinate_too_large);  // x = p
    // x = 0 compressed: y^2 = 4, on the curve, (0, ±2) has order 3: not in G1.
    EXPECT_EQ(g1_err("80" + z94), Errc::not_in_subgroup);
    EXPECT_EQ(g1_err("80" + z94, SubgroupCheck::kSkip), std::nullopt);
    // x = 1: 1 + 4 = 5 is not a square mod p (p = 3 mod 4 and 5 is a non-residue here).
    const auto x1 = g1_err("80" + std::string(93, '0') + "1");
    EXPECT_TRUE(x1 == Errc::x_not_on_curve || x1 == Errc::not_in_subgroup);
    // Uncompressed (0, 1) is not on the curve; (0, 2) is, but not in G1; y = p is out of range.
    EXPECT_EQ(g1_err("00" + z94 + std::string(95, '0') + "1"), Errc::not_on_curve);
    EXPECT_EQ(g1_err("00" + z94 + std::string(95, '0') + "2"), Errc::not_in_subgroup);
    EXPECT_EQ(g1_err("00" + z94 + p_hex), Errc::coordinate_too_large);
    const auto e = g1_from_bytes(from_hex("00" + z94 + p_hex), SubgroupCheck::kCheck);
    EXPECT_EQ(e.error().offset, 48u);
    EXPECT_EQ(to_string(e.error()), "coordinate is not below the field modulus at offset 48");
}

TEST(BlsSerialize, BadInputsG2) {
    const std::string z190(190, '0');
    const std::string p_hex =
        "1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffff"
        "ffaaab";
    EXPECT_EQ(g2_err("c0" + z190.substr(0, 94)), Errc::bad_length);
    EXPECT_EQ(g2_err("40" + z190), Errc::bad_compression_flag);
    EXPECT_EQ(g2_err("e0" + z190), Errc::infinity_with_sort_flag);
    EXPECT_EQ(g2_err("c0" + std::string(189, '0') + "1"), Errc::infinity_not_zero);
    EXPECT_EQ(g2_err("20" + z190 + std::string(192, '0')), Errc::sort_flag_uncompressed);
    // x.c0 = p (offset 48).
    const auto r =
        g2_from_bytes(from_hex("80" + std::string(94, '0') + p_hex), SubgroupCheck::kSkip);
    ASSERT_FALSE(r.has_value());
    EXPECT_EQ(r.error().code, Errc::coordinate_too_large);
    EXPECT_EQ(r.error().offset, 48u);
    // A point of E2 outside G2: decodes without the subgroup check only.
    for (std::uint64_t i = 1;; ++i) {
        const Fp2 x{Fp::from_u64(i), Fp::one()};
        const auto y = (x.square() * x + kB2).sqrt();
        if (!y) continue;
        const auto enc = to_vec(g2_compress(G2Affine{x, *y}));
        EXPECT_TRUE(g2_from_bytes(enc, SubgroupCheck::kSkip).has_value());
        EXPECT_EQ(g2_from_bytes(enc, SubgroupCheck::kCheck).error().code, Errc::not_in_subgroup);
        const auto full = to_vec(g2_serialize(G2Affine{x, *y}));
        EXPECT_TRUE(g2_from_bytes(full, SubgroupCheck::kSkip).has_value());
        auto bad = full;
        bad.back() ^= 1;
        EXPECT_EQ(g2_from_bytes(bad, SubgroupCheck::kSkip).error().code, Errc::not_on_curve);
        break;
    }
}

/// Runs every file of one deserialization folder; returns the number of cases.
int run_deserialization(const std::string& folder, bool g1) {
    int n = 0;
    for (const auto& entry : std::filesystem::directory_iterator(
             testutil::vectors_dir("bls/ethereum-bls12-381-tests") / folder)) {
        const auto json = testutil::load_json(entry.path());
        const std::string hex = json.at("input").at(g1 ? "pubkey" : "signature").get<std::string>();
        const bool expected = json.at("output").get<bool>();
        const Bytes in = from_hex(hex);
        const bool ok = g1 ? g1_from_bytes(in, SubgroupCheck::kCheck).has_value()
                           : g2_from_bytes(in, SubgroupCheck::kCheck).has_value();
        EXPECT_EQ(ok, expected) << entry.path();
        if (ok && g1) {
            EXPECT_EQ(to_vec(g1_compress(*g1_from_bytes(in, SubgroupCheck::kCheck))), in);
        }
        if (ok && !g1) {
            EXPECT_EQ(to_vec(g2_compress(*g2_from_bytes(in, SubgroupCheck::kCheck))), in);
        }
        ++n;
    }
    return n;
}

TEST(BlsSerializeVectors, DeserializationG1) {
    EXPECT_EQ(run_deserialization("v0.1.2/deserialization_G1", true), 13);
    EXPECT_EQ(run_deserialization("master-unreleased/deserialization_G1", true), 3);
}

TEST(BlsSerializeVectors, DeserializationG2) {
    EXPECT_EQ(run_deserialization("v0.1.2/deserialization_G2", false), 15);
    EXPECT_EQ(run_deserialization("master-unreleased/deserialization_G2", false), 3);
}

}  // namespace
}  // namespace keel::bls
