#pragma once
/// electra consensus containers (consensus-specs specs/electra/beacon-chain.md, "Containers"):
/// pending deposits, partial withdrawals and consolidations; deposit, withdrawal and
/// consolidation requests; attestations that span committees (committee_bits) and
/// SingleAttestation; the body with execution requests and the state with the new queues.
/// The execution payload and its header are deneb's.

#include <string_view>
#include <tuple>

#include "keel/beacon/common_types.hpp"
#include "keel/beacon/deneb.hpp"
#include "keel/beacon/presets.hpp"
#include "keel/ssz/ssz.hpp"

namespace keel::beacon::electra {

// Unchanged from deneb (and earlier).
using deneb::AttestationData;
using deneb::AttesterSlashingOf;
using deneb::BeaconBlockHeader;
using deneb::BeaconBlockOf;
using deneb::BlindedBeaconBlockOf;
using deneb::Blob;
using deneb::BlobIdentifier;
using deneb::BlobsBundle;
using deneb::BlobsBundleOf;
using deneb::BlobSidecar;
using deneb::BlobSidecarsByRangeRequest;
using deneb::BlockContentsOf;
using deneb::BLSToExecutionChange;
using deneb::BuilderBidOf;
using deneb::Checkpoint;
using deneb::Deposit;
using deneb::DepositData;
using deneb::DepositMessage;
using deneb::Eth1Data;
using deneb::ExecutionPayload;
using deneb::ExecutionPayloadAndBlobsBundle;
using deneb::ExecutionPayloadAndBlobsBundleOf;
using deneb::ExecutionPayloadHeader;
using deneb::Fork;
using deneb::ForkData;
using deneb::HistoricalBatch;
using deneb::HistoricalSummary;
using deneb::ProposerSlashing;
using deneb::SignedBeaconBlockHeader;
using deneb::SignedBeaconBlockOf;
using deneb::SignedBlindedBeaconBlockOf;
using deneb::SignedBlockContentsOf;
using deneb::SignedBLSToExecutionChange;
using deneb::SignedBuilderBidOf;
using deneb::SignedValidatorRegistrationV1;
using deneb::SignedVoluntaryExit;
using deneb::SigningData;
using deneb::SyncAggregate;
using deneb::SyncCommittee;
using deneb::Transaction;
using deneb::Validator;
using deneb::ValidatorRegistrationV1;
using deneb::VoluntaryExit;
using deneb::Withdrawal;

/// PendingDeposit: a deposit waiting in the state's queue.
struct PendingDeposit {
    BLSPubkey pubkey;
    Bytes32 withdrawal_credentials;
    Gwei amount = 0;
    BLSSignature signature;
    Slot slot = 0;

    static constexpr std::string_view ssz_name = "PendingDeposit";
    static constexpr auto ssz_fields() {
        using T = PendingDeposit;
        return std::tuple{ssz::field("pubkey", &T::pubkey),
                          ssz::field("withdrawal_credentials", &T::withdrawal_credentials),
                          ssz::field("amount", &T::amount), ssz::field("signature", &T::signature),
                          ssz::field("slot", &T::slot)};
    }
};

/// PendingPartialWithdrawal: a partial withdrawal waiting in the state's queue.
struct PendingPartialWithdrawal {
    ValidatorIndex validator_index = 0;
    Gwei amount = 0;
    Epoch withdrawable_epoch = 0;

    static constexpr std::string_view ssz_name = "PendingPartialWithdrawal";
    static constexpr auto ssz_fields() {
        using T = PendingPartialWithdrawal;
        return std::tuple{ssz::field("validator_index", &T::validator_index),
                          ssz::field("amount", &T::amount),
                          ssz::field("withdrawable_epoch", &T::withdrawable_epoch)};
    }
};

/// PendingConsolidation: a consolidation waiting in the state's queue.
struct PendingConsolidation {
    ValidatorIndex source_index = 0;
    ValidatorIndex target_index = 0;

    static constexpr std::string_view ssz_name = "PendingConsolidation";
    static constexpr auto ssz_fields() {
        using T = PendingConsolidation;
        return std::tuple{ssz::field("source_index", &T::source_index),
                          ssz::field("target_index", &T::target_index)};
    }
};

/// DepositRequest (EIP-6110): a deposit seen by the execution layer.
struct DepositRequest {
    BLSPubkey pubkey;
    Bytes32 withdrawal_credentials;
    Gwei amount = 0;
    BLSSignature signature;
    std::uint64_t index = 0;

    static constexpr std::string_view ssz_name = "DepositRequest";
    static constexpr auto ssz_fields() {
        using T = DepositRequest;
        return std::tuple{ssz::field("pubkey", &T::pubkey),
                          ssz::field("withdrawal_credentials", &T::withdrawal_credentials),
                          ssz::field("amount", &T::amount), ssz::field("signature", &T::signature),
                          ssz::field("index", &T::index)};
    }
};

/// WithdrawalRequest (EIP-7002): an exit or partial withdrawal triggered from the execution layer.
struct WithdrawalRequest {
    ExecutionAddress source_address;
    BLSPubkey validator_pubkey;
    Gwei amount = 0;

    static constexpr std::string_view ssz_name = "WithdrawalRequest";
    static constexpr auto ssz_fields() {
        using T = WithdrawalRequest;
        return std::tuple{ssz::field("source_address", &T::source_address),
                          ssz::field("validator_pubkey", &T::validator_pubkey),
                          ssz::field("amount", &T::amount)};
    }
};

/// ConsolidationRequest (EIP-7251): a request to merge a validator into another.
struct ConsolidationRequest {
    ExecutionAddress source_address;
    BLSPubkey source_pubkey;
    BLSPubkey target_pubkey;

    static constexpr std::string_view ssz_name = "ConsolidationRequest";
    static constexpr auto ssz_fields() {
        using T = ConsolidationRequest;
        return std::tuple{ssz::field("source_address", &T::source_address),
                          ssz::field("source_pubkey", &T::source_pubkey),
                          ssz::field("target_pubkey", &T::target_pubkey)};
    }
};

/// ExecutionRequests (EIP-7685): the requests of one execution payload, by type.
template <class P>
struct ExecutionRequests {
    ssz::List<DepositRequest, P::MAX_DEPOSIT_REQUESTS_PER_PAYLOAD> deposits;
    ssz::List<WithdrawalRequest, P::MAX_WITHDRAWAL_REQUESTS_PER_PAYLOAD> withdrawals;
    ssz::List<ConsolidationRequest, P::MAX_CONSOLIDATION_REQUESTS_PER_PAYLOAD> consolidations;

    static constexpr std::string_view ssz_name = "ExecutionRequests";
    static constexpr auto ssz_fields() {
        using T = ExecutionRequests;
        return std::tuple{ssz::field("deposits", &T::deposits),
                          ssz::field("withdrawals", &T::withdrawals),
                          ssz::field("consolidations", &T::consolidations)};
    }
};

/// SingleAttestation: one validator's attestation as gossiped (EIP-7549).
struct SingleAttestation {
    CommitteeIndex committee_index = 0;
    ValidatorIndex attester_index = 0;
    AttestationData data;
    BLSSignature signature;

    static constexpr std::string_view ssz_name = "SingleAttestation";
    static constexpr auto ssz_fields() {
        using T = SingleAttestation;
        return std::tuple{ssz::field("committee_index", &T::committee_index),
                          ssz::field("attester_index", &T::attester_index),
                          ssz::field("data", &T::data), ssz::field("signature", &T::signature)};
    }
};

/// IndexedAttestation (electra): indices from up to MAX_COMMITTEES_PER_SLOT committees.
template <class P>
struct IndexedAttestation {
    ssz::List<ValidatorIndex, P::MAX_VALIDATORS_PER_COMMITTEE * P::MAX_COMMITTEES_PER_SLOT>
        attesting_indices;
    AttestationData data;
    BLSSignature signature;

    static constexpr std::string_view ssz_name = "IndexedAttestation";
    static constexpr auto ssz_fields() {
        using T = IndexedAttestation;
        return std::tuple{ssz::field("attesting_indices", &T::attesting_indices),
                          ssz::field("data", &T::data), ssz::field("signature", &T::signature)};
    }
};

/// AttesterSlashing (electra): two of electra's indexed attestations.
template <class P>
using AttesterSlashing = AttesterSlashingOf<IndexedAttestation<P>>;

/// Attestation (electra, EIP-7549): aggregation bits over all the committees named in
/// committee_bits; data.index is 0.
template <class P>
struct Attestation {
    ssz::Bitlist<P::MAX_VALIDATORS_PER_COMMITTEE * P::MAX_COMMITTEES_PER_SLOT> aggregation_bits;
    AttestationData data;
    BLSSignature signature;
    ssz::Bitvector<P::MAX_COMMITTEES_PER_SLOT> committee_bits;

    static constexpr std::string_view ssz_name = "Attestation";
    static constexpr auto ssz_fields() {
        using T = Attestation;
        return std::tuple{ssz::field("aggregation_bits", &T::aggregation_bits),
                          ssz::field("data", &T::data), ssz::field("signature", &T::signature),
                          ssz::field("committee_bits", &T::committee_bits)};
    }
};

/// BeaconBlockBody (electra): electra's slashings and attestations (with their own limits) and the
/// execution requests.
template <class P>
struct BeaconBlockBody {
    BLSSignature randao_reveal;
    Eth1Data eth1_data;
    Bytes32 graffiti;
    ssz::List<ProposerSlashing, P::MAX_PROPOSER_SLASHINGS> proposer_slashings;
    ssz::List<AttesterSlashing<P>, P::MAX_ATTESTER_SLASHINGS_ELECTRA> attester_slashings;
    ssz::List<Attestation<P>, P::MAX_ATTESTATIONS_ELECTRA> attestations;
    ssz::List<Deposit, P::MAX_DEPOSITS> deposits;
    ssz::List<SignedVoluntaryExit, P::MAX_VOLUNTARY_EXITS> voluntary_exits;
    SyncAggregate<P> sync_aggregate;
    ExecutionPayload<P> execution_payload;
    ssz::List<SignedBLSToExecutionChange, P::MAX_BLS_TO_EXECUTION_CHANGES> bls_to_execution_changes;
    ssz::List<KZGCommitment, P::MAX_BLOB_COMMITMENTS_PER_BLOCK> blob_kzg_commitments;
    ExecutionRequests<P> execution_requests;

    static constexpr std::string_view ssz_name = "BeaconBlockBody";
    static constexpr auto ssz_fields() {
        using T = BeaconBlockBody;
        return std::tuple{ssz::field("randao_reveal", &T::randao_reveal),
                          ssz::field("eth1_data", &T::eth1_data),
                          ssz::field("graffiti", &T::graffiti),
                          ssz::field("proposer_slashings", &T::proposer_slashings),
                          ssz::field("attester_slashings", &T::attester_slashings),
                          ssz::field("attestations", &T::attestations),
                          ssz::field("deposits", &T::deposits),
                          ssz::field("voluntary_exits", &T::voluntary_exits),
                          ssz::field("sync_aggregate", &T::sync_aggregate),
                          ssz::field("execution_payload", &T::execution_payload),
                          ssz::field("bls_to_execution_changes", &T::bls_to_execution_changes),
                          ssz::field("blob_kzg_commitments", &T::blob_kzg_commitments),
                          ssz::field("execution_requests", &T::execution_requests)};
    }
};

/// BeaconBlock (electra).
template <class P>
using BeaconBlock = BeaconBlockOf<BeaconBlockBody<P>>;

/// SignedBeaconBlock (electra).
template <class P>
using SignedBeaconBlock = SignedBeaconBlockOf<BeaconBlock<P>>;

/// BeaconState (electra): deneb's state plus the deposit, exit and consolidation churn and the
/// pending queues.
template <class P>
struct BeaconState {
    // Versioning
    std::uint64_t genesis_time = 0;
    Root genesis_validators_root;
    Slot slot = 0;
    Fork fork;
    // History
    BeaconBlockHeader latest_block_header;
    ssz::Vector<Root, P::SLOTS_PER_HISTORICAL_ROOT> block_roots;
    ssz::Vector<Root, P::SLOTS_PER_HISTORICAL_ROOT> state_roots;
    ssz::List<Root, P::HISTORICAL_ROOTS_LIMIT> historical_roots;
    // Eth1
    Eth1Data eth1_data;
    ssz::List<Eth1Data, P::EPOCHS_PER_ETH1_VOTING_PERIOD * P::SLOTS_PER_EPOCH> eth1_data_votes;
    std::uint64_t eth1_deposit_index = 0;
    // Registry
    ssz::List<Validator, P::VALIDATOR_REGISTRY_LIMIT> validators;
    ssz::List<Gwei, P::VALIDATOR_REGISTRY_LIMIT> balances;
    // Randomness
    ssz::Vector<Bytes32, P::EPOCHS_PER_HISTORICAL_VECTOR> randao_mixes;
    // Slashings
    ssz::Vector<Gwei, P::EPOCHS_PER_SLASHINGS_VECTOR> slashings;
    // Participation
    ssz::List<ParticipationFlags, P::VALIDATOR_REGISTRY_LIMIT> previous_epoch_participation;
    ssz::List<ParticipationFlags, P::VALIDATOR_REGISTRY_LIMIT> current_epoch_participation;
    // Finality
    ssz::Bitvector<kJustificationBitsLength> justification_bits;
    Checkpoint previous_justified_checkpoint;
    Checkpoint current_justified_checkpoint;
    Checkpoint finalized_checkpoint;
    // Inactivity
    ssz::List<std::uint64_t, P::VALIDATOR_REGISTRY_LIMIT> inactivity_scores;
    // Sync
    SyncCommittee<P> current_sync_committee;
    SyncCommittee<P> next_sync_committee;
    // Execution
    ExecutionPayloadHeader<P> latest_execution_payload_header;
    // Withdrawals
    WithdrawalIndex next_withdrawal_index = 0;
    ValidatorIndex next_withdrawal_validator_index = 0;
    // Deep history valid from capella onwards
    ssz::List<HistoricalSummary, P::HISTORICAL_ROOTS_LIMIT> historical_summaries;
    // Electra: deposits, exits and consolidations
    std::uint64_t deposit_requests_start_index = 0;
    Gwei deposit_balance_to_consume = 0;
    Gwei exit_balance_to_consume = 0;
    Epoch earliest_exit_epoch = 0;
    Gwei consolidation_balance_to_consume = 0;
    Epoch earliest_consolidation_epoch = 0;
    ssz::List<PendingDeposit, P::PENDING_DEPOSITS_LIMIT> pending_deposits;
    ssz::List<PendingPartialWithdrawal, P::PENDING_PARTIAL_WITHDRAWALS_LIMIT>
        pending_partial_withdrawals;
    ssz::List<PendingConsolidation, P::PENDING_CONSOLIDATIONS_LIMIT> pending_consolidations;

    static constexpr std::string_view ssz_name = "BeaconState";
    static constexpr auto ssz_fields() {
        using T = BeaconState;
        return std::tuple{
            ssz::field("genesis_time", &T::genesis_time),
            ssz::field("genesis_validators_root", &T::genesis_validators_root),
            ssz::field("slot", &T::slot),
            ssz::field("fork", &T::fork),
            ssz::field("latest_block_header", &T::latest_block_header),
            ssz::field("block_roots", &T::block_roots),
            ssz::field("state_roots", &T::state_roots),
            ssz::field("historical_roots", &T::historical_roots),
            ssz::field("eth1_data", &T::eth1_data),
            ssz::field("eth1_data_votes", &T::eth1_data_votes),
            ssz::field("eth1_deposit_index", &T::eth1_deposit_index),
            ssz::field("validators", &T::validators),
            ssz::field("balances", &T::balances),
            ssz::field("randao_mixes", &T::randao_mixes),
            ssz::field("slashings", &T::slashings),
            ssz::field("previous_epoch_participation", &T::previous_epoch_participation),
            ssz::field("current_epoch_participation", &T::current_epoch_participation),
            ssz::field("justification_bits", &T::justification_bits),
            ssz::field("previous_justified_checkpoint", &T::previous_justified_checkpoint),
            ssz::field("current_justified_checkpoint", &T::current_justified_checkpoint),
            ssz::field("finalized_checkpoint", &T::finalized_checkpoint),
            ssz::field("inactivity_scores", &T::inactivity_scores),
            ssz::field("current_sync_committee", &T::current_sync_committee),
            ssz::field("next_sync_committee", &T::next_sync_committee),
            ssz::field("latest_execution_payload_header", &T::latest_execution_payload_header),
            ssz::field("next_withdrawal_index", &T::next_withdrawal_index),
            ssz::field("next_withdrawal_validator_index", &T::next_withdrawal_validator_index),
            ssz::field("historical_summaries", &T::historical_summaries),
            ssz::field("deposit_requests_start_index", &T::deposit_requests_start_index),
            ssz::field("deposit_balance_to_consume", &T::deposit_balance_to_consume),
            ssz::field("exit_balance_to_consume", &T::exit_balance_to_consume),
            ssz::field("earliest_exit_epoch", &T::earliest_exit_epoch),
            ssz::field("consolidation_balance_to_consume", &T::consolidation_balance_to_consume),
            ssz::field("earliest_consolidation_epoch", &T::earliest_consolidation_epoch),
            ssz::field("pending_deposits", &T::pending_deposits),
            ssz::field("pending_partial_withdrawals", &T::pending_partial_withdrawals),
            ssz::field("pending_consolidations", &T::pending_consolidations)};
    }
};

// Builder API containers (builder-specs specs/electra/builder.md; beacon-APIs
// types/electra/block.yaml). fulu reuses them unchanged.

/// BlindedBeaconBlockBody (electra): the body with the payload's header in the payload's place.
template <class P>
struct BlindedBeaconBlockBody {
    BLSSignature randao_reveal;
    Eth1Data eth1_data;
    Bytes32 graffiti;
    ssz::List<ProposerSlashing, P::MAX_PROPOSER_SLASHINGS> proposer_slashings;
    ssz::List<AttesterSlashing<P>, P::MAX_ATTESTER_SLASHINGS_ELECTRA> attester_slashings;
    ssz::List<Attestation<P>, P::MAX_ATTESTATIONS_ELECTRA> attestations;
    ssz::List<Deposit, P::MAX_DEPOSITS> deposits;
    ssz::List<SignedVoluntaryExit, P::MAX_VOLUNTARY_EXITS> voluntary_exits;
    SyncAggregate<P> sync_aggregate;
    ExecutionPayloadHeader<P> execution_payload_header;
    ssz::List<SignedBLSToExecutionChange, P::MAX_BLS_TO_EXECUTION_CHANGES> bls_to_execution_changes;
    ssz::List<KZGCommitment, P::MAX_BLOB_COMMITMENTS_PER_BLOCK> blob_kzg_commitments;
    ExecutionRequests<P> execution_requests;

    static constexpr std::string_view ssz_name = "BlindedBeaconBlockBody";
    static constexpr auto ssz_fields() {
        using T = BlindedBeaconBlockBody;
        return std::tuple{ssz::field("randao_reveal", &T::randao_reveal),
                          ssz::field("eth1_data", &T::eth1_data),
                          ssz::field("graffiti", &T::graffiti),
                          ssz::field("proposer_slashings", &T::proposer_slashings),
                          ssz::field("attester_slashings", &T::attester_slashings),
                          ssz::field("attestations", &T::attestations),
                          ssz::field("deposits", &T::deposits),
                          ssz::field("voluntary_exits", &T::voluntary_exits),
                          ssz::field("sync_aggregate", &T::sync_aggregate),
                          ssz::field("execution_payload_header", &T::execution_payload_header),
                          ssz::field("bls_to_execution_changes", &T::bls_to_execution_changes),
                          ssz::field("blob_kzg_commitments", &T::blob_kzg_commitments),
                          ssz::field("execution_requests", &T::execution_requests)};
    }
};

/// BlindedBeaconBlock (electra).
template <class P>
using BlindedBeaconBlock = BlindedBeaconBlockOf<BlindedBeaconBlockBody<P>>;

/// SignedBlindedBeaconBlock (electra).
template <class P>
using SignedBlindedBeaconBlock = SignedBlindedBeaconBlockOf<BlindedBeaconBlock<P>>;

/// BuilderBid (builder-specs specs/electra/builder.md): deneb's with the execution requests.
template <class P>
struct BuilderBid {
    ExecutionPayloadHeader<P> header;
    ssz::List<KZGCommitment, P::MAX_BLOB_COMMITMENTS_PER_BLOCK> blob_kzg_commitments;
    ExecutionRequests<P> execution_requests;
    Uint256 value;
    BLSPubkey pubkey;

    static constexpr std::string_view ssz_name = "BuilderBid";
    static constexpr auto ssz_fields() {
        using T = BuilderBid;
        return std::tuple{ssz::field("header", &T::header),
                          ssz::field("blob_kzg_commitments", &T::blob_kzg_commitments),
                          ssz::field("execution_requests", &T::execution_requests),
                          ssz::field("value", &T::value), ssz::field("pubkey", &T::pubkey)};
    }
};

/// SignedBuilderBid (electra).
template <class P>
using SignedBuilderBid = SignedBuilderBidOf<BuilderBid<P>>;

/// BlockContents (beacon-APIs types/electra/block_contents.yaml): deneb's with electra's block;
/// the proofs and blobs lists are deneb's (one proof per blob). The builder's BlobsBundle and
/// ExecutionPayloadAndBlobsBundle are deneb's, unchanged (builder-specs specs/electra).
template <class P>
using BlockContents = BlockContentsOf<P, BeaconBlock<P>, P::MAX_BLOB_COMMITMENTS_PER_BLOCK>;

/// SignedBlockContents (beacon-APIs types/electra/block_contents.yaml).
template <class P>
using SignedBlockContents =
    SignedBlockContentsOf<P, SignedBeaconBlock<P>, P::MAX_BLOB_COMMITMENTS_PER_BLOCK>;

/// electra containers of the mainnet preset (the preset-independent ones are in electra::).
namespace mainnet {
using IndexedAttestation = electra::IndexedAttestation<Mainnet>;
using HistoricalBatch = electra::HistoricalBatch<Mainnet>;
using AttesterSlashing = electra::AttesterSlashing<Mainnet>;
using Attestation = electra::Attestation<Mainnet>;
using SyncAggregate = electra::SyncAggregate<Mainnet>;
using SyncCommittee = electra::SyncCommittee<Mainnet>;
using Transaction = electra::Transaction<Mainnet>;
using Blob = electra::Blob<Mainnet>;
using ExecutionPayload = electra::ExecutionPayload<Mainnet>;
using ExecutionPayloadHeader = electra::ExecutionPayloadHeader<Mainnet>;
using ExecutionRequests = electra::ExecutionRequests<Mainnet>;
using BeaconBlockBody = electra::BeaconBlockBody<Mainnet>;
using BeaconBlock = electra::BeaconBlock<Mainnet>;
using SignedBeaconBlock = electra::SignedBeaconBlock<Mainnet>;
using BeaconState = electra::BeaconState<Mainnet>;
using BlobSidecar = electra::BlobSidecar<Mainnet>;
using BlobsBundle = electra::BlobsBundle<Mainnet>;
using ExecutionPayloadAndBlobsBundle = electra::ExecutionPayloadAndBlobsBundle<Mainnet>;
using BlockContents = electra::BlockContents<Mainnet>;
using SignedBlockContents = electra::SignedBlockContents<Mainnet>;
using BlindedBeaconBlockBody = electra::BlindedBeaconBlockBody<Mainnet>;
using BlindedBeaconBlock = electra::BlindedBeaconBlock<Mainnet>;
using SignedBlindedBeaconBlock = electra::SignedBlindedBeaconBlock<Mainnet>;
using BuilderBid = electra::BuilderBid<Mainnet>;
using SignedBuilderBid = electra::SignedBuilderBid<Mainnet>;
}  // namespace mainnet

/// electra containers of the minimal preset.
namespace minimal {
using IndexedAttestation = electra::IndexedAttestation<Minimal>;
using HistoricalBatch = electra::HistoricalBatch<Minimal>;
using AttesterSlashing = electra::AttesterSlashing<Minimal>;
using Attestation = electra::Attestation<Minimal>;
using SyncAggregate = electra::SyncAggregate<Minimal>;
using SyncCommittee = electra::SyncCommittee<Minimal>;
using Transaction = electra::Transaction<Minimal>;
using Blob = electra::Blob<Minimal>;
using ExecutionPayload = electra::ExecutionPayload<Minimal>;
using ExecutionPayloadHeader = electra::ExecutionPayloadHeader<Minimal>;
using ExecutionRequests = electra::ExecutionRequests<Minimal>;
using BeaconBlockBody = electra::BeaconBlockBody<Minimal>;
using BeaconBlock = electra::BeaconBlock<Minimal>;
using SignedBeaconBlock = electra::SignedBeaconBlock<Minimal>;
using BeaconState = electra::BeaconState<Minimal>;
using BlobSidecar = electra::BlobSidecar<Minimal>;
using BlobsBundle = electra::BlobsBundle<Minimal>;
using ExecutionPayloadAndBlobsBundle = electra::ExecutionPayloadAndBlobsBundle<Minimal>;
using BlockContents = electra::BlockContents<Minimal>;
using SignedBlockContents = electra::SignedBlockContents<Minimal>;
using BlindedBeaconBlockBody = electra::BlindedBeaconBlockBody<Minimal>;
using BlindedBeaconBlock = electra::BlindedBeaconBlock<Minimal>;
using SignedBlindedBeaconBlock = electra::SignedBlindedBeaconBlock<Minimal>;
using BuilderBid = electra::BuilderBid<Minimal>;
using SignedBuilderBid = electra::SignedBuilderBid<Minimal>;
}  // namespace minimal

}  // namespace keel::beacon::electra
