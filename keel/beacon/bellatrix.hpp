#pragma once
/// bellatrix consensus containers (consensus-specs specs/bellatrix/beacon-chain.md,
/// "Containers"): the execution payload and its header, the body carrying the payload, and the
/// state carrying the latest payload header. Everything else is altair's.

#include <string_view>
#include <tuple>

#include "keel/beacon/altair.hpp"
#include "keel/beacon/common_types.hpp"
#include "keel/beacon/presets.hpp"
#include "keel/ssz/ssz.hpp"

namespace keel::beacon::bellatrix {

// Unchanged from altair (and phase0).
using altair::Attestation;
using altair::AttestationData;
using altair::AttesterSlashing;
using altair::AttesterSlashingOf;
using altair::BeaconBlockHeader;
using altair::BeaconBlockOf;
using altair::Checkpoint;
using altair::Deposit;
using altair::DepositData;
using altair::DepositMessage;
using altair::Eth1Data;
using altair::Fork;
using altair::ForkData;
using altair::HistoricalBatch;
using altair::IndexedAttestation;
using altair::ProposerSlashing;
using altair::SignedBeaconBlockHeader;
using altair::SignedBeaconBlockOf;
using altair::SignedVoluntaryExit;
using altair::SigningData;
using altair::SyncAggregate;
using altair::SyncCommittee;
using altair::Validator;
using altair::VoluntaryExit;

/// Transaction: one opaque, RLP- or typed-encoded execution transaction.
template <class P>
using Transaction = ssz::ByteList<P::MAX_BYTES_PER_TRANSACTION>;

/// ExecutionPayload (bellatrix): an execution block as the beacon block carries it.
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
                          ssz::field("transactions", &T::transactions)};
    }
};

/// ExecutionPayloadHeader (bellatrix): the payload with its transactions replaced by their root.
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
                          ssz::field("transactions_root", &T::transactions_root)};
    }
};

/// BeaconBlockBody (bellatrix): altair's body plus the execution payload.
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
                          ssz::field("execution_payload", &T::execution_payload)};
    }
};

/// BeaconBlock (bellatrix).
template <class P>
using BeaconBlock = BeaconBlockOf<BeaconBlockBody<P>>;

/// SignedBeaconBlock (bellatrix).
template <class P>
using SignedBeaconBlock = SignedBeaconBlockOf<BeaconBlock<P>>;

/// BeaconState (bellatrix): altair's state plus the latest execution payload header.
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
            ssz::field("latest_execution_payload_header", &T::latest_execution_payload_header)};
    }
};

/// PowBlock (specs/bellatrix/fork-choice.md): the proof-of-work block fields the merge
/// transition checks.
struct PowBlock {
    Hash32 block_hash;
    Hash32 parent_hash;
    Uint256 total_difficulty;

    static constexpr std::string_view ssz_name = "PowBlock";
    static constexpr auto ssz_fields() {
        using T = PowBlock;
        return std::tuple{ssz::field("block_hash", &T::block_hash),
                          ssz::field("parent_hash", &T::parent_hash),
                          ssz::field("total_difficulty", &T::total_difficulty)};
    }
};

// Builder API containers (ethereum/builder-specs specs/bellatrix/builder.md; the blinded blocks
// are also beacon-APIs types/<fork>/block.yaml): a blinded block carries its payload's header
// in the payload's place, so its root equals the full block's.

/// ValidatorRegistrationV1 (builder.md): a validator's fee recipient and gas limit for builders.
/// The same in every fork.
struct ValidatorRegistrationV1 {
    ExecutionAddress fee_recipient;
    std::uint64_t gas_limit = 0;
    std::uint64_t timestamp = 0;
    BLSPubkey pubkey;

    static constexpr std::string_view ssz_name = "ValidatorRegistrationV1";
    static constexpr auto ssz_fields() {
        using T = ValidatorRegistrationV1;
        return std::tuple{ssz::field("fee_recipient", &T::fee_recipient),
                          ssz::field("gas_limit", &T::gas_limit),
                          ssz::field("timestamp", &T::timestamp), ssz::field("pubkey", &T::pubkey)};
    }
};

/// SignedValidatorRegistrationV1 (builder.md).
struct SignedValidatorRegistrationV1 {
    ValidatorRegistrationV1 message;
    BLSSignature signature;

    static constexpr std::string_view ssz_name = "SignedValidatorRegistrationV1";
    static constexpr auto ssz_fields() {
        using T = SignedValidatorRegistrationV1;
        return std::tuple{ssz::field("message", &T::message),
                          ssz::field("signature", &T::signature)};
    }
};

/// BuilderBid (builder.md, bellatrix and capella): a payload header, its value in wei and the
/// builder's key.
template <class Header>
struct BuilderBidOf {
    Header header;
    Uint256 value;
    BLSPubkey pubkey;

    static constexpr std::string_view ssz_name = "BuilderBid";
    static constexpr auto ssz_fields() {
        using T = BuilderBidOf;
        return std::tuple{ssz::field("header", &T::header), ssz::field("value", &T::value),
                          ssz::field("pubkey", &T::pubkey)};
    }
};

/// SignedBuilderBid (builder.md) of a bid type.
template <class Bid>
struct SignedBuilderBidOf {
    Bid message;
    BLSSignature signature;

    static constexpr std::string_view ssz_name = "SignedBuilderBid";
    static constexpr auto ssz_fields() {
        using T = SignedBuilderBidOf;
        return std::tuple{ssz::field("message", &T::message),
                          ssz::field("signature", &T::signature)};
    }
};

/// BuilderBid (bellatrix).
template <class P>
using BuilderBid = BuilderBidOf<ExecutionPayloadHeader<P>>;

/// SignedBuilderBid (bellatrix).
template <class P>
using SignedBuilderBid = SignedBuilderBidOf<BuilderBid<P>>;

/// BlindedBeaconBlockBody (builder.md, bellatrix): the body with the payload's header in the
/// payload's place.
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
                          ssz::field("execution_payload_header", &T::execution_payload_header)};
    }
};

/// BlindedBeaconBlock's shape (builder.md): BeaconBlock's fields around a blinded body.
template <class Body>
struct BlindedBeaconBlockOf {
    Slot slot = 0;
    ValidatorIndex proposer_index = 0;
    Root parent_root;
    Root state_root;
    Body body;

    static constexpr std::string_view ssz_name = "BlindedBeaconBlock";
    static constexpr auto ssz_fields() {
        using T = BlindedBeaconBlockOf;
        return std::tuple{ssz::field("slot", &T::slot),
                          ssz::field("proposer_index", &T::proposer_index),
                          ssz::field("parent_root", &T::parent_root),
                          ssz::field("state_root", &T::state_root), ssz::field("body", &T::body)};
    }
};

/// SignedBlindedBeaconBlock's shape (builder.md).
template <class Block>
struct SignedBlindedBeaconBlockOf {
    Block message;
    BLSSignature signature;

    static constexpr std::string_view ssz_name = "SignedBlindedBeaconBlock";
    static constexpr auto ssz_fields() {
        using T = SignedBlindedBeaconBlockOf;
        return std::tuple{ssz::field("message", &T::message),
                          ssz::field("signature", &T::signature)};
    }
};

/// BlindedBeaconBlock (bellatrix).
template <class P>
using BlindedBeaconBlock = BlindedBeaconBlockOf<BlindedBeaconBlockBody<P>>;

/// SignedBlindedBeaconBlock (bellatrix).
template <class P>
using SignedBlindedBeaconBlock = SignedBlindedBeaconBlockOf<BlindedBeaconBlock<P>>;

/// bellatrix containers of the mainnet preset (the preset-independent ones are in bellatrix::).
namespace mainnet {
using IndexedAttestation = bellatrix::IndexedAttestation<Mainnet>;
using HistoricalBatch = bellatrix::HistoricalBatch<Mainnet>;
using AttesterSlashing = bellatrix::AttesterSlashing<Mainnet>;
using Attestation = bellatrix::Attestation<Mainnet>;
using SyncAggregate = bellatrix::SyncAggregate<Mainnet>;
using SyncCommittee = bellatrix::SyncCommittee<Mainnet>;
using Transaction = bellatrix::Transaction<Mainnet>;
using ExecutionPayload = bellatrix::ExecutionPayload<Mainnet>;
using ExecutionPayloadHeader = bellatrix::ExecutionPayloadHeader<Mainnet>;
using BeaconBlockBody = bellatrix::BeaconBlockBody<Mainnet>;
using BeaconBlock = bellatrix::BeaconBlock<Mainnet>;
using SignedBeaconBlock = bellatrix::SignedBeaconBlock<Mainnet>;
using BeaconState = bellatrix::BeaconState<Mainnet>;
using BlindedBeaconBlockBody = bellatrix::BlindedBeaconBlockBody<Mainnet>;
using BlindedBeaconBlock = bellatrix::BlindedBeaconBlock<Mainnet>;
using SignedBlindedBeaconBlock = bellatrix::SignedBlindedBeaconBlock<Mainnet>;
using BuilderBid = bellatrix::BuilderBid<Mainnet>;
using SignedBuilderBid = bellatrix::SignedBuilderBid<Mainnet>;
}  // namespace mainnet

/// bellatrix containers of the minimal preset.
namespace minimal {
using IndexedAttestation = bellatrix::IndexedAttestation<Minimal>;
using HistoricalBatch = bellatrix::HistoricalBatch<Minimal>;
using AttesterSlashing = bellatrix::AttesterSlashing<Minimal>;
using Attestation = bellatrix::Attestation<Minimal>;
using SyncAggregate = bellatrix::SyncAggregate<Minimal>;
using SyncCommittee = bellatrix::SyncCommittee<Minimal>;
using Transaction = bellatrix::Transaction<Minimal>;
using ExecutionPayload = bellatrix::ExecutionPayload<Minimal>;
using ExecutionPayloadHeader = bellatrix::ExecutionPayloadHeader<Minimal>;
using BeaconBlockBody = bellatrix::BeaconBlockBody<Minimal>;
using BeaconBlock = bellatrix::BeaconBlock<Minimal>;
using SignedBeaconBlock = bellatrix::SignedBeaconBlock<Minimal>;
using BeaconState = bellatrix::BeaconState<Minimal>;
using BlindedBeaconBlockBody = bellatrix::BlindedBeaconBlockBody<Minimal>;
using BlindedBeaconBlock = bellatrix::BlindedBeaconBlock<Minimal>;
using SignedBlindedBeaconBlock = bellatrix::SignedBlindedBeaconBlock<Minimal>;
using BuilderBid = bellatrix::BuilderBid<Minimal>;
using SignedBuilderBid = bellatrix::SignedBuilderBid<Minimal>;
}  // namespace minimal

}  // namespace keel::beacon::bellatrix
