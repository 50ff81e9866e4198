#include "keel/trace/duration.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>

namespace keel::trace::duration_test {
namespace {

using std::chrono::nanoseconds;

std::int64_t ns(std::string_view text) {
    auto d = parse_duration(text);
    EXPECT_TRUE(d.has_value()) << text << ": " << (d ? "" : d.error());
    return d ? d->count() : -1;
}

// The values are Go's time.ParseDuration's for the same text (its documentation and tests).
// Go's Duration.String() of the same values (its documentation and tests), and each read back.
TEST(Duration, WrittenAsGoWritesIt) {
    const std::pair<std::int64_t, std::string_view> cases[] = {
        {0, "0s"},
        {1, "1ns"},
        {1'100, "1.1\xc2\xb5s"},
        {2'200'000, "2.2ms"},
        {3'300'000'000, "3.3s"},
        {5'000'000'000, "5s"},
        {90'000'000'000, "1m30s"},
        {4 * 60'000'000'000 + 5'001'000'000, "4m5.001s"},
        {3'600'000'000'000, "1h0m0s"},
        {5 * 3'600'000'000'000 + 6 * 60'000'000'000 + 7'001'000'000, "5h6m7.001s"},
        {8 * 60'000'000'000 + 1, "8m0.000000001s"},
        {-1'500'000'000, "-1.5s"},
        {std::numeric_limits<std::int64_t>::max(), "2562047h47m16.854775807s"},
        {std::numeric_limits<std::int64_t>::min(), "-2562047h47m16.854775808s"},
    };
    for (const auto& [v, text] : cases) {
        EXPECT_EQ(format_duration(nanoseconds{v}), text) << v;
        EXPECT_EQ(ns(text), v) << text;
    }
}

TEST(Duration, GoSyntax) {
    EXPECT_EQ(ns("0"), 0);
    EXPECT_EQ(ns("-0"), 0);
    EXPECT_EQ(ns("5s"), 5'000'000'000);
    EXPECT_EQ(ns("+5s"), 5'000'000'000);
    EXPECT_EQ(ns("-5s"), -5'000'000'000);
    EXPECT_EQ(ns("1478s"), 1'478'000'000'000);
    EXPECT_EQ(ns("5.6s"), 5'600'000'000);
    EXPECT_EQ(ns("5.s"), 5'000'000'000);
    EXPECT_EQ(ns(".5s"), 500'000'000);
    EXPECT_EQ(ns("1.004s"), 1'004'000'000);
    EXPECT_EQ(ns("100.00100s"), 100'001'000'000);
    EXPECT_EQ(ns("10ns"), 10);
    EXPECT_EQ(ns("11us"), 11'000);
    EXPECT_EQ(ns("12\xc2\xb5s"), 12'000);
    EXPECT_EQ(ns("12\xce\xbcs"), 12'000);
    EXPECT_EQ(ns("13ms"), 13'000'000);
    EXPECT_EQ(ns("15m"), 900'000'000'000);
    EXPECT_EQ(ns("16h"), 57'600'000'000'000);
    EXPECT_EQ(ns("3h30m"), 12'600'000'000'000);
    EXPECT_EQ(ns("10.5s4m"), 250'500'000'000);
    EXPECT_EQ(ns("-2m3.4s"), -123'400'000'000);
    EXPECT_EQ(ns("1h2m3s4ms5us6ns"), 3'723'004'005'006);
    EXPECT_EQ(ns("39h9m14.425s"), 140'954'425'000'000);
    EXPECT_EQ(ns("52763797000ns"), 52'763'797'000);
    EXPECT_EQ(ns("9007199254740993ns"), 9'007'199'254'740'993);
    // The limits of 64-bit nanoseconds, reached exactly, in one term or several.
    constexpr std::int64_t kMax = std::numeric_limits<std::int64_t>::max();
    EXPECT_EQ(ns("9223372036854775807ns"), kMax);
    EXPECT_EQ(ns("9223372036854775.807us"), kMax);
    EXPECT_EQ(ns("9223372036s854ms775us807ns"), kMax);
    EXPECT_EQ(ns("-9223372036854775808ns"), std::numeric_limits<std::int64_t>::min());
    EXPECT_EQ(ns("-9223372036854775.808us"), std::numeric_limits<std::int64_t>::min());
    // A fraction finer than a nanosecond is dropped.
    EXPECT_EQ(ns("1.0000000001s"), 1'000'000'000);
    EXPECT_EQ(ns("0.0000000000000000000000000001h"), 0);
}

TEST(Duration, Refusals) {
    for (const char* bad : {"",
                            "3",
                            "-",
                            "s",
                            ".",
                            "-.",
                            ".s",
                            "+.s",
                            "1d",
                            "5 s",
                            " 5s",
                            "5s ",
                            "1.5",
                            "\x85\x85",
                            "9223372036854775808ns",
                            "9223372036854775.808us",
                            "9223372036854ms775us808ns",
                            "-9223372036854775809ns",
                            "99999999999999999999999h",
                            "2562048h",
                            "5s-3s"}) {
        auto d = parse_duration(bad);
        EXPECT_FALSE(d.has_value()) << bad << " gave " << (d ? d->count() : 0);
    }
    EXPECT_EQ(parse_duration("1d").error(), "invalid duration \"1d\"");
    EXPECT_EQ(parse_duration("3").error(), "missing unit in duration \"3\"");
    EXPECT_EQ(parse_duration(std::string(100, '9') + "s").error(),
              "invalid duration \"" + std::string(64, '9') + "... (101 bytes)\"");
    EXPECT_EQ(parse_duration("1\ns").error(), "invalid duration \"1\\ns\"");  // one line
}

}  // namespace
}  // namespace keel::trace::duration_test
