// Vector, List, ByteVector, ByteList: encoding, the decoding rules, and roots against the
// reference merkleization of test_helpers.hpp.
#include <gtest/gtest.h>

#include "keel/ssz/generic_test_types.hpp"
#include "keel/ssz/test_helpers.hpp"

namespace keel::ssz::test {
namespace {

using generic::FixedTestStruct;
using generic::VarTestStruct;

TEST(SszSequence, BasicVector) {
    static_assert(fixed_size<Vector<std::uint16_t, 3>> == 6);
    auto v = round_trip<Vector<std::uint16_t, 3>>("010002000300");
    EXPECT_EQ(v[2], 3);
    EXPECT_EQ((decode_error<Vector<std::uint16_t, 3>>("0100020003").code), Errc::wrong_size);
    Error e = decode_error<Vector<bool, 3>>("000102");
    EXPECT_EQ(e.code, Errc::invalid_bool);
    EXPECT_EQ(e.offset, 2u);
    EXPECT_EQ(e.path, "Vector[boolean, 3][2]");
}

TEST(SszSequence, BasicList) {
    auto l = round_trip<List<std::uint32_t, 4>>("0100000002000000");
    EXPECT_EQ(l.size(), 2u);
    EXPECT_TRUE((round_trip<List<std::uint32_t, 4>>("").empty()));
    EXPECT_EQ((decode_error<List<std::uint32_t, 4>>("010000").code), Errc::not_multiple);
    Error e = decode_error<List<std::uint32_t, 2>>("010000000200000003000000");
    EXPECT_EQ(e.code, Errc::too_many_elements);
    EXPECT_EQ(to_string(e),
              "ssz: List[uint32, 2]: list has 3 elements, over its limit 2 at offset 0");
}

TEST(SszSequence, ListOfVariableSize) {
    using L = List<ByteList<4>, 3>;
    // two items: offsets 8, 10; bodies "aabb", "" (empty second item)
    auto l = round_trip<L>("080000000a000000aabb");
    ASSERT_EQ(l.size(), 2u);
    EXPECT_EQ(l[0], (ByteList<4>{0xaa, 0xbb}));
    EXPECT_TRUE(l[1].empty());
    EXPECT_TRUE(round_trip<L>("").empty());
    // The first offset gives the count (3 here, limit 2): rejected before allocating.
    EXPECT_EQ((decode_error<List<ByteList<4>, 2>>("0c0000000c0000000c000000").code),
              Errc::too_many_elements);
    EXPECT_EQ(decode_error<L>("0000000000").code, Errc::first_offset_mismatch);
    EXPECT_EQ(decode_error<L>("0600000000").code, Errc::first_offset_mismatch);
    EXPECT_EQ(decode_error<L>("0c000000").code, Errc::offset_out_of_bounds);
    EXPECT_EQ(decode_error<L>("010000").code, Errc::fixed_part_too_short);
    Error e = decode_error<L>("0800000007000000aabb");
    EXPECT_EQ(e.code, Errc::offset_decreasing);
    EXPECT_EQ(e.offset, 4u);
    EXPECT_EQ(to_string(e),
              "ssz: List[ByteList[4], 3][1]: offset 7 is before the previous offset 8 at "
              "offset 4");
    e = decode_error<L>("080000000b000000aabb");
    EXPECT_EQ(e.code, Errc::offset_out_of_bounds);
    e = decode_error<L>("0800000008000000aabbccddee");
    EXPECT_EQ(e.code, Errc::too_many_elements);
    EXPECT_EQ(e.path, "List[ByteList[4], 3][1]");
    EXPECT_EQ(e.offset, 8u);
}

TEST(SszSequence, VectorOfVariableSize) {
    using V = Vector<ByteList<4>, 2>;
    round_trip<V>("08000000090000000102");
    EXPECT_EQ(decode_error<V>("0c000000090000000102").code, Errc::first_offset_mismatch);
    EXPECT_EQ(decode_error<V>("080000").code, Errc::fixed_part_too_short);
}

TEST(SszSequence, Bytes) {
    static_assert(fixed_size<Bytes32> == 32);
    EXPECT_EQ(round_trip<ByteVector<4>>("01020304")[3], 4);
    EXPECT_EQ(decode_error<ByteVector<4>>("010203").code, Errc::wrong_size);
    EXPECT_EQ(round_trip<ByteList<3>>("010203").size(), 3u);
    EXPECT_EQ(decode_error<ByteList<3>>("01020304").code, Errc::too_many_elements);
}

TEST(SszSequence, RootsMatchTheReference) {
    List<std::uint64_t, 100> l{1, 2, 3, 4, 5};
    const Bytes packed = encode(l);
    EXPECT_EQ(hash_tree_root(l),
              hash_pair(reference_merkleize(pack(packed), (100 * 8 + 31) / 32), length_chunk(5)));

    Vector<std::uint16_t, 40> v{};
    for (std::size_t i = 0; i < v.size(); ++i) v[i] = static_cast<std::uint16_t>(i * 7);
    EXPECT_EQ(hash_tree_root(v), reference_merkleize(pack(encode(v)), 3));

    ByteList<100> b(70, 0x5a);
    EXPECT_EQ(hash_tree_root(b), hash_pair(reference_merkleize(pack(b), 4), length_chunk(70)));

    List<FixedTestStruct, 9> c(3);
    c[1].B = 7;
    std::vector<Hash32> roots;
    for (const auto& x : c) roots.push_back(hash_tree_root(x));
    EXPECT_EQ(hash_tree_root(c), hash_pair(reference_merkleize(roots, 9), length_chunk(3)));

    List<std::uint8_t, 0> empty;
    EXPECT_EQ(hash_tree_root(empty), hash_pair(Hash32{}, length_chunk(0)));
}

TEST(SszSequence, LargeListsHashInParallelToTheSameRoot) {
    // Enough elements for the parallel paths (merkleize_bytes and element_roots).
    List<std::uint64_t, (1u << 20)> big(300000);
    for (std::size_t i = 0; i < big.size(); ++i) big[i] = i * 0x9e3779b97f4a7c15ull;
    const Bytes packed = encode(big);
    EXPECT_EQ(hash_tree_root(big),
              hash_pair(reference_merkleize(pack(packed), (1u << 20) / 4), length_chunk(300000)));

    List<ByteList<4096>, 1024> txs(600);
    std::vector<Hash32> roots;
    for (std::size_t i = 0; i < txs.size(); ++i) {
        txs[i].assign(i * 13 % 4096, static_cast<std::uint8_t>(i));
        roots.push_back(
            hash_pair(reference_merkleize(pack(txs[i]), 128), length_chunk(txs[i].size())));
    }
    EXPECT_EQ(hash_tree_root(txs), hash_pair(reference_merkleize(roots, 1024), length_chunk(600)));
}

TEST(SszSequence, NestedVariableSizeReportsTheFullPath) {
    using L = List<VarTestStruct, 4>;
    // one VarTestStruct whose B offset (7) is right but whose B has an odd byte length
    Error e = decode_error<L>(
        "04000000"
        "0100"
        "07000000"
        "02"
        "010203");
    EXPECT_EQ(e.code, Errc::not_multiple);
    EXPECT_EQ(e.path, "List[VarTestStruct, 4][0].B");
    EXPECT_EQ(e.offset, 11u);
    EXPECT_EQ(to_string(e),
              "ssz: List[VarTestStruct, 4][0].B: list byte length 3 is not a multiple of the "
              "element size 2 at offset 11");
}

}  // namespace
}  // namespace keel::ssz::test
