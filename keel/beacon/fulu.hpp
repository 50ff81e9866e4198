#pragma once
/// fulu consensus containers (consensus-specs v1.6.1 specs/fulu: beacon-chain.md, das-core.md,
/// p2p-interface.md, validator.md): the state with the proposer lookahead (EIP-7917), and
/// PeerDAS (EIP-7594): cells, data column sidecars, matrix entries, the by-root and by-range
/// requests, Status v2 and MetaData v3, and the blobs bundle and block contents with cell proofs
/// (builder-specs, beacon-APIs). Blocks, payloads and attestations are electra's; fulu is live
/// on mainnet from epoch 411392.

#include <string_view>
#include <tuple>

#include "keel/beacon/common_types.hpp"
#include "keel/beacon/electra.hpp"
#include "keel/beacon/presets.hpp"
#include "keel/ssz/ssz.hpp"

namespace keel::beacon::fulu {

// Unchanged from electra (and earlier).
using electra::Attestation;
using electra::AttestationData;
using electra::AttesterSlashing;
using electra::AttesterSlashingOf;
using electra::BeaconBlock;
using electra::BeaconBlockBody;
using electra::BeaconBlockHeader;
using electra::BeaconBlockOf;
using electra::BlindedBeaconBlock;
using electra::BlindedBeaconBlockBody;
using electra::BlindedBeaconBlockOf;
using electra::Blob;
using electra::BlobIdentifier;
using electra::BlobsBundleOf;
using electra::BlobSidecar;
using electra::BlobSidecarsByRangeRequest;
using electra::BlockContentsOf;
using electra::BLSToExecutionChange;
using electra::BuilderBid;
using electra::BuilderBidOf;
using electra::Checkpoint;
using electra::ConsolidationRequest;
using electra::Deposit;
using electra::DepositData;
using electra::DepositMessage;
using electra::DepositRequest;
using electra::Eth1Data;
using electra::ExecutionPayload;
using electra::ExecutionPayloadAndBlobsBundleOf;
using electra::ExecutionPayloadHeader;
using electra::ExecutionRequests;
using electra::Fork;
using electra::ForkData;
using electra::HistoricalBatch;
using electra::HistoricalSummary;
using electra::IndexedAttestation;
using electra::PendingConsolidation;
using electra::PendingDeposit;
using electra::PendingPartialWithdrawal;
using electra::ProposerSlashing;
using electra::SignedBeaconBlock;
using electra::SignedBeaconBlockHeader;
using electra::SignedBeaconBlockOf;
using electra::SignedBlindedBeaconBlock;
using electra::SignedBlindedBeaconBlockOf;
using electra::SignedBlockContentsOf;
using electra::SignedBLSToExecutionChange;
using electra::SignedBuilderBid;
using electra::SignedBuilderBidOf;
using electra::SignedValidatorRegistrationV1;
using electra::SignedVoluntaryExit;
using electra::SigningData;
using electra::SingleAttestation;
using electra::SyncAggregate;
using electra::SyncCommittee;
using electra::Transaction;
using electra::Validator;
using electra::ValidatorRegistrationV1;
using electra::VoluntaryExit;
using electra::Withdrawal;
using electra::WithdrawalRequest;

/// ColumnIndex (das-core.md, "Custom types"): a column of the extended blob matrix.
using ColumnIndex = std::uint64_t;
/// RowIndex (das-core.md): a row (blob) of the extended matrix.
using RowIndex = std::uint64_t;

/// Cell (polynomial-commitments-sampling.md): FIELD_ELEMENTS_PER_CELL field elements of an
/// extended blob (2048 bytes in both presets).
template <class P>
using Cell = ssz::ByteVector<kBytesPerFieldElement * P::FIELD_ELEMENTS_PER_CELL>;

/// DataColumnSidecar (das-core.md): one column of the extended matrix, one cell and proof per
/// blob of the block, with the block's signed header and the commitments' inclusion proof
/// against its body root.
template <class P>
struct DataColumnSidecar {
    ColumnIndex index = 0;
    ssz::List<Cell<P>, P::MAX_BLOB_COMMITMENTS_PER_BLOCK> column;
    ssz::List<KZGCommitment, P::MAX_BLOB_COMMITMENTS_PER_BLOCK> kzg_commitments;
    ssz::List<KZGProof, P::MAX_BLOB_COMMITMENTS_PER_BLOCK> kzg_proofs;
    SignedBeaconBlockHeader signed_block_header;
    ssz::Vector<Bytes32, P::KZG_COMMITMENTS_INCLUSION_PROOF_DEPTH> kzg_commitments_inclusion_proof;

    static constexpr std::string_view ssz_name = "DataColumnSidecar";
    static constexpr auto ssz_fields() {
        using T = DataColumnSidecar;
        return std::tuple{
            ssz::field("index", &T::index),
            ssz::field("column", &T::column),
            ssz::field("kzg_commitments", &T::kzg_commitments),
            ssz::field("kzg_proofs", &T::kzg_proofs),
            ssz::field("signed_block_header", &T::signed_block_header),
            ssz::field("kzg_commitments_inclusion_proof", &T::kzg_commitments_inclusion_proof)};
    }
};

/// MatrixEntry (das-core.md): one cell of the extended matrix with its proof and position.
template <class P>
struct MatrixEntry {
    Cell<P> cell;
    KZGProof kzg_proof;
    ColumnIndex column_index = 0;
    RowIndex row_index = 0;

    static constexpr std::string_view ssz_name = "MatrixEntry";
    static constexpr auto ssz_fields() {
        using T = MatrixEntry;
        return std::tuple{ssz::field("cell", &T::cell), ssz::field("kzg_proof", &T::kzg_proof),
                          ssz::field("column_index", &T::column_index),
                          ssz::field("row_index", &T::row_index)};
    }
};

/// DataColumnsByRootIdentifier (p2p-interface.md, DataColumnSidecarsByRoot v1): a block root and
/// the columns wanted from it.
template <class P>
struct DataColumnsByRootIdentifier {
    Root block_root;
    ssz::List<ColumnIndex, P::NUMBER_OF_COLUMNS> columns;

    static constexpr std::string_view ssz_name = "DataColumnsByRootIdentifier";
    static constexpr auto ssz_fields() {
        using T = DataColumnsByRootIdentifier;
        return std::tuple{ssz::field("block_root", &T::block_root),
                          ssz::field("columns", &T::columns)};
    }
};

/// DataColumnSidecarsByRangeRequest (p2p-interface.md, "DataColumnSidecarsByRange v1"): the
/// sidecars of the listed columns for slots [start_slot, start_slot + count).
template <class P>
struct DataColumnSidecarsByRangeRequest {
    Slot start_slot = 0;
    std::uint64_t count = 0;
    ssz::List<ColumnIndex, P::NUMBER_OF_COLUMNS> columns;

    static constexpr std::string_view ssz_name = "DataColumnSidecarsByRangeRequest";
    static constexpr auto ssz_fields() {
        using T = DataColumnSidecarsByRangeRequest;
        return std::tuple{ssz::field("start_slot", &T::start_slot), ssz::field("count", &T::count),
                          ssz::field("columns", &T::columns)};
    }
};

/// StatusV2 (p2p-interface.md, "Status v2"): phase0's Status plus the earliest slot from which
/// the peer can serve blocks (and their sidecars). Status v1 (phase0::Status) stays defined.
struct StatusV2 {
    ForkDigest fork_digest;
    Root finalized_root;
    Epoch finalized_epoch = 0;
    Root head_root;
    Slot head_slot = 0;
    Slot earliest_available_slot = 0;

    static constexpr std::string_view ssz_name = "StatusV2";
    static constexpr auto ssz_fields() {
        using T = StatusV2;
        return std::tuple{ssz::field("fork_digest", &T::fork_digest),
                          ssz::field("finalized_root", &T::finalized_root),
                          ssz::field("finalized_epoch", &T::finalized_epoch),
                          ssz::field("head_root", &T::head_root),
                          ssz::field("head_slot", &T::head_slot),
                          ssz::field("earliest_available_slot", &T::earliest_available_slot)};
    }
};

/// MetaData (p2p-interface.md, "MetaData"; GetMetaData v3): altair's plus the node's custody
/// group count.
struct MetaData {
    std::uint64_t seq_number = 0;
    ssz::Bitvector<phase0::kAttestationSubnetCount> attnets;
    ssz::Bitvector<altair::kSyncCommitteeSubnetCount> syncnets;
    std::uint64_t custody_group_count = 0;

    static constexpr std::string_view ssz_name = "MetaData";
    static constexpr auto ssz_fields() {
        using T = MetaData;
        return std::tuple{ssz::field("seq_number", &T::seq_number),
                          ssz::field("attnets", &T::attnets), ssz::field("syncnets", &T::syncnets),
                          ssz::field("custody_group_count", &T::custody_group_count)};
    }
};

/// The most cell proofs a block's blobs can have, the limit of CellKZGProofs (validator.md,
/// "BlobsBundle"): FIELD_ELEMENTS_PER_EXT_BLOB * MAX_BLOB_COMMITMENTS_PER_BLOCK (2^25 in both
/// presets; builder-specs and beacon-APIs use the same bound). A block needs only
/// CELLS_PER_EXT_BLOB proofs per blob, but the limit, not the count, sets the tree depth of the
/// list's root.
template <class P>
inline constexpr std::uint64_t kMaxCellProofs =
    P::FIELD_ELEMENTS_PER_EXT_BLOB * P::MAX_BLOB_COMMITMENTS_PER_BLOCK;

/// BlobsBundle (validator.md, "BlobsBundle"; builder-specs specs/fulu/builder.md): the cell
/// KZG proofs of every blob (CELLS_PER_EXT_BLOB per blob) instead of one proof per blob.
template <class P>
using BlobsBundle = BlobsBundleOf<P, kMaxCellProofs<P>>;

/// ExecutionPayloadAndBlobsBundle (builder-specs specs/fulu/builder.md): electra's payload with
/// fulu's BlobsBundle.
template <class P>
using ExecutionPayloadAndBlobsBundle =
    ExecutionPayloadAndBlobsBundleOf<ExecutionPayload<P>, BlobsBundle<P>>;

/// BlockContents (beacon-APIs types/fulu/block_contents.yaml): electra's block with the cell
/// proofs of its blobs.
template <class P>
using BlockContents = BlockContentsOf<P, BeaconBlock<P>, kMaxCellProofs<P>>;

/// SignedBlockContents (beacon-APIs types/fulu/block_contents.yaml).
template <class P>
using SignedBlockContents = SignedBlockContentsOf<P, SignedBeaconBlock<P>, kMaxCellProofs<P>>;

/// BeaconState (fulu, EIP-7917): electra's state plus proposer_lookahead, the proposer of every
/// slot of the current and the next MIN_SEED_LOOKAHEAD epochs.
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
    // Fulu
    ssz::Vector<ValidatorIndex, (P::MIN_SEED_LOOKAHEAD + 1) * P::SLOTS_PER_EPOCH>
        proposer_lookahead;

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
            ssz::field("pending_consolidations", &T::pending_consolidations),
            ssz::field("proposer_lookahead", &T::proposer_lookahead)};
    }
};

/// fulu containers of the mainnet preset (the preset-independent ones are in fulu::).
namespace mainnet {
using IndexedAttestation = fulu::IndexedAttestation<Mainnet>;
using HistoricalBatch = fulu::HistoricalBatch<Mainnet>;
using AttesterSlashing = fulu::AttesterSlashing<Mainnet>;
using Attestation = fulu::Attestation<Mainnet>;
using SyncAggregate = fulu::SyncAggregate<Mainnet>;
using SyncCommittee = fulu::SyncCommittee<Mainnet>;
using Transaction = fulu::Transaction<Mainnet>;
using Blob = fulu::Blob<Mainnet>;
using ExecutionPayload = fulu::ExecutionPayload<Mainnet>;
using ExecutionPayloadHeader = fulu::ExecutionPayloadHeader<Mainnet>;
using ExecutionRequests = fulu::ExecutionRequests<Mainnet>;
using BeaconBlockBody = fulu::BeaconBlockBody<Mainnet>;
using BeaconBlock = fulu::BeaconBlock<Mainnet>;
using SignedBeaconBlock = fulu::SignedBeaconBlock<Mainnet>;
using BeaconState = fulu::BeaconState<Mainnet>;
using BlobSidecar = fulu::BlobSidecar<Mainnet>;
using Cell = fulu::Cell<Mainnet>;
using DataColumnSidecar = fulu::DataColumnSidecar<Mainnet>;
using MatrixEntry = fulu::MatrixEntry<Mainnet>;
using DataColumnsByRootIdentifier = fulu::DataColumnsByRootIdentifier<Mainnet>;
using DataColumnSidecarsByRangeRequest = fulu::DataColumnSidecarsByRangeRequest<Mainnet>;
using BlobsBundle = fulu::BlobsBundle<Mainnet>;
using ExecutionPayloadAndBlobsBundle = fulu::ExecutionPayloadAndBlobsBundle<Mainnet>;
using BlockContents = fulu::BlockContents<Mainnet>;
using SignedBlockContents = fulu::SignedBlockContents<Mainnet>;
using BlindedBeaconBlockBody = fulu::BlindedBeaconBlockBody<Mainnet>;
using BlindedBeaconBlock = fulu::BlindedBeaconBlock<Mainnet>;
using SignedBlindedBeaconBlock = fulu::SignedBlindedBeaconBlock<Mainnet>;
using BuilderBid = fulu::BuilderBid<Mainnet>;
using SignedBuilderBid = fulu::SignedBuilderBid<Mainnet>;
}  // namespace mainnet

/// fulu containers of the minimal preset.
namespace minimal {
using IndexedAttestation = fulu::IndexedAttestation<Minimal>;
using HistoricalBatch = fulu::HistoricalBatch<Minimal>;
using AttesterSlashing = fulu::AttesterSlashing<Minimal>;
using Attestation = fulu::Attestation<Minimal>;
using SyncAggregate = fulu::SyncAggregate<Minimal>;
using SyncCommittee = fulu::SyncCommittee<Minimal>;
using Transaction = fulu::Transaction<Minimal>;
using Blob = fulu::Blob<Minimal>;
using ExecutionPayload = fulu::ExecutionPayload<Minimal>;
using ExecutionPayloadHeader = fulu::ExecutionPayloadHeader<Minimal>;
using ExecutionRequests = fulu::ExecutionRequests<Minimal>;
using BeaconBlockBody = fulu::BeaconBlockBody<Minimal>;
using BeaconBlock = fulu::BeaconBlock<Minimal>;
using SignedBeaconBlock = fulu::SignedBeaconBlock<Minimal>;
using BeaconState = fulu::BeaconState<Minimal>;
using BlobSidecar = fulu::BlobSidecar<Minimal>;
using Cell = fulu::Cell<Minimal>;
using DataColumnSidecar = fulu::DataColumnSidecar<Minimal>;
using MatrixEntry = fulu::MatrixEntry<Minimal>;
using DataColumnsByRootIdentifier = fulu::DataColumnsByRootIdentifier<Minimal>;
using DataColumnSidecarsByRangeRequest = fulu::DataColumnSidecarsByRangeRequest<Minimal>;
using BlobsBundle = fulu::BlobsBundle<Minimal>;
using ExecutionPayloadAndBlobsBundle = fulu::ExecutionPayloadAndBlobsBundle<Minimal>;
using BlockContents = fulu::BlockContents<Minimal>;
using SignedBlockContents = fulu::SignedBlockContents<Minimal>;
using BlindedBeaconBlockBody = fulu::BlindedBeaconBlockBody<Minimal>;
using BlindedBeaconBlock = fulu::BlindedBeaconBlock<Minimal>;
using SignedBlindedBeaconBlock = fulu::SignedBlindedBeaconBlock<Minimal>;
using BuilderBid = fulu::BuilderBid<Minimal>;
using SignedBuilderBid = fulu::SignedBuilderBid<Minimal>;
}  // namespace minimal

}  // namespace keel::beacon::fulu
