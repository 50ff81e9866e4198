// The bellatrix rows of the type registry (registry.hpp): every bellatrix container, including
// those reused unchanged from earlier forks, altair's p2p payloads, and the builder API's
// containers (builder-specs specs/bellatrix/builder.md; blinded blocks also in beacon-APIs).
#include <array>
#include <span>

#include "keel/beacon/bellatrix.hpp"
#include "keel/beacon/detail/registry_entry.hpp"
#include "keel/beacon/light_client.hpp"

namespace keel::beacon::detail {

namespace {

constexpr std::array kEntries{
    preset_entry<bellatrix::BlindedBeaconBlock>("BlindedBeaconBlock"),
    preset_entry<bellatrix::BlindedBeaconBlockBody>("BlindedBeaconBlockBody"),
    preset_entry<bellatrix::SignedBlindedBeaconBlock>("SignedBlindedBeaconBlock"),
    preset_entry<bellatrix::BuilderBid>("BuilderBid"),
    preset_entry<bellatrix::SignedBuilderBid>("SignedBuilderBid"),
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
    pair_entry<light_client::Altair<Mainnet>::LightClientBootstrap,
               light_client::Altair<Minimal>::LightClientBootstrap>("LightClientBootstrap"),
    pair_entry<light_client::Altair<Mainnet>::LightClientFinalityUpdate,
               light_client::Altair<Minimal>::LightClientFinalityUpdate>(
        "LightClientFinalityUpdate"),
    pair_entry<light_client::Altair<Mainnet>::LightClientHeader,
               light_client::Altair<Minimal>::LightClientHeader>("LightClientHeader"),
    pair_entry<light_client::Altair<Mainnet>::LightClientOptimisticUpdate,
               light_client::Altair<Minimal>::LightClientOptimisticUpdate>(
        "LightClientOptimisticUpdate"),
    pair_entry<light_client::Altair<Mainnet>::LightClientUpdate,
               light_client::Altair<Minimal>::LightClientUpdate>("LightClientUpdate"),
    preset_entry<bellatrix::Attestation>("Attestation"),
    fixed_entry<bellatrix::AttestationData>("AttestationData"),
    preset_entry<bellatrix::AttesterSlashing>("AttesterSlashing"),
    preset_entry<bellatrix::BeaconBlock>("BeaconBlock"),
    preset_entry<bellatrix::BeaconBlockBody>("BeaconBlockBody"),
    fixed_entry<bellatrix::BeaconBlockHeader>("BeaconBlockHeader"),
    preset_entry<bellatrix::BeaconState>("BeaconState"),
    fixed_entry<bellatrix::Checkpoint>("Checkpoint"),
    fixed_entry<bellatrix::Deposit>("Deposit"),
    fixed_entry<bellatrix::DepositData>("DepositData"),
    fixed_entry<bellatrix::DepositMessage>("DepositMessage"),
    fixed_entry<bellatrix::Eth1Data>("Eth1Data"),
    preset_entry<bellatrix::ExecutionPayload>("ExecutionPayload"),
    preset_entry<bellatrix::ExecutionPayloadHeader>("ExecutionPayloadHeader"),
    fixed_entry<bellatrix::Fork>("Fork"),
    fixed_entry<bellatrix::ForkData>("ForkData"),
    preset_entry<bellatrix::HistoricalBatch>("HistoricalBatch"),
    preset_entry<bellatrix::IndexedAttestation>("IndexedAttestation"),
    fixed_entry<bellatrix::ProposerSlashing>("ProposerSlashing"),
    preset_entry<bellatrix::SignedBeaconBlock>("SignedBeaconBlock"),
    fixed_entry<bellatrix::SignedBeaconBlockHeader>("SignedBeaconBlockHeader"),
    fixed_entry<bellatrix::SignedVoluntaryExit>("SignedVoluntaryExit"),
    fixed_entry<bellatrix::SigningData>("SigningData"),
    preset_entry<bellatrix::SyncAggregate>("SyncAggregate"),
    preset_entry<bellatrix::SyncCommittee>("SyncCommittee"),
    fixed_entry<bellatrix::Validator>("Validator"),
    fixed_entry<bellatrix::VoluntaryExit>("VoluntaryExit")};

}  // namespace

std::span<const Entry> bellatrix_entries() {
    return kEntries;
}

}  // namespace keel::beacon::detail
