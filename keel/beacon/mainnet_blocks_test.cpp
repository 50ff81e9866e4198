// The real mainnet blocks in vectors/ssz/mainnet_blocks/<fork>/slot_<n>/block.ssz: decode as
// <fork>.BeaconBlock (mainnet), re-encode byte-equal, and check the block root against the
// canonical chain's and the payload's block hash against the execution chain's.
#include <gtest/gtest.h>

#include <filesystem>
#include <memory>
#include <string>

#include "keel/beacon/bellatrix.hpp"
#include "keel/beacon/capella.hpp"
#include "keel/beacon/deneb.hpp"
#include "keel/beacon/fork.hpp"
#include "keel/beacon/test_util.hpp"
#include "keel/common/hex.hpp"

namespace keel::beacon {
namespace {

namespace fs = std::filesystem;

/// Checks every block of one fork folder with the typed API; returns how many were checked.
template <class Block>
int check_fork(const std::string& fork) {
    const fs::path dir = testutil::vectors_dir("ssz") / "mainnet_blocks" / fork;
    int n = 0;
    for (const auto& e : fs::directory_iterator(dir)) {
        SCOPED_TRACE(e.path().string());
        const Bytes bytes = testutil::read_file(e.path() / "block.ssz");
        const fs::path meta = e.path() / "meta.yaml";
        auto block = std::make_unique<Block>();
        auto r = ssz::decode_into(bytes, *block);
        EXPECT_TRUE(r) << ssz::to_string(r.error());
        if (!r) continue;
        EXPECT_TRUE(ssz::encode(*block) == bytes);
        EXPECT_EQ(hex::encode_prefixed(ssz::hash_tree_root(*block).view()),
                  testing::yaml_string(meta, "beacon_block_root"));
        EXPECT_EQ(hex::encode_prefixed(block->body.execution_payload.block_hash.view()),
                  testing::yaml_string(meta, "execution_block_hash"));
        EXPECT_EQ(fork_name(mainnet_fork_at_slot(block->slot)), fork);
        ++n;
    }
    return n;
}

TEST(BeaconMainnetBlocks, AllBlocks) {
    int n = check_fork<bellatrix::mainnet::BeaconBlock>("bellatrix");
    n += check_fork<capella::mainnet::BeaconBlock>("capella");
    n += check_fork<deneb::mainnet::BeaconBlock>("deneb");
    EXPECT_EQ(n, 11);
}

}  // namespace
}  // namespace keel::beacon
