#include "keel/common/progress.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <string>
#include <thread>
#include <vector>

#include "keel/common/parallel.hpp"

namespace keel {
namespace {

std::string read_all(std::FILE* f) {
    std::rewind(f);
    std::string s;
    char buf[256];
    while (std::size_t n = std::fread(buf, 1, sizeof buf, f)) s.append(buf, n);
    return s;
}

TEST(Progress, FormatsCountsAndDurations) {
    EXPECT_EQ(format_count(0), "0");
    EXPECT_EQ(format_count(999), "999");
    EXPECT_EQ(format_count(1500), "1.50k");
    EXPECT_EQ(format_count(25'300'000), "25.3M");
    EXPECT_EQ(format_count(640'000'000'000), "640G");
    EXPECT_EQ(format_duration(0), "0s");
    EXPECT_EQ(format_duration(59.4), "59s");
    EXPECT_EQ(format_duration(187), "3m07s");
    EXPECT_EQ(format_duration(7500), "2h05m");
    EXPECT_EQ(format_duration(-1), "?");
}

TEST(Progress, StatusLineHasCountPercentRateAndEta) {
    Progress p("import", 5000, {.enabled = false, .unit = "blocks"});
    EXPECT_EQ(p.status_line(1200, 4.0), "import: 1200/5000 blocks (24.0%), 300 blocks/s, ETA 13s");
    EXPECT_EQ(p.status_line(5000, 10.0),
              "import: 5000/5000 blocks (100.0%), 500 blocks/s, took 10s");
    Progress unknown("scan", 0, {.enabled = false});
    EXPECT_EQ(unknown.status_line(10, 2.0), "scan: 10 items, 5 items/s");
}

TEST(Progress, SecondaryUnitShowsItsRate) {
    Progress p("import", 5000, {.enabled = false, .unit = "blocks", .secondary_unit = "tx"});
    EXPECT_EQ(p.status_line(1200, 4.0, 60000),
              "import: 1200/5000 blocks (24.0%), 300 blocks/s, 15.0k tx/s, ETA 13s");
    p.advance(3, 150);
    p.advance(2);
    EXPECT_EQ(p.done(), 5u);
    EXPECT_EQ(p.secondary_done(), 150u);
}

TEST(Progress, PlainOutputPrintsAFinalLine) {
    std::FILE* f = std::tmpfile();
    ASSERT_NE(f, nullptr);
    {
        Progress p("verify", 10, {.out = f, .plain_interval = std::chrono::milliseconds(0)});
        for (int i = 0; i < 10; ++i) p.advance();
    }
    std::string out = read_all(f);
    std::fclose(f);
    // Not a terminal: plain lines only, no carriage returns or escape codes.
    EXPECT_EQ(out.find('\r'), std::string::npos);
    EXPECT_EQ(out.find('\x1b'), std::string::npos);
    EXPECT_NE(out.find("verify: 10/10 items (100.0%)"), std::string::npos) << out;
}

TEST(Progress, DisabledWritesNothing) {
    std::FILE* f = std::tmpfile();
    ASSERT_NE(f, nullptr);
    {
        Progress p("quiet", 3, {.out = f, .enabled = false});
        p.advance(3);
        EXPECT_EQ(p.done(), 3u);
    }
    EXPECT_EQ(read_all(f), "");
    std::fclose(f);
}

TEST(Progress, CountsFromManyThreads) {
    Progress p("work", 0, {.enabled = false});
    parallel::for_each_index(100'000, 64, [&](std::size_t) { p.advance(); });
    EXPECT_EQ(p.done(), 100'000u);
    p.set_total(100'000);
    EXPECT_EQ(p.total(), 100'000u);
}

}  // namespace
}  // namespace keel
