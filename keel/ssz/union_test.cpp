// Union: selector range, None only as option 0 with no payload, selector mix-in.
#include <gtest/gtest.h>

#include "keel/ssz/test_helpers.hpp"

namespace keel::ssz::test {
namespace {

using U = Union<None, std::uint16_t, ByteList<4>>;

TEST(SszUnion, RoundTrips) {
    EXPECT_EQ(round_trip<U>("00").index(), 0u);
    const U a = round_trip<U>("012301");
    EXPECT_EQ(std::get<1>(a), 0x0123);
    const U b = round_trip<U>("02aabb");
    EXPECT_EQ(std::get<2>(b).size(), 2u);
    EXPECT_EQ(round_trip<U>("02").index(), 2u);
    static_assert(!is_fixed_size<U>);
}

TEST(SszUnion, Rules) {
    EXPECT_EQ(decode_error<U>("").code, Errc::empty_union);
    Error e = decode_error<U>("03");
    EXPECT_EQ(e.code, Errc::invalid_union_selector);
    EXPECT_EQ(to_string(e),
              "ssz: Union[None, uint16, ByteList[4]]: union selector 3 out of range (3 options) "
              "at offset 0");
    e = decode_error<U>("0000");
    EXPECT_EQ(e.code, Errc::none_with_payload);
    EXPECT_EQ(e.offset, 1u);
    e = decode_error<U>("0101");
    EXPECT_EQ(e.code, Errc::wrong_size);
    EXPECT_EQ(e.path, "Union[None, uint16, ByteList[4]]#1");
    EXPECT_EQ(decode_error<U>("020102030405").code, Errc::too_many_elements);
}

TEST(SszUnion, RootMixesInTheSelector) {
    U none;
    Hash32 sel;
    EXPECT_EQ(hash_tree_root(none), hash_pair(Hash32{}, sel));
    U v = std::uint16_t{5};
    sel[0] = 1;
    EXPECT_EQ(hash_tree_root(v), hash_pair(length_chunk(5), sel));
}

TEST(SszUnion, InsideAList) {
    using L = List<U, 4>;
    const L l = round_trip<L>(
        "0c0000000d00000010000000"
        "00"
        "010500"
        "02ff");
    ASSERT_EQ(l.size(), 3u);
    EXPECT_EQ(std::get<1>(l[1]), 5);
}

}  // namespace
}  // namespace keel::ssz::test
