// The capella rows of the type registry (registry.hpp): every capella container, including those
// reused unchanged from earlier forks, the light-client sync-protocol containers, altair's p2p
// payloads, and the builder API's containers (builder-specs specs/capella/builder.md).
#include <array>
#include <span>

#include "keel/beacon/bellatrix.hpp"
#include "keel/beacon/capella.hpp"
#include "keel/beacon/detail/registry_entry.hpp"
#include "keel/beacon/light_client.hpp"

namespace keel::beacon::detail {

namespace {

constexpr std::array kEntries{
    preset_entry<capella::BlindedBeaconBlock>("BlindedBeaconBlock"),
    preset_entry<capella::BlindedBeaconBlockBody>("BlindedBeaconBlockBody"),
    preset_entry<capella::SignedBlindedBeaconBlock>("SignedBlindedBeaconBlock"),
    preset_entry<capella::BuilderBid>("BuilderBid"),
    preset_entry<capella::SignedBuilderBid>("SignedBuilderBid"),
    fixed_entry<bellatrix::ValidatorRegistrationV1>("ValidatorRegistrationV1"),
    fixed_entry<bellatrix::SignedValidatorRegistrationV1>("SignedValidatorRegistrationV1"),
    fixed_entry<phase0::BeaconBlocksByRangeRequest>("BeaconBlocksByRangeRequest"),
    fixed_entry<phase0::ENRForkID>("ENRForkID"),
    fixed_entry<phase0::Status>("Status"),
    fixed_entry<altair::MetaData>("MetaData"),
    fixed_entry<light_client::LightClientUpdatesByRange>("LightClientUpdatesByRange"),
    preset_entry<phase0::AggregateAndProof>("AggregateAndProof"),
    fixed_entry<phase0::Eth1Block>("Eth1Block"),
    preset_entry<phase0::SignedAggregateAndProof>("SignedAggregateAndProof"),
    preset_entry<altair::ContributionAndProof>("ContributionAndProof"),
    preset_entry<altair::SignedContributionAndProof>("SignedContributionAndProof"),
    fixed_entry<altair::SyncAggregatorSelectionData>("SyncAggregatorSelectionData"),
    preset_entry<altair::SyncCommitteeContribution>("SyncCommitteeContribution"),
    fixed_entry<altair::SyncCommitteeMessage>("SyncCommitteeMessage"),
    fixed_entry<bellatrix::PowBlock>("PowBlock"),
    pair_entry<light_client::Capella<Mainnet>::LightClientBootstrap,
               light_client::Capella<Minimal>::LightClientBootstrap>("LightClientBootstrap"),
    pair_entry<light_client::Capella<Mainnet>::LightClientFinalityUpdate,
               light_client::Capella<Minimal>::LightClientFinalityUpdate>(
        "LightClientFinalityUpdate"),
    pair_entry<light_client::Capella<Mainnet>::LightClientHeader,
               light_client::Capella<Minimal>::LightClientHeader>("LightClientHeader"),
    pair_entry<light_client::Capella<Mainnet>::LightClientOptimisticUpdate,
               light_client::Capella<Minimal>::LightClientOptimisticUpdate>(
        "LightClientOptimisticUpdate"),
    pair_entry<light_client::Capella<Mainnet>::LightClientUpdate,
               light_client::Capella<Minimal>::LightClientUpdate>("LightClientUpdate"),
    preset_entry<capella::Attestation>("Attestation"),
    fixed_entry<capella::AttestationData>("AttestationData"),
    preset_entry<capella::AttesterSlashing>("AttesterSlashing"),
    fixed_entry<capella::BLSToExecutionChange>("BLSToExecutionChange"),
    preset_entry<capella::BeaconBlock>("BeaconBlock"),
    preset_entry<capella::BeaconBlockBody>("BeaconBlockBody"),
    fixed_entry<capella::BeaconBlockHeader>("BeaconBlockHeader"),
    preset_entry<capella::BeaconState>("BeaconState"),
    fixed_entry<capella::Checkpoint>("Checkpoint"),
    fixed_entry<capella::Deposit>("Deposit"),
    fixed_entry<capella::DepositData>("DepositData"),
    fixed_entry<capella::DepositMessage>("DepositMessage"),
    fixed_entry<capella::Eth1Data>("Eth1Data"),
    preset_entry<capella::ExecutionPayload>("ExecutionPayload"),
    preset_entry<capella::ExecutionPayloadHeader>("ExecutionPayloadHeader"),
    fixed_entry<capella::Fork>("Fork"),
    fixed_entry<capella::ForkData>("ForkData"),
    preset_entry<capella::HistoricalBatch>("HistoricalBatch"),
    fixed_entry<capella::HistoricalSummary>("HistoricalSummary"),
    preset_entry<capella::IndexedAttestation>("IndexedAttestation"),
    fixed_entry<capella::ProposerSlashing>("ProposerSlashing"),
    fixed_entry<capella::SignedBLSToExecutionChange>("SignedBLSToExecutionChange"),
    preset_entry<capella::SignedBeaconBlock>("SignedBeaconBlock"),
    fixed_entry<capella::SignedBeaconBlockHeader>("SignedBeaconBlockHeader"),
    fixed_entry<capella::SignedVoluntaryExit>("SignedVoluntaryExit"),
    fixed_entry<capella::SigningData>("SigningData"),
    preset_entry<capella::SyncAggregate>("SyncAggregate"),
    preset_entry<capella::SyncCommittee>("SyncCommittee"),
    fixed_entry<capella::Validator>("Validator"),
    fixed_entry<capella::VoluntaryExit>("VoluntaryExit"),
    fixed_entry<capella::Withdrawal>("Withdrawal")};

}  // namespace

std::span<const Entry> capella_entries() {
    return kEntries;
}

}  // namespace keel::beacon::detail
