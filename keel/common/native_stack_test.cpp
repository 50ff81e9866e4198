#include "keel/common/native_stack.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <stdexcept>
#include <thread>

namespace keel::native_stack {
namespace {

// A recursion that takes about 4 KB of stack per level and asks for 64 KB before descending.
int descend(int levels) {
    volatile char pad[4096];
    pad[0] = static_cast<char>(levels);
    pad[4095] = pad[0];
    if (levels == 0) return pad[4095] == 0 ? 0 : -1;
    return 1 + with_headroom(64 << 10, [&] { return descend(levels - 1); });
}

struct Recursion {
    int levels;
    int result = -1;
};

TEST(NativeStack, HeadroomShrinksAsTheStackGrows) {
    const std::size_t outer = headroom();
    std::size_t inner = 0;
    [&] {
        volatile char pad[8192];
        pad[0] = 1;
        inner = headroom() + pad[0] - 1;
    }();
    ASSERT_GT(outer, std::size_t{8192});
    EXPECT_LT(inner, outer);
}

TEST(NativeStack, FreshStackHasItsSize) {
    std::size_t seen = 0;
    run_on_fresh_stack(
        std::size_t{1} << 20, [](void* p) { *static_cast<std::size_t*>(p) = headroom(); }, &seen);
    EXPECT_GT(seen, std::size_t{900} << 10);
    EXPECT_LE(seen, std::size_t{1} << 20);
}

// 20,000 levels of 4 KB (80 MB) from a thread of 256 KB: the recursion hops to fresh stacks
// instead of overflowing, and every level's result comes back.
TEST(NativeStack, DeepRecursionFromASmallStackCompletes) {
    Recursion run{20'000};
    run_on_fresh_stack(
        std::size_t{256} << 10,
        [](void* p) {
            auto* r = static_cast<Recursion*>(p);
            r->result = descend(r->levels);
        },
        &run);
    EXPECT_EQ(run.result, 20'000);
}

TEST(NativeStack, ExceptionsCrossTheHop) {
    auto throwing = [] {
        return with_headroom(std::size_t{1} << 40,
                             []() -> int { throw std::runtime_error("from the fresh stack"); });
    };
    EXPECT_THROW(
        {
            try {
                throwing();
            } catch (const std::runtime_error& e) {
                EXPECT_STREQ(e.what(), "from the fresh stack");
                throw;
            }
        },
        std::runtime_error);
    int calls = 0;
    with_headroom(std::size_t{1} << 40, [&] { ++calls; });  // void, always hops
    EXPECT_EQ(calls, 1);
}

}  // namespace
}  // namespace keel::native_stack
