// The Engine API's JWT check: a token made by Python's hmac and base64 modules (an independent
// HS256), and every way a token can be wrong.
#include "keel/rpc/jwt.hpp"

#include <gtest/gtest.h>

#include <fstream>

#include "keel/common/hex.hpp"
#include "test/testutil/temp_dir.hpp"

namespace keel::rpc::jwt_test {
namespace {

// hive's secret: the 32 ASCII bytes "secretsecretsecretsecretsecretse".
const Bytes32 kSecret =
    *hex::decode_fixed<Bytes32>("7365637265747365637265747365637265747365637265747365637265747365");
constexpr std::int64_t kIat = 1700000000;
// python3: base64url(header) . base64url({"iat":1700000000}) . base64url(HMAC-SHA256(...)).
constexpr std::string_view kToken =
    "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJpYXQiOjE3MDAwMDAwMDB9."
    "M2nY84VaM-AUfRGDPC_vdyUsN1rvFs8UaGBU76h2vK4";

std::string bearer(std::string_view token) {
    return "Bearer " + std::string(token);
}

TEST(Jwt, AnIndependentlyMadeTokenIsAcceptedAndMadeAlike) {
    EXPECT_EQ(make_jwt(kSecret, kIat), kToken);
    EXPECT_EQ(check_jwt(bearer(kToken), kSecret, kIat), std::nullopt);
    EXPECT_EQ(check_jwt(bearer(kToken), kSecret, kIat + 60), std::nullopt);
    EXPECT_EQ(check_jwt(bearer(kToken), kSecret, kIat - 60), std::nullopt);
}

TEST(Jwt, EveryWayATokenCanBeWrongIsRefused) {
    const auto refused = [](std::string_view auth, std::int64_t now, std::string_view why) {
        const auto r = check_jwt(auth, kSecret, now);
        ASSERT_TRUE(r.has_value()) << auth;
        EXPECT_NE(r->find(why), std::string::npos) << *r;
    };
    refused("", kIat, "missing token");
    refused(kToken, kIat, "not a Bearer token");
    refused(bearer(kToken), kIat + 61, "stale token");
    refused(bearer(kToken), kIat - 61, "stale token");
    Bytes32 other = kSecret;
    other[0] ^= 1;
    refused(bearer(make_jwt(other, kIat)), kIat, "signature invalid");
    // A claim changed after signing.
    std::string tampered(kToken);
    tampered[tampered.find('.') + 3] ^= 1;
    refused(bearer(tampered), kIat, "");
    // alg "none" (no signature), a missing iat, and shapes that are not tokens.
    refused(bearer("eyJhbGciOiJub25lIn0.eyJpYXQiOjE3MDAwMDAwMDB9."), kIat, "HS256");
    refused(bearer("a.b"), kIat, "malformed");
    refused(bearer("a.b.c.d"), kIat, "malformed");
    refused(bearer("!!!.???.***"), kIat, "base64url");
}

TEST(Jwt, SecretFilesAreReadAndCreated) {
    testutil::TempDir dir("jwt");
    const auto path = dir.path() / "jwtsecret";
    auto made = create_jwt_secret(path);
    ASSERT_TRUE(made.has_value()) << made.error();
    auto read = read_jwt_secret(path);
    ASSERT_TRUE(read.has_value()) << read.error();
    EXPECT_EQ(*read, *made);
    EXPECT_FALSE(create_jwt_secret(path).has_value()) << "an existing secret is never replaced";
    {
        std::ofstream(path)
            << "  0x7365637265747365637265747365637265747365637265747365637265747365\n";
    }
    EXPECT_EQ(read_jwt_secret(path).value(), kSecret);
    {
        std::ofstream(path) << "0x1234";
    }
    EXPECT_NE(read_jwt_secret(path).error().find("want 64 hex digits, got 4"), std::string::npos);
    EXPECT_FALSE(read_jwt_secret(dir.path() / "missing").has_value());
}

}  // namespace
}  // namespace keel::rpc::jwt_test
