// Fixed sizes of the beacon containers for both presets, computed by hand from the spec's field
// lists (a missing field or a wrong type or limit changes them), and which containers are
// variable-size.
#include <gtest/gtest.h>

#include "keel/beacon/fulu.hpp"
#include "keel/beacon/light_client.hpp"

namespace keel::beacon {
namespace {

TEST(BeaconSizes, PresetIndependentContainers) {
    EXPECT_EQ(ssz::fixed_size<phase0::Fork>, 4u + 4u + 8u);
    EXPECT_EQ(ssz::fixed_size<phase0::Checkpoint>, 8u + 32u);
    EXPECT_EQ(ssz::fixed_size<phase0::BeaconBlockHeader>, 8u + 8u + 32u * 3u);       // 112
    EXPECT_EQ(ssz::fixed_size<phase0::Validator>, 48u + 32u + 8u + 1u + 4u * 8u);    // 121
    EXPECT_EQ(ssz::fixed_size<phase0::AttestationData>, 8u + 8u + 32u + 40u + 40u);  // 128
    EXPECT_EQ(ssz::fixed_size<phase0::Eth1Data>, 32u + 8u + 32u);
    EXPECT_EQ(ssz::fixed_size<phase0::SignedBeaconBlockHeader>, 112u + 96u);
    EXPECT_EQ(ssz::fixed_size<phase0::ProposerSlashing>, 2u * 208u);
    EXPECT_EQ(ssz::fixed_size<phase0::Deposit>, 33u * 32u + (48u + 32u + 8u + 96u));  // 1240
    EXPECT_EQ(ssz::fixed_size<phase0::SignedVoluntaryExit>, 16u + 96u);
    EXPECT_EQ(ssz::fixed_size<capella::Withdrawal>, 8u + 8u + 20u + 8u);  // 44
    EXPECT_EQ(ssz::fixed_size<capella::SignedBLSToExecutionChange>, 8u + 48u + 20u + 96u);
    EXPECT_EQ(ssz::fixed_size<capella::HistoricalSummary>, 64u);
    EXPECT_EQ(ssz::fixed_size<deneb::BlobIdentifier>, 40u);
    EXPECT_EQ(ssz::fixed_size<electra::PendingDeposit>, 48u + 32u + 8u + 96u + 8u);  // 192
    EXPECT_EQ(ssz::fixed_size<electra::PendingPartialWithdrawal>, 24u);
    EXPECT_EQ(ssz::fixed_size<electra::PendingConsolidation>, 16u);
    EXPECT_EQ(ssz::fixed_size<electra::DepositRequest>, 192u);
    EXPECT_EQ(ssz::fixed_size<electra::WithdrawalRequest>, 20u + 48u + 8u);        // 76
    EXPECT_EQ(ssz::fixed_size<electra::ConsolidationRequest>, 20u + 48u + 48u);    // 116
    EXPECT_EQ(ssz::fixed_size<electra::SingleAttestation>, 8u + 8u + 128u + 96u);  // 240
    EXPECT_EQ(ssz::fixed_size<phase0::Eth1Block>, 8u + 32u + 8u);
    EXPECT_EQ(ssz::fixed_size<altair::SyncCommitteeMessage>, 8u + 32u + 8u + 96u);  // 144
    EXPECT_EQ(ssz::fixed_size<altair::SyncAggregatorSelectionData>, 16u);
    EXPECT_EQ(ssz::fixed_size<bellatrix::PowBlock>, 32u + 32u + 32u);
}

TEST(BeaconSizes, FuluContainers) {
    // Cell: 64 field elements of 32 bytes in both presets.
    EXPECT_EQ(sizeof(fulu::Cell<Mainnet>), 2048u);
    EXPECT_EQ(sizeof(fulu::Cell<Minimal>), 2048u);
    // MatrixEntry: cell, proof, column and row index.
    EXPECT_EQ(ssz::fixed_size<fulu::mainnet::MatrixEntry>, 2048u + 48u + 8u + 8u);
    EXPECT_FALSE(ssz::is_fixed_size<fulu::mainnet::DataColumnSidecar>);
    EXPECT_FALSE(ssz::is_fixed_size<fulu::minimal::DataColumnsByRootIdentifier>);
    // proposer_lookahead: (MIN_SEED_LOOKAHEAD + 1) * SLOTS_PER_EPOCH validator indices.
    EXPECT_EQ(fulu::mainnet::BeaconState{}.proposer_lookahead.size(), 64u);
    EXPECT_EQ(fulu::minimal::BeaconState{}.proposer_lookahead.size(), 16u);
    // The empty sidecar: index, three list offsets, signed header, the 4-deep proof.
    EXPECT_EQ(ssz::encode(fulu::minimal::DataColumnSidecar{}).size(),
              8u + 3u * 4u + 208u + 4u * 32u);
}

TEST(BeaconSizes, ValidatorAndLightClientContainers) {
    // SyncCommitteeContribution: slot, root, subcommittee, SYNC_COMMITTEE_SIZE / 4 bits, signature.
    EXPECT_EQ(ssz::fixed_size<altair::SyncCommitteeContribution<Mainnet>>,
              8u + 32u + 8u + 128u / 8u + 96u);
    EXPECT_EQ(ssz::fixed_size<altair::SyncCommitteeContribution<Minimal>>,
              8u + 32u + 8u + 1u + 96u);
    EXPECT_EQ(ssz::fixed_size<altair::SignedContributionAndProof<Mainnet>>, 8u + 160u + 96u + 96u);
    // electra's deeper light-client branches (6 and 7 roots, were 5 and 6).
    using ElectraLc = light_client::Electra<Mainnet>;
    using DenebLc = light_client::Deneb<Mainnet>;
    EXPECT_EQ(ssz::encode(ElectraLc::LightClientBootstrap{}).size(),
              ssz::encode(DenebLc::LightClientBootstrap{}).size() + 32u);
    EXPECT_EQ(ssz::encode(ElectraLc::LightClientUpdate{}).size(),
              ssz::encode(DenebLc::LightClientUpdate{}).size() + 2u * 32u);
    EXPECT_EQ(ssz::encode(ElectraLc::LightClientFinalityUpdate{}).size(),
              ssz::encode(DenebLc::LightClientFinalityUpdate{}).size() + 32u);
}

TEST(BeaconSizes, MainnetPreset) {
    EXPECT_EQ(ssz::fixed_size<altair::mainnet::SyncAggregate>, 512u / 8u + 96u);
    EXPECT_EQ(ssz::fixed_size<altair::mainnet::SyncCommittee>, 512u * 48u + 48u);
    EXPECT_EQ(ssz::fixed_size<phase0::mainnet::HistoricalBatch>, 2u * 8192u * 32u);
    // index, blob (4096 * 32), commitment, proof, signed header, 17-deep inclusion proof.
    EXPECT_EQ(ssz::fixed_size<deneb::mainnet::BlobSidecar>,
              8u + 131072u + 48u + 48u + 208u + 17u * 32u);
}

TEST(BeaconSizes, MinimalPreset) {
    EXPECT_EQ(ssz::fixed_size<altair::minimal::SyncAggregate>, 32u / 8u + 96u);
    EXPECT_EQ(ssz::fixed_size<altair::minimal::SyncCommittee>, 32u * 48u + 48u);
    EXPECT_EQ(ssz::fixed_size<phase0::minimal::HistoricalBatch>, 2u * 64u * 32u);
    EXPECT_EQ(ssz::fixed_size<deneb::minimal::BlobSidecar>,
              8u + 131072u + 48u + 48u + 208u + 17u * 32u);
}

TEST(BeaconSizes, VariableSizeContainers) {
    EXPECT_FALSE(ssz::is_fixed_size<phase0::mainnet::BeaconBlock>);
    EXPECT_FALSE(ssz::is_fixed_size<deneb::minimal::ExecutionPayloadHeader>);  // extra_data
    EXPECT_FALSE(ssz::is_fixed_size<electra::mainnet::Attestation>);
    EXPECT_FALSE(ssz::is_fixed_size<electra::minimal::BeaconState>);
    EXPECT_TRUE(ssz::is_fixed_size<altair::minimal::SyncAggregate>);
}

TEST(BeaconSizes, EmptyVariableContainers) {
    // An all-default container encodes as its fixed part with empty lists: 4 bytes per offset.
    const electra::minimal::Attestation att{};
    // aggregation_bits offset + data + signature + committee_bits (4 bits, 1 byte), then the
    // empty Bitlist's delimiter byte.
    EXPECT_EQ(ssz::encode(att).size(), 4u + 128u + 96u + 1u + 1u);
    const electra::mainnet::Attestation att_mainnet{};
    EXPECT_EQ(ssz::encode(att_mainnet).size(), 4u + 128u + 96u + 8u + 1u);
}

}  // namespace
}  // namespace keel::beacon
