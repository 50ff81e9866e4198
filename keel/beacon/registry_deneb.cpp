// The deneb rows of the type registry (registry.hpp): every deneb container, including those
// reused unchanged from earlier forks, the light-client sync-protocol containers, the p2p
// payloads (BlobSidecarsByRangeRequest new), the builder API's containers (builder-specs
// specs/deneb/builder.md: BlobsBundle, ExecutionPayloadAndBlobsBundle, bids, blinded blocks) and
// the Beacon API's BlockContents / SignedBlockContents (beacon-APIs types/deneb).
#include <array>
#include <span>

#include "keel/beacon/bellatrix.hpp"
#include "keel/beacon/deneb.hpp"
#include "keel/beacon/detail/registry_entry.hpp"
#include "keel/beacon/light_client.hpp"

namespace keel::beacon::detail {

namespace {

constexpr std::array kEntries{
    preset_entry<deneb::BlindedBeaconBlock>("BlindedBeaconBlock"),
    preset_entry<deneb::BlindedBeaconBlockBody>("BlindedBeaconBlockBody"),
    preset_entry<deneb::SignedBlindedBeaconBlock>("SignedBlindedBeaconBlock"),
    preset_entry<deneb::BuilderBid>("BuilderBid"),
    preset_entry<deneb::SignedBuilderBid>("SignedBuilderBid"),
    inherited("ValidatorRegistrationV1"),
    inherited("SignedValidatorRegistrationV1"),
    inherited("BeaconBlocksByRangeRequest"),
    inherited("ENRForkID"),
    inherited("Status"),
    inherited("MetaData"),
    inherited("LightClientUpdatesByRange"),
    fixed_entry<deneb::BlobSidecarsByRangeRequest>("BlobSidecarsByRangeRequest"),
    preset_entry<deneb::BlobsBundle>("BlobsBundle"),
    preset_entry<deneb::ExecutionPayloadAndBlobsBundle>("ExecutionPayloadAndBlobsBundle"),
    preset_entry<deneb::BlockContents>("BlockContents"),
    preset_entry<deneb::SignedBlockContents>("SignedBlockContents"),
    inherited("AggregateAndProof"),
    inherited("Eth1Block"),
    inherited("SignedAggregateAndProof"),
    inherited("ContributionAndProof"),
    inherited("SignedContributionAndProof"),
    inherited("SyncAggregatorSelectionData"),
    inherited("SyncCommitteeContribution"),
    inherited("SyncCommitteeMessage"),
    inherited("PowBlock"),
    pair_entry<light_client::Deneb<Mainnet>::LightClientBootstrap,
               light_client::Deneb<Minimal>::LightClientBootstrap>("LightClientBootstrap"),
    pair_entry<light_client::Deneb<Mainnet>::LightClientFinalityUpdate,
               light_client::Deneb<Minimal>::LightClientFinalityUpdate>(
        "LightClientFinalityUpdate"),
    pair_entry<light_client::Deneb<Mainnet>::LightClientHeader,
               light_client::Deneb<Minimal>::LightClientHeader>("LightClientHeader"),
    pair_entry<light_client::Deneb<Mainnet>::LightClientOptimisticUpdate,
               light_client::Deneb<Minimal>::LightClientOptimisticUpdate>(
        "LightClientOptimisticUpdate"),
    pair_entry<light_client::Deneb<Mainnet>::LightClientUpdate,
               light_client::Deneb<Minimal>::LightClientUpdate>("LightClientUpdate"),
    inherited("Attestation"),
    inherited("AttestationData"),
    inherited("AttesterSlashing"),
    inherited("BLSToExecutionChange"),
    preset_entry<deneb::BeaconBlock>("BeaconBlock"),
    preset_entry<deneb::BeaconBlockBody>("BeaconBlockBody"),
    inherited("BeaconBlockHeader"),
    preset_entry<deneb::BeaconState>("BeaconState"),
    fixed_entry<deneb::BlobIdentifier>("BlobIdentifier"),
    preset_entry<deneb::BlobSidecar>("BlobSidecar"),
    inherited("Checkpoint"),
    inherited("Deposit"),
    inherited("DepositData"),
    inherited("DepositMessage"),
    inherited("Eth1Data"),
    preset_entry<deneb::ExecutionPayload>("ExecutionPayload"),
    preset_entry<deneb::ExecutionPayloadHeader>("ExecutionPayloadHeader"),
    inherited("Fork"),
    inherited("ForkData"),
    inherited("HistoricalBatch"),
    inherited("HistoricalSummary"),
    inherited("IndexedAttestation"),
    inherited("ProposerSlashing"),
    inherited("SignedBLSToExecutionChange"),
    preset_entry<deneb::SignedBeaconBlock>("SignedBeaconBlock"),
    inherited("SignedBeaconBlockHeader"),
    inherited("SignedVoluntaryExit"),
    inherited("SigningData"),
    inherited("SyncAggregate"),
    inherited("SyncCommittee"),
    inherited("Validator"),
    inherited("VoluntaryExit"),
    inherited("Withdrawal"),
};

}  // namespace

std::span<const Entry> deneb_entries() {
    return kEntries;
}

}  // namespace keel::beacon::detail
