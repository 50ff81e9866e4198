#include "keel/common/hex.hpp"

#include <gtest/gtest.h>

#include <string>

namespace keel {
namespace {

Bytes b(std::initializer_list<int> v) {
    Bytes out;
    for (int x : v) out.push_back(static_cast<std::uint8_t>(x));
    return out;
}

TEST(Hex, EncodesEveryByteValueLowerCase) {
    Bytes all(256);
    for (int i = 0; i < 256; ++i) all[i] = static_cast<std::uint8_t>(i);
    std::string s = hex::encode(all);
    ASSERT_EQ(s.size(), 512u);
    const char* digits = "0123456789abcdef";
    for (int i = 0; i < 256; ++i) {
        EXPECT_EQ(s[2 * i], digits[i >> 4]) << i;
        EXPECT_EQ(s[2 * i + 1], digits[i & 15]) << i;
    }
}

TEST(Hex, PrefixAndPadding) {
    EXPECT_EQ(hex::encode({}), "");
    EXPECT_EQ(hex::encode_prefixed({}), "0x");
    EXPECT_EQ(hex::encode(b({0xde, 0xad}), {.prefix = true}), "0xdead");
    EXPECT_EQ(hex::encode(b({0x01}), {.prefix = true, .width = 8}), "0x00000001");
    EXPECT_EQ(hex::encode(b({0xab, 0xcd}), {.width = 2}), "abcd");  // width below size: no cut
    EXPECT_EQ(hex::encoded_size(2, {.prefix = true, .width = 64}), 66u);
    std::string padded = hex::encode(b({0xff}), {.width = 64});
    EXPECT_EQ(padded, std::string(62, '0') + "ff");
}

TEST(Hex, EncodeToWritesOnlyItsSize) {
    char buf[16];
    std::fill(std::begin(buf), std::end(buf), '#');
    std::size_t n = hex::encode_to(b({0x12, 0x34}), buf, {.prefix = true});
    EXPECT_EQ(n, 6u);
    EXPECT_EQ(std::string(buf, 7), "0x1234#");
}

TEST(Hex, AppendKeepsExistingText) {
    std::string s = "[";
    hex::append(s, b({0x0a}), {.prefix = true});
    s += "]";
    EXPECT_EQ(s, "[0x0a]");
}

TEST(Hex, DecodesBothCasesWithAndWithoutPrefix) {
    EXPECT_EQ(hex::decode("").value(), Bytes{});
    EXPECT_EQ(hex::decode("0x").value(), Bytes{});
    EXPECT_EQ(hex::decode("0X").value(), Bytes{});
    EXPECT_EQ(hex::decode("00ff7F80").value(), b({0x00, 0xff, 0x7f, 0x80}));
    EXPECT_EQ(hex::decode("0xDeadBEEF").value(), b({0xde, 0xad, 0xbe, 0xef}));
}

struct BadHex {
    const char* input;
    hex::Errc code;
    std::size_t offset;
};

TEST(Hex, RejectsBadInputNamingTheOffset) {
    const BadHex cases[] = {
        {"0", hex::Errc::odd_length, 1},         {"0x123", hex::Errc::odd_length, 5},
        {"zz", hex::Errc::invalid_digit, 0},     {"0xzz", hex::Errc::invalid_digit, 2},
        {"0a0g", hex::Errc::invalid_digit, 3},   {"12 34", hex::Errc::invalid_digit, 2},
        {"0x0x", hex::Errc::invalid_digit, 3},   {"abc-", hex::Errc::invalid_digit, 3},
        {"ab\xff", hex::Errc::invalid_digit, 2}, {"ab0", hex::Errc::odd_length, 3},
        {"g", hex::Errc::invalid_digit, 0},
    };
    for (const auto& c : cases) {
        auto r = hex::decode(c.input);
        ASSERT_FALSE(r.has_value()) << c.input;
        EXPECT_EQ(r.error().code, c.code) << c.input;
        EXPECT_EQ(r.error().offset, c.offset) << c.input;
    }
}

TEST(Hex, ErrorMessageNamesProblemAndOffset) {
    auto r = hex::decode("0x12zz");
    ASSERT_FALSE(r);
    EXPECT_EQ(to_string(r.error()), "invalid hex digit at offset 4");
}

TEST(Hex, DecodeFixed) {
    auto a = hex::decode_fixed<Address>("0x00000000000000000000000000000000deadbeef");
    ASSERT_TRUE(a);
    EXPECT_EQ((*a)[19], 0xef);
    EXPECT_EQ((*a)[15], 0x00);
    auto short_one = hex::decode_fixed<Address>("0xdeadbeef");
    ASSERT_FALSE(short_one);
    EXPECT_EQ(short_one.error().code, hex::Errc::wrong_size);
    auto bad = hex::decode_fixed<FixedBytes<2>>("0xq000");
    ASSERT_FALSE(bad);
    EXPECT_EQ(bad.error().code, hex::Errc::invalid_digit);
    EXPECT_EQ(bad.error().offset, 2u);
}

TEST(Hex, RoundTripsRandomData) {
    std::uint64_t x = 0x9e3779b97f4a7c15ull;
    for (std::size_t len = 0; len < 300; ++len) {
        Bytes in(len);
        for (auto& v : in) {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            v = static_cast<std::uint8_t>(x);
        }
        EXPECT_EQ(hex::decode(hex::encode_prefixed(in)).value(), in);
    }
}

}  // namespace
}  // namespace keel
