#include "keel/common/huge_pages.hpp"

#include <sys/mman.h>

#include <cstdint>

namespace keel {

void advise_huge_pages(void* p, std::size_t bytes) noexcept {
    constexpr std::uintptr_t kPage = 4096;
    const auto begin = (reinterpret_cast<std::uintptr_t>(p) + kPage - 1) & ~(kPage - 1);
    const auto end = (reinterpret_cast<std::uintptr_t>(p) + bytes) & ~(kPage - 1);
    if (end <= begin) return;
    // The advice may be refused (THP disabled, an old kernel): nothing to do about it.
    (void)::madvise(reinterpret_cast<void*>(begin), end - begin, MADV_HUGEPAGE);
}

}  // namespace keel
