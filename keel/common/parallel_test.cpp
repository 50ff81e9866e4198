#include "keel/common/parallel.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <numeric>
#include <vector>

namespace keel::parallel {
namespace {

TEST(Parallel, ForRangesCoversEveryIndexOnce) {
    for (std::size_t n : {0u, 1u, 7u, 1000u, 100'003u}) {
        std::vector<std::atomic<int>> hits(n);
        for_ranges(n, 64, [&](std::size_t b, std::size_t e) {
            ASSERT_LT(b, e);
            for (std::size_t i = b; i < e; ++i) hits[i].fetch_add(1);
        });
        for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(hits[i].load(), 1) << "n=" << n << " i=" << i;
    }
}

TEST(Parallel, MapReduceSums) {
    std::vector<std::uint64_t> v(1'000'000);
    std::iota(v.begin(), v.end(), 1);
    auto sum = map_reduce(
        v.size(), 4096, std::uint64_t{0},
        [&](std::size_t b, std::size_t e) {
            std::uint64_t s = 0;
            for (std::size_t i = b; i < e; ++i) s += v[i];
            return s;
        },
        [](std::uint64_t a, std::uint64_t b) { return a + b; });
    EXPECT_EQ(sum, 1'000'000ull * 1'000'001ull / 2);
    EXPECT_EQ(map_reduce(
                  0, 1, 42, [](std::size_t, std::size_t) { return 1; },
                  [](int a, int b) { return a + b; }),
              42);
}

TEST(Parallel, AllOfFindsAFailure) {
    EXPECT_TRUE(all_of(10'000, 16, [](std::size_t, std::size_t) { return true; }));
    EXPECT_FALSE(
        all_of(10'000, 16, [](std::size_t b, std::size_t e) { return !(b <= 7777 && 7777 < e); }));
    EXPECT_TRUE(all_of(0, 16, [](std::size_t, std::size_t) { return false; }));
}

TEST(Parallel, ThreadLimitCapsConcurrency) {
    {
        ThreadLimit one(1);
        EXPECT_EQ(concurrency(), 1u);
        std::atomic<int> running{0}, peak{0};
        for_each_index(2000, 1, [&](std::size_t) {
            int now = running.fetch_add(1) + 1;
            int p = peak.load();
            while (now > p && !peak.compare_exchange_weak(p, now)) {
            }
            running.fetch_sub(1);
        });
        EXPECT_EQ(peak.load(), 1);
    }
    EXPECT_GE(concurrency(), 1u);
}

}  // namespace
}  // namespace keel::parallel
