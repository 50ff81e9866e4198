#pragma once
/// capella consensus containers (consensus-specs specs/capella/beacon-chain.md, "Containers"):
/// withdrawals, BLS-to-execution changes and historical summaries; the payload, header, body
/// and state that carry them. Everything else is bellatrix's.

#include <string_view>
#include <tuple>

#include "keel/beacon/bellatrix.hpp"
#include "keel/beacon/common_types.hpp"
#include "keel/beacon/presets.hpp"
#include "keel/ssz/ssz.hpp"

namespace keel::beacon::capella {

// Unchanged from bellatrix (and earlier).
using bellatrix::Attestation;
using bellatrix::AttestationData;
using bellatrix::AttesterSlashing;
using bellatrix::AttesterSlashingOf;
using bellatrix::BeaconBlockHeader;
using bellatrix::BeaconBlockOf;
using bellatrix::BlindedBeaconBlockOf;
using bellatrix::BuilderBidOf;
using bellatrix::Checkpoint;
using bellatrix::Deposit;
using bellatrix::DepositData;
using bellatrix::DepositMessage;
using bellatrix::Eth1Data;
using bellatrix::Fork;
using bellatrix::ForkData;
using bellatrix::HistoricalBatch;
using bellatrix::IndexedAttestation;
using bellatrix::ProposerSlashing;
using bellatrix::SignedBeaconBlockHeader;
using bellatrix::SignedBeaconBlockOf;
using bellatrix::SignedBlindedBeaconBlockOf;
using bellatrix::SignedBuilderBidOf;
using bellatrix::SignedValidatorRegistrationV1;
using bellatrix::SignedVoluntaryExit;
using bellatrix::SigningData;
using bellatrix::SyncAggregate;
using bellatrix::SyncCommittee;
using bellatrix::Transaction;
using bellatrix::Validator;
using bellatrix::ValidatorRegistrationV1;
using bellatrix::VoluntaryExit;

/// Withdrawal: one validator withdrawal credited in the execution payload.
struct Withdrawal {
    WithdrawalIndex index = 0;
    ValidatorIndex validator_index = 0;
    ExecutionAddress address;
    Gwei amount = 0;

    static constexpr std::string_view ssz_name = "Withdrawal";
    static constexpr auto ssz_fields() {
        using T = Withdrawal;
        return std::tuple{ssz::field("index", &T::index),
                          ssz::field("validator_index", &T::validator_index),
                          ssz::field("address", &T::address), ssz::field("amount", &T::amount)};
    }
};

/// BLSToExecutionChange: a switch from BLS to execution withdrawal credentials.
struct BLSToExecutionChange {
    ValidatorIndex validator_index = 0;
    BLSPubkey from_bls_pubkey;
    ExecutionAddress to_execution_address;

    static constexpr std::string_view ssz_name = "BLSToExecutionChange";
    static constexpr auto ssz_fields() {
        using T = BLSToExecutionChange;
        return std::tuple{ssz::field("validator_index", &T::validator_index),
                          ssz::field("from_bls_pubkey", &T::from_bls_pubkey),
                          ssz::field("to_execution_address", &T::to_execution_address)};
    }
};

/// SignedBLSToExecutionChange.
struct SignedBLSToExecutionChange {
    BLSToExecutionChange message;
    BLSSignature signature;

    static constexpr std::string_view ssz_name = "SignedBLSToExecutionChange";
    static constexpr auto ssz_fields() {
        using T = SignedBLSToExecutionChange;
        return std::tuple{ssz::field("message", &T::message),
                          ssz::field("signature", &T::signature)};
    }
};

/// HistoricalSummary: the roots of one HistoricalBatch's two vectors (replaces historical_roots).
struct HistoricalSummary {
    Root block_summary_root;
    Root state_summary_root;

    static constexpr std::string_view ssz_name = "HistoricalSummary";
    static constexpr auto ssz_fields() {
        using T = HistoricalSummary;
        return std::tuple{ssz::field("block_summary_root", &T::block_summary_root),
                          ssz::field("state_summary_root", &T::state_summary_root)};
    }
};

/// ExecutionPayload (capella): bellatrix's payload plus withdrawals.
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
                          ssz::field("withdrawals", &T::withdrawals)};
    }
};

/// ExecutionPayloadHeader (capella): plus withdrawals_root.
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
                          ssz::field("withdrawals_root", &T::withdrawals_root)};
    }
};

/// BeaconBlockBody (capella): bellatrix's body plus BLS-to-execution changes.
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
                          ssz::field("bls_to_execution_changes", &T::bls_to_execution_changes)};
    }
};

/// BeaconBlock (capella).
template <class P>
using BeaconBlock = BeaconBlockOf<BeaconBlockBody<P>>;

/// SignedBeaconBlock (capella).
template <class P>
using SignedBeaconBlock = SignedBeaconBlockOf<BeaconBlock<P>>;

/// BeaconState (capella): bellatrix's state (with capella's payload header) plus the withdrawal
/// sweep position and historical summaries.
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

// Builder API containers (builder-specs specs/capella/builder.md; beacon-APIs
// types/capella/block.yaml).

/// BlindedBeaconBlockBody (capella): the body with the payload's header in the payload's place.
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
                          ssz::field("bls_to_execution_changes", &T::bls_to_execution_changes)};
    }
};

/// BlindedBeaconBlock (capella).
template <class P>
using BlindedBeaconBlock = BlindedBeaconBlockOf<BlindedBeaconBlockBody<P>>;

/// SignedBlindedBeaconBlock (capella).
template <class P>
using SignedBlindedBeaconBlock = SignedBlindedBeaconBlockOf<BlindedBeaconBlock<P>>;

/// BuilderBid (capella): bellatrix's with capella's payload header.
template <class P>
using BuilderBid = BuilderBidOf<ExecutionPayloadHeader<P>>;

/// SignedBuilderBid (capella).
template <class P>
using SignedBuilderBid = SignedBuilderBidOf<BuilderBid<P>>;

/// capella containers of the mainnet preset (the preset-independent ones are in capella::).
namespace mainnet {
using IndexedAttestation = capella::IndexedAttestation<Mainnet>;
using HistoricalBatch = capella::HistoricalBatch<Mainnet>;
using AttesterSlashing = capella::AttesterSlashing<Mainnet>;
using Attestation = capella::Attestation<Mainnet>;
using SyncAggregate = capella::SyncAggregate<Mainnet>;
using SyncCommittee = capella::SyncCommittee<Mainnet>;
using Transaction = capella::Transaction<Mainnet>;
using ExecutionPayload = capella::ExecutionPayload<Mainnet>;
using ExecutionPayloadHeader = capella::ExecutionPayloadHeader<Mainnet>;
using BeaconBlockBody = capella::BeaconBlockBody<Mainnet>;
using BeaconBlock = capella::BeaconBlock<Mainnet>;
using SignedBeaconBlock = capella::SignedBeaconBlock<Mainnet>;
using BeaconState = capella::BeaconState<Mainnet>;
using BlindedBeaconBlockBody = capella::BlindedBeaconBlockBody<Mainnet>;
using BlindedBeaconBlock = capella::BlindedBeaconBlock<Mainnet>;
using SignedBlindedBeaconBlock = capella::SignedBlindedBeaconBlock<Mainnet>;
using BuilderBid = capella::BuilderBid<Mainnet>;
using SignedBuilderBid = capella::SignedBuilderBid<Mainnet>;
}  // namespace mainnet

/// capella containers of the minimal preset.
namespace minimal {
using IndexedAttestation = capella::IndexedAttestation<Minimal>;
using HistoricalBatch = capella::HistoricalBatch<Minimal>;
using AttesterSlashing = capella::AttesterSlashing<Minimal>;
using Attestation = capella::Attestation<Minimal>;
using SyncAggregate = capella::SyncAggregate<Minimal>;
using SyncCommittee = capella::SyncCommittee<Minimal>;
using Transaction = capella::Transaction<Minimal>;
using ExecutionPayload = capella::ExecutionPayload<Minimal>;
using ExecutionPayloadHeader = capella::ExecutionPayloadHeader<Minimal>;
using BeaconBlockBody = capella::BeaconBlockBody<Minimal>;
using BeaconBlock = capella::BeaconBlock<Minimal>;
using SignedBeaconBlock = capella::SignedBeaconBlock<Minimal>;
using BeaconState = capella::BeaconState<Minimal>;
using BlindedBeaconBlockBody = capella::BlindedBeaconBlockBody<Minimal>;
using BlindedBeaconBlock = capella::BlindedBeaconBlock<Minimal>;
using SignedBlindedBeaconBlock = capella::SignedBlindedBeaconBlock<Minimal>;
using BuilderBid = capella::BuilderBid<Minimal>;
using SignedBuilderBid = capella::SignedBuilderBid<Minimal>;
}  // namespace minimal

}  // namespace keel::beacon::capella
