#pragma once
/// SSZ merkleization (consensus-specs ssz/simple-serialize.md, "Merkleization").
///
/// Trees are hashed a whole level per call through crypto::sha256_64_many (SHA-NI when the CPU
/// has it), into reusable per-thread scratch: nothing is allocated per element or per chunk.
/// Missing right-hand subtrees are read from a table of zero-subtree roots to depth 64, built
/// once per process. Inputs of at least kParallelChunks chunks are split into subtrees that
/// are hashed on oneTBB's pool (keel/common/parallel.hpp), then joined.

#include <cstddef>
#include <cstdint>
#include <span>

#include "keel/common/bytes.hpp"

namespace keel::ssz {

/// The deepest tree SSZ can describe: limits are at most 2^64 chunks.
inline constexpr std::size_t kMaxTreeDepth = 64;

/// Chunk count from which merkleize_bytes / merkleize_in_place split the work across threads.
inline constexpr std::size_t kParallelChunks = std::size_t{1} << 15;

/// Root of a tree of 2^depth zero chunks (depth <= 64): 32 bytes, valid for the process.
const std::uint8_t* zero_hash(std::size_t depth) noexcept;

/// Depth of a tree with room for `limit_chunks` leaves: ceil(log2(limit)), 0 for limit <= 1.
constexpr std::size_t tree_depth(std::uint64_t limit_chunks) noexcept {
    std::size_t d = 0;
    while (d < 64 && (std::uint64_t{1} << d) < limit_chunks) ++d;
    return d;
}

/// merkleize(pack(bytes), limit): the root of `size` bytes at `data` split into 32-byte chunks
/// (the last one zero-padded) in a tree with room for `limit_chunks` leaves (>= the chunk
/// count; asserted). Writes 32 bytes to `out`. Reads `data` only.
void merkleize_bytes(const std::uint8_t* data, std::size_t size, std::uint64_t limit_chunks,
                     std::uint8_t* out) noexcept;

/// merkleize(chunks, limit) over `count` 32-byte chunks at `buf`, hashing in place: `buf` must
/// have room for count + 1 chunks and holds scratch afterwards. Writes 32 bytes to `out`.
void merkleize_in_place(std::uint8_t* buf, std::size_t count, std::uint64_t limit_chunks,
                        std::uint8_t* out) noexcept;

/// Roots of many byte lists at once: for each i, merkleize(pack(items[i]), limit_chunks) mixed
/// with items[i].size() (the hash_tree_root of a ByteList whose limit is limit_chunks * 32
/// bytes), written to out + 32 * i. All lists climb their trees together, one
/// sha256_64_many call per tree level for every list (a block's transactions climb from their
/// few chunks to the 2^25-chunk limit: one batched call per level instead of one hash per list
/// per level). Every items[i] must fit the limit (asserted).
///
/// `lengths`, when given, holds the number mixed in for each list instead of its byte count (a
/// Bitlist mixes in its bit count); root i goes to out + out_stride * i.
void merkleize_byte_lists(std::span<const BytesView> items, std::uint64_t limit_chunks,
                          std::uint8_t* out, const std::uint64_t* lengths = nullptr,
                          std::size_t out_stride = 32) noexcept;

/// Roots of `count` trees of `width` chunks each (width a power of two), laid out back to back
/// at `buf`: all trees climb together, one sha256_64_many call per level for all of them (the
/// field roots of a batch of containers, or the chunks of a batch of 48- or 96-byte vectors).
/// Hashes in place (`buf` holds scratch afterwards); root i goes to out + out_stride * i.
void merkleize_batch(std::uint8_t* buf, std::size_t count, std::size_t width, std::uint8_t* out,
                     std::size_t out_stride) noexcept;

/// root = hash(root || uint256(length)) (mix_in_length).
void mix_in_length(std::uint8_t* root, std::uint64_t length) noexcept;

/// root = hash(root || uint256(selector)) (mix_in_selector, for Union).
void mix_in_selector(std::uint8_t* root, std::uint8_t selector) noexcept;

/// Batch sizes of the batched roots below: trees of `width` leaves, batches of 16-64 KiB so
/// their leaves stay in L1/L2 while they are hashed.
constexpr std::size_t batch_of(std::size_t width) noexcept {
    return 2048 / width > 16 ? 2048 / width : 16;
}

/// A frame of per-thread scratch memory for one merkleization step. Frames nest (a container's
/// field roots, then a list's element roots inside it): each frame owns its own buffer, reused
/// by later frames at the same depth and only ever grown. Not shared between threads.
class ScratchFrame {
  public:
    ScratchFrame() noexcept;
    ~ScratchFrame();
    ScratchFrame(const ScratchFrame&) = delete;
    ScratchFrame& operator=(const ScratchFrame&) = delete;

    /// At least `bytes` bytes, valid until this frame ends (a later get() may move them).
    std::uint8_t* get(std::size_t bytes);

  private:
    std::size_t depth_;
};

/// Roots of `count` values whose trees have `Width` leaves each (a power of two), in batches:
/// fill(base, n, leaves) writes the leaves of values base .. base + n - 1 back to back, then all
/// their trees climb together (merkleize_batch); root i goes to out + stride * i. The shared
/// loop of the batched container and byte-vector roots.
template <std::size_t Width, class Fill>
void batched_roots(std::size_t count, const Fill& fill, std::uint8_t* out,
                   std::size_t stride) noexcept {
    constexpr std::size_t kBatch = batch_of(Width);
    if (count == 0) return;
    ScratchFrame frame;
    std::uint8_t* leaves = frame.get(32 * Width * (count < kBatch ? count : kBatch));
    for (std::size_t base = 0; base < count; base += kBatch) {
        const std::size_t n = count - base < kBatch ? count - base : kBatch;
        fill(base, n, leaves);
        merkleize_batch(leaves, n, Width, out + stride * base, stride);
    }
}

}  // namespace keel::ssz
