#pragma once
/// phase0 consensus containers (consensus-specs specs/phase0/beacon-chain.md, "Containers").
///
/// Containers whose shape depends on the preset are templates on it (presets.hpp); the others
/// are plain structs. Field order is the spec's: hash_tree_root depends on it. Later forks
/// reuse every container they do not change (`using phase0::Checkpoint;` in altair.hpp, ...).
/// Aliases per preset: `phase0::mainnet::BeaconBlock`, `phase0::minimal::BeaconState`, ...

#include <string_view>
#include <tuple>

#include "keel/beacon/common_types.hpp"
#include "keel/beacon/presets.hpp"
#include "keel/ssz/ssz.hpp"

namespace keel::beacon::phase0 {

/// Fork: the fork versions and the epoch of the last change.
struct Fork {
    Version previous_version;
    Version current_version;
    Epoch epoch = 0;

    static constexpr std::string_view ssz_name = "Fork";
    static constexpr auto ssz_fields() {
        using T = Fork;
        return std::tuple{ssz::field("previous_version", &T::previous_version),
                          ssz::field("current_version", &T::current_version),
                          ssz::field("epoch", &T::epoch)};
    }
};

/// ForkData: what a fork digest and a domain are computed from.
struct ForkData {
    Version current_version;
    Root genesis_validators_root;

    static constexpr std::string_view ssz_name = "ForkData";
    static constexpr auto ssz_fields() {
        using T = ForkData;
        return std::tuple{ssz::field("current_version", &T::current_version),
                          ssz::field("genesis_validators_root", &T::genesis_validators_root)};
    }
};

/// Checkpoint: an epoch and the root of its boundary block.
struct Checkpoint {
    Epoch epoch = 0;
    Root root;

    static constexpr std::string_view ssz_name = "Checkpoint";
    static constexpr auto ssz_fields() {
        using T = Checkpoint;
        return std::tuple{ssz::field("epoch", &T::epoch), ssz::field("root", &T::root)};
    }
};

/// Validator: one entry of the validator registry.
struct Validator {
    BLSPubkey pubkey;
    Bytes32 withdrawal_credentials;
    Gwei effective_balance = 0;
    bool slashed = false;
    Epoch activation_eligibility_epoch = 0;
    Epoch activation_epoch = 0;
    Epoch exit_epoch = 0;
    Epoch withdrawable_epoch = 0;

    static constexpr std::string_view ssz_name = "Validator";
    static constexpr auto ssz_fields() {
        using T = Validator;
        return std::tuple{
            ssz::field("pubkey", &T::pubkey),
            ssz::field("withdrawal_credentials", &T::withdrawal_credentials),
            ssz::field("effective_balance", &T::effective_balance),
            ssz::field("slashed", &T::slashed),
            ssz::field("activation_eligibility_epoch", &T::activation_eligibility_epoch),
            ssz::field("activation_epoch", &T::activation_epoch),
            ssz::field("exit_epoch", &T::exit_epoch),
            ssz::field("withdrawable_epoch", &T::withdrawable_epoch)};
    }
};

/// AttestationData: what an attestation votes for.
struct AttestationData {
    Slot slot = 0;
    CommitteeIndex index = 0;
    Root beacon_block_root;
    Checkpoint source;
    Checkpoint target;

    static constexpr std::string_view ssz_name = "AttestationData";
    static constexpr auto ssz_fields() {
        using T = AttestationData;
        return std::tuple{ssz::field("slot", &T::slot), ssz::field("index", &T::index),
                          ssz::field("beacon_block_root", &T::beacon_block_root),
                          ssz::field("source", &T::source), ssz::field("target", &T::target)};
    }
};

/// IndexedAttestation: an attestation with its attesting validator indices.
template <class P>
struct IndexedAttestation {
    ssz::List<ValidatorIndex, P::MAX_VALIDATORS_PER_COMMITTEE> attesting_indices;
    AttestationData data;
    BLSSignature signature;

    static constexpr std::string_view ssz_name = "IndexedAttestation";
    static constexpr auto ssz_fields() {
        using T = IndexedAttestation;
        return std::tuple{ssz::field("attesting_indices", &T::attesting_indices),
                          ssz::field("data", &T::data), ssz::field("signature", &T::signature)};
    }
};

/// PendingAttestation: an attestation as the phase0 state records it.
template <class P>
struct PendingAttestation {
    ssz::Bitlist<P::MAX_VALIDATORS_PER_COMMITTEE> aggregation_bits;
    AttestationData data;
    Slot inclusion_delay = 0;
    ValidatorIndex proposer_index = 0;

    static constexpr std::string_view ssz_name = "PendingAttestation";
    static constexpr auto ssz_fields() {
        using T = PendingAttestation;
        return std::tuple{ssz::field("aggregation_bits", &T::aggregation_bits),
                          ssz::field("data", &T::data),
                          ssz::field("inclusion_delay", &T::inclusion_delay),
                          ssz::field("proposer_index", &T::proposer_index)};
    }
};

/// Eth1Data: a vote on the deposit contract's state.
struct Eth1Data {
    Root deposit_root;
    std::uint64_t deposit_count = 0;
    Hash32 block_hash;

    static constexpr std::string_view ssz_name = "Eth1Data";
    static constexpr auto ssz_fields() {
        using T = Eth1Data;
        return std::tuple{ssz::field("deposit_root", &T::deposit_root),
                          ssz::field("deposit_count", &T::deposit_count),
                          ssz::field("block_hash", &T::block_hash)};
    }
};

/// HistoricalBatch: one period of block and state roots (phase0's historical_roots entry).
template <class P>
struct HistoricalBatch {
    ssz::Vector<Root, P::SLOTS_PER_HISTORICAL_ROOT> block_roots;
    ssz::Vector<Root, P::SLOTS_PER_HISTORICAL_ROOT> state_roots;

    static constexpr std::string_view ssz_name = "HistoricalBatch";
    static constexpr auto ssz_fields() {
        using T = HistoricalBatch;
        return std::tuple{ssz::field("block_roots", &T::block_roots),
                          ssz::field("state_roots", &T::state_roots)};
    }
};

/// DepositMessage: the signed part of a deposit.
struct DepositMessage {
    BLSPubkey pubkey;
    Bytes32 withdrawal_credentials;
    Gwei amount = 0;

    static constexpr std::string_view ssz_name = "DepositMessage";
    static constexpr auto ssz_fields() {
        using T = DepositMessage;
        return std::tuple{ssz::field("pubkey", &T::pubkey),
                          ssz::field("withdrawal_credentials", &T::withdrawal_credentials),
                          ssz::field("amount", &T::amount)};
    }
};

/// DepositData: a deposit as the deposit contract logs it.
struct DepositData {
    BLSPubkey pubkey;
    Bytes32 withdrawal_credentials;
    Gwei amount = 0;
    BLSSignature signature;

    static constexpr std::string_view ssz_name = "DepositData";
    static constexpr auto ssz_fields() {
        using T = DepositData;
        return std::tuple{ssz::field("pubkey", &T::pubkey),
                          ssz::field("withdrawal_credentials", &T::withdrawal_credentials),
                          ssz::field("amount", &T::amount), ssz::field("signature", &T::signature)};
    }
};

/// BeaconBlockHeader: a block with its body replaced by the body's root.
struct BeaconBlockHeader {
    Slot slot = 0;
    ValidatorIndex proposer_index = 0;
    Root parent_root;
    Root state_root;
    Root body_root;

    static constexpr std::string_view ssz_name = "BeaconBlockHeader";
    static constexpr auto ssz_fields() {
        using T = BeaconBlockHeader;
        return std::tuple{
            ssz::field("slot", &T::slot), ssz::field("proposer_index", &T::proposer_index),
            ssz::field("parent_root", &T::parent_root), ssz::field("state_root", &T::state_root),
            ssz::field("body_root", &T::body_root)};
    }
};

/// SigningData: the object root and domain that a signature covers.
struct SigningData {
    Root object_root;
    Domain domain;

    static constexpr std::string_view ssz_name = "SigningData";
    static constexpr auto ssz_fields() {
        using T = SigningData;
        return std::tuple{ssz::field("object_root", &T::object_root),
                          ssz::field("domain", &T::domain)};
    }
};

/// SignedBeaconBlockHeader.
struct SignedBeaconBlockHeader {
    BeaconBlockHeader message;
    BLSSignature signature;

    static constexpr std::string_view ssz_name = "SignedBeaconBlockHeader";
    static constexpr auto ssz_fields() {
        using T = SignedBeaconBlockHeader;
        return std::tuple{ssz::field("message", &T::message),
                          ssz::field("signature", &T::signature)};
    }
};

/// ProposerSlashing: two signed headers of one proposer for one slot.
struct ProposerSlashing {
    SignedBeaconBlockHeader signed_header_1;
    SignedBeaconBlockHeader signed_header_2;

    static constexpr std::string_view ssz_name = "ProposerSlashing";
    static constexpr auto ssz_fields() {
        using T = ProposerSlashing;
        return std::tuple{ssz::field("signed_header_1", &T::signed_header_1),
                          ssz::field("signed_header_2", &T::signed_header_2)};
    }
};

/// AttesterSlashing's shape: two conflicting indexed attestations. The attestation type is a
/// parameter so that electra reuses the shape with its wider IndexedAttestation.
template <class Indexed>
struct AttesterSlashingOf {
    Indexed attestation_1;
    Indexed attestation_2;

    static constexpr std::string_view ssz_name = "AttesterSlashing";
    static constexpr auto ssz_fields() {
        using T = AttesterSlashingOf;
        return std::tuple{ssz::field("attestation_1", &T::attestation_1),
                          ssz::field("attestation_2", &T::attestation_2)};
    }
};

/// AttesterSlashing (phase0 .. deneb).
template <class P>
using AttesterSlashing = AttesterSlashingOf<IndexedAttestation<P>>;

/// Attestation: an aggregate vote of one committee.
template <class P>
struct Attestation {
    ssz::Bitlist<P::MAX_VALIDATORS_PER_COMMITTEE> aggregation_bits;
    AttestationData data;
    BLSSignature signature;

    static constexpr std::string_view ssz_name = "Attestation";
    static constexpr auto ssz_fields() {
        using T = Attestation;
        return std::tuple{ssz::field("aggregation_bits", &T::aggregation_bits),
                          ssz::field("data", &T::data), ssz::field("signature", &T::signature)};
    }
};

/// Deposit: deposit data with its Merkle proof against the deposit root.
struct Deposit {
    ssz::Vector<Bytes32, kDepositContractTreeDepth + 1> proof;
    DepositData data;

    static constexpr std::string_view ssz_name = "Deposit";
    static constexpr auto ssz_fields() {
        using T = Deposit;
        return std::tuple{ssz::field("proof", &T::proof), ssz::field("data", &T::data)};
    }
};

/// VoluntaryExit.
struct VoluntaryExit {
    Epoch epoch = 0;
    ValidatorIndex validator_index = 0;

    static constexpr std::string_view ssz_name = "VoluntaryExit";
    static constexpr auto ssz_fields() {
        using T = VoluntaryExit;
        return std::tuple{ssz::field("epoch", &T::epoch),
                          ssz::field("validator_index", &T::validator_index)};
    }
};

/// SignedVoluntaryExit.
struct SignedVoluntaryExit {
    VoluntaryExit message;
    BLSSignature signature;

    static constexpr std::string_view ssz_name = "SignedVoluntaryExit";
    static constexpr auto ssz_fields() {
        using T = SignedVoluntaryExit;
        return std::tuple{ssz::field("message", &T::message),
                          ssz::field("signature", &T::signature)};
    }
};

/// BeaconBlockBody (phase0).
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
                          ssz::field("voluntary_exits", &T::voluntary_exits)};
    }
};

/// BeaconBlock's shape: slot, proposer, parent and state roots, and a body. Every fork has this
/// shape; only the body type changes, so each fork instantiates it with its own body.
template <class Body>
struct BeaconBlockOf {
    Slot slot = 0;
    ValidatorIndex proposer_index = 0;
    Root parent_root;
    Root state_root;
    Body body;

    static constexpr std::string_view ssz_name = "BeaconBlock";
    static constexpr auto ssz_fields() {
        using T = BeaconBlockOf;
        return std::tuple{ssz::field("slot", &T::slot),
                          ssz::field("proposer_index", &T::proposer_index),
                          ssz::field("parent_root", &T::parent_root),
                          ssz::field("state_root", &T::state_root), ssz::field("body", &T::body)};
    }
};

/// SignedBeaconBlock's shape: a block and its proposer's signature (the same in every fork).
template <class Block>
struct SignedBeaconBlockOf {
    Block message;
    BLSSignature signature;

    static constexpr std::string_view ssz_name = "SignedBeaconBlock";
    static constexpr auto ssz_fields() {
        using T = SignedBeaconBlockOf;
        return std::tuple{ssz::field("message", &T::message),
                          ssz::field("signature", &T::signature)};
    }
};

/// BeaconBlock (phase0).
template <class P>
using BeaconBlock = BeaconBlockOf<BeaconBlockBody<P>>;

/// SignedBeaconBlock (phase0).
template <class P>
using SignedBeaconBlock = SignedBeaconBlockOf<BeaconBlock<P>>;

/// BeaconState (phase0).
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
    // Attestations
    ssz::List<PendingAttestation<P>, P::MAX_ATTESTATIONS * P::SLOTS_PER_EPOCH>
        previous_epoch_attestations;
    ssz::List<PendingAttestation<P>, P::MAX_ATTESTATIONS * P::SLOTS_PER_EPOCH>
        current_epoch_attestations;
    // Finality
    ssz::Bitvector<kJustificationBitsLength> justification_bits;
    Checkpoint previous_justified_checkpoint;
    Checkpoint current_justified_checkpoint;
    Checkpoint finalized_checkpoint;

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
            ssz::field("previous_epoch_attestations", &T::previous_epoch_attestations),
            ssz::field("current_epoch_attestations", &T::current_epoch_attestations),
            ssz::field("justification_bits", &T::justification_bits),
            ssz::field("previous_justified_checkpoint", &T::previous_justified_checkpoint),
            ssz::field("current_justified_checkpoint", &T::current_justified_checkpoint),
            ssz::field("finalized_checkpoint", &T::finalized_checkpoint)};
    }
};

// Validator containers (specs/phase0/validator.md, "Eth1 block" and "Aggregation selection").

/// Eth1Block: the eth1 block a validator votes on (validator.md, "Eth1 block"); only its
/// timestamp, deposit root and deposit count are part of the type.
struct Eth1Block {
    std::uint64_t timestamp = 0;
    Root deposit_root;
    std::uint64_t deposit_count = 0;

    static constexpr std::string_view ssz_name = "Eth1Block";
    static constexpr auto ssz_fields() {
        using T = Eth1Block;
        return std::tuple{ssz::field("timestamp", &T::timestamp),
                          ssz::field("deposit_root", &T::deposit_root),
                          ssz::field("deposit_count", &T::deposit_count)};
    }
};

/// AggregateAndProof of an attestation type: an aggregator's aggregate and its selection proof
/// (validator.md, "AggregateAndProof"; electra reuses it with its own Attestation).
template <class Att>
struct AggregateAndProofOf {
    ValidatorIndex aggregator_index = 0;
    Att aggregate;
    BLSSignature selection_proof;

    static constexpr std::string_view ssz_name = "AggregateAndProof";
    static constexpr auto ssz_fields() {
        using T = AggregateAndProofOf;
        return std::tuple{ssz::field("aggregator_index", &T::aggregator_index),
                          ssz::field("aggregate", &T::aggregate),
                          ssz::field("selection_proof", &T::selection_proof)};
    }
};

/// SignedAggregateAndProof of an AggregateAndProof type (validator.md).
template <class Aap>
struct SignedAggregateAndProofOf {
    Aap message;
    BLSSignature signature;

    static constexpr std::string_view ssz_name = "SignedAggregateAndProof";
    static constexpr auto ssz_fields() {
        using T = SignedAggregateAndProofOf;
        return std::tuple{ssz::field("message", &T::message),
                          ssz::field("signature", &T::signature)};
    }
};

/// AggregateAndProof (phase0 through deneb).
template <class P>
using AggregateAndProof = AggregateAndProofOf<Attestation<P>>;

/// SignedAggregateAndProof (phase0 through deneb).
template <class P>
using SignedAggregateAndProof = SignedAggregateAndProofOf<AggregateAndProof<P>>;

// Networking containers (specs/phase0/p2p-interface.md). The spec writes the req/resp and ENR
// payloads as anonymous field lists; they get the names their messages and clients use.

/// ATTESTATION_SUBNET_COUNT (p2p-interface.md, "Configuration"): 64 in the mainnet and the
/// minimal configuration alike. A configuration value, not a preset one, but it sizes MetaData's
/// attnets, so it is a compile-time constant here.
inline constexpr std::uint64_t kAttestationSubnetCount = 64;

/// Status (p2p-interface.md, "Status v1"): the chain a peer is on, exchanged on connection.
struct Status {
    ForkDigest fork_digest;
    Root finalized_root;
    Epoch finalized_epoch = 0;
    Root head_root;
    Slot head_slot = 0;

    static constexpr std::string_view ssz_name = "Status";
    static constexpr auto ssz_fields() {
        using T = Status;
        return std::tuple{ssz::field("fork_digest", &T::fork_digest),
                          ssz::field("finalized_root", &T::finalized_root),
                          ssz::field("finalized_epoch", &T::finalized_epoch),
                          ssz::field("head_root", &T::head_root),
                          ssz::field("head_slot", &T::head_slot)};
    }
};

/// BeaconBlocksByRangeRequest (p2p-interface.md, "BeaconBlocksByRange v1", and v2 from altair):
/// blocks of slots [start_slot, start_slot + count); step is deprecated and must be 1.
struct BeaconBlocksByRangeRequest {
    Slot start_slot = 0;
    std::uint64_t count = 0;
    std::uint64_t step = 0;

    static constexpr std::string_view ssz_name = "BeaconBlocksByRangeRequest";
    static constexpr auto ssz_fields() {
        using T = BeaconBlocksByRangeRequest;
        return std::tuple{ssz::field("start_slot", &T::start_slot), ssz::field("count", &T::count),
                          ssz::field("step", &T::step)};
    }
};

/// ENRForkID (p2p-interface.md, "eth2 field"): the value of a node record's eth2 key.
struct ENRForkID {
    ForkDigest fork_digest;
    Version next_fork_version;
    Epoch next_fork_epoch = 0;

    static constexpr std::string_view ssz_name = "ENRForkID";
    static constexpr auto ssz_fields() {
        using T = ENRForkID;
        return std::tuple{ssz::field("fork_digest", &T::fork_digest),
                          ssz::field("next_fork_version", &T::next_fork_version),
                          ssz::field("next_fork_epoch", &T::next_fork_epoch)};
    }
};

/// MetaData (p2p-interface.md, "Metadata"; GetMetaData v1): a sequence number and the
/// persistent attestation subnets.
struct MetaData {
    std::uint64_t seq_number = 0;
    ssz::Bitvector<kAttestationSubnetCount> attnets;

    static constexpr std::string_view ssz_name = "MetaData";
    static constexpr auto ssz_fields() {
        using T = MetaData;
        return std::tuple{ssz::field("seq_number", &T::seq_number),
                          ssz::field("attnets", &T::attnets)};
    }
};

/// phase0 containers of the mainnet preset (the preset-independent ones are in phase0::).
namespace mainnet {
using IndexedAttestation = phase0::IndexedAttestation<Mainnet>;
using PendingAttestation = phase0::PendingAttestation<Mainnet>;
using HistoricalBatch = phase0::HistoricalBatch<Mainnet>;
using AttesterSlashing = phase0::AttesterSlashing<Mainnet>;
using Attestation = phase0::Attestation<Mainnet>;
using BeaconBlockBody = phase0::BeaconBlockBody<Mainnet>;
using BeaconBlock = phase0::BeaconBlock<Mainnet>;
using SignedBeaconBlock = phase0::SignedBeaconBlock<Mainnet>;
using BeaconState = phase0::BeaconState<Mainnet>;
}  // namespace mainnet

/// phase0 containers of the minimal preset.
namespace minimal {
using IndexedAttestation = phase0::IndexedAttestation<Minimal>;
using PendingAttestation = phase0::PendingAttestation<Minimal>;
using HistoricalBatch = phase0::HistoricalBatch<Minimal>;
using AttesterSlashing = phase0::AttesterSlashing<Minimal>;
using Attestation = phase0::Attestation<Minimal>;
using BeaconBlockBody = phase0::BeaconBlockBody<Minimal>;
using BeaconBlock = phase0::BeaconBlock<Minimal>;
using SignedBeaconBlock = phase0::SignedBeaconBlock<Minimal>;
using BeaconState = phase0::BeaconState<Minimal>;
}  // namespace minimal

}  // namespace keel::beacon::phase0
