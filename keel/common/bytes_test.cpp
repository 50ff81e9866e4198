#include "keel/common/bytes.hpp"

#include <gtest/gtest.h>

#include <unordered_set>

namespace keel {
namespace {

TEST(FixedBytes, FromChecksSize) {
    Bytes twenty(20, 0xaa);
    EXPECT_TRUE(Address::from(twenty));
    EXPECT_FALSE(Address::from(Bytes(19)));
    EXPECT_FALSE(Address::from(Bytes(21)));
    EXPECT_FALSE(Hash32::from(twenty));
}

TEST(FixedBytes, RightAlignedCopy) {
    Bytes two = {0x12, 0x34};
    auto h = Hash32::from_right_aligned(two);
    ASSERT_TRUE(h);
    EXPECT_EQ((*h)[30], 0x12);
    EXPECT_EQ((*h)[31], 0x34);
    EXPECT_EQ((*h)[0], 0);
    EXPECT_FALSE(Hash32::from_right_aligned(Bytes(33)));
    EXPECT_TRUE(Hash32::from_right_aligned({})->is_zero());
}

TEST(FixedBytes, OrderIsLexicographic) {
    Hash32 a, b;
    a[0] = 1;
    b[31] = 0xff;
    EXPECT_LT(b, a);
    EXPECT_NE(a, b);
    Hash32 c = a;
    EXPECT_EQ(a, c);
    EXPECT_FALSE(a.is_zero());
    EXPECT_TRUE(Hash32{}.is_zero());
}

TEST(FixedBytes, UsableAsHashKey) {
    std::unordered_set<Address> set;
    Address x, y;
    x[0] = 1;
    y[19] = 1;
    set.insert(x);
    set.insert(y);
    set.insert(x);
    EXPECT_EQ(set.size(), 2u);
}

TEST(Bytes, StringViewsShareStorage) {
    std::string_view s = "abc";
    BytesView v = as_bytes(s);
    EXPECT_EQ(v.size(), 3u);
    EXPECT_EQ(v[0], 'a');
    EXPECT_EQ(as_chars(v).data(), s.data());
}

}  // namespace
}  // namespace keel
