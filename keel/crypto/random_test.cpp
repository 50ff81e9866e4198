#include "keel/crypto/random.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cerrno>

namespace keel::crypto {
namespace {

bool all_zero(BytesView b) {
    return std::all_of(b.begin(), b.end(), [](std::uint8_t x) { return x == 0; });
}

TEST(RandomBytes, FillsBuffersOfManySizes) {
    for (std::size_t n : {1, 2, 16, 32, 255, 256, 257, 1000, 4096, 65537, 1 << 20}) {
        Bytes buf(n, 0);
        auto r = random_bytes(buf);
        ASSERT_TRUE(r.has_value()) << n << ": " << to_string(r.error());
        if (n >= 16) {
            // Each 16-byte window at the start, middle and end was written: all zero has
            // probability 2^-128, so partial fills (a lost short read) are caught.
            EXPECT_FALSE(all_zero(BytesView(buf).first(16))) << n;
            EXPECT_FALSE(all_zero(BytesView(buf).subspan(n / 2 - 8, 16))) << n;
            EXPECT_FALSE(all_zero(BytesView(buf).last(16))) << n;
        }
    }
}

TEST(RandomBytes, EveryKibibyteOfAMebibyteIsWritten) {
    Bytes buf(1 << 20, 0);
    ASSERT_TRUE(random_bytes(buf).has_value());
    for (std::size_t i = 0; i < buf.size(); i += 1024)
        ASSERT_FALSE(all_zero(BytesView(buf).subspan(i, 1024))) << i;
}

TEST(RandomBytes, TwoCallsDiffer) {
    Bytes a(32), b(32);
    ASSERT_TRUE(random_bytes(a).has_value());
    ASSERT_TRUE(random_bytes(b).has_value());
    EXPECT_NE(a, b);
}

TEST(RandomBytes, EmptyBufferSucceeds) {
    EXPECT_TRUE(random_bytes({}).has_value());
}

TEST(RandomBytes, ByteValuesLookUniform) {
    // A coarse sanity check, not a statistical test suite: in 1 MiB every byte value appears,
    // and none is wildly over-represented (expected 4096 each, sd 64).
    Bytes buf(1 << 20);
    ASSERT_TRUE(random_bytes(buf).has_value());
    std::size_t counts[256] = {};
    for (auto x : buf) ++counts[x];
    for (int v = 0; v < 256; ++v) {
        EXPECT_GT(counts[v], 3500u) << v;
        EXPECT_LT(counts[v], 4700u) << v;
    }
}

TEST(RandomError, Messages) {
    EXPECT_EQ(to_string(RandomError{Errc::random_not_supported, ENOSYS}),
              std::string(describe(Errc::random_not_supported)) + ": " + std::strerror(ENOSYS));
    EXPECT_NE(describe(Errc::random_failed).find("getrandom"), std::string_view::npos);
}

}  // namespace
}  // namespace keel::crypto
