// ExecutionPayload to and from blocks: a payload written back in its version reads again to the
// same block hash, before and after Shanghai (the fuzz target's property; its first finding was a
// pre-Shanghai block written through V2 with "withdrawals": [], which claims the empty list's
// root when read back).
#include "keel/rpc/engine_payload.hpp"

#include <gtest/gtest.h>

#include <string>

#include <nlohmann/json.hpp>

#include "keel/common/json_writer.hpp"

namespace keel::rpc::engine_payload_test {
namespace {

using nlohmann::json;

json payload(bool with_withdrawals) {
    json p = {
        {"parentHash", "0x30f11e701bd3057c923bc2af5bea23e6416c1286b6f39cb1acb91d77d91a0195"},
        {"feeRecipient", "0x2adc25665018aa1fe0e6bc666dac8fc2697ff9ba"},
        {"stateRoot", "0xb2bc88d6f6337f6097ac76a43fc6e1a2aad390c4d8e80419455dd826e35647ae"},
        {"receiptsRoot", "0xd5caddb93c844bd1c4a6364ec17b3f09afea9b2f335d8aba110ef6b0c9d9bfeb"},
        {"logsBloom", "0x" + std::string(512, '0')},
        {"prevRandao", "0x" + std::string(64, '0')},
        {"blockNumber", "0x1"},
        {"gasLimit", "0x1c9c380"},
        {"gasUsed", "0x0"},
        {"timestamp", "0x1d4c"},
        {"extraData", "0x"},
        {"baseFeePerGas", "0x7"},
        {"blockHash", "0x" + std::string(64, '0')},
        {"transactions", json::array()}};
    if (with_withdrawals)
        p["withdrawals"] = json::array({{{"index", "0x0"},
                                         {"validatorIndex", "0x1"},
                                         {"address", "0x0f03df06d732807ef1319fb7b8bb8522d0beac02"},
                                         {"amount", "0x1"}}});
    return p;
}

// Reads `p` as version `v`, writes the block back as `v`, reads that: the same block hash, and
// the member "withdrawals" there exactly when the block has withdrawals.
void round_trip(const json& p, int v, bool want_withdrawals) {
    auto first = payload_of(p, v, std::nullopt, std::nullopt);
    ASSERT_TRUE(first.has_value()) << first.error().message;
    std::string out;
    keel::json::Writer w(out);
    write_payload(w, first->block, v);
    const json written = json::parse(out);
    EXPECT_EQ(written.contains("withdrawals"), want_withdrawals) << out;
    auto again = payload_of(written, v, std::nullopt, std::nullopt);
    ASSERT_TRUE(again.has_value()) << again.error().message;
    EXPECT_EQ(again->block.header.hash(), first->block.header.hash());
    EXPECT_EQ(again->claimed_hash, first->block.header.hash());
}

TEST(EnginePayload, WrittenBackItReadsToTheSameBlock) {
    round_trip(payload(false), 1, false);
    round_trip(payload(false), 2, false);  // before Shanghai through V2: V1's shape
    round_trip(payload(true), 2, true);
}

}  // namespace
}  // namespace keel::rpc::engine_payload_test
