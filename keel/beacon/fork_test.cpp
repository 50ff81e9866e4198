// Fork names and mainnet fork detection by slot (configs/mainnet.yaml fork epochs).
#include <gtest/gtest.h>

#include "keel/beacon/fork.hpp"

namespace keel::beacon {
namespace {

TEST(BeaconFork, NamesRoundTrip) {
    for (Fork f : {Fork::phase0, Fork::altair, Fork::bellatrix, Fork::capella, Fork::deneb,
                   Fork::electra, Fork::fulu}) {
        EXPECT_EQ(parse_fork(fork_name(f)), f);
    }
    EXPECT_EQ(fork_name(Fork::fulu), "fulu");
    EXPECT_FALSE(parse_fork("gloas"));  // the fork after fulu: keel has no gloas types yet
    EXPECT_FALSE(parse_fork("Fulu"));
    EXPECT_FALSE(parse_fork(""));
}

TEST(BeaconFork, MainnetBoundaries) {
    EXPECT_EQ(mainnet_fork_at_slot(0), Fork::phase0);
    struct Case {
        Fork fork;
        std::uint64_t epoch;
    };
    for (Case c :
         {Case{Fork::altair, 74240}, Case{Fork::bellatrix, 144896}, Case{Fork::capella, 194048},
          Case{Fork::deneb, 269568}, Case{Fork::electra, 364032},
          Case{Fork::fulu, 411392}}) {  // FULU_FORK_EPOCH, configs/mainnet.yaml (v1.6.0 on)
        EXPECT_EQ(mainnet_fork_epoch(c.fork), c.epoch);
        const std::uint64_t first = c.epoch * 32;
        EXPECT_EQ(mainnet_fork_at_slot(first), c.fork);
        EXPECT_EQ(mainnet_fork_at_slot(first - 1), static_cast<Fork>(static_cast<int>(c.fork) - 1));
    }
    EXPECT_EQ(mainnet_fork_at_slot(4700013), Fork::bellatrix);  // the merge block
    EXPECT_EQ(mainnet_fork_at_slot(13164543), Fork::electra);   // the last electra slot
    EXPECT_EQ(mainnet_fork_at_slot(13164544), Fork::fulu);      // 411392 * 32
    EXPECT_EQ(mainnet_fork_at_slot(~std::uint64_t{0}), Fork::fulu);
}

}  // namespace
}  // namespace keel::beacon
