#pragma once
/// deneb consensus containers (consensus-specs specs/deneb/beacon-chain.md, "Containers", and
/// specs/deneb/p2p-interface.md for BlobSidecar and BlobIdentifier): blob gas in the payload
/// and header, blob KZG commitments in the body, and blob sidecars. Everything else is
/// capella's.

#include <string_view>
#include <tuple>

#include "keel/beacon/capella.hpp"
#include "keel/beacon/common_types.hpp"
#include "keel/beacon/presets.hpp"
#include "keel/ssz/ssz.hpp"

namespace keel::beacon::deneb {

// Unchanged from capella (and earlier).
using capella::Attestation;
using capella::AttestationData;
using capella::AttesterSlashing;
using capella::AttesterSlashingOf;
using capella::BeaconBlockHeader;
using capella::BeaconBlockOf;
using capella::BlindedBeaconBlockOf;
using capella::BLSToExecutionChange;
using capella::BuilderBidOf;
using capella::Checkpoint;
using capella::Deposit;
using capella::DepositData;
using capella::DepositMessage;
using capella::Eth1Data;
using capella::Fork;
using capella::ForkData;
using capella::HistoricalBatch;
using capella::HistoricalSummary;
using capella::IndexedAttestation;
using capella::ProposerSlashing;
using capella::SignedBeaconBlockHeader;
using capella::SignedBeaconBlockOf;
using capella::SignedBlindedBeaconBlockOf;
using capella::SignedBLSToExecutionChange;
using capella::SignedBuilderBidOf;
using capella::SignedValidatorRegistrationV1;
using capella::SignedVoluntaryExit;
using capella::SigningData;
using capella::SyncAggregate;
using capella::SyncCommittee;
using capella::Transaction;
using capella::Validator;
using capella::ValidatorRegistrationV1;
using capella::VoluntaryExit;
using capella::Withdrawal;

/// Blob: FIELD_ELEMENTS_PER_BLOB field elements of 32 bytes (128 KiB in both presets).
template <class P>
using Blob = ssz::ByteVector<kBytesPerFieldElement * P::FIELD_ELEMENTS_PER_BLOB>;

/// ExecutionPayload (deneb): capella's payload plus blob gas used and excess blob gas.
template <class P>
struct ExecutionPayload {
    Hash32 parent_hash;
    ExecutionAddress fee_recipient;
    Bytes32 state_root;
    Bytes32 receipts_root;
    ssz::ByteVector<P::BYTES_PER_LOGS_BLOOM> logs_bloom;
    Bytes32 prev_randao;
    std::uint64_t block_number = 0;
    std::uint64_t gas_limit = 0;
    std::uint64_t gas_used = 0;
    std::uint64_t timestamp = 0;
    ssz::ByteList<P::MAX_EXTRA_DATA_BYTES> extra_data;
    Uint256 base_fee_per_gas;
    Hash32 block_hash;
    ssz::List<Transaction<P>, P::MAX_TRANSACTIONS_PER_PAYLOAD> transactions;
    ssz::List<Withdrawal, P::MAX_WITHDRAWALS_PER_PAYLOAD> withdrawals;
    std::uint64_t blob_gas_used = 0;
    std::uint64_t excess_blob_gas = 0;

    static constexpr std::string_view ssz_name = "ExecutionPayload";
    static constexpr auto ssz_fields() {
        using T = ExecutionPayload;
        return std::tuple{ssz::field("parent_hash", &T::parent_hash),
                          ssz::field("fee_recipient", &T::fee_recipient),
                          ssz::field("state_root", &T::state_root),
                          ssz::field("receipts_root", &T::receipts_root),
                          ssz::field("logs_bloom", &T::logs_bloom),
                          ssz::field("prev_randao", &T::prev_randao),
                          ssz::field("block_number", &T::block_number),
                          ssz::field("gas_limit", &T::gas_limit),
                          ssz::field("gas_used", &T::gas_used),
                          ssz::field("timestamp", &T::timestamp),
                          ssz::field("extra_data", &T::extra_data),
                          ssz::field("base_fee_per_gas", &T::base_fee_per_gas),
                          ssz::field("block_hash", &T::block_hash),
                          ssz::field("transactions", &T::transactions),
                          ssz::field("withdrawals", &T::withdrawals),
                          ssz::field("blob_gas_used", &T::blob_gas_used),
                          ssz::field("excess_blob_gas", &T::excess_blob_gas)};
    }
};

/// ExecutionPayloadHeader (deneb): plus blob gas used and excess blob gas.
template <class P>
struct ExecutionPayloadHeader {
    Hash32 parent_hash;
    ExecutionAddress fee_recipient;
    Bytes32 state_root;
    Bytes32 receipts_root;
    ssz::ByteVector<P::BYTES_PER_LOGS_BLOOM> logs_bloom;
    Bytes32 prev_randao;
    std::uint64_t block_number = 0;
    std::uint64_t gas_limit = 0;
    std::uint64_t gas_used = 0;
    std::uint64_t timestamp = 0;
    ssz::ByteList<P::MAX_EXTRA_DATA_BYTES> extra_data;
    Uint256 base_fee_per_gas;
    Hash32 block_hash;
    Root transactions_root;
    Root withdrawals_root;
    std::uint64_t blob_gas_used = 0;
    std::uint64_t excess_blob_gas = 0;

    static constexpr std::string_view ssz_name = "ExecutionPayloadHeader";
    static constexpr auto ssz_fields() {
        using T = ExecutionPayloadHeader;
        return std::tuple{ssz::field("parent_hash", &T::parent_hash),
                          ssz::field("fee_recipient", &T::fee_recipient),
                          ssz::field("state_root", &T::state_root),
                          ssz::field("receipts_root", &T::receipts_root),
                          ssz::field("logs_bloom", &T::logs_bloom),
                          ssz::field("prev_randao", &T::prev_randao),
                          ssz::field("block_number", &T::block_number),
                          ssz::field("gas_limit", &T::gas_limit),
                          ssz::field("gas_used", &T::gas_used),
                          ssz::field("timestamp", &T::timestamp),
                          ssz::field("extra_data", &T::extra_data),
                          ssz::field("base_fee_per_gas", &T::base_fee_per_gas),
                          ssz::field("block_hash", &T::block_hash),
                          ssz::field("transactions_root", &T::transactions_root),
                          ssz::field("withdrawals_root", &T::withdrawals_root),
                          ssz::field("blob_gas_used", &T::blob_gas_used),
                          ssz::field("excess_blob_gas", &T::excess_blob_gas)};
    }
};

/// BeaconBlockBody (deneb): capella's body plus the blob KZG commitments.
template <class P>
struct BeaconBlockBody {
    BLSSignature randao_reveal;
    Eth1Data eth1_data;
    Bytes32 graffiti;
    ssz::List<ProposerSlashing, P::MAX_PROPOSER_SLASHINGS> proposer_slashings;
    ssz::List<AttesterSlashing<P>, P::MAX_ATTESTER_SLASHINGS> attester_slashings;
    ssz::List<Attestation<P>, P::MAX_ATTESTATIONS> attestations;
    ssz::List<Deposit, P::MAX_DEPOSITS> deposits;
    ssz::List<SignedVoluntaryExit, P::MAX_VOLUNTARY_EXITS> voluntary_exits;
    SyncAggregate<P> sync_aggregate;
    ExecutionPayload<P> execution_payload;
    ssz::List<SignedBLSToExecutionChange, P::MAX_BLS_TO_EXECUTION_CHANGES> bls_to_execution_changes;
    ssz::List<KZGCommitment, P::MAX_BLOB_COMMITMENTS_PER_BLOCK> blob_kzg_commitments;

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
                          ssz::field("blob_kzg_commitments", &T::blob_kzg_commitments)};
    }
};

/// BeaconBlock (deneb).
template <class P>
using BeaconBlock = BeaconBlockOf<BeaconBlockBody<P>>;

/// SignedBeaconBlock (deneb).
template <class P>
using SignedBeaconBlock = SignedBeaconBlockOf<BeaconBlock<P>>;

/// BeaconState (deneb): capella's fields, with deneb's payload header.
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
            ssz::field("historical_summaries", &T::historical_summaries)};
    }
};

/// BlobSidecar (p2p-interface.md): one blob with its commitment, proof, the signed header of its
/// block and the commitment's inclusion proof against the body root.
template <class P>
struct BlobSidecar {
    BlobIndex index = 0;
    Blob<P> blob;
    KZGCommitment kzg_commitment;
    KZGProof kzg_proof;
    SignedBeaconBlockHeader signed_block_header;
    ssz::Vector<Bytes32, P::KZG_COMMITMENT_INCLUSION_PROOF_DEPTH> kzg_commitment_inclusion_proof;

    static constexpr std::string_view ssz_name = "BlobSidecar";
    static constexpr auto ssz_fields() {
        using T = BlobSidecar;
        return std::tuple{
            ssz::field("index", &T::index),
            ssz::field("blob", &T::blob),
            ssz::field("kzg_commitment", &T::kzg_commitment),
            ssz::field("kzg_proof", &T::kzg_proof),
            ssz::field("signed_block_header", &T::signed_block_header),
            ssz::field("kzg_commitment_inclusion_proof", &T::kzg_commitment_inclusion_proof)};
    }
};

/// BlobIdentifier (p2p-interface.md): a block root and a blob index.
struct BlobIdentifier {
    Root block_root;
    BlobIndex index = 0;

    static constexpr std::string_view ssz_name = "BlobIdentifier";
    static constexpr auto ssz_fields() {
        using T = BlobIdentifier;
        return std::tuple{ssz::field("block_root", &T::block_root), ssz::field("index", &T::index)};
    }
};

/// BlobSidecarsByRangeRequest (p2p-interface.md, "BlobSidecarsByRange v1"): the blob sidecars
/// of slots [start_slot, start_slot + count). Unchanged in electra and fulu.
struct BlobSidecarsByRangeRequest {
    Slot start_slot = 0;
    std::uint64_t count = 0;

    static constexpr std::string_view ssz_name = "BlobSidecarsByRangeRequest";
    static constexpr auto ssz_fields() {
        using T = BlobSidecarsByRangeRequest;
        return std::tuple{ssz::field("start_slot", &T::start_slot), ssz::field("count", &T::count)};
    }
};

/// BlobsBundle with room for ProofLimit proofs: what the execution engine hands a proposer with
/// its payload (validator.md, "BlobsBundle"; an SSZ container in builder-specs
/// specs/deneb/builder.md). deneb and electra carry one blob proof per blob (ProofLimit
/// MAX_BLOB_COMMITMENTS_PER_BLOCK); fulu's carries the cell proofs (fulu.hpp).
template <class P, std::uint64_t ProofLimit>
struct BlobsBundleOf {
    ssz::List<KZGCommitment, P::MAX_BLOB_COMMITMENTS_PER_BLOCK> commitments;
    ssz::List<KZGProof, ProofLimit> proofs;
    ssz::List<Blob<P>, P::MAX_BLOB_COMMITMENTS_PER_BLOCK> blobs;

    static constexpr std::string_view ssz_name = "BlobsBundle";
    static constexpr auto ssz_fields() {
        using T = BlobsBundleOf;
        return std::tuple{ssz::field("commitments", &T::commitments),
                          ssz::field("proofs", &T::proofs), ssz::field("blobs", &T::blobs)};
    }
};

/// BlobsBundle of deneb and electra: one KZG proof per blob.
template <class P>
using BlobsBundle = BlobsBundleOf<P, P::MAX_BLOB_COMMITMENTS_PER_BLOCK>;

/// ExecutionPayloadAndBlobsBundle (builder-specs specs/deneb/builder.md): what a builder returns
/// for a signed blinded block, the payload and its blobs.
template <class Payload, class Bundle>
struct ExecutionPayloadAndBlobsBundleOf {
    Payload execution_payload;
    Bundle blobs_bundle;

    static constexpr std::string_view ssz_name = "ExecutionPayloadAndBlobsBundle";
    static constexpr auto ssz_fields() {
        using T = ExecutionPayloadAndBlobsBundleOf;
        return std::tuple{ssz::field("execution_payload", &T::execution_payload),
                          ssz::field("blobs_bundle", &T::blobs_bundle)};
    }
};

/// ExecutionPayloadAndBlobsBundle of deneb (and electra, whose payload is deneb's).
template <class P>
using ExecutionPayloadAndBlobsBundle =
    ExecutionPayloadAndBlobsBundleOf<ExecutionPayload<P>, BlobsBundle<P>>;

/// BlockContents (beacon-APIs types/deneb/block_contents.yaml): an unsigned block with the
/// proofs and blobs of its commitments, as produceBlockV3 returns it. ProofLimit: the
/// KZGProofs list's maxItems (MAX_BLOB_COMMITMENTS_PER_BLOCK in deneb and electra; fulu's cell
/// proofs in fulu.hpp).
template <class P, class Block, std::uint64_t ProofLimit>
struct BlockContentsOf {
    Block block;
    ssz::List<KZGProof, ProofLimit> kzg_proofs;
    ssz::List<Blob<P>, P::MAX_BLOB_COMMITMENTS_PER_BLOCK> blobs;

    static constexpr std::string_view ssz_name = "BlockContents";
    static constexpr auto ssz_fields() {
        using T = BlockContentsOf;
        return std::tuple{ssz::field("block", &T::block), ssz::field("kzg_proofs", &T::kzg_proofs),
                          ssz::field("blobs", &T::blobs)};
    }
};

/// SignedBlockContents (beacon-APIs types/deneb/block_contents.yaml): a signed block with the
/// proofs and blobs of its commitments, as publishBlockV2 takes it.
template <class P, class SignedBlock, std::uint64_t ProofLimit>
struct SignedBlockContentsOf {
    SignedBlock signed_block;
    ssz::List<KZGProof, ProofLimit> kzg_proofs;
    ssz::List<Blob<P>, P::MAX_BLOB_COMMITMENTS_PER_BLOCK> blobs;

    static constexpr std::string_view ssz_name = "SignedBlockContents";
    static constexpr auto ssz_fields() {
        using T = SignedBlockContentsOf;
        return std::tuple{ssz::field("signed_block", &T::signed_block),
                          ssz::field("kzg_proofs", &T::kzg_proofs), ssz::field("blobs", &T::blobs)};
    }
};

/// BlockContents of deneb.
template <class P>
using BlockContents = BlockContentsOf<P, BeaconBlock<P>, P::MAX_BLOB_COMMITMENTS_PER_BLOCK>;

/// SignedBlockContents of deneb.
template <class P>
using SignedBlockContents =
    SignedBlockContentsOf<P, SignedBeaconBlock<P>, P::MAX_BLOB_COMMITMENTS_PER_BLOCK>;

// Builder API containers (builder-specs specs/deneb/builder.md; beacon-APIs
// types/deneb/block.yaml).

/// BlindedBeaconBlockBody (deneb): the body with the payload's header in the payload's place.
template <class P>
struct BlindedBeaconBlockBody {
    BLSSignature randao_reveal;
    Eth1Data eth1_data;
    Bytes32 graffiti;
    ssz::List<ProposerSlashing, P::MAX_PROPOSER_SLASHINGS> proposer_slashings;
    ssz::List<AttesterSlashing<P>, P::MAX_ATTESTER_SLASHINGS> attester_slashings;
    ssz::List<Attestation<P>, P::MAX_ATTESTATIONS> attestations;
    ssz::List<Deposit, P::MAX_DEPOSITS> deposits;
    ssz::List<SignedVoluntaryExit, P::MAX_VOLUNTARY_EXITS> voluntary_exits;
    SyncAggregate<P> sync_aggregate;
    ExecutionPayloadHeader<P> execution_payload_header;
    ssz::List<SignedBLSToExecutionChange, P::MAX_BLS_TO_EXECUTION_CHANGES> bls_to_execution_changes;
    ssz::List<KZGCommitment, P::MAX_BLOB_COMMITMENTS_PER_BLOCK> blob_kzg_commitments;

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
                          ssz::field("blob_kzg_commitments", &T::blob_kzg_commitments)};
    }
};

/// BlindedBeaconBlock (deneb).
template <class P>
using BlindedBeaconBlock = BlindedBeaconBlockOf<BlindedBeaconBlockBody<P>>;

/// SignedBlindedBeaconBlock (deneb).
template <class P>
using SignedBlindedBeaconBlock = SignedBlindedBeaconBlockOf<BlindedBeaconBlock<P>>;

/// BuilderBid (builder-specs specs/deneb/builder.md): the header, the blob commitments, the
/// value in wei and the builder's key.
template <class P>
struct BuilderBid {
    ExecutionPayloadHeader<P> header;
    ssz::List<KZGCommitment, P::MAX_BLOB_COMMITMENTS_PER_BLOCK> blob_kzg_commitments;
    Uint256 value;
    BLSPubkey pubkey;

    static constexpr std::string_view ssz_name = "BuilderBid";
    static constexpr auto ssz_fields() {
        using T = BuilderBid;
        return std::tuple{ssz::field("header", &T::header),
                          ssz::field("blob_kzg_commitments", &T::blob_kzg_commitments),
                          ssz::field("value", &T::value), ssz::field("pubkey", &T::pubkey)};
    }
};

/// SignedBuilderBid (deneb).
template <class P>
using SignedBuilderBid = SignedBuilderBidOf<BuilderBid<P>>;

/// deneb containers of the mainnet preset (the preset-independent ones are in deneb::).
namespace mainnet {
using IndexedAttestation = deneb::IndexedAttestation<Mainnet>;
using HistoricalBatch = deneb::HistoricalBatch<Mainnet>;
using AttesterSlashing = deneb::AttesterSlashing<Mainnet>;
using Attestation = deneb::Attestation<Mainnet>;
using SyncAggregate = deneb::SyncAggregate<Mainnet>;
using SyncCommittee = deneb::SyncCommittee<Mainnet>;
using Transaction = deneb::Transaction<Mainnet>;
using Blob = deneb::Blob<Mainnet>;
using ExecutionPayload = deneb::ExecutionPayload<Mainnet>;
using ExecutionPayloadHeader = deneb::ExecutionPayloadHeader<Mainnet>;
using BeaconBlockBody = deneb::BeaconBlockBody<Mainnet>;
using BeaconBlock = deneb::BeaconBlock<Mainnet>;
using SignedBeaconBlock = deneb::SignedBeaconBlock<Mainnet>;
using BeaconState = deneb::BeaconState<Mainnet>;
using BlobSidecar = deneb::BlobSidecar<Mainnet>;
using BlobsBundle = deneb::BlobsBundle<Mainnet>;
using ExecutionPayloadAndBlobsBundle = deneb::ExecutionPayloadAndBlobsBundle<Mainnet>;
using BlockContents = deneb::BlockContents<Mainnet>;
using SignedBlockContents = deneb::SignedBlockContents<Mainnet>;
using BlindedBeaconBlockBody = deneb::BlindedBeaconBlockBody<Mainnet>;
using BlindedBeaconBlock = deneb::BlindedBeaconBlock<Mainnet>;
using SignedBlindedBeaconBlock = deneb::SignedBlindedBeaconBlock<Mainnet>;
using BuilderBid = deneb::BuilderBid<Mainnet>;
using SignedBuilderBid = deneb::SignedBuilderBid<Mainnet>;
}  // namespace mainnet

/// deneb containers of the minimal preset.
namespace minimal {
using IndexedAttestation = deneb::IndexedAttestation<Minimal>;
using HistoricalBatch = deneb::HistoricalBatch<Minimal>;
using AttesterSlashing = deneb::AttesterSlashing<Minimal>;
using Attestation = deneb::Attestation<Minimal>;
using SyncAggregate = deneb::SyncAggregate<Minimal>;
using SyncCommittee = deneb::SyncCommittee<Minimal>;
using Transaction = deneb::Transaction<Minimal>;
using Blob = deneb::Blob<Minimal>;
using ExecutionPayload = deneb::ExecutionPayload<Minimal>;
using ExecutionPayloadHeader = deneb::ExecutionPayloadHeader<Minimal>;
using BeaconBlockBody = deneb::BeaconBlockBody<Minimal>;
using BeaconBlock = deneb::BeaconBlock<Minimal>;
using SignedBeaconBlock = deneb::SignedBeaconBlock<Minimal>;
using BeaconState = deneb::BeaconState<Minimal>;
using BlobSidecar = deneb::BlobSidecar<Minimal>;
using BlobsBundle = deneb::BlobsBundle<Minimal>;
using ExecutionPayloadAndBlobsBundle = deneb::ExecutionPayloadAndBlobsBundle<Minimal>;
using BlockContents = deneb::BlockContents<Minimal>;
using SignedBlockContents = deneb::SignedBlockContents<Minimal>;
using BlindedBeaconBlockBody = deneb::BlindedBeaconBlockBody<Minimal>;
using BlindedBeaconBlock = deneb::BlindedBeaconBlock<Minimal>;
using SignedBlindedBeaconBlock = deneb::SignedBlindedBeaconBlock<Minimal>;
using BuilderBid = deneb::BuilderBid<Minimal>;
using SignedBuilderBid = deneb::SignedBuilderBid<Minimal>;
}  // namespace minimal

}  // namespace keel::beacon::deneb
