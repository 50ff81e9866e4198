// The JSON mapping (json.hpp): every kind of value both ways, edge values, layouts, and every
// error kind with its path and exact message.
#include "keel/ssz/json.hpp"

#include <gtest/gtest.h>

#include <limits>
#include <nlohmann/json.hpp>
#include <string>

#include "keel/ssz/generic_test_types.hpp"
#include "keel/ssz/test_helpers.hpp"

namespace keel::ssz::test {
namespace {

/// Parses `text` as JSON and reads it as a T; fails the test on an error.
template <class T>
T read(const std::string& text) {
    T v{};
    auto r = from_json(nlohmann::json::parse(text), v);
    EXPECT_TRUE(r.has_value()) << text << ": " << (r ? std::string() : to_string(r.error()));
    return v;
}

/// Parses `text` as JSON, expects reading it as a T to fail, and returns the error.
template <class T>
JsonError error_of(const std::string& text) {
    T v{};
    auto r = from_json(nlohmann::json::parse(text), v);
    EXPECT_FALSE(r.has_value()) << "accepted: " << text;
    return r ? JsonError{} : r.error();
}

/// The one-line message for reading `text` as a T.
template <class T>
std::string message_of(const std::string& text) {
    return to_string(error_of<T>(text));
}

/// Writes `v`, checks the text, reads it back and checks the value and its SSZ bytes.
template <class T>
void both_ways(const T& v, const std::string& want) {
    const std::string text = to_json(v);
    EXPECT_EQ(text, want);
    const T back = read<T>(text);
    EXPECT_EQ(encode(back), encode(v)) << want;
}

TEST(SszJson, Uints) {
    both_ways<std::uint8_t>(0, "\"0\"");
    both_ways<std::uint8_t>(255, "\"255\"");
    both_ways<std::uint16_t>(65535, "\"65535\"");
    both_ways<std::uint32_t>(4294967295u, "\"4294967295\"");
    both_ways<std::uint64_t>(std::numeric_limits<std::uint64_t>::max(), "\"18446744073709551615\"");
    both_ways(Uint128{5, 0}, "\"5\"");
    both_ways(Uint128{0, 1}, "\"18446744073709551616\"");
    both_ways(Uint128{~0ull, ~0ull}, "\"340282366920938463463374607431768211455\"");
    both_ways(Uint256{}, "\"0\"");
    both_ways(Uint256::max(),
              "\"115792089237316195423570985008687907853269984665640564039457584007913129639935\"");
    // JSON integers are read exactly too (YAML vectors and hand-written files use them).
    EXPECT_EQ(read<std::uint8_t>("255"), 255);
    EXPECT_EQ(read<std::uint64_t>("18446744073709551615"), ~0ull);
    EXPECT_EQ(read<Uint256>("7"), Uint256(7));
    EXPECT_EQ(read<Uint128>("\"18446744073709551617\""), (Uint128{1, 1}));
}

TEST(SszJson, UintErrors) {
    EXPECT_EQ(message_of<std::uint8_t>("\"256\""),
              "json: uint8: \"256\" is out of range for uint8");
    EXPECT_EQ(message_of<std::uint16_t>("65536"), "json: uint16: 65536 is out of range for uint16");
    EXPECT_EQ(message_of<std::uint64_t>("-1"), "json: uint64: -1 is out of range for uint64");
    EXPECT_EQ(message_of<std::uint64_t>("\"18446744073709551616\""),
              "json: uint64: \"18446744073709551616\" is out of range for uint64");
    EXPECT_EQ(message_of<std::uint64_t>("1.5"), "json: uint64: expected a decimal string, got 1.5");
    EXPECT_EQ(message_of<std::uint64_t>("true"),
              "json: uint64: expected a decimal string, got true");
    EXPECT_EQ(message_of<std::uint64_t>("null"),
              "json: uint64: expected a decimal string, got null");
    EXPECT_EQ(message_of<std::uint64_t>("[]"),
              "json: uint64: expected a decimal string, got an array");
    EXPECT_EQ(message_of<std::uint32_t>("\"\""), "json: uint32: \"\" is not a decimal number");
    EXPECT_EQ(message_of<std::uint32_t>("\"012\""), "json: uint32: \"012\" has a leading zero");
    EXPECT_EQ(message_of<Uint256>("\"007\""), "json: uint256: \"007\" has a leading zero");
    for (const char* bad : {"\"1a\"", "\" 1\"", "\"+1\"", "\"-1\"", "\"0x10\"", "\"1e3\""}) {
        EXPECT_EQ(error_of<std::uint64_t>(bad).code, JsonErrc::invalid_number) << bad;
        EXPECT_EQ(error_of<Uint256>(bad).code, JsonErrc::invalid_number) << bad;
    }
    EXPECT_EQ(message_of<Uint128>("\"340282366920938463463374607431768211456\""),
              "json: uint128: \"340282366920938463463374607431768211456\" is out of range for "
              "uint128");
    EXPECT_EQ(
        message_of<Uint256>(
            "\"115792089237316195423570985008687907853269984665640564039457584007913129639936\""),
        "json: uint256: "
        "\"115792089237316195423570985008687907853269984665640564039457584007913129639936\" "
        "is out of range for uint256");
    // Past 100 characters a value is shown by its start only.
    EXPECT_EQ(message_of<Uint256>("\"" + std::string(120, '9') + "\""),
              "json: uint256: \"" + std::string(95, '9') + "...\" is out of range for uint256");
    // A JSON number past 2^64 is a float to the parser: its low digits are already lost.
    EXPECT_EQ(error_of<Uint256>("18446744073709551616").code, JsonErrc::wrong_type);
    EXPECT_EQ(error_of<std::uint64_t>("18446744073709551616").code, JsonErrc::wrong_type);
}

TEST(SszJson, Booleans) {
    both_ways(true, "true");
    both_ways(false, "false");
    EXPECT_EQ(message_of<bool>("1"), "json: boolean: expected true or false, got 1");
    EXPECT_EQ(message_of<bool>("\"true\""), "json: boolean: expected true or false, got \"true\"");
}

TEST(SszJson, ByteVectors) {
    both_ways(FixedBytes<4>{{0x01, 0x02, 0xab, 0xcd}}, "\"0x0102abcd\"");
    both_ways(Bytes32{}, "\"0x" + std::string(64, '0') + "\"");
    EXPECT_EQ(read<FixedBytes<4>>("\"0x0102ABcd\""), (FixedBytes<4>{{0x01, 0x02, 0xab, 0xcd}}));
    EXPECT_EQ(message_of<FixedBytes<4>>("\"0102abcd\""),
              "json: ByteVector[4]: hex string \"0102abcd\" lacks the 0x prefix");
    EXPECT_EQ(error_of<FixedBytes<4>>("\"0X0102abcd\"").code, JsonErrc::missing_prefix);
    EXPECT_EQ(message_of<FixedBytes<4>>("\"0x0102abc\""),
              "json: ByteVector[4]: odd number of hex digits (7)");
    EXPECT_EQ(message_of<FixedBytes<4>>("\"0x0102ab\""),
              "json: ByteVector[4]: hex string of wrong length: 3 bytes, ByteVector[4] needs 4");
    EXPECT_EQ(message_of<FixedBytes<4>>("\"0x0102abzz\""),
              "json: ByteVector[4]: invalid hex digit 'z' at character 8");
    EXPECT_EQ(message_of<FixedBytes<4>>("\"0x0x02abcd\""),
              "json: ByteVector[4]: invalid hex digit 'x' at character 3");
    EXPECT_EQ(message_of<FixedBytes<4>>("16909060"),
              "json: ByteVector[4]: expected a 0x-prefixed hex string, got 16909060");
    EXPECT_EQ(error_of<FixedBytes<1>>("\"0x0\\n\"").code, JsonErrc::invalid_hex_digit);
    EXPECT_EQ(message_of<FixedBytes<1>>("\"0x0\\n\""),
              "json: ByteVector[1]: invalid hex digit '\"\\n\"' at character 3");
}

TEST(SszJson, ByteLists) {
    both_ways(ByteList<4>{}, "\"0x\"");
    both_ways(ByteList<4>{1, 2, 3, 4}, "\"0x01020304\"");
    EXPECT_EQ(message_of<ByteList<4>>("\"0x0102030405\""),
              "json: ByteList[4]: ByteList of 5 bytes is longer than its limit 4");
    EXPECT_EQ(error_of<ByteList<4>>("\"0x010\"").code, JsonErrc::odd_hex_length);
    EXPECT_EQ(error_of<ByteList<4>>("\"\"").code, JsonErrc::missing_prefix);
    EXPECT_EQ(error_of<ByteList<4>>("[\"1\"]").code, JsonErrc::wrong_type);
}

TEST(SszJson, Bitvectors) {
    Bitvector<4> v;
    v.set(1, true);
    v.set(3, true);
    both_ways(v, "\"0x0a\"");
    Bitvector<10> w;
    w.set(9, true);
    both_ways(w, "\"0x0002\"");
    both_ways(Bitvector<8>{}, "\"0x00\"");
    EXPECT_EQ(message_of<Bitvector<4>>("\"0x1a\""),
              "json: Bitvector[4]: unused bits set in the last byte of Bitvector[4] (0x1a)");
    EXPECT_EQ(error_of<Bitvector<10>>("\"0x0004\"").code, JsonErrc::bitvector_padding);
    EXPECT_EQ(message_of<Bitvector<4>>("\"0x\""),
              "json: Bitvector[4]: hex string of wrong length: 0 bytes, Bitvector[4] needs 1");
}

TEST(SszJson, Bitlists) {
    Bitlist<8> empty;
    both_ways(empty, "\"0x01\"");  // zero bits: the delimiter alone
    Bitlist<8> three;
    three.push_back(true);
    three.push_back(false);
    three.push_back(true);
    both_ways(three, "\"0x0d\"");
    Bitlist<8> full;
    for (int i = 0; i < 8; ++i) full.push_back(true);
    both_ways(full, "\"0xff01\"");
    const auto back = read<Bitlist<8>>("\"0xFF01\"");
    EXPECT_EQ(back.size, 8u);
    EXPECT_EQ(back.bytes, Bytes{0xff});

    EXPECT_EQ(message_of<Bitlist<8>>("\"0x\""),
              "json: Bitlist[8]: bitlist without delimiter bit (no bytes)");
    EXPECT_EQ(message_of<Bitlist<8>>("\"0xff00\""),
              "json: Bitlist[8]: bitlist without delimiter bit (the last byte is zero)");
    EXPECT_EQ(message_of<Bitlist<8>>("\"0x0002\""),
              "json: Bitlist[8]: bitlist of 9 bits is longer than its limit 8");
    EXPECT_EQ(message_of<Bitlist<8>>("\"0xffff01\""),
              "json: Bitlist[8]: bitlist of at least 16 bits is longer than its limit 8");
    EXPECT_EQ(error_of<Bitlist<8>>("\"0x1\"").code, JsonErrc::odd_hex_length);
}

TEST(SszJson, VectorsAndLists) {
    using V3 = Vector<std::uint16_t, 3>;
    using L3 = List<std::uint64_t, 3>;
    using LL = List<List<std::uint8_t, 1>, 3>;
    both_ways(Vector<std::uint16_t, 3>{{1, 2, 3}}, "[\"1\",\"2\",\"3\"]");
    both_ways(Vector<bool, 2>{{true, false}}, "[true,false]");
    both_ways(List<std::uint64_t, 3>{}, "[]");
    // uint8 values stay numbers (e.g. altair's ParticipationFlags): only ByteList is hex.
    both_ways(List<std::uint8_t, 4>{1, 255}, "[\"1\",\"255\"]");
    both_ways(List<Bytes32, 2>{Bytes32{}}, "[\"0x" + std::string(64, '0') + "\"]");
    both_ways(Vector<List<std::uint8_t, 2>, 2>{}, "[[],[]]");

    EXPECT_EQ(message_of<V3>("[\"1\",\"2\"]"),
              "json: Vector[uint16, 3]: expected 3 elements, got 2");
    EXPECT_EQ(message_of<V3>("[\"1\",\"x\",\"3\"]"),
              "json: Vector[uint16, 3][1]: \"x\" is not a decimal number");
    EXPECT_EQ(message_of<L3>("[\"1\",\"2\",\"3\",\"4\"]"),
              "json: List[uint64, 3]: list of 4 elements is longer than its limit 3");
    EXPECT_EQ(message_of<L3>("{}"), "json: List[uint64, 3]: expected an array, got an object");
    EXPECT_EQ(message_of<LL>("[[],[\"1\",\"2\"]]"),
              "json: List[List[uint8, 1], 3][1]: list of 2 elements is longer than its limit 1");
}

TEST(SszJson, Containers) {
    generic::VarTestStruct v;
    v.A = 1;
    v.B = {2, 3};
    v.C = 4;
    both_ways(v, R"({"A":"1","B":["2","3"],"C":"4"})");
    generic::ComplexTestStruct c;
    c.D = {0xaa};
    c.E.B = {7};
    c.G[1].B = {1, 2};
    both_ways(c, R"({"A":"0","B":[],"C":"0","D":"0xaa","E":{"A":"0","B":["7"],"C":"0"},)"
                 R"("F":[{"A":"0","B":"0","C":"0"},{"A":"0","B":"0","C":"0"},)"
                 R"({"A":"0","B":"0","C":"0"},{"A":"0","B":"0","C":"0"}],)"
                 R"("G":[{"A":"0","B":[],"C":"0"},{"A":"0","B":["1","2"],"C":"0"}]})");
    // Any member order is read.
    EXPECT_EQ(read<generic::VarTestStruct>(R"({"C":"4","B":["2","3"],"A":"1"})"), v);

    EXPECT_EQ(message_of<generic::VarTestStruct>(R"({"A":"1","C":"4"})"),
              "json: VarTestStruct.B: missing field");
    EXPECT_EQ(message_of<generic::VarTestStruct>(R"({"A":"1","B":[],"C":"4","D":"5"})"),
              "json: VarTestStruct.D: unknown field (VarTestStruct has no field of that name)");
    EXPECT_EQ(message_of<generic::VarTestStruct>(R"({"A":"1","B":[],"C":"4","a\nb":1})"),
              "json: VarTestStruct.\"a\\nb\": unknown field (VarTestStruct has no field of that "
              "name)");
    EXPECT_EQ(message_of<generic::VarTestStruct>("[]"),
              "json: VarTestStruct: expected an object, got an array");
    EXPECT_EQ(error_of<generic::ComplexTestStruct>(
                  R"({"A":"0","B":[],"C":"0","D":"0x","E":{"A":"0","B":["7","x"],"C":"0"}})")
                  .path,
              "ComplexTestStruct.E.B[1]");
    const JsonError e = error_of<generic::ComplexTestStruct>(
        R"({"A":"0","B":[],"C":"0","D":"0x","E":{"A":"0","B":[],"C":"0"},"F":[],"G":[]})");
    EXPECT_EQ(e.code, JsonErrc::wrong_vector_length);
    EXPECT_EQ(e.path, "ComplexTestStruct.F");
    // An error in a field is reported before a missing later field.
    EXPECT_EQ(error_of<generic::VarTestStruct>(R"({"A":1.5})").code, JsonErrc::wrong_type);
}

using U = Union<None, std::uint16_t, ByteList<4>>;
constexpr const char* kU = "Union[None, uint16, ByteList[4]]";

TEST(SszJson, Unions) {
    both_ways(U{}, R"({"selector":0,"data":null})");
    both_ways(U{std::uint16_t{5}}, R"({"selector":1,"data":"5"})");
    both_ways(U{ByteList<4>{0xab}}, R"({"selector":2,"data":"0xab"})");
    both_ways(List<U, 3>{U{}, U{std::uint16_t{1}}}, R"([{"selector":0,"data":null},)"
                                                    R"({"selector":1,"data":"1"}])");
    EXPECT_EQ(read<U>(R"({"data":"0x01","selector":2})").index(), 2u);

    const std::string u = kU;
    EXPECT_EQ(message_of<U>(R"({"selector":3,"data":null})"),
              "json: " + u + ".selector: union selector 3 out of range (3 options)");
    EXPECT_EQ(message_of<U>(R"({"selector":"1","data":"5"})"),
              "json: " + u + ".selector: expected a selector number, got \"1\"");
    EXPECT_EQ(message_of<U>(R"({"selector":0,"data":"0x"})"),
              "json: " + u + ".data: data of the None option must be null, got \"0x\"");
    EXPECT_EQ(message_of<U>(R"({"selector":2,"data":"0x0102030405"})"),
              "json: " + u + ".data: ByteList of 5 bytes is longer than its limit 4");
    EXPECT_EQ(message_of<U>(R"({"selector":1})"), "json: " + u + ".data: missing field");
    EXPECT_EQ(message_of<U>(R"({"data":null})"), "json: " + u + ".selector: missing field");
    EXPECT_EQ(message_of<U>(R"({"selector":0,"data":null,"value":1})"),
              "json: " + u + ".value: unknown field (a union has no field of that name)");
    EXPECT_EQ(message_of<U>("0"),
              "json: " + u + ": expected an object {\"selector\": n, \"data\": ...}, got 0");
    EXPECT_EQ(error_of<U>(R"({"selector":-1,"data":null})").code, JsonErrc::wrong_type);
}

TEST(SszJson, PrettyLayout) {
    generic::VarTestStruct v;
    v.A = 1;
    v.B = {2, 3};
    EXPECT_EQ(to_json(v, JsonLayout::pretty),
              "{\n  \"A\": \"1\",\n  \"B\": [\n    \"2\",\n    \"3\"\n  ],\n  \"C\": \"0\"\n}");
    v.B.clear();
    EXPECT_EQ(to_json(v, JsonLayout::pretty),
              "{\n  \"A\": \"1\",\n  \"B\": [],\n  \"C\": \"0\"\n}");
    const std::string pretty = to_json(U{std::uint16_t{2}}, JsonLayout::pretty);
    EXPECT_EQ(pretty, "{\n  \"selector\": 1,\n  \"data\": \"2\"\n}");
    EXPECT_EQ(read<U>(pretty), U{std::uint16_t{2}});
}

TEST(SszJson, AppendsToTheString) {
    std::string out = "x=";
    to_json(std::uint64_t{7}, out);
    EXPECT_EQ(out, "x=\"7\"");
}

TEST(SszJson, SszRoundTrips) {
    // Values print and read back to the same SSZ bytes, through both layouts.
    generic::BitsStruct b;
    b.A.push_back(true);
    b.A.push_back(true);
    b.B.set(1, true);
    b.C.set(0, true);
    for (int i = 0; i < 6; ++i) b.D.push_back(i % 2 == 0);
    b.E.set(7, true);
    EXPECT_EQ(to_json(b), R"({"A":"0x07","B":"0x02","C":"0x01","D":"0x55","E":"0x80"})");
    EXPECT_EQ(encode(read<generic::BitsStruct>(to_json(b))), encode(b));
    using Mixed = List<Union<None, Bitlist<70>, Vector<ByteList<3>, 2>>, 4>;
    Mixed m;
    m.emplace_back();
    Bitlist<70> bits;
    for (int i = 0; i < 70; ++i) bits.push_back(i % 3 == 0);
    m.emplace_back(bits);
    m.emplace_back(Vector<ByteList<3>, 2>{{ByteList<3>{1, 2, 3}, ByteList<3>{}}});
    const Bytes ssz = encode(m);
    const auto back = read<Mixed>(to_json(m));
    EXPECT_EQ(encode(back), ssz);
    EXPECT_EQ(encode(read<Mixed>(to_json(m, JsonLayout::pretty))), ssz);
}

TEST(SszJson, ErrorDescriptions) {
    for (int c = 0; c <= static_cast<int>(JsonErrc::none_with_data); ++c) {
        EXPECT_NE(describe(static_cast<JsonErrc>(c)), "unknown JSON error") << c;
    }
    EXPECT_EQ(to_string(JsonError{JsonErrc::syntax, "", ""}), "json: not valid JSON");
}

}  // namespace
}  // namespace keel::ssz::test
