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
    inherited("BeaconBlocksByRangeRequest"),
    inherited("ENRForkID"),
    inherited("Status"),
    inherited("MetaData"),
    inherited("LightClientUpdatesByRange"),
    inherited("AggregateAndProof"),
    inherited("Eth1Block"),
    inherited("SignedAggregateAndProof"),
    inherited("ContributionAndProof"),
    inherited("SignedContributionAndProof"),
    inherited("SyncAggregatorSelectionData"),
    inherited("SyncCommitteeContribution"),
    inherited("SyncCommitteeMessage"),
    fixed_entry<bellatrix::PowBlock>("PowBlock"),
    inherited("LightClientBootstrap"),
    inherited("LightClientFinalityUpdate"),
    inherited("LightClientHeader"),
    inherited("LightClientOptimisticUpdate"),
    inherited("LightClientUpdate"),
    inherited("Attestation"),
    inherited("AttestationData"),
    inherited("AttesterSlashing"),
    preset_entry<bellatrix::BeaconBlock>("BeaconBlock"),
    preset_entry<bellatrix::BeaconBlockBody>("BeaconBlockBody"),
    inherited("BeaconBlockHeader"),
    preset_entry<bellatrix::BeaconState>("BeaconState"),
    inherited("Checkpoint"),
    inherited("Deposit"),
    inherited("DepositData"),
    inherited("DepositMessage"),
    inherited("Eth1Data"),
    preset_entry<bellatrix::ExecutionPayload>("ExecutionPayload"),
    preset_entry<bellatrix::ExecutionPayloadHeader>("ExecutionPayloadHeader"),
    inherited("Fork"),
    inherited("ForkData"),
    inherited("HistoricalBatch"),
    inherited("IndexedAttestation"),
    inherited("ProposerSlashing"),
    preset_entry<bellatrix::SignedBeaconBlock>("SignedBeaconBlock"),
    inherited("SignedBeaconBlockHeader"),
    inherited("SignedVoluntaryExit"),
    inherited("SigningData"),
    inherited("SyncAggregate"),
    inherited("SyncCommittee"),
    inherited("Validator"),
    inherited("VoluntaryExit"),
};

}  // namespace

std::span<const Entry> bellatrix_entries() {
    return kEntries;
}

}  // namespace keel::beacon::detail
