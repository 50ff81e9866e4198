#include "keel/rlp/encode.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "keel/common/hex.hpp"
#include "keel/rlp/decode.hpp"
#include "test/testutil/data.hpp"
#include "test/testutil/vectors.hpp"

namespace keel::rlp {
namespace {

using testutil::filler;
using testutil::from_hex;

std::string hex_of(BytesView b) {
    return hex::encode(b);
}

// The length functions are usable at compile time.
static_assert(be_length(0) == 0 && be_length(1) == 1 && be_length(255) == 1 &&
              be_length(256) == 2 && be_length(~0ull) == 8);
static_assert(header_length(55) == 1 && header_length(56) == 2 && header_length(256) == 3);
static_assert(string_length_for(1, 0x7f) == 1 && string_length_for(1, 0x80) == 2);
static_assert(string_length_for(0, 0) == 1 && string_length_for(55, 0) == 56 &&
              string_length_for(56, 0) == 58);
static_assert(list_length(0) == 1 && list_length(55) == 56 && list_length(56) == 58);
static_assert(uint_length(0) == 1 && uint_length(127) == 1 && uint_length(128) == 2 &&
              uint_length(~0ull) == 9);

TEST(RlpEncode, Strings) {
    struct Row {
        Bytes in;
        std::string prefix;  // expected header hex; the payload follows unchanged
    };
    for (const Row& row : std::vector<Row>{
             {{}, "80"},
             {{0x00}, "00"},
             {{0x7f}, "7f"},
             {{0x80}, "81"},
             {{0xff}, "81"},
             {{0x00, 0x00}, "82"},
             {filler(55), "b7"},
             {filler(56), "b838"},
             {filler(255), "b8ff"},
             {filler(256), "b90100"},
             {filler(65535), "b9ffff"},
             {filler(65536), "ba010000"},
         }) {
        SCOPED_TRACE(row.in.size());
        Encoder e;
        e.add_string(row.in);
        Bytes want = from_hex(row.prefix);
        if (!(row.in.size() == 1 && row.in[0] < 0x80))
            want.insert(want.end(), row.in.begin(), row.in.end());
        EXPECT_EQ(hex_of(e.view()), hex_of(want));
        EXPECT_EQ(string_length(row.in), e.size());
        EXPECT_TRUE(validate(e.view()));
    }
    Encoder e;
    e.add_string(as_bytes("dog"));
    EXPECT_EQ(hex_of(e.view()), "83646f67");
}

TEST(RlpEncode, Integers) {
    struct Row {
        std::uint64_t v;
        const char* hex;
    };
    for (const Row& row : std::vector<Row>{{0, "80"},
                                           {1, "01"},
                                           {15, "0f"},
                                           {127, "7f"},
                                           {128, "8180"},
                                           {255, "81ff"},
                                           {256, "820100"},
                                           {1000, "8203e8"},
                                           {100000, "830186a0"},
                                           {0xffffffffull, "84ffffffff"},
                                           {0x0100000000ull, "850100000000"},
                                           {~0ull, "88ffffffffffffffff"}}) {
        SCOPED_TRACE(row.v);
        Encoder e;
        e.add_uint(row.v);
        EXPECT_EQ(hex_of(e.view()), row.hex);
        EXPECT_EQ(uint_length(row.v), e.size());
        Decoder d(e.view());
        EXPECT_EQ(d.next_uint<std::uint64_t>().value(), row.v);
    }
}

TEST(RlpEncode, Uint256) {
    struct Row {
        Uint256 v;
        std::string hex;
    };
    for (const Row& row :
         std::vector<Row>{{Uint256(0), "80"},
                          {Uint256(127), "7f"},
                          {Uint256(128), "8180"},
                          {Uint256::from_limbs(0, 1, 0, 0), "89010000000000000000"},
                          {Uint256::max(), "a0" + std::string(64, 'f')}}) {
        SCOPED_TRACE(row.hex);
        Encoder e;
        e.add_uint256(row.v);
        EXPECT_EQ(hex_of(e.view()), row.hex);
        EXPECT_EQ(uint256_length(row.v), e.size());
        Decoder d(e.view());
        EXPECT_EQ(d.next_uint256().value(), row.v);
    }
}

TEST(RlpEncode, IntegerBytesStripLeadingZeros) {
    struct Row {
        const char* in;
        const char* out;
    };
    for (const Row& row :
         std::vector<Row>{{"", "80"},
                          {"00", "80"},
                          {"0000", "80"},
                          {"05", "05"},
                          {"0005", "05"},
                          {"0080", "8180"},
                          {"000100", "820100"},
                          {"102030405060708090a0b0c0d0e0f2", "8f102030405060708090a0b0c0d0e0f2"}}) {
        SCOPED_TRACE(row.in);
        Bytes in = from_hex(row.in);
        Encoder e;
        e.add_uint_bytes(in);
        EXPECT_EQ(hex_of(e.view()), row.out);
        EXPECT_EQ(uint_bytes_length(in), e.size());
    }
    Bytes word(32, 0);
    word[31] = 1;
    EXPECT_EQ(hex_of(strip_leading_zeros(word)), "01");
}

TEST(RlpEncode, ListsWithKnownLength) {
    Encoder e;
    e.add_list_header(0);
    EXPECT_EQ(hex_of(e.view()), "c0");
    e.clear();
    // ["dog", "god", "cat"]
    const std::size_t payload = 3 * string_length(as_bytes("dog"));
    e.add_list_header(payload)
        .add_string(as_bytes("dog"))
        .add_string(as_bytes("god"))
        .add_string(as_bytes("cat"));
    EXPECT_EQ(hex_of(e.view()), "cc83646f6783676f6483636174");
    EXPECT_EQ(list_length(payload), e.size());

    for (std::size_t n : {55u, 56u, 255u, 256u, 65536u}) {
        SCOPED_TRACE(n);
        Encoder l;
        l.add_list_header(n);
        for (std::size_t i = 0; i < n; ++i) l.add_uint(1);
        EXPECT_EQ(l.size(), list_length(n));
        auto item = decode_single(l.view());
        ASSERT_TRUE(item) << to_string(item.error());
        EXPECT_TRUE(item->is_list);
        EXPECT_EQ(item->payload.size(), n);
        EXPECT_EQ(item->header_size, header_length(n));
    }
}

TEST(RlpEncode, BeginEndListMatchesKnownLength) {
    // Payload sizes around the short/long boundary and the 1/2-byte length boundary.
    for (std::size_t n : {0u, 1u, 54u, 55u, 56u, 57u, 255u, 256u, 257u, 70000u}) {
        SCOPED_TRACE(n);
        Encoder a, b;
        a.add_list_header(n);
        auto m = b.begin_list();
        for (std::size_t i = 0; i < n; ++i) {
            a.add_uint(i % 100 + 1);
            b.add_uint(i % 100 + 1);
        }
        b.end_list(m);
        EXPECT_EQ(hex_of(a.view()), hex_of(b.view()));
    }
}

TEST(RlpEncode, NestedBeginEndList) {
    // [[], [[]], [[], [[]]]] = c7c0c1c0c3c0c1c0 (the set-theoretic 3).
    Encoder e;
    auto outer = e.begin_list();
    e.end_list(e.begin_list());
    {
        auto one = e.begin_list();
        e.end_list(e.begin_list());
        e.end_list(one);
    }
    {
        auto two = e.begin_list();
        e.end_list(e.begin_list());
        auto inner = e.begin_list();
        e.end_list(e.begin_list());
        e.end_list(inner);
        e.end_list(two);
    }
    e.end_list(outer);
    EXPECT_EQ(hex_of(e.view()), "c7c0c1c0c3c0c1c0");

    // Nested long lists: each level's header grows and moves the bytes after it.
    Encoder l;
    auto top = l.begin_list();
    l.add_string(filler(10));
    auto mid = l.begin_list();
    l.add_string(filler(300));
    auto low = l.begin_list();
    l.add_string(filler(60));
    l.end_list(low);
    l.end_list(mid);
    l.add_uint(7);
    l.end_list(top);
    ASSERT_TRUE(validate(l.view()));
    auto d = open_list(l.view());
    ASSERT_TRUE(d);
    EXPECT_EQ(d->next_string().value().size(), 10u);
    auto m = d->next_list();
    ASSERT_TRUE(m);
    EXPECT_EQ(m->next_string().value().size(), 300u);
    auto lo = m->next_list();
    ASSERT_TRUE(lo);
    EXPECT_EQ(lo->next_string().value().size(), 60u);
    EXPECT_TRUE(lo->finish());
    EXPECT_TRUE(m->finish());
    EXPECT_EQ(d->next_uint<std::uint8_t>().value(), 7u);
    EXPECT_TRUE(d->finish());
}

TEST(RlpEncode, RawItemsAndCallerBuffer) {
    Bytes buf = from_hex("ff");  // existing bytes are kept: the encoder appends
    {
        Encoder e(buf);
        e.add_raw(from_hex("c0")).add_uint(0);
        EXPECT_EQ(e.size(), 3u);
        EXPECT_EQ(hex_of(e.view()), "ffc080");
    }
    EXPECT_EQ(hex_of(buf), "ffc080");

    Encoder e(buf);
    e.clear();
    EXPECT_EQ(e.size(), 0u);
    EXPECT_TRUE(e.view().empty());
    e.add_string(as_bytes("hi"));
    Bytes taken = e.take();
    EXPECT_EQ(hex_of(taken), "826869");
    EXPECT_TRUE(buf.empty());

    // While the encoder lives the vector may be longer than the encoding; trim() cuts it.
    Encoder grow(buf);
    grow.add_uint(1000);
    EXPECT_EQ(hex_of(grow.view()), "8203e8");
    grow.trim();
    EXPECT_EQ(hex_of(buf), "8203e8");
}

TEST(RlpEncode, ClearKeepsCapacityAndReserveAvoidsGrowth) {
    Encoder e;
    e.reserve(970);  // exactly what follows: no growth on the way
    const std::uint8_t* data = e.view().data();
    for (int i = 0; i < 10; ++i) e.add_string(filler(95));  // 10 * 97 = 970 bytes
    EXPECT_EQ(e.size(), 970u);
    EXPECT_EQ(e.view().data(), data);  // no reallocation
    e.clear();
    EXPECT_EQ(e.size(), 0u);
    e.add_string(filler(95));
    EXPECT_EQ(e.view().data(), data);  // same storage reused
}

TEST(RlpEncode, MovesKeepTheBuffer) {
    Encoder a;
    a.add_uint(5);
    Encoder b(std::move(a));
    b.add_uint(6);
    EXPECT_EQ(hex_of(b.view()), "0506");
    Encoder c;
    c = std::move(b);
    c.add_uint(7);
    EXPECT_EQ(hex_of(c.view()), "050607");

    Bytes ext;
    Encoder x(ext);
    {
        Encoder y(std::move(x));
        y.add_uint(1);
        EXPECT_EQ(y.view().data(), ext.data());  // still the caller's buffer
    }
    EXPECT_EQ(hex_of(ext), "01");  // cut back to the encoding when y went away
}

TEST(RlpEncodeDeath, EndListOutOfOrderAsserts) {
    EXPECT_DEATH(
        {
            Encoder e;
            auto outer = e.begin_list();
            auto inner = e.begin_list();
            (void)inner;
            e.end_list(outer);
        },
        "assertion failed");
}

// Length functions agree with what the encoder writes, for every string length up to 70000 and
// every first byte at length 1.
TEST(RlpEncode, LengthFunctionsMatchOutput) {
    for (int b = 0; b < 256; ++b) {
        Bytes s{static_cast<std::uint8_t>(b)};
        Encoder e;
        e.add_string(s);
        EXPECT_EQ(string_length(s), e.size()) << b;
        EXPECT_EQ(string_length_for(1, static_cast<std::uint8_t>(b)), e.size()) << b;
    }
    Bytes big = filler(70000);
    Encoder e;
    for (std::size_t n = 0; n <= big.size(); n += (n < 300 ? 1 : 997)) {
        e.clear();
        e.add_string(BytesView(big).first(n));
        ASSERT_EQ(string_length_for(n, 0xaa), e.size()) << n;
        e.clear();
        e.add_list_header(n);
        ASSERT_EQ(header_length(n), e.size()) << n;
    }
    for (int shift = 0; shift < 64; ++shift) {
        for (std::uint64_t v : {(1ull << shift) - 1, 1ull << shift, (1ull << shift) + 1}) {
            e.clear();
            e.add_uint(v);
            ASSERT_EQ(uint_length(v), e.size()) << v;
        }
    }
}

}  // namespace
}  // namespace keel::rlp
