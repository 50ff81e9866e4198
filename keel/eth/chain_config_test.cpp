#include "keel/eth/chain_config.hpp"

#include <gtest/gtest.h>

#include "keel/common/hex.hpp"

namespace keel::eth {
namespace {

TEST(ChainConfig, MainnetForkBoundaries) {
    const ChainConfig c = ChainConfig::mainnet();
    EXPECT_EQ(c.fork_at(0, 0), Fork::frontier);
    EXPECT_EQ(c.fork_at(1'149'999, 0), Fork::frontier);
    EXPECT_EQ(c.fork_at(1'150'000, 0), Fork::homestead);
    EXPECT_EQ(c.fork_at(7'280'000, 0), Fork::petersburg);  // Constantinople and Petersburg
    EXPECT_EQ(c.fork_at(12'965'000, 0), Fork::london);
    EXPECT_EQ(c.fork_at(15'537'393, 0), Fork::london);  // the last proof-of-work block
    EXPECT_EQ(c.fork_at(15'537'394, 0), Fork::paris);
    // From Shanghai on the timestamp decides (the block numbers here are only past the Merge).
    EXPECT_EQ(c.fork_at(20'000'000, 1'681'338'454), Fork::paris);
    EXPECT_EQ(c.fork_at(20'000'000, 1'681'338'455), Fork::shanghai);
    EXPECT_EQ(c.fork_at(20'000'000, 1'710'338'135), Fork::cancun);
    EXPECT_EQ(c.fork_at(20'000'000, 1'746'612'311), Fork::prague);
    EXPECT_EQ(c.fork_at(20'000'000, 1'764'798'550), Fork::prague);
    EXPECT_EQ(c.fork_at(20'000'000, 1'764'798'551), Fork::osaka);
}

TEST(ChainConfig, BlobParametersFollowForksAndBpoSchedule) {
    const ChainConfig c = ChainConfig::mainnet();
    EXPECT_EQ(c.blob_params(Fork::shanghai, 1'700'000'000), (BlobParams{0, 0, 1}));
    EXPECT_EQ(c.blob_params(Fork::cancun, 1'710'338'135), (BlobParams{3, 6, 3338477}));
    EXPECT_EQ(c.blob_params(Fork::prague, 1'746'612'311), (BlobParams{6, 9, 5007716}));
    EXPECT_EQ(c.blob_params(Fork::osaka, 1'765'290'070), (BlobParams{6, 9, 5007716}));
    EXPECT_EQ(c.blob_params(Fork::osaka, 1'765'290'071), (BlobParams{10, 15, 8346193}));
    EXPECT_EQ(c.blob_params(Fork::osaka, 1'800'000'000), (BlobParams{14, 21, 11684671}));

    ChainConfig t = ChainConfig::from_genesis(Fork::prague);
    t.set_blob_params(Fork::prague, {1, 2, 3});
    EXPECT_EQ(t.blob_params(Fork::prague, 0), (BlobParams{1, 2, 3}));
    EXPECT_EQ(t.blob_params(Fork::cancun, 0), (BlobParams{3, 6, 3338477}));
}

TEST(ChainConfig, MainnetDepositContract) {
    // EIP-6110's DEPOSIT_CONTRACT_ADDRESS, 0x00000000219ab540356cBB839Cbe05303d7705Fa.
    const auto want = hex::decode_fixed<Address>("0x00000000219ab540356cBB839Cbe05303d7705Fa");
    ASSERT_TRUE(want);
    EXPECT_EQ(kMainnetDepositContract, *want);
    EXPECT_EQ(ChainConfig::mainnet().deposit_contract, *want);
}

TEST(ChainConfig, TestNetworkNames) {
    const auto prague = test_network("Prague");
    ASSERT_TRUE(prague);
    EXPECT_EQ(prague->fork_at(0, 0), Fork::prague);
    EXPECT_EQ(prague->activation(Fork::cancun), 0U);

    const auto transition = test_network("CancunToPragueAtTime15k", 7);
    ASSERT_TRUE(transition);
    EXPECT_EQ(transition->chain_id, Uint256(7));
    EXPECT_EQ(transition->fork_at(1, 14'999), Fork::cancun);
    EXPECT_EQ(transition->fork_at(2, 15'000), Fork::prague);
    EXPECT_EQ(transition->activation(Fork::osaka), std::nullopt);
    EXPECT_EQ(transition->fork_at(99, 1'000'000'000), Fork::prague);

    const auto london = test_network("BerlinToLondonAt5");
    ASSERT_TRUE(london);
    EXPECT_EQ(london->fork_at(4, 100), Fork::berlin);
    EXPECT_EQ(london->fork_at(5, 100), Fork::london);

    const auto merge = test_network("Merge");
    ASSERT_TRUE(merge);
    EXPECT_EQ(merge->fork_at(0, 0), Fork::paris);

    // Names it does not read: unknown forks, a transition backwards, a time fork at a block, a
    // block fork at a time, a bad number.
    for (const char* bad : {"", "Pectra", "PragueToCancunAtTime15k", "CancunToPragueAt5",
                            "BerlinToLondonAtTime5", "CancunToPragueAtTime",
                            "CancunToPragueAtTime1x", "CancunToPragueAtTime99999999999999999999k"})
        EXPECT_FALSE(test_network(bad)) << bad;
}

TEST(ChainConfig, BlobBaseFeeIsEip4844FakeExponential) {
    // Values of EIP-4844's fake_exponential(1, excess, fraction), evaluated by hand from the
    // EIP's definition: e^0 = 1, floor(approx e^1) = 2, floor(approx e^10) = 22026.
    EXPECT_EQ(blob_base_fee(0, 3338477), Uint256(1));
    EXPECT_EQ(blob_base_fee(3338477, 3338477), Uint256(2));
    EXPECT_EQ(blob_base_fee(10 * 3338477, 3338477), Uint256(22026));
    EXPECT_EQ(blob_base_fee(20 * 393216, 5007716), Uint256(4));
}

}  // namespace
}  // namespace keel::eth
