// Merkleization core: zero hashes, trees of every small shape, the parallel split, mix-ins.
#include <gtest/gtest.h>

#include "keel/common/parallel.hpp"
#include "keel/ssz/test_helpers.hpp"

namespace keel::ssz::test {
namespace {

TEST(SszMerkle, ZeroHashes) {
    Hash32 z;
    for (std::size_t d = 0; d <= kMaxTreeDepth; ++d) {
        EXPECT_EQ(0, std::memcmp(zero_hash(d), z.data(), 32)) << d;
        z = hash_pair(z, z);
    }
}

TEST(SszMerkle, TreeDepth) {
    EXPECT_EQ(tree_depth(0), 0u);
    EXPECT_EQ(tree_depth(1), 0u);
    EXPECT_EQ(tree_depth(2), 1u);
    EXPECT_EQ(tree_depth(3), 2u);
    EXPECT_EQ(tree_depth(std::uint64_t{1} << 40), 40u);
    EXPECT_EQ(tree_depth((std::uint64_t{1} << 40) + 1), 41u);
}

TEST(SszMerkle, EveryShapeMatchesTheReference) {
    Bytes data(32 * 70);
    for (std::size_t i = 0; i < data.size(); ++i) data[i] = static_cast<std::uint8_t>(i * 31 + 7);
    for (std::size_t size : {0, 1, 31, 32, 33, 63, 64, 65, 96, 128, 1000, 2240}) {
        for (std::size_t limit : {std::size_t{70}, std::size_t{128}, std::size_t{1000}}) {
            const BytesView b(data.data(), size);
            Hash32 got;
            merkleize_bytes(b.data(), b.size(), limit, got.data());
            EXPECT_EQ(got, reference_merkleize(pack(b), limit)) << size << " " << limit;

            auto chunks = pack(b);
            std::vector<std::uint8_t> buf(32 * (chunks.size() + 1));
            if (!chunks.empty()) std::memcpy(buf.data(), chunks.data(), 32 * chunks.size());
            Hash32 in_place;
            merkleize_in_place(buf.data(), chunks.size(), limit, in_place.data());
            EXPECT_EQ(in_place, got);
        }
    }
}

// Many byte lists climbing together give each list's own root: every size from empty to past
// several blocks, odd and even counts, shallow and deep limits (including single-chunk trees).
TEST(SszMerkle, ByteListsTogetherEqualOneByOne) {
    Bytes data(3000 + 7);  // the lists start at offsets 0-6
    for (std::size_t i = 0; i < data.size(); ++i) data[i] = static_cast<std::uint8_t>(i * 13 + 5);
    for (std::uint64_t limit :
         {std::uint64_t{1}, std::uint64_t{2}, std::uint64_t{100}, std::uint64_t{1} << 25}) {
        std::vector<BytesView> items;
        for (std::size_t size : {0, 1, 32, 33, 64, 65, 100, 0, 31, 640, 2999, 5, 96, 97}) {
            if ((size + 31) / 32 <= limit) items.emplace_back(data.data() + (size % 7), size);
        }
        for (std::size_t n = 0; n <= items.size(); ++n) {
            const std::span<const BytesView> some(items.data(), n);
            std::vector<std::uint8_t> got(32 * n + 1, 0xee);
            merkleize_byte_lists(some, limit, got.data());
            EXPECT_EQ(got[32 * n], 0xee) << "wrote past the end";
            for (std::size_t i = 0; i < n; ++i) {
                Hash32 want;
                merkleize_bytes(some[i].data(), some[i].size(), limit, want.data());
                mix_in_length(want.data(), some[i].size());
                EXPECT_EQ(0, std::memcmp(got.data() + 32 * i, want.data(), 32))
                    << "limit " << limit << ", " << n << " lists, list " << i << " of "
                    << some[i].size() << " bytes";
            }
        }
    }
}

TEST(SszMerkle, DeepLimitUsesZeroSubtrees) {
    const Bytes b(40, 1);
    Hash32 got;
    merkleize_bytes(b.data(), b.size(), std::uint64_t{1} << 50, got.data());
    Hash32 want = hash_pair(pack(b)[0], pack(b)[1]);
    for (std::size_t d = 1; d < 50; ++d) want = hash_pair(want, *Hash32::from({zero_hash(d), 32}));
    EXPECT_EQ(got, want);
}

TEST(SszMerkle, ParallelSplitEqualsOneThread) {
    Bytes data(32 * (kParallelChunks * 3 + 5));
    for (std::size_t i = 0; i < data.size(); ++i) data[i] = static_cast<std::uint8_t>(i ^ (i >> 9));
    Hash32 many, one;
    merkleize_bytes(data.data(), data.size(), std::uint64_t{1} << 30, many.data());
    std::vector<std::uint8_t> buf(data.size() + 32);
    std::memcpy(buf.data(), data.data(), data.size());
    Hash32 in_place;
    merkleize_in_place(buf.data(), data.size() / 32, std::uint64_t{1} << 30, in_place.data());
    {
        parallel::ThreadLimit limit(1);
        merkleize_bytes(data.data(), data.size(), std::uint64_t{1} << 30, one.data());
    }
    EXPECT_EQ(many, one);
    EXPECT_EQ(in_place, one);
    // The reference tree to depth 17 (the next power of two), then zero subtrees to depth 30.
    Hash32 want = reference_merkleize(pack(data), std::size_t{1} << 17);
    for (std::size_t d = 17; d < 30; ++d) want = hash_pair(want, *Hash32::from({zero_hash(d), 32}));
    EXPECT_EQ(one, want);
}

TEST(SszMerkle, MixIns) {
    Hash32 r;
    r[0] = 9;
    Hash32 a = r;
    mix_in_length(a.data(), 0x0102);
    EXPECT_EQ(a, hash_pair(r, length_chunk(0x0102)));
    Hash32 s = r;
    mix_in_selector(s.data(), 3);
    EXPECT_EQ(s, hash_pair(r, length_chunk(3)));
}

}  // namespace
}  // namespace keel::ssz::test
