#include "keel/rlp/decode.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <ostream>
#include <string>
#include <vector>

#include "keel/common/hex.hpp"
#include "test/testutil/data.hpp"
#include "test/testutil/vectors.hpp"

namespace keel::rlp {

// Readable failures: "<phrase> at offset <n>" instead of the object's bytes.
void PrintTo(const Error& e, std::ostream* os) {
    *os << to_string(e);
}

namespace {

using testutil::filler;
using testutil::from_hex;

Bytes cat(std::initializer_list<Bytes> parts) {
    Bytes out;
    for (const auto& p : parts) out.insert(out.end(), p.begin(), p.end());
    return out;
}

// `depth` lists nested in each other around nothing, built from the inside out with canonical
// headers (long forms once a payload reaches 56 bytes). The innermost c0 is the last byte.
Bytes nested_lists(std::size_t depth) {
    Bytes out;
    for (std::size_t i = 0; i < depth; ++i) {
        const std::size_t n = out.size();
        Bytes h;
        if (n < 56) {
            h = {static_cast<std::uint8_t>(0xc0 + n)};
        } else if (n < 256) {
            h = {0xf8, static_cast<std::uint8_t>(n)};
        } else {
            h = {0xf9, static_cast<std::uint8_t>(n >> 8), static_cast<std::uint8_t>(n)};
        }
        out.insert(out.begin(), h.begin(), h.end());
    }
    return out;
}

std::string show(const Result<void, Error>& r) {
    return r ? std::string("ok") : to_string(r.error());
}

// ---------------------------------------------------------------------------------------------
// Good inputs: validate() accepts them; decode_single() returns the expected top-level shape.

struct Good {
    const char* name;
    Bytes in;
    bool is_list;
    std::size_t header_size;
    std::size_t payload_size;
};

std::vector<Good> good_rows() {
    return {
        {"byte 0x00", from_hex("00"), false, 0, 1},
        {"byte 0x7f", from_hex("7f"), false, 0, 1},
        {"byte 0x80 wrapped", from_hex("8180"), false, 1, 1},
        {"byte 0xff wrapped", from_hex("81ff"), false, 1, 1},
        {"empty string", from_hex("80"), false, 1, 0},
        {"dog", from_hex("83646f67"), false, 1, 3},
        {"string 55", cat({from_hex("b7"), filler(55)}), false, 1, 55},
        {"string 56", cat({from_hex("b838"), filler(56)}), false, 2, 56},
        {"string 255", cat({from_hex("b8ff"), filler(255)}), false, 2, 255},
        {"string 256", cat({from_hex("b90100"), filler(256)}), false, 3, 256},
        {"string 65536", cat({from_hex("ba010000"), filler(65536)}), false, 4, 65536},
        {"empty list", from_hex("c0"), true, 1, 0},
        {"list of empties", from_hex("c3808080"), true, 1, 3},
        {"list 55", cat({from_hex("f7"), filler(55, 0x01)}), true, 1, 55},
        {"list 56", cat({from_hex("f838"), filler(56, 0x01)}), true, 2, 56},
        {"list 1024", cat({from_hex("f90400"), filler(1024, 0x01)}), true, 3, 1024},
        {"set theory", from_hex("c7c0c1c0c3c0c1c0"), true, 1, 7},
        {"nested strings", from_hex("c6827a77c10401"), true, 1, 6},
        {"depth 64", nested_lists(64), true, 2, nested_lists(64).size() - 2},
    };
}

TEST(RlpDecodeTable, GoodInputs) {
    for (const auto& row : good_rows()) {
        SCOPED_TRACE(row.name);
        EXPECT_EQ(show(validate(row.in)), "ok");
        auto item = decode_single(row.in);
        ASSERT_TRUE(item) << to_string(item.error());
        EXPECT_EQ(item->is_list, row.is_list);
        EXPECT_EQ(item->header_size, row.header_size);
        EXPECT_EQ(item->payload.size(), row.payload_size);
        EXPECT_EQ(item->offset, 0u);
        EXPECT_EQ(item->size(), row.in.size());
        EXPECT_EQ(item->encoded().data(), row.in.data());
        EXPECT_EQ(item->payload.data(), row.in.data() + row.header_size);
    }
}

// ---------------------------------------------------------------------------------------------
// Bad inputs: one row per error code that validate() can report, with code and offset.

struct Bad {
    const char* name;
    Bytes in;
    Errc code;
    std::size_t offset;
};

std::vector<Bad> bad_rows() {
    EXPECT_EQ(nested_lists(64).size(), 72u);  // 56 one-byte headers, then 8 two-byte ones
    return {
        {"empty input", {}, Errc::empty_input, 0},
        // truncated: the long-form length bytes are cut off.
        {"b8 without length", from_hex("b8"), Errc::truncated, 0},
        {"b9 with 1 of 2 length bytes", from_hex("b901"), Errc::truncated, 0},
        {"ff with 7 of 8 length bytes", from_hex("ff01020304050607"), Errc::truncated, 0},
        {"nested header cut by parent", from_hex("c2b901"), Errc::truncated, 1},
        // length_past_input: payload longer than what is left.
        {"81 alone", from_hex("81"), Errc::length_past_input, 0},
        {"string short by one", from_hex("83646f"), Errc::length_past_input, 0},
        {"list short by one", from_hex("c501020304"), Errc::length_past_input, 0},
        {"long string short", cat({from_hex("b838"), filler(55)}), Errc::length_past_input, 0},
        {"long list short", cat({from_hex("f90100"), filler(255, 1)}), Errc::length_past_input, 0},
        {"child past parent", from_hex("c28301"), Errc::length_past_input, 1},
        {"grandchild past parent", from_hex("c4c3830102"), Errc::length_past_input, 2},
        {"8-byte length past input", from_hex("bf0100000000000000aa"), Errc::length_past_input, 0},
        {"max length minus header-1", from_hex("bffffffffffffffff6"), Errc::length_past_input, 0},
        // length_overflow: header + length does not fit size_t.
        {"max 8-byte string length", from_hex("bfffffffffffffffff"), Errc::length_overflow, 0},
        {"string length + header = 2^64", from_hex("bffffffffffffffff7"), Errc::length_overflow, 0},
        {"max 8-byte list length", from_hex("ffffffffffffffffff00"), Errc::length_overflow, 0},
        // non_canonical_size: long form for a length below 56.
        {"long string of 55", cat({from_hex("b837"), filler(55)}), Errc::non_canonical_size, 0},
        {"long string of 1", from_hex("b801ff"), Errc::non_canonical_size, 0},
        {"long list of 55", cat({from_hex("f837"), filler(55, 1)}), Errc::non_canonical_size, 0},
        {"long list of 1", from_hex("f80180"), Errc::non_canonical_size, 0},
        {"nested long of 3", from_hex("c5f803010203"), Errc::non_canonical_size, 1},
        // leading_zero_in_length.
        {"b8 00", from_hex("b800"), Errc::leading_zero_in_length, 0},
        {"f8 00", from_hex("f800"), Errc::leading_zero_in_length, 0},
        {"b9 0038", cat({from_hex("b90038"), filler(56)}), Errc::leading_zero_in_length, 0},
        {"fb 00000040", cat({from_hex("fb00000040"), filler(64, 1)}), Errc::leading_zero_in_length,
         0},
        // non_canonical_single_byte.
        {"81 00", from_hex("8100"), Errc::non_canonical_single_byte, 0},
        {"81 7f", from_hex("817f"), Errc::non_canonical_single_byte, 0},
        {"nested 81 05", from_hex("c3808105"), Errc::non_canonical_single_byte, 2},
        // trailing_bytes: offset of the first extra byte.
        {"two top-level items", from_hex("8000"), Errc::trailing_bytes, 1},
        {"list then byte", from_hex("c18001"), Errc::trailing_bytes, 2},
        {"empty lists", from_hex("c0c0"), Errc::trailing_bytes, 1},
        // too_deep: the first list beyond kMaxDepth.
        {"depth 65", nested_lists(65), Errc::too_deep, nested_lists(65).size() - 1},
        {"depth 65 after a sibling", cat({from_hex("f849"), from_hex("80"), nested_lists(64)}),
         Errc::too_deep, 2 + 1 + nested_lists(64).size() - 1},
    };
}

TEST(RlpDecodeTable, BadInputs) {
    for (const auto& row : bad_rows()) {
        SCOPED_TRACE(row.name);
        auto r = validate(row.in);
        ASSERT_FALSE(r) << "accepted " << hex::encode(row.in);
        EXPECT_EQ(r.error().code, row.code) << to_string(r.error());
        EXPECT_EQ(r.error().offset, row.offset) << to_string(r.error());
    }
}

TEST(RlpDecodeTable, EveryValidateCodeHasARow) {
    std::vector<bool> seen(64, false);
    for (const auto& row : bad_rows()) seen[static_cast<std::size_t>(row.code)] = true;
    for (Errc c : {Errc::empty_input, Errc::truncated, Errc::length_past_input,
                   Errc::length_overflow, Errc::non_canonical_size, Errc::leading_zero_in_length,
                   Errc::non_canonical_single_byte, Errc::trailing_bytes, Errc::too_deep}) {
        EXPECT_TRUE(seen[static_cast<std::size_t>(c)]) << describe(c);
    }
}

TEST(RlpDecode, DescribeGivesAPhraseForEveryCode) {
    for (int c = 0; c <= static_cast<int>(Errc::wrong_size); ++c) {
        auto d = describe(static_cast<Errc>(c));
        EXPECT_FALSE(d.empty());
        EXPECT_NE(d, "unknown RLP error") << c;
    }
    EXPECT_EQ(to_string(Error{Errc::trailing_bytes, 7}),
              "unexpected bytes after the last RLP item at offset 7");
}

// ---------------------------------------------------------------------------------------------
// Offsets are absolute when a base offset is given.

TEST(RlpDecode, BaseOffsetShiftsEveryReportedOffset) {
    Bytes in = from_hex("c3808105");
    auto r = validate(in, kMaxDepth, 100);
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error(), (Error{Errc::non_canonical_single_byte, 102}));

    auto e = decode_single({}, 40);
    ASSERT_FALSE(e);
    EXPECT_EQ(e.error(), (Error{Errc::empty_input, 40}));

    auto t = decode_single(from_hex("8000"), 10);
    ASSERT_FALSE(t);
    EXPECT_EQ(t.error(), (Error{Errc::trailing_bytes, 11}));

    Bytes list = from_hex("c4830102038005");
    auto d = open_list(BytesView(list).first(5), 7);
    ASSERT_TRUE(d);
    EXPECT_EQ(d->offset(), 8u);
    auto item = d->next();
    ASSERT_TRUE(item);
    EXPECT_EQ(item->offset, 8u);
    EXPECT_EQ(item->header_size, 1u);
    EXPECT_EQ(d->offset(), 12u);
}

TEST(RlpDecode, DecodeHeaderAllowsTrailingBytesAndChecksOnlyTheHeader) {
    Bytes in = from_hex("c28105ff");  // the list's child is non-canonical; not looked at
    auto r = decode_header(in, 5);
    ASSERT_TRUE(r);
    EXPECT_TRUE(r->is_list);
    EXPECT_EQ(r->offset, 5u);
    EXPECT_EQ(r->end_offset(), 8u);
    EXPECT_EQ(r->payload.size(), 2u);

    auto s = decode_single(BytesView(in).first(3));
    ASSERT_TRUE(s);  // does not descend
    auto v = validate(BytesView(in).first(3));
    ASSERT_FALSE(v);
    EXPECT_EQ(v.error(), (Error{Errc::non_canonical_single_byte, 1}));

    auto e = decode_header({}, 9);
    ASSERT_FALSE(e);
    EXPECT_EQ(e.error(), (Error{Errc::empty_input, 9}));
}

// ---------------------------------------------------------------------------------------------
// Depth cap.

TEST(RlpDecode, DepthCap) {
    EXPECT_TRUE(validate(nested_lists(kMaxDepth)));
    Bytes too_deep = nested_lists(kMaxDepth + 1);
    auto r = validate(too_deep);
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error(), (Error{Errc::too_deep, too_deep.size() - 1}));

    EXPECT_TRUE(validate(from_hex("80"), 0));
    auto z = validate(from_hex("c0"), 0);
    ASSERT_FALSE(z);
    EXPECT_EQ(z.error(), (Error{Errc::too_deep, 0}));

    EXPECT_TRUE(validate(from_hex("c3c1c080"), 3));
    auto two = validate(from_hex("c3c1c080"), 2);
    ASSERT_FALSE(two);
    EXPECT_EQ(two.error(), (Error{Errc::too_deep, 2}));

    // Siblings do not add up: many lists at depth 2 are fine under a cap of 2.
    EXPECT_TRUE(validate(from_hex("c4c0c0c0c0"), 2));
}

TEST(RlpDecode, DeepTreeAtTheLimit) {
    Bytes deep = nested_lists(kMaxDepthLimit);
    EXPECT_TRUE(validate(deep, kMaxDepthLimit));
    auto r = validate(deep, kMaxDepthLimit - 1);
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error(), (Error{Errc::too_deep, deep.size() - 1}));
}

// ---------------------------------------------------------------------------------------------
// Decoder: typed reads and their errors.

TEST(RlpDecoder, ReadsATypicalRecord) {
    // [nonce=9, to=20 bytes, value=0x0de0b6b3a7640000, data="", [1, [2]], hash=32 bytes]
    Bytes to(20, 0x11), hash(32, 0x22);
    Bytes payload = cat({from_hex("09"), from_hex("94"), to, from_hex("880de0b6b3a7640000"),
                         from_hex("80"), from_hex("c301c102"), from_hex("a0"), hash});
    Bytes in = cat({from_hex("f8"), Bytes{static_cast<std::uint8_t>(payload.size())}, payload});
    ASSERT_TRUE(validate(in));

    auto d = open_list(in);
    ASSERT_TRUE(d);
    EXPECT_EQ(d->count().value(), 6u);
    EXPECT_EQ(d->next_uint<std::uint64_t>().value(), 9u);
    EXPECT_EQ(d->next_fixed<20>().value(), Address::from(to).value());
    EXPECT_EQ(d->next_uint<std::uint64_t>().value(), 1000000000000000000ull);
    EXPECT_TRUE(d->next_string().value().empty());
    auto sub = d->next_list();
    ASSERT_TRUE(sub);
    EXPECT_EQ(sub->next_uint<std::uint8_t>().value(), 1u);
    auto subsub = sub->next_list();
    ASSERT_TRUE(subsub);
    EXPECT_EQ(subsub->next_uint<std::uint16_t>().value(), 2u);
    EXPECT_TRUE(subsub->finish());
    EXPECT_TRUE(sub->finish());
    EXPECT_EQ(d->next_fixed<32>().value(), Hash32::from(hash).value());
    EXPECT_TRUE(d->empty());
    EXPECT_TRUE(d->finish());
    EXPECT_EQ(d->offset(), in.size());
}

TEST(RlpDecoder, Integers) {
    struct Row {
        const char* hex;
        std::uint64_t value;
    };
    for (const Row& row : std::vector<Row>{{"80", 0},
                                           {"01", 1},
                                           {"7f", 127},
                                           {"8180", 128},
                                           {"81ff", 255},
                                           {"820100", 256},
                                           {"83010000", 65536},
                                           {"88ffffffffffffffff", ~0ull}}) {
        SCOPED_TRACE(row.hex);
        Bytes in = from_hex(row.hex);
        Decoder d(in);
        auto v = d.next_uint<std::uint64_t>();
        ASSERT_TRUE(v) << to_string(v.error());
        EXPECT_EQ(*v, row.value);
        EXPECT_TRUE(d.empty());
    }
    // Widths: each T takes up to sizeof(T) bytes.
    EXPECT_EQ(Decoder(from_hex("81ff")).next_uint<std::uint8_t>().value(), 255u);
    EXPECT_EQ(Decoder(from_hex("82ffff")).next_uint<std::uint16_t>().value(), 65535u);
    EXPECT_EQ(Decoder(from_hex("84ffffffff")).next_uint<std::uint32_t>().value(), 0xffffffffu);
}

TEST(RlpDecoder, IntegerErrors) {
    struct Row {
        const char* hex;
        Errc code;
        std::size_t width;  // 1, 2, 4, 8
    };
    for (const Row& row : std::vector<Row>{
             {"00", Errc::leading_zero_in_integer, 8},  // zero is 0x80, not 0x00
             {"820001", Errc::leading_zero_in_integer, 8},
             {"88000000000000000001", Errc::leading_zero_in_integer, 8},
             {"89010000000000000000", Errc::integer_overflow, 8},
             {"820100", Errc::integer_overflow, 1},
             {"83010000", Errc::integer_overflow, 2},
             {"8501000000ff", Errc::integer_overflow, 4},
             {"c0", Errc::expected_string, 8},
             {"8105", Errc::non_canonical_single_byte, 8},
             {"", Errc::missing_item, 8},
         }) {
        SCOPED_TRACE(row.hex);
        Bytes in = from_hex(row.hex);
        Decoder d(in, 3);
        Error e{};
        switch (row.width) {
            case 1:
                e = d.next_uint<std::uint8_t>().error();
                break;
            case 2:
                e = d.next_uint<std::uint16_t>().error();
                break;
            case 4:
                e = d.next_uint<std::uint32_t>().error();
                break;
            default:
                e = d.next_uint<std::uint64_t>().error();
        }
        EXPECT_EQ(e.code, row.code) << to_string(e);
        EXPECT_EQ(e.offset, 3u);
        EXPECT_EQ(d.offset(), 3u);  // a failed read does not move
    }
}

TEST(RlpDecoder, UintBytes) {
    Bytes wide(33, 0), word32(32, 0);
    wide[0] = 0x01;
    word32[0] = 0xff;
    Bytes in =
        cat({from_hex("807f"), from_hex("a1"), wide, from_hex("a0"), word32, from_hex("8200ff")});
    Decoder d(in);
    EXPECT_TRUE(d.next_uint_bytes(32).value().empty());
    auto small = d.next_uint_bytes(32).value();
    EXPECT_EQ(Bytes(small.begin(), small.end()), from_hex("7f"));
    auto big = d.next_uint_bytes(32);
    ASSERT_FALSE(big);
    EXPECT_EQ(big.error(), (Error{Errc::integer_overflow, 2}));
    EXPECT_TRUE(d.next_uint_bytes(33));  // the same 33-byte value fits a wider limit
    auto word = d.next_uint_bytes(32);
    ASSERT_TRUE(word);
    EXPECT_EQ(word->size(), 32u);
    auto lz = d.next_uint_bytes(32);
    ASSERT_FALSE(lz);
    EXPECT_EQ(lz.error().code, Errc::leading_zero_in_integer);
}

TEST(RlpDecoder, Uint256) {
    Bytes all_ff(32, 0xff), wide(33, 0);
    wide[0] = 1;
    Bytes in = cat({from_hex("80"
                             "7f"
                             "8180"
                             "88ffffffffffffffff"),
                    from_hex("a0"), all_ff, from_hex("a1"), wide, from_hex("820001")});
    Decoder d(in);
    EXPECT_EQ(d.next_uint256().value(), Uint256(0));
    EXPECT_EQ(d.next_uint256().value(), Uint256(127));
    EXPECT_EQ(d.next_uint256().value(), Uint256(128));
    EXPECT_EQ(d.next_uint256().value(), Uint256(~0ull));
    EXPECT_EQ(d.next_uint256().value(), Uint256::max());
    auto over = d.next_uint256();
    ASSERT_FALSE(over);
    EXPECT_EQ(over.error(), (Error{Errc::integer_overflow, 46}));
    ASSERT_TRUE(d.next());
    auto lz = d.next_uint256();
    ASSERT_FALSE(lz);
    EXPECT_EQ(lz.error(), (Error{Errc::leading_zero_in_integer, 80}));

    // Every width: whole limbs and the partial top limb land in the right places.
    for (std::size_t n = 1; n <= 32; ++n) {
        SCOPED_TRACE(n);
        Bytes be(n);
        for (std::size_t i = 0; i < n; ++i) be[i] = static_cast<std::uint8_t>(0x80 + i);
        Bytes enc = cat({Bytes{static_cast<std::uint8_t>(0x80 + n)}, be});
        Decoder w(enc);
        EXPECT_EQ(w.next_uint256().value(), Uint256::from_be_bytes(be).value());
    }
}

TEST(RlpDecoder, ShapeErrors) {
    Bytes in = from_hex(
        "c0"
        "80"
        "83010203");
    {
        Decoder d(in);
        auto s = d.next_string();
        ASSERT_FALSE(s);
        EXPECT_EQ(s.error(), (Error{Errc::expected_string, 0}));
        auto f = d.next_fixed<0>();
        ASSERT_FALSE(f);
        EXPECT_EQ(f.error(), (Error{Errc::expected_string, 0}));
        ASSERT_TRUE(d.next_list());
        auto l = d.next_list();
        ASSERT_FALSE(l);
        EXPECT_EQ(l.error(), (Error{Errc::expected_list, 1}));
        ASSERT_TRUE(d.next_string());
        auto w = d.next_fixed<4>();
        ASSERT_FALSE(w);
        EXPECT_EQ(w.error(), (Error{Errc::wrong_size, 2}));
        auto fin = d.finish();
        ASSERT_FALSE(fin);
        EXPECT_EQ(fin.error(), (Error{Errc::trailing_bytes, 2}));
        auto ok = d.next_fixed<3>();
        ASSERT_TRUE(ok);
        EXPECT_EQ((*ok)[2], 3u);
        EXPECT_TRUE(d.finish());
        auto m = d.next();
        ASSERT_FALSE(m);
        EXPECT_EQ(m.error(), (Error{Errc::missing_item, 6}));
    }
    {
        auto ol = open_list(from_hex("80"));
        ASSERT_FALSE(ol);
        EXPECT_EQ(ol.error(), (Error{Errc::expected_list, 0}));
        auto tr = open_list(from_hex("c000"));
        ASSERT_FALSE(tr);
        EXPECT_EQ(tr.error(), (Error{Errc::trailing_bytes, 1}));
        auto em = open_list({});
        ASSERT_FALSE(em);
        EXPECT_EQ(em.error(), (Error{Errc::empty_input, 0}));
    }
}

TEST(RlpDecoder, ChildPastParentInDecoder) {
    Bytes in = from_hex("c3c2830102");  // c2's child 83 needs 3 bytes, only 1 in c2
    auto outer = open_list(in);
    ASSERT_FALSE(outer);  // c3 list is 4 bytes and the input 5: trailing
    auto outer2 = open_list(BytesView(in).first(4));
    ASSERT_TRUE(outer2);
    auto inner = outer2->next_list();
    ASSERT_TRUE(inner);
    auto child = inner->next();
    ASSERT_FALSE(child);
    EXPECT_EQ(child.error(), (Error{Errc::length_past_input, 2}));
}

TEST(RlpDecoder, CountAndEmpty) {
    Decoder none;
    EXPECT_TRUE(none.empty());
    EXPECT_EQ(none.count().value(), 0u);
    EXPECT_TRUE(none.finish());
    Bytes in = from_hex("0102c0b8");
    Decoder d(in, 10);
    auto c = d.count();
    ASSERT_FALSE(c);
    EXPECT_EQ(c.error(), (Error{Errc::truncated, 13}));
    EXPECT_EQ(d.remaining().size(), 4u);  // count() does not move the cursor
}

// ---------------------------------------------------------------------------------------------
// Random garbage: validate() never reads out of bounds (ASan) and agrees with a slow checker.

// A straightforward recursive checker written from the rules, as a second opinion.
bool slow_item(BytesView in, std::size_t& pos, std::size_t depth) {
    if (pos >= in.size()) return false;
    const std::uint8_t b = in[pos];
    std::size_t len = 0, hs = 1;
    bool list = false;
    if (b < 0x80) {
        pos += 1;
        return true;
    } else if (b <= 0xb7) {
        len = b - 0x80u;
    } else if (b <= 0xbf || b >= 0xf8) {
        list = b >= 0xf8;
        std::size_t k = b - (list ? 0xf7u : 0xb7u);
        if (pos + 1 + k > in.size() || in[pos + 1] == 0) return false;
        std::uint64_t l = 0;  // k <= 8 bytes
        for (std::size_t i = 0; i < k; ++i) l = l << 8 | in[pos + 1 + i];
        if (l < 56 || l > in.size()) return false;
        len = static_cast<std::size_t>(l);
        hs = 1 + k;
    } else {
        list = true;
        len = b - 0xc0u;
    }
    if (pos + hs + len > in.size()) return false;
    if (!list && hs == 1 && len == 1 && in[pos + 1] < 0x80) return false;
    std::size_t p = pos + hs, end = pos + hs + len;
    if (list) {
        if (depth + 1 > kMaxDepth) return false;
        BytesView sub = in.first(end);
        while (p < end) {
            if (!slow_item(sub, p, depth + 1)) return false;
        }
    }
    pos = end;
    return true;
}

bool slow_validate(BytesView in) {
    std::size_t pos = 0;
    return slow_item(in, pos, 0) && pos == in.size();
}

TEST(RlpDecode, AgreesWithASlowCheckerOnRandomInputs) {
    std::uint64_t s = 0x9e3779b97f4a7c15ull;
    auto rnd = [&] {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        return s;
    };
    // Bias towards header bytes and small lengths so many inputs are valid or nearly so.
    const std::uint8_t palette[] = {0x00, 0x01, 0x7f, 0x80, 0x81, 0x82, 0x83, 0xb7,
                                    0xb8, 0xb9, 0xc0, 0xc1, 0xc2, 0xc3, 0xc4, 0xc8,
                                    0xf7, 0xf8, 0xf9, 0x38, 0x40, 0x05, 0x10, 0xff};
    std::size_t accepted = 0;
    for (int iter = 0; iter < 200000; ++iter) {
        Bytes in(rnd() % 12);
        for (auto& x : in) x = palette[rnd() % sizeof palette];
        const bool fast = validate(in).has_value();
        ASSERT_EQ(fast, slow_validate(in)) << hex::encode(in);
        accepted += fast;
    }
    EXPECT_GT(accepted, 1000u);
}

}  // namespace
}  // namespace keel::rlp
