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
    inherited("ValidatorRegistrationV1"),
    inherited("SignedValidatorRegistrationV1"),
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
    inherited("PowBlock"),
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
    inherited("Attestation"),
    inherited("AttestationData"),
    inherited("AttesterSlashing"),
    fixed_entry<capella::BLSToExecutionChange>("BLSToExecutionChange"),
    preset_entry<capella::BeaconBlock>("BeaconBlock"),
    preset_entry<capella::BeaconBlockBody>("BeaconBlockBody"),
    inherited("BeaconBlockHeader"),
    preset_entry<capella::BeaconState>("BeaconState"),
    inherited("Checkpoint"),
    inherited("Deposit"),
    inherited("DepositData"),
    inherited("DepositMessage"),
    inherited("Eth1Data"),
    preset_entry<capella::ExecutionPayload>("ExecutionPayload"),
    preset_entry<capella::ExecutionPayloadHeader>("ExecutionPayloadHeader"),
    inherited("Fork"),
    inherited("ForkData"),
    inherited("HistoricalBatch"),
    fixed_entry<capella::HistoricalSummary>("HistoricalSummary"),
    inherited("IndexedAttestation"),
    inherited("ProposerSlashing"),
    fixed_entry<capella::SignedBLSToExecutionChange>("SignedBLSToExecutionChange"),
    preset_entry<capella::SignedBeaconBlock>("SignedBeaconBlock"),
    inherited("SignedBeaconBlockHeader"),
    inherited("SignedVoluntaryExit"),
    inherited("SigningData"),
    inherited("SyncAggregate"),
    inherited("SyncCommittee"),
    inherited("Validator"),
    inherited("VoluntaryExit"),
    fixed_entry<capella::Withdrawal>("Withdrawal"),
};

}  // namespace

std::span<const Entry> capella_entries() {
    return kEntries;
}

}  // namespace keel::beacon::detail
