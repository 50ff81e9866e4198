// The electra rows of the type registry (registry.hpp): every electra container, including those
// reused unchanged from earlier forks, deneb's p2p payloads and blobs bundle, the builder API's
// bids and blinded blocks (builder-specs specs/electra/builder.md) and the Beacon API's
// BlockContents / SignedBlockContents (beacon-APIs types/electra).
#include <array>
#include <span>

#include "keel/beacon/bellatrix.hpp"
#include "keel/beacon/detail/registry_entry.hpp"
#include "keel/beacon/electra.hpp"
#include "keel/beacon/light_client.hpp"

namespace keel::beacon::detail {

namespace {

constexpr std::array kEntries{
    preset_entry<electra::BlindedBeaconBlock>("BlindedBeaconBlock"),
    preset_entry<electra::BlindedBeaconBlockBody>("BlindedBeaconBlockBody"),
    preset_entry<electra::SignedBlindedBeaconBlock>("SignedBlindedBeaconBlock"),
    preset_entry<electra::BuilderBid>("BuilderBid"),
    preset_entry<electra::SignedBuilderBid>("SignedBuilderBid"),
    inherited("ValidatorRegistrationV1"),
    inherited("SignedValidatorRegistrationV1"),
    inherited("BeaconBlocksByRangeRequest"),
    inherited("ENRForkID"),
    inherited("Status"),
    inherited("MetaData"),
    inherited("LightClientUpdatesByRange"),
    inherited("BlobSidecarsByRangeRequest"),
    inherited("BlobsBundle"),
    inherited("ExecutionPayloadAndBlobsBundle"),
    preset_entry<electra::BlockContents>("BlockContents"),
    preset_entry<electra::SignedBlockContents>("SignedBlockContents"),
    pair_entry<light_client::Electra<Mainnet>::LightClientBootstrap,
               light_client::Electra<Minimal>::LightClientBootstrap>("LightClientBootstrap"),
    pair_entry<light_client::Electra<Mainnet>::LightClientFinalityUpdate,
               light_client::Electra<Minimal>::LightClientFinalityUpdate>(
        "LightClientFinalityUpdate"),
    inherited("LightClientHeader"),
    inherited("LightClientOptimisticUpdate"),
    pair_entry<light_client::Electra<Mainnet>::LightClientUpdate,
               light_client::Electra<Minimal>::LightClientUpdate>("LightClientUpdate"),
    pair_entry<phase0::AggregateAndProofOf<electra::Attestation<Mainnet>>,
               phase0::AggregateAndProofOf<electra::Attestation<Minimal>>>("AggregateAndProof"),
    inherited("Eth1Block"),
    pair_entry<phase0::SignedAggregateAndProofOf<
                   phase0::AggregateAndProofOf<electra::Attestation<Mainnet>>>,
               phase0::SignedAggregateAndProofOf<
                   phase0::AggregateAndProofOf<electra::Attestation<Minimal>>>>(
        "SignedAggregateAndProof"),
    inherited("ContributionAndProof"),
    inherited("SignedContributionAndProof"),
    inherited("SyncAggregatorSelectionData"),
    inherited("SyncCommitteeContribution"),
    inherited("SyncCommitteeMessage"),
    inherited("PowBlock"),
    preset_entry<electra::Attestation>("Attestation"),
    inherited("AttestationData"),
    preset_entry<electra::AttesterSlashing>("AttesterSlashing"),
    inherited("BLSToExecutionChange"),
    preset_entry<electra::BeaconBlock>("BeaconBlock"),
    preset_entry<electra::BeaconBlockBody>("BeaconBlockBody"),
    inherited("BeaconBlockHeader"),
    preset_entry<electra::BeaconState>("BeaconState"),
    inherited("BlobIdentifier"),
    inherited("BlobSidecar"),
    inherited("Checkpoint"),
    fixed_entry<electra::ConsolidationRequest>("ConsolidationRequest"),
    inherited("Deposit"),
    inherited("DepositData"),
    inherited("DepositMessage"),
    fixed_entry<electra::DepositRequest>("DepositRequest"),
    inherited("Eth1Data"),
    inherited("ExecutionPayload"),
    inherited("ExecutionPayloadHeader"),
    preset_entry<electra::ExecutionRequests>("ExecutionRequests"),
    inherited("Fork"),
    inherited("ForkData"),
    inherited("HistoricalBatch"),
    inherited("HistoricalSummary"),
    preset_entry<electra::IndexedAttestation>("IndexedAttestation"),
    fixed_entry<electra::PendingConsolidation>("PendingConsolidation"),
    fixed_entry<electra::PendingDeposit>("PendingDeposit"),
    fixed_entry<electra::PendingPartialWithdrawal>("PendingPartialWithdrawal"),
    inherited("ProposerSlashing"),
    inherited("SignedBLSToExecutionChange"),
    preset_entry<electra::SignedBeaconBlock>("SignedBeaconBlock"),
    inherited("SignedBeaconBlockHeader"),
    inherited("SignedVoluntaryExit"),
    inherited("SigningData"),
    fixed_entry<electra::SingleAttestation>("SingleAttestation"),
    inherited("SyncAggregate"),
    inherited("SyncCommittee"),
    inherited("Validator"),
    inherited("VoluntaryExit"),
    inherited("Withdrawal"),
    fixed_entry<electra::WithdrawalRequest>("WithdrawalRequest"),
};

}  // namespace

std::span<const Entry> electra_entries() {
    return kEntries;
}

}  // namespace keel::beacon::detail
