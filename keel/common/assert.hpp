#pragma once
/// KEEL_ASSERT: checks of programming errors that stay on in release builds (DESIGN.md §3).
/// Never use it for conditions that input can trigger: those return a Result.

namespace keel::detail {
/// Prints "keel: assertion failed: <expr> (<file>:<line>)" to stderr and aborts.
[[noreturn]] void assert_fail(const char* expr, const char* file, int line) noexcept;
}  // namespace keel::detail

#define KEEL_ASSERT(cond)                                           \
    do {                                                            \
        if (!(cond)) [[unlikely]]                                   \
            ::keel::detail::assert_fail(#cond, __FILE__, __LINE__); \
    } while (false)
