// The type registry: names, presets, unknown names, a minimal-preset round trip and a root
// checked by hand.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "keel/beacon/electra.hpp"
#include "keel/beacon/registry.hpp"

namespace keel::beacon {
namespace {

TEST(BeaconRegistry, CoversTheRequiredTypes) {
    const auto types = registered_types();
    auto has = [&](const std::string& t) {
        return std::find(types.begin(), types.end(), t) != types.end();
    };
    for (const char* fork : {"phase0", "altair", "bellatrix", "capella", "deneb", "electra"}) {
        for (const char* type :
             {"BeaconBlock", "SignedBeaconBlock", "BeaconBlockBody", "BeaconBlockHeader",
              "BeaconState", "Attestation", "HistoricalBatch", "Checkpoint", "Validator"}) {
            EXPECT_TRUE(has(std::string(fork) + "." + type)) << fork << "." << type;
        }
    }
    for (const char* t :
         {"bellatrix.ExecutionPayload", "capella.ExecutionPayloadHeader", "deneb.BlobSidecar",
          "electra.BlobSidecar", "electra.ExecutionRequests", "electra.SingleAttestation",
          "electra.PendingDeposit", "altair.SyncCommittee", "capella.SignedBLSToExecutionChange"}) {
        EXPECT_TRUE(has(t)) << t;
    }
    EXPECT_FALSE(has("phase0.ExecutionPayload"));
}

TEST(BeaconRegistry, UnknownNames) {
    const Bytes empty;
    auto bad_preset = decode_and_root("deneb.BeaconBlock", "gnosis", empty);
    ASSERT_FALSE(bad_preset);
    EXPECT_NE(bad_preset.error().find("gnosis"), std::string::npos);
    for (const char* t : {"BeaconBlock", "fulu.BeaconBlock", "phase0.ExecutionPayload", ""}) {
        auto r = decode_and_root(t, "mainnet", empty);
        ASSERT_FALSE(r) << t;
        EXPECT_NE(r.error().find("unknown type"), std::string::npos) << r.error();
    }
}

TEST(BeaconRegistry, MinimalStateRoundTrip) {
    // A default minimal electra state, encoded with the typed API: the registry must accept it
    // under the minimal preset, give it back unchanged with the same root, and reject it under
    // mainnet (whose fixed vectors are far longer).
    const Bytes state = ssz::encode(electra::minimal::BeaconState{});
    auto r = decode_and_root("electra.BeaconState", "minimal", state);
    ASSERT_TRUE(r) << r.error();
    EXPECT_TRUE(r->encoded == state);
    EXPECT_EQ(r->root, ssz::hash_tree_root(electra::minimal::BeaconState{}));
    auto wrong_preset = decode_and_root("electra.BeaconState", "mainnet", state);
    EXPECT_FALSE(wrong_preset);
}

TEST(BeaconRegistry, CheckpointByHand) {
    // Checkpoint{epoch 1, root 0x02..}: hash_tree_root = sha256(uint64 chunk || root).
    Bytes bytes(40, 0);
    bytes[0] = 1;
    for (std::size_t i = 8; i < 40; ++i) bytes[i] = 2;
    for (const char* preset : {"mainnet", "minimal"}) {
        auto r = decode_and_root("electra.Checkpoint", preset, bytes);
        ASSERT_TRUE(r) << r.error();
        EXPECT_TRUE(r->encoded == bytes);
        phase0::Checkpoint c{1, {}};
        std::fill(c.root.begin(), c.root.end(), std::uint8_t{2});
        EXPECT_EQ(r->root, ssz::hash_tree_root(c));
    }
}

}  // namespace
}  // namespace keel::beacon
