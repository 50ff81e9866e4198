// RFC 9380 vectors (../shared/vectors/bls/rfc9380): expand_message_xmd with SHA-256 (short and
// 256-byte DST), hash_to_field's u values and map_to_curve's Q points of the G2 suites.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "keel/bls/detail/test_values.hpp"
#include "keel/bls/hash_to_curve.hpp"
#include "keel/common/hex.hpp"
#include "test/testutil/vectors.hpp"

namespace keel::bls {
namespace {

nlohmann::json load(const std::string& name) {
    std::ifstream in(testutil::vectors_dir("bls") / "rfc9380" / name);
    EXPECT_TRUE(in.good()) << name;
    return nlohmann::json::parse(in);
}

BytesView text(const std::string& s) {
    return {reinterpret_cast<const std::uint8_t*>(s.data()), s.size()};
}

using test::fp2_of;
using test::fp_of;

TEST(BlsExpandMessage, Rfc9380Vectors) {
    int cases = 0;
    for (const char* file :
         {"expand_message_xmd_SHA256_38.json", "expand_message_xmd_SHA256_256.json"}) {
        const auto j = load(file);
        const std::string dst = j["DST"];
        for (const auto& t : j["tests"]) {
            const std::string msg = t["msg"];
            const std::size_t len = std::stoul(t["len_in_bytes"].get<std::string>(), nullptr, 16);
            const auto got = expand_message_xmd(text(msg), text(dst), len);
            ASSERT_TRUE(got.has_value());
            EXPECT_EQ(hex::encode(*got), t["uniform_bytes"].get<std::string>())
                << file << " " << msg;
            ++cases;
        }
    }
    EXPECT_EQ(cases, 20);
}

TEST(BlsExpandMessage, LengthLimits) {
    EXPECT_FALSE(expand_message_xmd(text("m"), text("d"), 0).has_value());
    EXPECT_FALSE(expand_message_xmd(text("m"), text("d"), 255 * 32 + 1).has_value());
    EXPECT_EQ(expand_message_xmd(text("m"), text("d"), 255 * 32)->size(), 255u * 32);
}

// u = hash_to_field(msg, 2) and Q_i = map_to_curve(u_i) for the random-oracle suite, and
// Q = map_to_curve(u) for the non-uniform one; every Q is on E2.
TEST(BlsHashToCurve, G2MapMatchesRfc9380) {
    int cases = 0;
    for (const char* file :
         {"BLS12381G2_XMD_SHA-256_SSWU_RO_.json", "BLS12381G2_XMD_SHA-256_SSWU_NU_.json"}) {
        const auto j = load(file);
        const std::string dst = j["dst"];
        const bool ro = j["randomOracle"].get<bool>();
        for (const auto& v : j["vectors"]) {
            const std::string msg = v["msg"];
            const auto u = hash_to_field_fp2(text(msg), text(dst), ro ? 2 : 1);
            ASSERT_EQ(u.size(), ro ? 2u : 1u);
            for (std::size_t i = 0; i < u.size(); ++i) {
                EXPECT_EQ(u[i], fp2_of(v["u"][i])) << file << " " << msg << " u" << i;
                const G2Affine q = map_to_curve_g2(u[i]);
                EXPECT_TRUE(q.on_curve());
                const auto& want = ro ? v[i == 0 ? "Q0" : "Q1"] : v["Q"];
                EXPECT_EQ(q.x, fp2_of(want["x"])) << file << " " << msg << " Q" << i;
                EXPECT_EQ(q.y, fp2_of(want["y"])) << file << " " << msg << " Q" << i;
            }
            ++cases;
        }
    }
    EXPECT_EQ(cases, 10);
}

// The same for G1 (11-isogeny), and the final points P of both random-oracle suites.
TEST(BlsHashToCurve, G1MapMatchesRfc9380) {
    int cases = 0;
    for (const char* file :
         {"BLS12381G1_XMD_SHA-256_SSWU_RO_.json", "BLS12381G1_XMD_SHA-256_SSWU_NU_.json"}) {
        const auto j = load(file);
        const std::string dst = j["dst"];
        const bool ro = j["randomOracle"].get<bool>();
        for (const auto& v : j["vectors"]) {
            const std::string msg = v["msg"];
            const auto u = hash_to_field_fp(text(msg), text(dst), ro ? 2 : 1);
            ASSERT_EQ(u.size(), ro ? 2u : 1u);
            G1Jacobian sum;
            for (std::size_t i = 0; i < u.size(); ++i) {
                EXPECT_EQ(u[i], fp_of(v["u"][i])) << file << " " << msg << " u" << i;
                const G1Affine q = map_to_curve_g1(u[i]);
                EXPECT_TRUE(q.on_curve());
                const auto& want = ro ? v[i == 0 ? "Q0" : "Q1"] : v["Q"];
                EXPECT_EQ(q.x, fp_of(want["x"])) << file << " " << msg << " Q" << i;
                EXPECT_EQ(q.y, fp_of(want["y"])) << file << " " << msg << " Q" << i;
                sum = sum + G1Jacobian::from_affine(q);
            }
            const G1Affine p = clear_cofactor_g1(sum).to_affine();
            EXPECT_EQ(p.x, fp_of(v["P"]["x"])) << file << " " << msg;
            EXPECT_EQ(p.y, fp_of(v["P"]["y"])) << file << " " << msg;
            if (ro) {
                EXPECT_EQ(hash_to_g1(text(msg), dst).to_affine(), p) << msg;
            }
            ++cases;
        }
    }
    EXPECT_EQ(cases, 10);
}

TEST(BlsHashToCurve, G2FinalPointsMatchRfc9380) {
    const auto j = load("BLS12381G2_XMD_SHA-256_SSWU_RO_.json");
    const std::string dst = j["dst"];
    for (const auto& v : j["vectors"]) {
        const G2Affine p = hash_to_g2(text(v["msg"].get<std::string>()), dst).to_affine();
        EXPECT_EQ(p.x, fp2_of(v["P"]["x"]));
        EXPECT_EQ(p.y, fp2_of(v["P"]["y"]));
    }
}

// A batch takes its square roots together (eight lanes at a time on AVX-512 IFMA): the points
// must equal the one-element path (map_to_curve_g2 of each u alone takes the scalar roots), for
// batch sizes around the lane count, and the RFC's messages in one batch must give the RFC's P.
TEST(BlsHashToCurve, G2BatchMatchesOneByOne) {
    for (const std::size_t n : {1u, 2u, 3u, 4u, 5u, 8u, 9u, 17u}) {
        std::vector<Bytes> texts;
        std::vector<BytesView> msgs;
        for (std::size_t i = 0; i < n; ++i)
            texts.push_back(Bytes(5 + i, static_cast<std::uint8_t>(i)));
        for (const Bytes& t : texts) msgs.push_back(t);
        std::vector<G2Jacobian> got(n);
        hash_to_g2_many(msgs, got);
        const std::string eth_dst(kEthereumDst);
        for (std::size_t i = 0; i < n; ++i) {
            const auto u = hash_to_field_fp2(msgs[i], text(eth_dst), 2);
            const G2Jacobian expect =
                clear_cofactor_g2(G2Jacobian::from_affine(map_to_curve_g2(u[0])) +
                                  G2Jacobian::from_affine(map_to_curve_g2(u[1])));
            ASSERT_EQ(got[i], expect) << n << " " << i;
            ASSERT_EQ(got[i], hash_to_g2(msgs[i])) << n << " " << i;
        }
    }
    const auto j = load("BLS12381G2_XMD_SHA-256_SSWU_RO_.json");
    const std::string dst = j["dst"];
    std::vector<Bytes> texts;
    for (const auto& v : j["vectors"]) {
        const std::string m = v["msg"].get<std::string>();
        const BytesView b = text(m);
        texts.emplace_back(b.begin(), b.end());
    }
    std::vector<BytesView> msgs(texts.begin(), texts.end());
    std::vector<G2Jacobian> got(msgs.size());
    hash_to_g2_many(msgs, got, dst);
    std::size_t i = 0;
    for (const auto& v : j["vectors"]) {
        const G2Affine p = got[i++].to_affine();
        EXPECT_EQ(p.x, fp2_of(v["P"]["x"]));
        EXPECT_EQ(p.y, fp2_of(v["P"]["y"]));
    }
}

}  // namespace
}  // namespace keel::bls
