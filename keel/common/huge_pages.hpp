#pragma once
/// Transparent huge pages for large, freshly allocated buffers.
///
/// Decoding a mainnet BeaconState writes ~140 MB into new vectors; with 4 KiB pages half of that
/// time goes to page faults (one per page, ~35,000 for the validator list). Where the kernel
/// runs transparent huge pages in "madvise" mode (Debian's default), asking for them on a buffer
/// before its first write makes it fault in 2 MiB at a time.

#include <cstddef>

namespace keel {

/// Buffers from this size on are worth advising (below it, a huge page would be mostly empty).
inline constexpr std::size_t kHugePageAdviceBytes = std::size_t{4} << 20;

/// Asks the kernel to back the whole 4 KiB pages inside [p, p + bytes) with huge pages. Only
/// advice: a no-op where THP is off or the range holds no whole 2 MiB extent, and harmless on
/// memory already touched. Call it between allocating a buffer and writing to it.
void advise_huge_pages(void* p, std::size_t bytes) noexcept;

}  // namespace keel
