#include "keel/common/lru_cache.hpp"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <thread>
#include <vector>

namespace keel::lru_cache_test {
namespace {

TEST(LruCache, KeepsTheMostRecentlyUsedWithinTheCapacity) {
    LruCache<int, std::string> c(3);
    c.put(1, "one");
    c.put(2, "two");
    c.put(3, "three");
    EXPECT_EQ(c.get(1), "one");  // 1 is now the most recent: 2 is the least
    c.put(4, "four");
    EXPECT_FALSE(c.get(2).has_value());
    EXPECT_EQ(c.get(1), "one");
    EXPECT_EQ(c.get(3), "three");
    EXPECT_EQ(c.get(4), "four");
    EXPECT_EQ(c.size(), 3u);
    EXPECT_EQ(c.cost(), 3u);
}

TEST(LruCache, AKeyHeldKeepsItsValue) {
    LruCache<int, std::string> c(4);
    c.put(7, "first");
    c.put(7, "second");
    EXPECT_EQ(c.get(7), "first");
    EXPECT_EQ(c.size(), 1u);
}

TEST(LruCache, WeighsEntriesByTheirCost) {
    LruCache<int, int> c(100);
    c.put(1, 10, 40);
    c.put(2, 20, 40);
    EXPECT_EQ(c.cost(), 80u);
    c.put(3, 30, 40);  // 120 > 100: the least recent (1) leaves
    EXPECT_FALSE(c.get(1).has_value());
    EXPECT_EQ(c.cost(), 80u);
    c.put(4, 40, 101);  // more than the whole capacity: not kept, nothing dropped for it
    EXPECT_FALSE(c.get(4).has_value());
    EXPECT_EQ(c.get(2), 20);
    EXPECT_EQ(c.get(3), 30);
    c.put(5, 50, 100);  // exactly the capacity: everything else leaves
    EXPECT_EQ(c.size(), 1u);
    EXPECT_EQ(c.get(5), 50);
}

TEST(LruCache, AValueOutlivesItsEviction) {
    LruCache<int, std::shared_ptr<const std::string>> c(1);
    c.put(1, std::make_shared<const std::string>("kept by the reader"));
    std::shared_ptr<const std::string> held = c.get(1).value();
    c.put(2, std::make_shared<const std::string>("evicts 1"));
    EXPECT_FALSE(c.get(1).has_value());
    EXPECT_EQ(*held, "kept by the reader");
}

// Threads putting and getting overlapping keys: every value read is the one its key was put
// with, and the bound holds (ThreadSanitizer checks the locking).
TEST(LruCache, ManyThreads) {
    LruCache<int, int> c(64);
    std::vector<std::thread> threads;
    std::vector<int> wrong(4, 0);
    for (int t = 0; t < 4; ++t) {
        threads.emplace_back([&c, &wrong, t] {
            for (int i = 0; i < 5000; ++i) {
                const int k = (i * 7 + t) % 200;
                c.put(k, k * 3);
                if (auto v = c.get((k + 13) % 200); v && *v != ((k + 13) % 200) * 3) ++wrong[t];
            }
        });
    }
    for (auto& th : threads) th.join();
    for (int w : wrong) EXPECT_EQ(w, 0);
    EXPECT_LE(c.cost(), 64u);
    EXPECT_EQ(c.size(), c.cost());
}

}  // namespace
}  // namespace keel::lru_cache_test
