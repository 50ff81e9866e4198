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
    fixed_entry<bellatrix::ValidatorRegistrationV1>("ValidatorRegistrationV1"),
    fixed_entry<bellatrix::SignedValidatorRegistrationV1>("SignedValidatorRegistrationV1"),
    fixed_entry<phase0::BeaconBlocksByRangeRequest>("BeaconBlocksByRangeRequest"),
    fixed_entry<phase0::ENRForkID>("ENRForkID"),
    fixed_entry<phase0::Status>("Status"),
    fixed_entry<altair::MetaData>("MetaData"),
    fixed_entry<light_client::LightClientUpdatesByRange>("LightClientUpdatesByRange"),
    fixed_entry<deneb::BlobSidecarsByRangeRequest>("BlobSidecarsByRangeRequest"),
    preset_entry<deneb::BlobsBundle>("BlobsBundle"),
    preset_entry<deneb::ExecutionPayloadAndBlobsBundle>("ExecutionPayloadAndBlobsBundle"),
    preset_entry<deneb::BlockContents>("BlockContents"),
    preset_entry<deneb::SignedBlockContents>("SignedBlockContents"),
    preset_entry<phase0::AggregateAndProof>("AggregateAndProof"),
    fixed_entry<phase0::Eth1Block>("Eth1Block"),
    preset_entry<phase0::SignedAggregateAndProof>("SignedAggregateAndProof"),
    preset_entry<altair::ContributionAndProof>("ContributionAndProof"),
    preset_entry<altair::SignedContributionAndProof>("SignedContributionAndProof"),
    fixed_entry<altair::SyncAggregatorSelectionData>("SyncAggregatorSelectionData"),
    preset_entry<altair::SyncCommitteeContribution>("SyncCommitteeContribution"),
    fixed_entry<altair::SyncCommitteeMessage>("SyncCommitteeMessage"),
    fixed_entry<bellatrix::PowBlock>("PowBlock"),
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
    preset_entry<deneb::Attestation>("Attestation"),
    fixed_entry<deneb::AttestationData>("AttestationData"),
    preset_entry<deneb::AttesterSlashing>("AttesterSlashing"),
    fixed_entry<deneb::BLSToExecutionChange>("BLSToExecutionChange"),
    preset_entry<deneb::BeaconBlock>("BeaconBlock"),
    preset_entry<deneb::BeaconBlockBody>("BeaconBlockBody"),
    fixed_entry<deneb::BeaconBlockHeader>("BeaconBlockHeader"),
    preset_entry<deneb::BeaconState>("BeaconState"),
    fixed_entry<deneb::BlobIdentifier>("BlobIdentifier"),
    preset_entry<deneb::BlobSidecar>("BlobSidecar"),
    fixed_entry<deneb::Checkpoint>("Checkpoint"),
    fixed_entry<deneb::Deposit>("Deposit"),
    fixed_entry<deneb::DepositData>("DepositData"),
    fixed_entry<deneb::DepositMessage>("DepositMessage"),
    fixed_entry<deneb::Eth1Data>("Eth1Data"),
    preset_entry<deneb::ExecutionPayload>("ExecutionPayload"),
    preset_entry<deneb::ExecutionPayloadHeader>("ExecutionPayloadHeader"),
    fixed_entry<deneb::Fork>("Fork"),
    fixed_entry<deneb::ForkData>("ForkData"),
    preset_entry<deneb::HistoricalBatch>("HistoricalBatch"),
    fixed_entry<deneb::HistoricalSummary>("HistoricalSummary"),
    preset_entry<deneb::IndexedAttestation>("IndexedAttestation"),
    fixed_entry<deneb::ProposerSlashing>("ProposerSlashing"),
    fixed_entry<deneb::SignedBLSToExecutionChange>("SignedBLSToExecutionChange"),
    preset_entry<deneb::SignedBeaconBlock>("SignedBeaconBlock"),
    fixed_entry<deneb::SignedBeaconBlockHeader>("SignedBeaconBlockHeader"),
    fixed_entry<deneb::SignedVoluntaryExit>("SignedVoluntaryExit"),
    fixed_entry<deneb::SigningData>("SigningData"),
    preset_entry<deneb::SyncAggregate>("SyncAggregate"),
    preset_entry<deneb::SyncCommittee>("SyncCommittee"),
    fixed_entry<deneb::Validator>("Validator"),
    fixed_entry<deneb::VoluntaryExit>("VoluntaryExit"),
    fixed_entry<deneb::Withdrawal>("Withdrawal")};

}  // namespace

std::span<const Entry> deneb_entries() {
    return kEntries;
}

}  // namespace keel::beacon::detail
