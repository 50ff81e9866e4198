#include "keel/ssz/merkle.hpp"

#include <algorithm>
#include <array>
#include <cstring>
#include <vector>

#include "keel/common/assert.hpp"
#include "keel/common/parallel.hpp"
#include "keel/crypto/sha256.hpp"

namespace keel::ssz {

namespace {

/// zero_hashes[d] = root of 2^d zero chunks; [0] is the zero chunk itself.
struct ZeroHashes {
    std::array<std::uint8_t, 32 * (kMaxTreeDepth + 1)> table{};
    ZeroHashes() noexcept {
        for (std::size_t d = 1; d <= kMaxTreeDepth; ++d) {
            std::uint8_t block[64];
            std::memcpy(block, &table[32 * (d - 1)], 32);
            std::memcpy(block + 32, &table[32 * (d - 1)], 32);
            crypto::sha256_64(block, &table[32 * d]);
        }
    }
};

// Built at start-up and read as a plain reference afterwards (DESIGN.md §4.3).
const ZeroHashes kZero;

/// Subtree size (in chunks, a power of two) of one parallel task: ~4096 hashes each.
constexpr std::size_t kSubtreeLog2 = 12;
constexpr std::size_t kSubtreeChunks = std::size_t{1} << kSubtreeLog2;

/// Per-thread scratch: one growing buffer per nesting depth.
constexpr std::size_t kMaxFrames = 64;
thread_local std::array<std::vector<std::uint8_t>, kMaxFrames> t_frames;
thread_local std::size_t t_depth = 0;

/// Hashes `m` nodes of tree level `level` at `buf` in place up to level `depth`.
void reduce_levels(std::uint8_t* buf, std::size_t m, std::size_t level, std::size_t depth,
                   std::uint8_t* out) noexcept {
    for (; level < depth; ++level) {
        if (m % 2 == 1) {
            // The missing right sibling is an all-zero subtree of this level.
            std::memcpy(buf + 32 * m, zero_hash(level), 32);
            ++m;
        }
        m /= 2;
        crypto::sha256_64_many(buf, buf, m);
    }
    std::memcpy(out, buf, 32);
}

}  // namespace

const std::uint8_t* zero_hash(std::size_t depth) noexcept {
    KEEL_ASSERT(depth <= kMaxTreeDepth);
    return &kZero.table[32 * depth];
}

ScratchFrame::ScratchFrame() noexcept : depth_(t_depth++) {
    KEEL_ASSERT(depth_ < kMaxFrames);
}

ScratchFrame::~ScratchFrame() {
    --t_depth;
}

std::uint8_t* ScratchFrame::get(std::size_t bytes) {
    auto& v = t_frames[depth_];
    if (v.size() < bytes) v.resize(std::max(bytes, 2 * v.size()));
    return v.data();
}

void merkleize_bytes(const std::uint8_t* data, std::size_t size, std::uint64_t limit_chunks,
                     std::uint8_t* out) noexcept {
    const std::size_t count = (size + 31) / 32;
    KEEL_ASSERT(count <= limit_chunks || (count == 0 && limit_chunks == 0));
    const std::size_t depth = tree_depth(limit_chunks);
    if (count == 0) {
        std::memcpy(out, zero_hash(depth), 32);
        return;
    }
    if (depth == 0) {  // a single chunk is its own root
        std::memset(out, 0, 32);
        std::memcpy(out, data, size);
        return;
    }
    ScratchFrame frame;
    if (count >= kParallelChunks && depth > kSubtreeLog2 && parallel::concurrency() > 1) {
        // Independent subtrees of kSubtreeChunks chunks, one task each, then join their roots.
        const std::size_t subtrees = (count + kSubtreeChunks - 1) / kSubtreeChunks;
        std::uint8_t* roots = frame.get(32 * (subtrees + 1));
        parallel::for_each_index(subtrees, 1, [&](std::size_t i) {
            const std::size_t begin = i * kSubtreeChunks * 32;
            const std::size_t len = std::min(kSubtreeChunks * 32, size - begin);
            merkleize_bytes(data + begin, len, kSubtreeChunks, roots + 32 * i);
        });
        reduce_levels(roots, subtrees, kSubtreeLog2, depth, out);
        return;
    }
    // Level 0 reads the caller's bytes; later levels are hashed in place in scratch.
    const std::size_t pairs = size / 64;
    const std::size_t rest = size % 64;
    std::uint8_t* buf = frame.get(32 * (pairs + 2));
    crypto::sha256_64_many(data, buf, pairs);
    std::size_t m = pairs;
    if (rest != 0) {
        std::uint8_t block[64] = {};
        std::memcpy(block, data + 64 * pairs, rest);
        crypto::sha256_64(block, buf + 32 * m);
        ++m;
    }
    reduce_levels(buf, m, 1, depth, out);
}

void merkleize_in_place(std::uint8_t* buf, std::size_t count, std::uint64_t limit_chunks,
                        std::uint8_t* out) noexcept {
    KEEL_ASSERT(count <= limit_chunks || (count == 0 && limit_chunks == 0));
    const std::size_t depth = tree_depth(limit_chunks);
    if (count == 0) {
        std::memcpy(out, zero_hash(depth), 32);
        return;
    }
    if (count >= kParallelChunks && depth > kSubtreeLog2 && parallel::concurrency() > 1) {
        // Each task reduces its own region; only the last region may need the padding slot,
        // which is the caller's extra chunk. Then roots move to the front, in order.
        const std::size_t subtrees = (count + kSubtreeChunks - 1) / kSubtreeChunks;
        parallel::for_each_index(subtrees, 1, [&](std::size_t i) {
            std::uint8_t* region = buf + 32 * i * kSubtreeChunks;
            const std::size_t m = std::min(kSubtreeChunks, count - i * kSubtreeChunks);
            reduce_levels(region, m, 0, kSubtreeLog2, region);
        });
        for (std::size_t i = 1; i < subtrees; ++i) {
            std::memmove(buf + 32 * i, buf + 32 * i * kSubtreeChunks, 32);
        }
        reduce_levels(buf, subtrees, kSubtreeLog2, depth, out);
        return;
    }
    reduce_levels(buf, count, 0, depth, out);
}

void merkleize_byte_lists(std::span<const BytesView> items, std::uint64_t limit_chunks,
                          std::uint8_t* out, const std::uint64_t* lengths,
                          std::size_t out_stride) noexcept {
    const std::size_t depth = tree_depth(limit_chunks);
    const std::size_t count = items.size();
    auto length_of = [&](std::size_t i) -> std::uint64_t {
        return lengths != nullptr ? lengths[i] : items[i].size();
    };
    if (depth == 0) {  // single-chunk trees: nothing to climb
        for (std::size_t i = 0; i < count; ++i) {
            std::uint8_t* root = out + out_stride * i;
            merkleize_bytes(items[i].data(), items[i].size(), limit_chunks, root);
            mix_in_length(root, length_of(i));
        }
        return;
    }
    // nodes[i]: how many nodes list i has at the current level (0 for an empty list, whose
    // root is the zero subtree). Level 0 is the lists' chunks, laid out back to back, each list
    // zero-padded to a whole number of 64-byte blocks (the missing right chunk is zero).
    ScratchFrame counts_frame;
    auto* nodes = reinterpret_cast<std::size_t*>(counts_frame.get(sizeof(std::size_t) * count));
    std::size_t blocks = 0;
    for (std::size_t i = 0; i < count; ++i) {
        const std::size_t chunks = (items[i].size() + 31) / 32;
        KEEL_ASSERT(chunks <= limit_chunks);
        nodes[i] = chunks;
        blocks += (chunks + 1) / 2;
    }
    ScratchFrame in_frame;
    ScratchFrame out_frame;
    // `in` later holds the count length mix-in blocks too.
    std::uint8_t* in = in_frame.get(64 * std::max(blocks, count) + 64);
    std::uint8_t* next = out_frame.get(32 * blocks + 64);
    std::uint8_t* p = in;
    for (std::size_t i = 0; i < count; ++i) {
        const std::size_t padded = 64 * ((nodes[i] + 1) / 2);
        // An empty list's data() may be null, which memcpy must not be given even for 0 bytes.
        if (!items[i].empty()) std::memcpy(p, items[i].data(), items[i].size());
        std::memset(p + items[i].size(), 0, padded - items[i].size());
        p += padded;
    }
    for (std::size_t level = 0;; ++level) {
        crypto::sha256_64_many(in, next, blocks);  // every list's level, in one call
        for (std::size_t i = 0; i < count; ++i) nodes[i] = (nodes[i] + 1) / 2;
        if (level + 1 == depth) break;
        // The next level's blocks: each list's nodes in pairs, an odd last one paired with the
        // zero subtree of this height.
        const std::uint8_t* src = next;
        std::uint8_t* dst = in;
        blocks = 0;
        for (std::size_t i = 0; i < count; ++i) {
            const std::size_t m = nodes[i];
            if (m == 0) continue;
            std::memcpy(dst, src, 32 * m);
            src += 32 * m;
            dst += 32 * m;
            if (m % 2 == 1) {
                std::memcpy(dst, zero_hash(level + 1), 32);
                dst += 32;
            }
            blocks += (m + 1) / 2;
        }
    }
    // One root per non-empty list, in order; then every length mixed in with one more call.
    const std::uint8_t* root = next;
    std::uint8_t* mix = in;
    for (std::size_t i = 0; i < count; ++i) {
        if (nodes[i] == 0) {
            std::memcpy(mix, zero_hash(depth), 32);
        } else {
            std::memcpy(mix, root, 32);
            root += 32;
        }
        std::memset(mix + 32, 0, 32);
        const std::uint64_t len = length_of(i);
        for (int b = 0; b < 8; ++b) mix[32 + b] = static_cast<std::uint8_t>(len >> (8 * b));
        mix += 64;
    }
    if (out_stride == 32) {
        crypto::sha256_64_many(in, out, count);
        return;
    }
    crypto::sha256_64_many(in, in, count);
    for (std::size_t i = 0; i < count; ++i) std::memcpy(out + out_stride * i, in + 32 * i, 32);
}

void merkleize_batch(std::uint8_t* buf, std::size_t count, std::size_t width, std::uint8_t* out,
                     std::size_t out_stride) noexcept {
    KEEL_ASSERT(width != 0 && (width & (width - 1)) == 0);
    // Each tree's nodes stay contiguous at every level, so one call hashes a whole level of
    // every tree: node j of the next level is the hash of nodes 2j and 2j + 1.
    for (std::size_t m = count * width; m > count;) {
        m /= 2;
        crypto::sha256_64_many(buf, buf, m);
    }
    if (out_stride == 32) {
        std::memmove(out, buf, 32 * count);
        return;
    }
    for (std::size_t i = 0; i < count; ++i) std::memcpy(out + out_stride * i, buf + 32 * i, 32);
}

void mix_in_length(std::uint8_t* root, std::uint64_t length) noexcept {
    std::uint8_t block[64] = {};
    std::memcpy(block, root, 32);
    for (int i = 0; i < 8; ++i) block[32 + i] = static_cast<std::uint8_t>(length >> (8 * i));
    crypto::sha256_64(block, root);
}

void mix_in_selector(std::uint8_t* root, std::uint8_t selector) noexcept {
    std::uint8_t block[64] = {};
    std::memcpy(block, root, 32);
    block[32] = selector;
    crypto::sha256_64(block, root);
}

}  // namespace keel::ssz
