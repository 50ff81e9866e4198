// The type registry: names, presets, unknown names, a minimal-preset round trip and a root
// checked by hand.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>
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
    for (const char* fork :
         {"phase0", "altair", "bellatrix", "capella", "deneb", "electra", "fulu"}) {
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

// Every container the specs define for each fork (consensus-specs v1.6.1: beacon-chain.md,
// validator.md, p2p-interface.md, light-client/sync-protocol.md, fork-choice.md, das-core.md;
// the ssz_static handlers of consensus-spec-tests name the same set), the ones a fork reuses
// included; and the SSZ payloads that have no class in the spec's Python: the req/resp and ENR
// payloads of the p2p-interface.md files and light-client/p2p-interface.md, the engine's and
// builder's BlobsBundle (validator.md, builder-specs ExecutionPayloadAndBlobsBundle), the builder
// API's containers (builder-specs: bids, registrations, blinded blocks, the latter also
// beacon-APIs types) and the Beacon API's BlockContents / SignedBlockContents (beacon-APIs
// types/<fork>/block_contents.yaml).
// The registry must hold exactly these.
TEST(BeaconRegistry, EveryContainerOfEveryFork) {
    const std::set<std::string> phase0{"AggregateAndProof",
                                       "Attestation",
                                       "AttestationData",
                                       "AttesterSlashing",
                                       "BeaconBlock",
                                       "BeaconBlockBody",
                                       "BeaconBlocksByRangeRequest",
                                       "BeaconBlockHeader",
                                       "BeaconState",
                                       "Checkpoint",
                                       "Deposit",
                                       "ENRForkID",
                                       "DepositData",
                                       "DepositMessage",
                                       "Eth1Block",
                                       "Eth1Data",
                                       "Fork",
                                       "ForkData",
                                       "HistoricalBatch",
                                       "IndexedAttestation",
                                       "MetaData",
                                       "PendingAttestation",
                                       "ProposerSlashing",
                                       "SignedAggregateAndProof",
                                       "SignedBeaconBlock",
                                       "SignedBeaconBlockHeader",
                                       "SignedVoluntaryExit",
                                       "SigningData",
                                       "Status",
                                       "Validator",
                                       "VoluntaryExit"};
    auto with = [](std::set<std::string> base, std::initializer_list<const char*> add,
                   std::initializer_list<const char*> remove = {}) {
        for (const char* r : remove) base.erase(r);
        for (const char* a : add) base.insert(a);
        return base;
    };
    const auto altair =
        with(phase0,
             {"ContributionAndProof", "LightClientBootstrap", "LightClientFinalityUpdate",
              "LightClientHeader", "LightClientOptimisticUpdate", "LightClientUpdate",
              "LightClientUpdatesByRange", "SignedContributionAndProof", "SyncAggregate",
              "SyncAggregatorSelectionData", "SyncCommittee", "SyncCommitteeContribution",
              "SyncCommitteeMessage"},
             {"PendingAttestation"});
    const auto bellatrix = with(
        altair, {"BlindedBeaconBlock", "BlindedBeaconBlockBody", "BuilderBid", "ExecutionPayload",
                 "ExecutionPayloadHeader", "PowBlock", "SignedBlindedBeaconBlock",
                 "SignedBuilderBid", "SignedValidatorRegistrationV1", "ValidatorRegistrationV1"});
    const auto capella = with(bellatrix, {"BLSToExecutionChange", "HistoricalSummary",
                                          "SignedBLSToExecutionChange", "Withdrawal"});
    const auto deneb =
        with(capella, {"BlobIdentifier", "BlobSidecar", "BlobSidecarsByRangeRequest", "BlobsBundle",
                       "BlockContents", "ExecutionPayloadAndBlobsBundle", "SignedBlockContents"});
    const auto electra =
        with(deneb, {"ConsolidationRequest", "DepositRequest", "ExecutionRequests",
                     "PendingConsolidation", "PendingDeposit", "PendingPartialWithdrawal",
                     "SingleAttestation", "WithdrawalRequest"});
    const auto fulu = with(electra, {"DataColumnSidecar", "DataColumnSidecarsByRangeRequest",
                                     "DataColumnsByRootIdentifier", "MatrixEntry", "StatusV2"});
    const std::map<std::string, std::set<std::string>> expected{
        {"phase0", phase0},   {"altair", altair}, {"bellatrix", bellatrix},
        {"capella", capella}, {"deneb", deneb},   {"electra", electra},
        {"fulu", fulu}};
    std::map<std::string, std::set<std::string>> got;
    for (const std::string& t : registered_types()) {
        const auto dot = t.find('.');
        ASSERT_NE(dot, std::string::npos) << t;
        EXPECT_TRUE(got[t.substr(0, dot)].insert(t.substr(dot + 1)).second) << "twice: " << t;
    }
    for (const auto& [fork, names] : expected) {
        for (const std::string& n : names)
            EXPECT_TRUE(got[fork].contains(n)) << "missing " << fork << "." << n;
        for (const std::string& n : got[fork])
            EXPECT_TRUE(names.contains(n)) << "extra " << fork << "." << n;
    }
    EXPECT_EQ(got.size(), expected.size());
}

// A row a fork keeps unchanged is inherited() from the previous fork (registry_entry.hpp): each
// must find handlers there, in both presets.
TEST(BeaconRegistry, EveryRowHasHandlers) {
    const auto types = registered_types();
    EXPECT_GT(types.size(), 390u);
    for (const std::string& t : types) {
        for (const char* preset : {"mainnet", "minimal"}) {
            auto r = check_type(t, preset);
            EXPECT_TRUE(r) << t << " " << preset << ": " << to_string(r.error());
        }
    }
}

TEST(BeaconRegistry, UnknownNames) {
    const Bytes empty;
    auto bad_preset = decode_and_root("deneb.BeaconBlock", "gnosis", empty);
    ASSERT_FALSE(bad_preset);
    EXPECT_NE(to_string(bad_preset.error()).find("gnosis"), std::string::npos);
    for (const char* t :
         {"BeaconBlock", "gloas.BeaconBlock", "phase0.ExecutionPayload", "fulu.Cell", ""}) {
        auto r = decode_and_root(t, "mainnet", empty);
        ASSERT_FALSE(r) << t;
        EXPECT_NE(to_string(r.error()).find("unknown type"), std::string::npos)
            << to_string(r.error());
    }
}

TEST(BeaconRegistry, MinimalStateRoundTrip) {
    // A default minimal electra state, encoded with the typed API: the registry must accept it
    // under the minimal preset, give it back unchanged with the same root, and reject it under
    // mainnet (whose fixed vectors are far longer).
    const Bytes state = ssz::encode(electra::minimal::BeaconState{});
    auto r = decode_and_root("electra.BeaconState", "minimal", state);
    ASSERT_TRUE(r) << to_string(r.error());
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
        ASSERT_TRUE(r) << to_string(r.error());
        EXPECT_TRUE(r->encoded == bytes);
        phase0::Checkpoint c{1, {}};
        std::fill(c.root.begin(), c.root.end(), std::uint8_t{2});
        EXPECT_EQ(r->root, ssz::hash_tree_root(c));
    }
}

}  // namespace
}  // namespace keel::beacon

namespace keel::beacon {
namespace {

// The registry's errors are codes with a place (errors.hpp), not only lines.
TEST(BeaconRegistry, ErrorsAreCodesWithAPath) {
    auto type = decode_and_root("electra.Nope", "mainnet", Bytes{});
    ASSERT_FALSE(type);
    EXPECT_EQ(type.error().code, Errc::unknown_type);
    EXPECT_EQ(type.error().path, "electra.Nope");
    EXPECT_TRUE(is_usage(type.error().code));
    EXPECT_EQ(to_string(type.error()),
              "unknown type 'electra.Nope': Nope is not an electra container");
    auto preset = check_type("deneb.BeaconBlock", "gnosis");
    ASSERT_FALSE(preset);
    EXPECT_EQ(preset.error().code, Errc::unknown_preset);
    EXPECT_TRUE(is_usage(preset.error().code));
    EXPECT_TRUE(check_type("fulu.DataColumnSidecar", "minimal"));
    EXPECT_TRUE(check_type("electra.SignedAggregateAndProof", "mainnet"));

    // SSZ: the rule, the field path and the byte offset of the decoder's error.
    Bytes att(4, 0);  // an electra Attestation's fixed part alone is 4 + 128 + 96 + 8 bytes
    auto bad = decode_and_root("electra.AggregateAndProof", "mainnet", att);
    ASSERT_FALSE(bad);
    EXPECT_EQ(bad.error().code, Errc::ssz);
    EXPECT_FALSE(is_usage(bad.error().code));
    EXPECT_EQ(bad.error().ssz_code, ssz::Errc::fixed_part_too_short);
    EXPECT_EQ(bad.error().path, "AggregateAndProof");
    EXPECT_EQ(bad.error().offset, 0u);
    EXPECT_EQ(to_string(bad.error()),
              "ssz: AggregateAndProof: input of 4 bytes is shorter than the fixed part (108 "
              "bytes) at offset 0");

    // JSON: syntax errors carry the character offset, mapping errors the JSON path.
    auto syntax = from_json("deneb.Checkpoint", "mainnet", "{\"epoch\": \"1\",");
    ASSERT_FALSE(syntax);
    EXPECT_EQ(syntax.error().code, Errc::json_syntax);
    EXPECT_EQ(syntax.error().offset, 14u);
    auto missing = from_json("fulu.MatrixEntry", "mainnet", "{}");
    ASSERT_FALSE(missing);
    EXPECT_EQ(missing.error().code, Errc::json);
    EXPECT_EQ(missing.error().json_code, ssz::JsonErrc::missing_field);
    EXPECT_EQ(missing.error().path, "MatrixEntry.cell");
}

// electra's AggregateAndProof holds electra's Attestation (committee_bits), not phase0's.
TEST(BeaconRegistry, ElectraAggregateAndProofIsElectras) {
    phase0::AggregateAndProofOf<electra::Attestation<Mainnet>> a;
    a.aggregator_index = 7;
    for (bool bit : {false, true, false}) a.aggregate.aggregation_bits.push_back(bit);
    a.aggregate.committee_bits.set(2, true);
    a.selection_proof[0] = 0xaa;
    const Bytes bytes = ssz::encode(a);
    auto r = decode_and_root("electra.AggregateAndProof", "mainnet", bytes);
    ASSERT_TRUE(r) << to_string(r.error());
    EXPECT_EQ(r->root, ssz::hash_tree_root(a));
    EXPECT_TRUE(r->encoded == bytes);
    // The same bytes are not a deneb AggregateAndProof (no committee_bits: 8 bytes too many in
    // the attestation's fixed part).
    EXPECT_FALSE(decode_and_root("deneb.AggregateAndProof", "mainnet", bytes) &&
                 decode_and_root("deneb.AggregateAndProof", "mainnet", bytes)->root == r->root);
    auto fulu =
        decode_and_root("fulu.SignedAggregateAndProof", "minimal",
                        ssz::encode(phase0::SignedAggregateAndProofOf<
                                    phase0::AggregateAndProofOf<electra::Attestation<Minimal>>>{}));
    EXPECT_TRUE(fulu) << to_string(fulu.error());
}

}  // namespace
}  // namespace keel::beacon
