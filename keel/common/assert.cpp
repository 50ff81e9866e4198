#include "keel/common/assert.hpp"

#include <cstdio>
#include <cstdlib>

namespace keel::detail {

void assert_fail(const char* expr, const char* file, int line) noexcept {
    std::fprintf(stderr, "keel: assertion failed: %s (%s:%d)\n", expr, file, line);
    std::fflush(stderr);
    std::abort();
}

}  // namespace keel::detail
