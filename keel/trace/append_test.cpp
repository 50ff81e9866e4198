// The tracers' number and hex writers against independent formatters (std::to_chars, Uint256's
// own hex) on edge values and on a million pseudo-random ones of every length.
#include "keel/trace/append.hpp"

#include <charconv>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace keel::trace {
namespace {

std::string dec_ref(std::int64_t v) {
    char b[24];
    return {b, std::to_chars(b, b + sizeof b, v).ptr};
}

std::string dec_ref(std::uint64_t v) {
    char b[24];
    return {b, std::to_chars(b, b + sizeof b, v).ptr};
}

// A writer may store past the end it returns, within its maximum size: each call gets a buffer
// poisoned with 'Z', which must be intact past that size.
template <class Write>
std::string written(Write&& w) {
    std::string buf(2 * kMaxWordBytes, 'Z');
    char* end = w(buf.data());
    EXPECT_LE(static_cast<std::size_t>(end - buf.data()), kMaxWordBytes);
    EXPECT_EQ(buf.substr(kMaxWordBytes), std::string(kMaxWordBytes, 'Z'));
    buf.resize(static_cast<std::size_t>(end - buf.data()));
    return buf;
}

// Values around every power of two and of ten, and random values of every bit length.
std::vector<std::uint64_t> u64_values() {
    std::vector<std::uint64_t> v = {
        0, 1, 9, 10, 99, 100, std::numeric_limits<std::uint64_t>::max()};
    for (unsigned b = 0; b < 64; ++b) {
        const std::uint64_t p = std::uint64_t{1} << b;
        v.insert(v.end(), {p - 1, p, p + 1});
    }
    for (std::uint64_t p = 10; p < 10000000000000000000ull; p *= 10)
        v.insert(v.end(), {p - 1, p, p + 1});
    v.push_back(10000000000000000000ull - 1);
    v.push_back(10000000000000000000ull);
    std::mt19937_64 rng(7);
    for (int i = 0; i < 200000; ++i) v.push_back(rng() >> (rng() % 64));
    return v;
}

TEST(TraceAppend, DecimalMatchesToChars) {
    for (const std::uint64_t x : u64_values()) {
        ASSERT_EQ(written([x](char* p) { return write_dec(p, x); }), dec_ref(x)) << x;
        const auto s = static_cast<std::int64_t>(x);
        ASSERT_EQ(written([s](char* p) { return write_dec(p, s); }), dec_ref(s)) << s;
        // The negation modulo 2^64 (the minimum stays itself).
        const auto n = static_cast<std::int64_t>(~x + 1);
        ASSERT_EQ(written([n](char* p) { return write_dec(p, n); }), dec_ref(n)) << n;
    }
    EXPECT_EQ(
        written([](char* p) { return write_dec(p, std::numeric_limits<std::int64_t>::min()); }),
        "-9223372036854775808");
}

TEST(TraceAppend, QuantityAndWordMatchUint256Hex) {
    const auto u64s = u64_values();
    std::mt19937_64 rng(11);
    for (std::size_t i = 0; i < u64s.size(); ++i) {
        // One limb from the list at a random position, the limbs above it zero or random.
        std::uint64_t l[4] = {0, 0, 0, 0};
        const std::size_t top = rng() % 4;
        l[top] = u64s[i];
        for (std::size_t j = 0; j < top; ++j) l[j] = (rng() % 3 == 0) ? 0 : rng();
        const Uint256 v = Uint256::from_limbs(l[0], l[1], l[2], l[3]);
        ASSERT_EQ(written([&v](char* p) { return write_quantity(p, v); }), '"' + v.to_hex() + '"');
        std::uint8_t be[32];
        v.to_be_bytes(be);
        ASSERT_EQ(written([&v](char* p) { return write_word(p, v); }),
                  "\"0x" + hex::encode(BytesView(be, 32)) + '"');
    }
    EXPECT_EQ(written([](char* p) { return write_quantity(p, Uint256{}); }), "\"0x0\"");
}

TEST(TraceAppend, AppendGrowsTheStringAndKeepsWhatItHeld) {
    std::string out = "x";
    for (int i = 0; i < 10000; ++i) {
        append_dec(out, std::uint64_t(i));
        append_quantity(out, Uint256(static_cast<std::uint64_t>(i)));
    }
    std::string want = "x";
    for (int i = 0; i < 10000; ++i)
        want +=
            dec_ref(std::uint64_t(i)) + '"' + Uint256(static_cast<std::uint64_t>(i)).to_hex() + '"';
    EXPECT_EQ(out, want);
}

}  // namespace
}  // namespace keel::trace
