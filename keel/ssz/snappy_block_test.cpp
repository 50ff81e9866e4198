// snappy_block_decode: round trip with libsnappy's compressor, the size limit, corrupt input.
#include <gtest/gtest.h>

#include <snappy.h>

#include <string>

#include "keel/ssz/snappy_block.hpp"

namespace keel::ssz {
namespace {

std::string compress(const std::string& s) {
    std::string out;
    snappy::Compress(s.data(), s.size(), &out);
    return out;
}

TEST(SszSnappyBlock, RoundTrip) {
    const std::string text(5000, 'x');
    const std::string c = compress(text);
    auto r = snappy_block_decode(as_bytes(c), 5000);
    ASSERT_TRUE(r);
    EXPECT_EQ(as_chars(*r), text);
    auto empty = snappy_block_decode(as_bytes(compress("")), 0);
    ASSERT_TRUE(empty);
    EXPECT_TRUE(empty->empty());
}

TEST(SszSnappyBlock, LimitIsCheckedFirst) {
    auto r = snappy_block_decode(as_bytes(compress(std::string(5000, 'x'))), 4999);
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().code, Errc::snappy_too_large);
    EXPECT_EQ(to_string(r.error()),
              "ssz: snappy: snappy block of 5000 bytes is over the limit 4999 at offset 0");
    // A header claiming ~4 GiB must not allocate it.
    const std::string huge = "\xff\xff\xff\xff\x0f";
    EXPECT_EQ(snappy_block_decode(as_bytes(huge), 1u << 20).error().code, Errc::snappy_too_large);
}

TEST(SszSnappyBlock, Corrupt) {
    std::string c = compress("hello hello hello hello");
    c.resize(c.size() - 3);
    EXPECT_EQ(snappy_block_decode(as_bytes(c), 100).error().code, Errc::snappy_invalid);
    EXPECT_EQ(snappy_block_decode({}, 100).error().code, Errc::snappy_invalid);
}

}  // namespace
}  // namespace keel::ssz
