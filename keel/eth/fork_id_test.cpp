// EIP-2124's own test vectors for mainnet (the fork hashes and next values the EIP lists), and
// the CRC-32's check value.
#include "keel/eth/fork_id.hpp"

#include <gtest/gtest.h>

#include <string_view>

#include "keel/common/hex.hpp"

namespace keel::eth::fork_id_test {
namespace {

TEST(ForkId, Crc32CheckValue) {
    const std::string_view s = "123456789";
    const BytesView b(reinterpret_cast<const std::uint8_t*>(s.data()), s.size());
    EXPECT_EQ(crc32(b), 0xCBF43926u);  // the CRC-32/ISO-HDLC check value
    EXPECT_EQ(crc32(b.subspan(4), crc32(b.first(4))), 0xCBF43926u);
}

TEST(ForkId, Eip2124MainnetVectors) {
    const Hash32 genesis = *hex::decode_fixed<Hash32>(
        "d4e56740f876aef8c010b86a40d5f56745a118d0906a34e69aec8c0db1cb8fa3");
    ChainConfig c;
    // Mainnet's fork blocks up to Gray Glacier, as EIP-2124 lists them.
    c.fork_id_blocks = {1150000, 1920000, 2463000,  2675000,  4370000,  7280000,
                        9069000, 9200000, 12244000, 12965000, 13773000, 15050000};
    EXPECT_EQ(fork_id(genesis, c, 0, 0), (ForkId{0xfc64ec04u, 1150000}));
    EXPECT_EQ(fork_id(genesis, c, 1149999, 0), (ForkId{0xfc64ec04u, 1150000}));
    EXPECT_EQ(fork_id(genesis, c, 1150000, 0), (ForkId{0x97c2c34cu, 1920000}));
    EXPECT_EQ(fork_id(genesis, c, 1920000, 0), (ForkId{0x91d1f948u, 2463000}));
    EXPECT_EQ(fork_id(genesis, c, 4370000, 0), (ForkId{0xa00bc324u, 7280000}));
    EXPECT_EQ(fork_id(genesis, c, 7280000, 0), (ForkId{0x668db0afu, 9069000}));
    EXPECT_EQ(fork_id(genesis, c, 9069000, 0), (ForkId{0x879d6e30u, 9200000}));
    EXPECT_EQ(fork_id(genesis, c, 9200000, 0), (ForkId{0xe029e991u, 12244000}));
    EXPECT_EQ(fork_id(genesis, c, 12244000, 0), (ForkId{0x0eb440f6u, 12965000}));
    EXPECT_EQ(fork_id(genesis, c, 12965000, 0), (ForkId{0xb715077du, 13773000}));
    EXPECT_EQ(fork_id(genesis, c, 13773000, 0), (ForkId{0x20c327fcu, 15050000}));
    EXPECT_EQ(fork_id(genesis, c, 15050000, 0), (ForkId{0xf0afd0e3u, 0}));
    // Shanghai by time (EIP-6122; geth's mainnet test: 0xdce96c2d from 1681338455).
    c.fork_id_times = {1681338455};
    EXPECT_EQ(fork_id(genesis, c, 17034869, 1681338454), (ForkId{0xf0afd0e3u, 1681338455}));
    EXPECT_EQ(fork_id(genesis, c, 17034870, 1681338455), (ForkId{0xdce96c2du, 0}));
}

}  // namespace
}  // namespace keel::eth::fork_id_test
