// Malformed blocks: decoding fails, nothing crashes, and the message names the field path.
#include <gtest/gtest.h>

#include <cstring>
#include <memory>
#include <string>

#include "keel/beacon/deneb.hpp"
#include "keel/beacon/registry.hpp"
#include "keel/beacon/test_util.hpp"

namespace keel::beacon {
namespace {

using Block = deneb::mainnet::BeaconBlock;

Bytes deneb_block() {
    return testutil::read_file(testutil::vectors_dir("ssz") / "mainnet_blocks" / "deneb" /
                               "slot_11378687" / "block.ssz");
}

/// The decoding error of `bytes` as a deneb mainnet block (fails the test if it decodes).
std::string decode_error(const Bytes& bytes) {
    auto block = std::make_unique<Block>();
    auto r = ssz::decode_into(bytes, *block);
    EXPECT_FALSE(r);
    return r ? std::string() : ssz::to_string(r.error());
}

TEST(BeaconBadInput, TruncatedBlock) {
    Bytes bytes = deneb_block();
    bytes.resize(bytes.size() / 2);
    const std::string msg = decode_error(bytes);
    EXPECT_NE(msg.find("BeaconBlock.body."), std::string::npos) << msg;
    // Shorter than the block's fixed part.
    bytes.resize(40);
    EXPECT_NE(decode_error(bytes).find("BeaconBlock"), std::string::npos);
}

TEST(BeaconBadInput, CorruptedOffset) {
    Bytes bytes = deneb_block();
    // BeaconBlock's fixed part: slot 8, proposer_index 8, parent_root 32, state_root 32, then
    // the body's offset (84). In the body, randao_reveal 96 + eth1_data 72 + graffiti 32 come
    // before the offsets of proposer_slashings, attester_slashings and attestations.
    constexpr std::size_t kBody = 84;
    constexpr std::size_t kAttestationsOffset = kBody + 96 + 72 + 32 + 8;
    const std::uint32_t bad = 0xfffffff0u;
    std::memcpy(bytes.data() + kAttestationsOffset, &bad, 4);
    const std::string msg = decode_error(bytes);
    EXPECT_NE(msg.find("BeaconBlock.body.attestations"), std::string::npos) << msg;

    // The registry reports the same message.
    auto r = decode_and_root("deneb.BeaconBlock", "mainnet", bytes);
    ASSERT_FALSE(r);
    EXPECT_EQ(to_string(r.error()), msg);
}

TEST(BeaconBadInput, TrailingByte) {
    Bytes bytes = deneb_block();
    bytes.push_back(0);
    EXPECT_NE(decode_error(bytes).find("BeaconBlock.body"), std::string::npos);
}

}  // namespace
}  // namespace keel::beacon
