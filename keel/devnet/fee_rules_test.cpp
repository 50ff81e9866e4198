#include "keel/devnet/fee_rules.hpp"

#include <gtest/gtest.h>

namespace keel::devnet {
namespace {

TEST(FeeRules, BaseFeeFollowsEip1559) {
    constexpr std::uint64_t kLimit = 30'000'000;
    // At the target (half the limit): unchanged.
    EXPECT_EQ(next_base_fee(kInitialBaseFee, kLimit / 2, kLimit), kInitialBaseFee);
    // Empty parent: down by 1/8.
    EXPECT_EQ(next_base_fee(kInitialBaseFee, 0, kLimit), 875'000'000u);
    // Full parent: up by 1/8.
    EXPECT_EQ(next_base_fee(kInitialBaseFee, kLimit, kLimit), 1'125'000'000u);
    // Halfway between target and full: up by 1/16.
    EXPECT_EQ(next_base_fee(1'600, kLimit * 3 / 4, kLimit), 1'700u);
    // Small base fees: the decrease rounds to zero, an increase is at least 1.
    EXPECT_EQ(next_base_fee(7, 0, kLimit), 7u);
    EXPECT_EQ(next_base_fee(7, kLimit / 2 + 1, kLimit), 8u);
}

TEST(FeeRules, ExcessBlobGasCarriesWhatExceedsTheTarget) {
    const std::uint64_t target = kTargetBlobsPerBlock * kGasPerBlob;
    EXPECT_EQ(next_excess_blob_gas(0, 0), 0u);
    EXPECT_EQ(next_excess_blob_gas(0, target), 0u);
    EXPECT_EQ(next_excess_blob_gas(0, target + kGasPerBlob), kGasPerBlob);
    EXPECT_EQ(next_excess_blob_gas(2 * kGasPerBlob, target - kGasPerBlob), kGasPerBlob);
    EXPECT_EQ(next_excess_blob_gas(kGasPerBlob, 0), 0u);
}

}  // namespace
}  // namespace keel::devnet
