// Proof-of-work difficulty by era, against headers of ethereum/tests' blockchain tests
// (bcInvalidHeaderTest/timeDiff14, bcMultiChainTest/lotsOfLeafs, bcEIP1559/badBlocks), and
// the bomb with each fork's delay.
#include "keel/chain/difficulty.hpp"

#include <gtest/gtest.h>

#include "keel/chain/header_rules.hpp"

namespace keel::chain {
namespace {

using eth::Fork;

eth::Header parent(std::uint64_t difficulty, std::uint64_t timestamp) {
    eth::Header p;
    p.number = 1;
    p.difficulty = Uint256(difficulty);
    p.timestamp = timestamp;
    p.ommers_hash = eth::kEmptyOmmersHash;
    p.gas_limit = 3'141'592;
    return p;
}

TEST(Difficulty, FrontierStepsDownAfterThirteenSeconds) {
    const eth::Header p = parent(0x038630, 0x5db6fb6c);
    EXPECT_EQ(expected_difficulty(p, 2, 0x5db6fb7a, Fork::frontier, 0), Uint256(0x0385c0));
    // Within 13 seconds: up by parent / 2048.
    EXPECT_EQ(expected_difficulty(p, 2, 0x5db6fb6c + 12, Fork::frontier, 0),
              Uint256(0x038630 + 0x038630 / 2048));
}

TEST(Difficulty, HomesteadAndByzantiumStepsOfTenAndNineSeconds) {
    const eth::Header p = parent(0x035b50, 0x5db6fb6c);
    EXPECT_EQ(expected_difficulty(p, 2, 0x5db6fb7a, Fork::homestead, 0), Uint256(0x035b50));
    EXPECT_EQ(expected_difficulty(p, 2, p.timestamp + 14, Fork::byzantium, 3'000'000),
              Uint256(0x035b50));
    // 1,000 seconds: the factor bottoms out at -99 (lotsOfLeafs, Berlin).
    EXPECT_EQ(expected_difficulty(p, 2, p.timestamp + 1000, Fork::berlin, 9'000'000),
              Uint256(0x0331ef));
    // EIP-100: a parent with ommers counts 2 instead of 1.
    eth::Header with_ommers = p;
    with_ommers.ommers_hash = Hash32{};
    EXPECT_EQ(expected_difficulty(with_ommers, 2, p.timestamp + 14, Fork::byzantium, 3'000'000),
              Uint256(0x035b50 + 0x035b50 / 2048));
    EXPECT_EQ(expected_difficulty(with_ommers, 2, p.timestamp + 14, Fork::homestead, 0),
              Uint256(0x035b50));
}

TEST(Difficulty, NeverBelowTheMinimum) {
    const eth::Header p = parent(0x020000, 0x079e);
    EXPECT_EQ(expected_difficulty(p, 2, 0x0b86, Fork::london, 9'700'000),
              Uint256(kMinimumDifficulty));
}

TEST(Difficulty, BombAfterTheForksDelay) {
    const eth::Header p = parent(0x020000, 1000);
    const Uint256 base = expected_difficulty(p, 2, 1020, Fork::frontier, 0);
    EXPECT_EQ(expected_difficulty(p, 199'999, 1020, Fork::frontier, 0), base);
    EXPECT_EQ(expected_difficulty(p, 200'000, 1020, Fork::frontier, 0), base + Uint256(1));
    EXPECT_EQ(expected_difficulty(p, 500'000, 1020, Fork::frontier, 0), base + Uint256(8));
    // Byzantium's 3,000,000 blocks: block 3,200,000 counts as 200,000.
    const Uint256 byz = expected_difficulty(p, 2, 1020, Fork::byzantium, 3'000'000);
    EXPECT_EQ(expected_difficulty(p, 3'199'999, 1020, Fork::byzantium, 3'000'000), byz);
    EXPECT_EQ(expected_difficulty(p, 3'200'000, 1020, Fork::byzantium, 3'000'000),
              byz + Uint256(1));
}

TEST(Difficulty, BombDelayOfEachEra) {
    const eth::ChainConfig mainnet = eth::ChainConfig::mainnet();
    EXPECT_EQ(mainnet.bomb_delay(Fork::homestead, 2'000'000), 0u);
    EXPECT_EQ(mainnet.bomb_delay(Fork::byzantium, 4'400'000), 3'000'000u);
    EXPECT_EQ(mainnet.bomb_delay(Fork::petersburg, 7'300'000), 5'000'000u);
    EXPECT_EQ(mainnet.bomb_delay(Fork::istanbul, 9'100'000), 5'000'000u);
    EXPECT_EQ(mainnet.bomb_delay(Fork::istanbul, 9'200'000), 9'000'000u);  // Muir Glacier
    EXPECT_EQ(mainnet.bomb_delay(Fork::berlin, 12'300'000), 9'000'000u);
    EXPECT_EQ(mainnet.bomb_delay(Fork::london, 13'000'000), 9'700'000u);
    EXPECT_EQ(mainnet.bomb_delay(Fork::london, 13'773'000), 10'700'000u);  // Arrow Glacier
    EXPECT_EQ(mainnet.bomb_delay(Fork::london, 15'050'000), 11'400'000u);  // Gray Glacier
    const auto arrow = eth::test_network("ArrowGlacierToParisAtDiffC0000");
    ASSERT_TRUE(arrow.has_value());
    EXPECT_EQ(arrow->bomb_delay(Fork::london, 3), 10'700'000u);
    EXPECT_EQ(arrow->terminal_total_difficulty, Uint256(0xC0000));
    EXPECT_FALSE(arrow->activation(Fork::paris).has_value());
}

TEST(Difficulty, HeaderRulesRefuseAnotherDifficultyBeforeTheMerge) {
    const eth::Header p = parent(0x035b50, 1000);
    eth::Header h = p;
    h.parent_hash = p.hash();
    h.number = 2;
    h.timestamp = 1014;
    h.difficulty = Uint256(0x035b50);
    const eth::ChainConfig config = eth::ChainConfig::from_genesis(Fork::byzantium);
    EXPECT_TRUE(validate_header(h, p, config).has_value());
    h.difficulty = Uint256(0x035b51);
    auto r = validate_header(h, p, config);
    ASSERT_FALSE(r.has_value());
    EXPECT_EQ(r.error().code, Errc::wrong_difficulty);
    EXPECT_EQ(exception_name(r.error()), "BlockException.INVALID_DIFFICULTY");
    h.difficulty = Uint256(0);  // DifficultyIsZero
    r = validate_header(h, p, config);
    ASSERT_FALSE(r.has_value());
    EXPECT_EQ(r.error().code, Errc::wrong_difficulty);
}

TEST(Difficulty, GasLimitAboveTwoToTheSixtyThreeIsRefused) {
    eth::Header p = parent(0x035b50, 1000);
    p.gas_limit = kMaxGasLimit;
    eth::Header h = p;
    h.number = 2;
    h.timestamp = 1014;
    h.gas_limit = kMaxGasLimit + 1;  // GasLimitHigherThan2p63m1: within parent/1024
    const auto r = validate_header(h, p, eth::ChainConfig::from_genesis(Fork::byzantium));
    ASSERT_FALSE(r.has_value());
    EXPECT_EQ(r.error().code, Errc::gas_limit_too_big);
}

}  // namespace
}  // namespace keel::chain
