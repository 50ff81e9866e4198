// Bitvector and Bitlist: padding bits, the delimiter bit, limits, roots.
#include <gtest/gtest.h>

#include "keel/ssz/test_helpers.hpp"

namespace keel::ssz::test {
namespace {

TEST(SszBits, Bitvector) {
    static_assert(fixed_size<Bitvector<9>> == 2);
    auto v = round_trip<Bitvector<9>>("ff01");
    EXPECT_TRUE(v.get(8));
    Error e = decode_error<Bitvector<9>>("ff02");
    EXPECT_EQ(e.code, Errc::bitvector_padding);
    EXPECT_EQ(e.offset, 1u);
    EXPECT_EQ(decode_error<Bitvector<9>>("ff").code, Errc::wrong_size);
    EXPECT_EQ(decode_error<Bitvector<8>>("ff00").code, Errc::wrong_size);
    round_trip<Bitvector<8>>("ff");
}

TEST(SszBits, Bitlist) {
    auto b = round_trip<Bitlist<10>>("0b");  // bits 1,1 then delimiter at bit 3: 1,1,0
    EXPECT_EQ(b.size, 3u);
    EXPECT_TRUE(b.get(0));
    EXPECT_FALSE(b.get(2));
    auto empty = round_trip<Bitlist<10>>("01");
    EXPECT_EQ(empty.size, 0u);
    EXPECT_TRUE(empty.bytes.empty());
    auto eight = round_trip<Bitlist<10>>("ff01");
    EXPECT_EQ(eight.size, 8u);
    EXPECT_EQ(eight.bytes, Bytes{0xff});

    EXPECT_EQ(decode_error<Bitlist<10>>("").code, Errc::bitlist_no_delimiter);
    Error e = decode_error<Bitlist<10>>("ff00");
    EXPECT_EQ(e.code, Errc::bitlist_no_delimiter);
    EXPECT_EQ(e.offset, 1u);
    e = decode_error<Bitlist<4>>("20");  // 5 bits
    EXPECT_EQ(e.code, Errc::too_many_elements);
    EXPECT_EQ(to_string(e), "ssz: Bitlist[4]: list has 5 elements, over its limit 4 at offset 0");
    round_trip<Bitlist<4>>("10");
}

TEST(SszBits, BuildAndEncode) {
    Bitlist<20> b;
    for (int i = 0; i < 9; ++i) b.push_back(i % 2 == 0);
    EXPECT_EQ(encode(b), from_hex("5503"));
    Bitvector<3> v;
    v.set(2, true);
    EXPECT_EQ(encode(v), from_hex("04"));
}

TEST(SszBits, Roots) {
    Bitlist<2048> b;
    for (int i = 0; i < 300; ++i) b.push_back(i % 3 == 0);
    EXPECT_EQ(hash_tree_root(b),
              hash_pair(reference_merkleize(pack(b.bytes), 8), length_chunk(300)));
    Bitvector<512> v;
    v.set(511, true);
    EXPECT_EQ(hash_tree_root(v), reference_merkleize(pack(v.bytes), 2));
}

}  // namespace
}  // namespace keel::ssz::test
