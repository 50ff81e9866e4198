#include "keel/common/json_writer.hpp"

#include <gtest/gtest.h>

#include <cmath>

#include <cstdint>
#include <limits>
#include <random>
#include <string>

#include <nlohmann/json.hpp>

namespace keel::json {
namespace {

std::string compact(auto&& body) {
    std::string out;
    Writer w(out);
    body(w);
    EXPECT_TRUE(w.complete());
    return out;
}

TEST(JsonString, EscapesQuotesBackslashesAndControls) {
    std::string out;
    append_string(out, "plain");
    EXPECT_EQ(out, "\"plain\"");
    out.clear();
    append_string(out, "a\"b\\c");
    EXPECT_EQ(out, R"("a\"b\\c")");
    out.clear();
    append_string(out, "\b\f\n\r\t");
    EXPECT_EQ(out, R"("\b\f\n\r\t")");
    out.clear();
    append_string(out, std::string_view("\x00\x01\x1f\x7f", 4));
    EXPECT_EQ(out, "\"\\u0000\\u0001\\u001f\x7f\"");
    out.clear();
    append_string(out, "caf\xc3\xa9 \xe2\x82\xac");  // UTF-8 is copied as it is
    EXPECT_EQ(out, "\"caf\xc3\xa9 \xe2\x82\xac\"");
    out.clear();
    append_string(out, "");
    EXPECT_EQ(out, "\"\"");
    out = "keep:";
    append_string(out, "/");  // appends; '/' needs no escape
    EXPECT_EQ(out, "keep:\"/\"");
}

TEST(JsonWriter, Quantities) {
    EXPECT_EQ(compact([](Writer& w) { w.quantity(std::uint64_t{0}); }), "\"0x0\"");
    EXPECT_EQ(compact([](Writer& w) { w.quantity(std::uint64_t{1}); }), "\"0x1\"");
    EXPECT_EQ(compact([](Writer& w) { w.quantity(std::uint64_t{0x400}); }), "\"0x400\"");
    EXPECT_EQ(compact([](Writer& w) { w.quantity(~std::uint64_t{0}); }), "\"0xffffffffffffffff\"");
    EXPECT_EQ(compact([](Writer& w) { w.quantity(Uint256(0)); }), "\"0x0\"");
    EXPECT_EQ(compact([](Writer& w) { w.quantity(Uint256::max()); }),
              "\"0x" + std::string(64, 'f') + "\"");
    // Every 64-bit width agrees with Uint256's own QUANTITY form.
    for (int bits = 0; bits < 64; ++bits) {
        const std::uint64_t v = (std::uint64_t{1} << bits) | 1;
        EXPECT_EQ(compact([&](Writer& w) { w.quantity(v); }), "\"" + Uint256(v).to_hex() + "\"");
    }
}

TEST(JsonWriter, Reals) {
    EXPECT_EQ(compact([](Writer& w) { w.real(0.0); }), "0");
    EXPECT_EQ(compact([](Writer& w) { w.real(0.5); }), "0.5");
    EXPECT_EQ(compact([](Writer& w) { w.real(0.00072868); }), "0.00072868");
    EXPECT_EQ(compact([](Writer& w) { w.real(1.0); }), "1");
    // JSON holds no NaN or infinity: written as 0 rather than as invalid JSON.
    EXPECT_EQ(compact([](Writer& w) { w.real(std::nan("")); }), "0");
    EXPECT_EQ(compact([](Writer& w) { w.real(std::numeric_limits<double>::infinity()); }), "0");
    EXPECT_EQ(compact([](Writer& w) {
                  w.begin_array();
                  w.real(0.25);
                  w.real(2.5);
                  w.end_array();
              }),
              "[0.25,2.5]");
}

TEST(JsonWriter, Data) {
    EXPECT_EQ(compact([](Writer& w) { w.data({}); }), "\"0x\"");
    const std::uint8_t b[] = {0x00, 0x0f, 0xab, 0xff};
    EXPECT_EQ(compact([&](Writer& w) { w.data(b); }), "\"0x000fabff\"");
}

TEST(JsonWriter, ScalarsAndNesting) {
    const std::string s = compact([](Writer& w) {
        w.begin_object();
        w.key("a");
        w.null();
        w.key("b");
        w.boolean(true);
        w.key("c");
        w.boolean(false);
        w.key("n");
        w.number(18446744073709551615u);
        w.key("list");
        w.begin_array();
        w.begin_array();
        w.end_array();
        w.begin_object();
        w.end_object();
        w.string("x\ny");
        w.begin_object();
        w.member_quantity("q", std::uint64_t{10});
        w.member_data("d", {});
        w.end_object();
        w.end_array();
        w.key("k\"ey");
        w.number(0);
        w.end_object();
    });
    EXPECT_EQ(s, R"({"a":null,"b":true,"c":false,"n":18446744073709551615,)"
                 R"("list":[[],{},"x\ny",{"q":"0xa","d":"0x"}],"k\"ey":0})");
}

TEST(JsonWriter, IndentedLayout) {
    std::string out;
    Writer w(out, 2);
    w.begin_object();
    w.key("a");
    w.begin_array();
    w.number(1);
    w.begin_object();
    w.key("b");
    w.null();
    w.end_object();
    w.end_array();
    w.key("e");
    w.begin_array();
    w.end_array();
    w.key("o");
    w.begin_object();
    w.end_object();
    w.end_object();
    EXPECT_TRUE(w.complete());
    EXPECT_EQ(out,
              "{\n"
              "  \"a\": [\n"
              "    1,\n"
              "    {\n"
              "      \"b\": null\n"
              "    }\n"
              "  ],\n"
              "  \"e\": [],\n"
              "  \"o\": {}\n"
              "}");
}

TEST(JsonWriter, AppendsToWhatTheBufferHolds) {
    std::string out = "prefix ";
    Writer w(out);
    w.begin_array();
    w.end_array();
    EXPECT_EQ(out, "prefix []");
    EXPECT_EQ(w.depth(), 0u);
}

// Random documents written both ways: the writer against nlohmann::ordered_json's dump(indent)
// for the compact layout and indents 0, 1, 2 and 4 (the layout keel's commands printed through
// nlohmann before).
void random_value(std::mt19937_64& rng, int depth, Writer& w, nlohmann::ordered_json& j) {
    const int kind = depth >= 4 ? static_cast<int>(rng() % 5) : static_cast<int>(rng() % 7);
    switch (kind) {
        case 0:
            w.null();
            j = nullptr;
            return;
        case 1: {
            const bool b = rng() & 1;
            w.boolean(b);
            j = b;
            return;
        }
        case 2: {
            const std::uint64_t v = rng() >> (rng() % 64);
            w.number(v);
            j = v;
            return;
        }
        case 3: {
            std::string s;
            const std::size_t n = rng() % 6;
            for (std::size_t i = 0; i < n; ++i) s.push_back(static_cast<char>(rng() % 0x80));
            w.string(s);
            j = s;
            return;
        }
        case 4: {
            const std::uint64_t v = rng() >> (rng() % 64);
            w.quantity(v);
            j = Uint256(v).to_hex();
            return;
        }
        case 5: {
            w.begin_array();
            j = nlohmann::ordered_json::array();
            const std::size_t n = rng() % 4;
            for (std::size_t i = 0; i < n; ++i) {
                nlohmann::ordered_json e;
                random_value(rng, depth + 1, w, e);
                j.push_back(std::move(e));
            }
            w.end_array();
            return;
        }
        default: {
            w.begin_object();
            j = nlohmann::ordered_json::object();
            const std::size_t n = rng() % 4;
            for (std::size_t i = 0; i < n; ++i) {
                const std::string k = "k" + std::to_string(i) + (rng() & 1 ? "\t\"" : "");
                w.key(k);
                random_value(rng, depth + 1, w, j[k]);
            }
            w.end_object();
            return;
        }
    }
}

TEST(JsonWriter, MatchesNlohmannDump) {
    std::mt19937_64 rng(8259);
    for (int indent : {Writer::kCompact, 0, 1, 2, 4}) {
        for (int i = 0; i < 300; ++i) {
            std::string out;
            Writer w(out, indent);
            nlohmann::ordered_json j;
            random_value(rng, 0, w, j);
            ASSERT_TRUE(w.complete());
            ASSERT_EQ(out, j.dump(indent)) << "indent " << indent << ", document " << i;
        }
    }
}

TEST(JsonWriterDeathTest, MisuseIsABug) {
    EXPECT_DEATH(
        {
            std::string out;
            Writer w(out);
            w.begin_object();
            w.null();  // a value without its key
        },
        "");
    EXPECT_DEATH(
        {
            std::string out;
            Writer w(out);
            w.begin_array();
            w.end_object();
        },
        "");
    EXPECT_DEATH(
        {
            std::string out;
            Writer w(out);
            w.begin_array();
            w.key("k");
        },
        "");
}

}  // namespace
}  // namespace keel::json

namespace keel::json::key_data_test {

TEST(JsonWriter, KeyDataWritesHexKeysAsKeysAndIndents) {
    std::string out;
    Writer w(out);
    w.begin_object();
    const std::uint8_t a[] = {0x00, 0xab, 0xff};
    w.key_data(BytesView(a, 3));
    w.data(BytesView(a, 1));
    w.key_data(BytesView());
    w.number(1);
    w.end_object();
    EXPECT_EQ(out, R"({"0x00abff":"0x00","0x":1})");
    std::string pretty;
    Writer p(pretty, 2);
    p.begin_object();
    p.key_data(BytesView(a, 2));
    p.null();
    p.end_object();
    EXPECT_EQ(pretty, "{\n  \"0x00ab\": null\n}");
}

}  // namespace keel::json::key_data_test
