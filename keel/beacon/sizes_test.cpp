// Fixed sizes of the beacon containers for both presets, computed by hand from the spec's field
// lists (a missing field or a wrong type or limit changes them), and which containers are
// variable-size.
#include <gtest/gtest.h>

#include "keel/beacon/electra.hpp"

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
              8u + 131072u + 48u + 48u + 208u + 10u * 32u);
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
