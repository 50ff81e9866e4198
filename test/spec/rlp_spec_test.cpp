// Runner over the official RLP vectors (ethereum/tests RLPTests, see vectors/rlp/SOURCES.md):
//   rlptest.json                valid: encode "in" with the keel encoder == "out"; decode "out",
//                               compare with "in", re-encode == "out"
//   invalidRLPTest.json         every "out" must be rejected by validate()
//   RandomRLPTests/example.json every "out" must validate and re-encode to itself
// A runner that finds no vectors fails (testutil::vectors_dir throws; counts must be > 0).
#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <iostream>
#include <stdexcept>
#include <string>

#include <nlohmann/json.hpp>

#include "keel/common/hex.hpp"
#include "keel/rlp/decode.hpp"
#include "keel/rlp/encode.hpp"
#include "test/testutil/vectors.hpp"

namespace keel::rlp {
namespace {

using nlohmann::json;

// "#<decimal>" -> minimal big-endian bytes (empty for 0), by repeated multiply-by-10-and-add.
Bytes decimal_to_be(std::string_view digits) {
    Bytes be;  // big-endian, may gain leading bytes as it grows
    for (char c : digits) {
        if (c < '0' || c > '9') throw std::runtime_error("bad decimal digit in vector");
        unsigned carry = static_cast<unsigned>(c - '0');
        for (auto it = be.rbegin(); it != be.rend(); ++it) {
            const unsigned v = *it * 10u + carry;
            *it = static_cast<std::uint8_t>(v);
            carry = v >> 8;
        }
        if (carry) be.insert(be.begin(), static_cast<std::uint8_t>(carry));
    }
    return be;  // a carry is only prepended when non-zero: no leading zeros, empty for 0
}

TEST(RlpSpecHelpers, DecimalToBigEndian) {
    EXPECT_EQ(hex::encode(decimal_to_be("0")), "");
    EXPECT_EQ(hex::encode(decimal_to_be("255")), "ff");
    EXPECT_EQ(hex::encode(decimal_to_be("256")), "0100");
    EXPECT_EQ(hex::encode(decimal_to_be("18446744073709551616")), "010000000000000000");
}

bool is_big_int(const json& v) {
    return v.is_string() && !v.get_ref<const std::string&>().empty() &&
           v.get_ref<const std::string&>()[0] == '#';
}

// Encodes a vector's "in" value: strings as bytes, '#' strings and numbers as integers, arrays as
// lists. Lists are written with begin_list()/end_list(); the length functions are checked against
// the output on the way.
void encode_value(const json& v, Encoder& e) {
    const std::size_t before = e.size();
    if (is_big_int(v)) {
        Bytes be = decimal_to_be(v.get_ref<const std::string&>().substr(1));
        e.add_uint_bytes(be);
        EXPECT_EQ(e.size() - before, uint_bytes_length(be));
    } else if (v.is_string()) {
        BytesView s = as_bytes(v.get_ref<const std::string&>());
        e.add_string(s);
        EXPECT_EQ(e.size() - before, string_length(s));
    } else if (v.is_number_unsigned() || v.is_number_integer()) {
        ASSERT_GE(v.get<std::int64_t>(), 0);
        const auto n = v.get<std::uint64_t>();
        e.add_uint(n);
        EXPECT_EQ(e.size() - before, uint_length(n));
    } else if (v.is_array()) {
        auto m = e.begin_list();
        for (const auto& child : v) encode_value(child, e);
        e.end_list(m);
        auto item = decode_header(e.view().subspan(before));
        ASSERT_TRUE(item) << to_string(item.error());
        EXPECT_EQ(e.size() - before, list_length(item->payload.size()));
    } else {
        FAIL() << "unexpected JSON value in vector: " << v.dump();
    }
}

// Checks that the item read from `d` has the shape and value of `v`.
void expect_matches(const json& v, Decoder& d) {
    if (is_big_int(v)) {
        Bytes be = decimal_to_be(v.get_ref<const std::string&>().substr(1));
        auto r = d.next_uint_bytes(64);
        ASSERT_TRUE(r) << to_string(r.error());
        EXPECT_EQ(hex::encode(*r), hex::encode(be));
    } else if (v.is_string()) {
        auto r = d.next_string();
        ASSERT_TRUE(r) << to_string(r.error());
        EXPECT_EQ(as_chars(*r), v.get_ref<const std::string&>());
    } else if (v.is_number()) {
        auto r = d.next_uint<std::uint64_t>();
        ASSERT_TRUE(r) << to_string(r.error());
        EXPECT_EQ(*r, v.get<std::uint64_t>());
    } else if (v.is_array()) {
        auto sub = d.next_list();
        ASSERT_TRUE(sub) << to_string(sub.error());
        for (const auto& child : v) expect_matches(child, *sub);
        EXPECT_TRUE(sub->finish());
    } else {
        FAIL() << "unexpected JSON value in vector: " << v.dump();
    }
}

// Re-encodes a validated item tree with the encoder: strings with add_string, lists with a known
// payload length (add_list_header) so the output must equal the input byte for byte.
void reencode(const Item& item, Encoder& e) {
    if (!item.is_list) {
        e.add_string(item.payload);
        return;
    }
    e.add_list_header(item.payload.size());
    Decoder d(item.payload, item.offset + item.header_size);
    while (!d.empty()) {
        auto child = d.next();
        ASSERT_TRUE(child) << to_string(child.error());
        reencode(*child, e);
    }
}

Bytes out_bytes(const json& tc) {
    return testutil::from_hex(tc.at("out").get<std::string>());
}

TEST(RlpSpec, ValidVectors) {
    const json suite = testutil::load_json(testutil::vectors_dir("rlp") / "rlptest.json");
    std::size_t n = 0;
    for (const auto& [name, tc] : suite.items()) {
        SCOPED_TRACE(name);
        const Bytes want = out_bytes(tc);
        const json& in = tc.at("in");

        Encoder e;
        encode_value(in, e);
        EXPECT_EQ(hex::encode(e.view()), hex::encode(want));

        auto v = validate(want);
        ASSERT_TRUE(v) << to_string(v.error());
        Decoder d(want);
        expect_matches(in, d);
        EXPECT_TRUE(d.finish());

        Encoder again;
        reencode(decode_single(want).value(), again);
        EXPECT_EQ(hex::encode(again.view()), hex::encode(want));
        ++n;
    }
    std::cout << "[ rlp spec ] valid: " << n << " cases\n";
    EXPECT_GT(n, 0u);
    EXPECT_EQ(n, suite.size());
}

TEST(RlpSpec, InvalidVectors) {
    const json suite = testutil::load_json(testutil::vectors_dir("rlp") / "invalidRLPTest.json");
    std::size_t n = 0;
    for (const auto& [name, tc] : suite.items()) {
        SCOPED_TRACE(name);
        ASSERT_EQ(tc.at("in"), "INVALID");
        const Bytes bad = out_bytes(tc);
        auto r = validate(bad);
        EXPECT_FALSE(r) << hex::encode(bad) << " was accepted";
        if (!r) {
            // The reported offset lies inside the input (or at its end for a missing item).
            EXPECT_LE(r.error().offset, bad.size()) << to_string(r.error());
        }
        ++n;
    }
    std::cout << "[ rlp spec ] invalid: " << n << " cases\n";
    EXPECT_GT(n, 0u);
    EXPECT_EQ(n, suite.size());
}

TEST(RlpSpec, RandomVectors) {
    std::size_t n = 0;
    for (const auto& entry :
         std::filesystem::directory_iterator(testutil::vectors_dir("rlp") / "RandomRLPTests")) {
        if (entry.path().extension() != ".json") continue;
        const json suite = testutil::load_json(entry.path());
        for (const auto& [name, tc] : suite.items()) {
            SCOPED_TRACE(entry.path().filename().string() + ": " + name);
            ASSERT_EQ(tc.at("in"), "VALID");
            const Bytes good = out_bytes(tc);
            auto r = validate(good);
            ASSERT_TRUE(r) << to_string(r.error());
            Encoder e;
            reencode(decode_single(good).value(), e);
            EXPECT_EQ(hex::encode(e.view()), hex::encode(good));
            ++n;
        }
    }
    std::cout << "[ rlp spec ] random: " << n << " cases\n";
    EXPECT_GT(n, 0u);
}

}  // namespace
}  // namespace keel::rlp
