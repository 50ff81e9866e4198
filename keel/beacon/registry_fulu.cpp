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
    preset_entry<fulu::BlindedBeaconBlock>("BlindedBeaconBlock"),
    preset_entry<fulu::BlindedBeaconBlockBody>("BlindedBeaconBlockBody"),
    preset_entry<fulu::SignedBlindedBeaconBlock>("SignedBlindedBeaconBlock"),
    preset_entry<fulu::BuilderBid>("BuilderBid"),
    preset_entry<fulu::SignedBuilderBid>("SignedBuilderBid"),
    fixed_entry<bellatrix::ValidatorRegistrationV1>("ValidatorRegistrationV1"),
    fixed_entry<bellatrix::SignedValidatorRegistrationV1>("SignedValidatorRegistrationV1"),
    fixed_entry<phase0::BeaconBlocksByRangeRequest>("BeaconBlocksByRangeRequest"),
    fixed_entry<phase0::ENRForkID>("ENRForkID"),
    fixed_entry<phase0::Status>("Status"),
    fixed_entry<fulu::MetaData>("MetaData"),
    fixed_entry<fulu::StatusV2>("StatusV2"),
    preset_entry<fulu::DataColumnSidecarsByRangeRequest>("DataColumnSidecarsByRangeRequest"),
    fixed_entry<light_client::LightClientUpdatesByRange>("LightClientUpdatesByRange"),
    fixed_entry<fulu::BlobSidecarsByRangeRequest>("BlobSidecarsByRangeRequest"),
    preset_entry<fulu::BlobsBundle>("BlobsBundle"),
    preset_entry<fulu::ExecutionPayloadAndBlobsBundle>("ExecutionPayloadAndBlobsBundle"),
    preset_entry<fulu::BlockContents>("BlockContents"),
    preset_entry<fulu::SignedBlockContents>("SignedBlockContents"),
    preset_entry<fulu::DataColumnSidecar>("DataColumnSidecar"),
    preset_entry<fulu::DataColumnsByRootIdentifier>("DataColumnsByRootIdentifier"),
    preset_entry<fulu::MatrixEntry>("MatrixEntry"),
    pair_entry<light_client::Electra<Mainnet>::LightClientBootstrap,
               light_client::Electra<Minimal>::LightClientBootstrap>("LightClientBootstrap"),
    pair_entry<light_client::Electra<Mainnet>::LightClientFinalityUpdate,
               light_client::Electra<Minimal>::LightClientFinalityUpdate>(
        "LightClientFinalityUpdate"),
    pair_entry<light_client::Electra<Mainnet>::LightClientHeader,
               light_client::Electra<Minimal>::LightClientHeader>("LightClientHeader"),
    pair_entry<light_client::Electra<Mainnet>::LightClientOptimisticUpdate,
               light_client::Electra<Minimal>::LightClientOptimisticUpdate>(
        "LightClientOptimisticUpdate"),
    pair_entry<light_client::Electra<Mainnet>::LightClientUpdate,
               light_client::Electra<Minimal>::LightClientUpdate>("LightClientUpdate"),
    pair_entry<phase0::AggregateAndProofOf<electra::Attestation<Mainnet>>,
               phase0::AggregateAndProofOf<electra::Attestation<Minimal>>>("AggregateAndProof"),
    fixed_entry<phase0::Eth1Block>("Eth1Block"),
    pair_entry<phase0::SignedAggregateAndProofOf<
                   phase0::AggregateAndProofOf<electra::Attestation<Mainnet>>>,
               phase0::SignedAggregateAndProofOf<
                   phase0::AggregateAndProofOf<electra::Attestation<Minimal>>>>(
        "SignedAggregateAndProof"),
    preset_entry<altair::ContributionAndProof>("ContributionAndProof"),
    preset_entry<altair::SignedContributionAndProof>("SignedContributionAndProof"),
    fixed_entry<altair::SyncAggregatorSelectionData>("SyncAggregatorSelectionData"),
    preset_entry<altair::SyncCommitteeContribution>("SyncCommitteeContribution"),
    fixed_entry<altair::SyncCommitteeMessage>("SyncCommitteeMessage"),
    fixed_entry<bellatrix::PowBlock>("PowBlock"),
    preset_entry<electra::Attestation>("Attestation"),
    fixed_entry<electra::AttestationData>("AttestationData"),
    preset_entry<electra::AttesterSlashing>("AttesterSlashing"),
    fixed_entry<electra::BLSToExecutionChange>("BLSToExecutionChange"),
    preset_entry<electra::BeaconBlock>("BeaconBlock"),
    preset_entry<electra::BeaconBlockBody>("BeaconBlockBody"),
    fixed_entry<electra::BeaconBlockHeader>("BeaconBlockHeader"),
    preset_entry<fulu::BeaconState>("BeaconState"),
    fixed_entry<electra::BlobIdentifier>("BlobIdentifier"),
    preset_entry<electra::BlobSidecar>("BlobSidecar"),
    fixed_entry<electra::Checkpoint>("Checkpoint"),
    fixed_entry<electra::ConsolidationRequest>("ConsolidationRequest"),
    fixed_entry<electra::Deposit>("Deposit"),
    fixed_entry<electra::DepositData>("DepositData"),
    fixed_entry<electra::DepositMessage>("DepositMessage"),
    fixed_entry<electra::DepositRequest>("DepositRequest"),
    fixed_entry<electra::Eth1Data>("Eth1Data"),
    preset_entry<electra::ExecutionPayload>("ExecutionPayload"),
    preset_entry<electra::ExecutionPayloadHeader>("ExecutionPayloadHeader"),
    preset_entry<electra::ExecutionRequests>("ExecutionRequests"),
    fixed_entry<electra::Fork>("Fork"),
    fixed_entry<electra::ForkData>("ForkData"),
    preset_entry<electra::HistoricalBatch>("HistoricalBatch"),
    fixed_entry<electra::HistoricalSummary>("HistoricalSummary"),
    preset_entry<electra::IndexedAttestation>("IndexedAttestation"),
    fixed_entry<electra::PendingConsolidation>("PendingConsolidation"),
    fixed_entry<electra::PendingDeposit>("PendingDeposit"),
    fixed_entry<electra::PendingPartialWithdrawal>("PendingPartialWithdrawal"),
    fixed_entry<electra::ProposerSlashing>("ProposerSlashing"),
    fixed_entry<electra::SignedBLSToExecutionChange>("SignedBLSToExecutionChange"),
    preset_entry<electra::SignedBeaconBlock>("SignedBeaconBlock"),
    fixed_entry<electra::SignedBeaconBlockHeader>("SignedBeaconBlockHeader"),
    fixed_entry<electra::SignedVoluntaryExit>("SignedVoluntaryExit"),
    fixed_entry<electra::SigningData>("SigningData"),
    fixed_entry<electra::SingleAttestation>("SingleAttestation"),
    preset_entry<electra::SyncAggregate>("SyncAggregate"),
    preset_entry<electra::SyncCommittee>("SyncCommittee"),
    fixed_entry<electra::Validator>("Validator"),
    fixed_entry<electra::VoluntaryExit>("VoluntaryExit"),
    fixed_entry<electra::Withdrawal>("Withdrawal"),
    fixed_entry<electra::WithdrawalRequest>("WithdrawalRequest")};

}  // namespace

std::span<const Entry> fulu_entries() {
    return kEntries;
}

}  // namespace keel::beacon::detail
