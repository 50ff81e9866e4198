// The fulu rows of the type registry (registry.hpp): every fulu container, including those
// reused unchanged from earlier forks (the light-client and builder containers are electra's),
// the p2p payloads (p2p-interface.md: StatusV2, MetaData v3, DataColumnSidecarsByRangeRequest,
// with phase0's Status and deneb's deprecated BlobSidecarsByRangeRequest kept), and the cell-proof
// BlobsBundle, ExecutionPayloadAndBlobsBundle (validator.md, builder-specs) and BlockContents /
// SignedBlockContents (beacon-APIs types/fulu).
#include <array>
#include <span>

#include "keel/beacon/bellatrix.hpp"
#include "keel/beacon/detail/registry_entry.hpp"
#include "keel/beacon/fulu.hpp"
#include "keel/beacon/light_client.hpp"

namespace keel::beacon::detail {

namespace {

constexpr std::array kEntries{
    inherited("BlindedBeaconBlock"),
    inherited("BlindedBeaconBlockBody"),
    inherited("SignedBlindedBeaconBlock"),
    inherited("BuilderBid"),
    inherited("SignedBuilderBid"),
    inherited("ValidatorRegistrationV1"),
    inherited("SignedValidatorRegistrationV1"),
    inherited("BeaconBlocksByRangeRequest"),
    inherited("ENRForkID"),
    inherited("Status"),
    fixed_entry<fulu::MetaData>("MetaData"),
    fixed_entry<fulu::StatusV2>("StatusV2"),
    preset_entry<fulu::DataColumnSidecarsByRangeRequest>("DataColumnSidecarsByRangeRequest"),
    inherited("LightClientUpdatesByRange"),
    inherited("BlobSidecarsByRangeRequest"),
    preset_entry<fulu::BlobsBundle>("BlobsBundle"),
    preset_entry<fulu::ExecutionPayloadAndBlobsBundle>("ExecutionPayloadAndBlobsBundle"),
    preset_entry<fulu::BlockContents>("BlockContents"),
    preset_entry<fulu::SignedBlockContents>("SignedBlockContents"),
    preset_entry<fulu::DataColumnSidecar>("DataColumnSidecar"),
    preset_entry<fulu::DataColumnsByRootIdentifier>("DataColumnsByRootIdentifier"),
    preset_entry<fulu::MatrixEntry>("MatrixEntry"),
    inherited("LightClientBootstrap"),
    inherited("LightClientFinalityUpdate"),
    inherited("LightClientHeader"),
    inherited("LightClientOptimisticUpdate"),
    inherited("LightClientUpdate"),
    inherited("AggregateAndProof"),
    inherited("Eth1Block"),
    inherited("SignedAggregateAndProof"),
    inherited("ContributionAndProof"),
    inherited("SignedContributionAndProof"),
    inherited("SyncAggregatorSelectionData"),
    inherited("SyncCommitteeContribution"),
    inherited("SyncCommitteeMessage"),
    inherited("PowBlock"),
    inherited("Attestation"),
    inherited("AttestationData"),
    inherited("AttesterSlashing"),
    inherited("BLSToExecutionChange"),
    inherited("BeaconBlock"),
    inherited("BeaconBlockBody"),
    inherited("BeaconBlockHeader"),
    preset_entry<fulu::BeaconState>("BeaconState"),
    inherited("BlobIdentifier"),
    inherited("BlobSidecar"),
    inherited("Checkpoint"),
    inherited("ConsolidationRequest"),
    inherited("Deposit"),
    inherited("DepositData"),
    inherited("DepositMessage"),
    inherited("DepositRequest"),
    inherited("Eth1Data"),
    inherited("ExecutionPayload"),
    inherited("ExecutionPayloadHeader"),
    inherited("ExecutionRequests"),
    inherited("Fork"),
    inherited("ForkData"),
    inherited("HistoricalBatch"),
    inherited("HistoricalSummary"),
    inherited("IndexedAttestation"),
    inherited("PendingConsolidation"),
    inherited("PendingDeposit"),
    inherited("PendingPartialWithdrawal"),
    inherited("ProposerSlashing"),
    inherited("SignedBLSToExecutionChange"),
    inherited("SignedBeaconBlock"),
    inherited("SignedBeaconBlockHeader"),
    inherited("SignedVoluntaryExit"),
    inherited("SigningData"),
    inherited("SingleAttestation"),
    inherited("SyncAggregate"),
    inherited("SyncCommittee"),
    inherited("Validator"),
    inherited("VoluntaryExit"),
    inherited("Withdrawal"),
    inherited("WithdrawalRequest"),
};

}  // namespace

std::span<const Entry> fulu_entries() {
    return kEntries;
}

}  // namespace keel::beacon::detail
