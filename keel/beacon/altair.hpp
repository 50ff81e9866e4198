#pragma once
/// altair consensus containers (consensus-specs specs/altair/beacon-chain.md, "Containers"):
/// sync committees and aggregates, the body with a sync aggregate, and the state with
/// participation flags, inactivity scores and sync committees. Everything else is phase0's.

#include <string_view>
#include <tuple>

#include "keel/beacon/common_types.hpp"
#include "keel/beacon/phase0.hpp"
#include "keel/beacon/presets.hpp"
#include "keel/ssz/ssz.hpp"

namespace keel::beacon::altair {

// Unchanged from phase0.
using phase0::Attestation;
using phase0::AttestationData;
using phase0::AttesterSlashing;
using phase0::AttesterSlashingOf;
using phase0::BeaconBlockHeader;
using phase0::BeaconBlockOf;
using phase0::Checkpoint;
using phase0::Deposit;
using phase0::DepositData;
using phase0::DepositMessage;
using phase0::Eth1Data;
using phase0::Fork;
using phase0::ForkData;
using phase0::HistoricalBatch;
using phase0::IndexedAttestation;
using phase0::ProposerSlashing;
using phase0::SignedBeaconBlockHeader;
using phase0::SignedBeaconBlockOf;
using phase0::SignedVoluntaryExit;
using phase0::SigningData;
using phase0::Validator;
using phase0::VoluntaryExit;

/// SyncAggregate: the sync committee's participation bits and aggregate signature.
template <class P>
struct SyncAggregate {
    ssz::Bitvector<P::SYNC_COMMITTEE_SIZE> sync_committee_bits;
    BLSSignature sync_committee_signature;

    static constexpr std::string_view ssz_name = "SyncAggregate";
    static constexpr auto ssz_fields() {
        using T = SyncAggregate;
        return std::tuple{ssz::field("sync_committee_bits", &T::sync_committee_bits),
                          ssz::field("sync_committee_signature", &T::sync_committee_signature)};
    }
};

/// SyncCommittee: the members' public keys and their aggregate.
template <class P>
struct SyncCommittee {
    ssz::Vector<BLSPubkey, P::SYNC_COMMITTEE_SIZE> pubkeys;
    BLSPubkey aggregate_pubkey;

    static constexpr std::string_view ssz_name = "SyncCommittee";
    static constexpr auto ssz_fields() {
        using T = SyncCommittee;
        return std::tuple{ssz::field("pubkeys", &T::pubkeys),
                          ssz::field("aggregate_pubkey", &T::aggregate_pubkey)};
    }
};

/// BeaconBlockBody (altair): phase0's body plus the sync aggregate.
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
                          ssz::field("sync_aggregate", &T::sync_aggregate)};
    }
};

/// BeaconBlock (altair).
template <class P>
using BeaconBlock = BeaconBlockOf<BeaconBlockBody<P>>;

/// SignedBeaconBlock (altair).
template <class P>
using SignedBeaconBlock = SignedBeaconBlockOf<BeaconBlock<P>>;

/// BeaconState (altair): pending attestations replaced by participation flags; inactivity
/// scores and the current and next sync committees appended.
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
            ssz::field("next_sync_committee", &T::next_sync_committee)};
    }
};

// Sync committee duties (specs/altair/validator.md, "Containers").

/// SYNC_COMMITTEE_SUBNET_COUNT (altair/validator.md, "Misc"): a constant, not a preset value.
inline constexpr std::uint64_t kSyncCommitteeSubnetCount = 4;

/// SyncCommitteeMessage: one member's signature over a block root.
struct SyncCommitteeMessage {
    Slot slot = 0;
    Root beacon_block_root;
    ValidatorIndex validator_index = 0;
    BLSSignature signature;

    static constexpr std::string_view ssz_name = "SyncCommitteeMessage";
    static constexpr auto ssz_fields() {
        using T = SyncCommitteeMessage;
        return std::tuple{ssz::field("slot", &T::slot),
                          ssz::field("beacon_block_root", &T::beacon_block_root),
                          ssz::field("validator_index", &T::validator_index),
                          ssz::field("signature", &T::signature)};
    }
};

/// SyncCommitteeContribution: the aggregate of one subcommittee's messages.
template <class P>
struct SyncCommitteeContribution {
    Slot slot = 0;
    Root beacon_block_root;
    std::uint64_t subcommittee_index = 0;
    ssz::Bitvector<P::SYNC_COMMITTEE_SIZE / kSyncCommitteeSubnetCount> aggregation_bits;
    BLSSignature signature;

    static constexpr std::string_view ssz_name = "SyncCommitteeContribution";
    static constexpr auto ssz_fields() {
        using T = SyncCommitteeContribution;
        return std::tuple{ssz::field("slot", &T::slot),
                          ssz::field("beacon_block_root", &T::beacon_block_root),
                          ssz::field("subcommittee_index", &T::subcommittee_index),
                          ssz::field("aggregation_bits", &T::aggregation_bits),
                          ssz::field("signature", &T::signature)};
    }
};

/// ContributionAndProof: an aggregator's contribution and its selection proof.
template <class P>
struct ContributionAndProof {
    ValidatorIndex aggregator_index = 0;
    SyncCommitteeContribution<P> contribution;
    BLSSignature selection_proof;

    static constexpr std::string_view ssz_name = "ContributionAndProof";
    static constexpr auto ssz_fields() {
        using T = ContributionAndProof;
        return std::tuple{ssz::field("aggregator_index", &T::aggregator_index),
                          ssz::field("contribution", &T::contribution),
                          ssz::field("selection_proof", &T::selection_proof)};
    }
};

/// SignedContributionAndProof.
template <class P>
struct SignedContributionAndProof {
    ContributionAndProof<P> message;
    BLSSignature signature;

    static constexpr std::string_view ssz_name = "SignedContributionAndProof";
    static constexpr auto ssz_fields() {
        using T = SignedContributionAndProof;
        return std::tuple{ssz::field("message", &T::message),
                          ssz::field("signature", &T::signature)};
    }
};

/// SyncAggregatorSelectionData: what a sync aggregator signs for its selection proof.
struct SyncAggregatorSelectionData {
    Slot slot = 0;
    std::uint64_t subcommittee_index = 0;

    static constexpr std::string_view ssz_name = "SyncAggregatorSelectionData";
    static constexpr auto ssz_fields() {
        using T = SyncAggregatorSelectionData;
        return std::tuple{ssz::field("slot", &T::slot),
                          ssz::field("subcommittee_index", &T::subcommittee_index)};
    }
};

/// MetaData (specs/altair/p2p-interface.md, "MetaData"; GetMetaData v2): phase0's with the
/// node's sync committee subnets added. Status, BeaconBlocksByRangeRequest and ENRForkID are
/// phase0's, unchanged.
struct MetaData {
    std::uint64_t seq_number = 0;
    ssz::Bitvector<phase0::kAttestationSubnetCount> attnets;
    ssz::Bitvector<kSyncCommitteeSubnetCount> syncnets;

    static constexpr std::string_view ssz_name = "MetaData";
    static constexpr auto ssz_fields() {
        using T = MetaData;
        return std::tuple{ssz::field("seq_number", &T::seq_number),
                          ssz::field("attnets", &T::attnets), ssz::field("syncnets", &T::syncnets)};
    }
};

/// altair containers of the mainnet preset (the preset-independent ones are in altair::).
namespace mainnet {
using IndexedAttestation = altair::IndexedAttestation<Mainnet>;
using HistoricalBatch = altair::HistoricalBatch<Mainnet>;
using AttesterSlashing = altair::AttesterSlashing<Mainnet>;
using Attestation = altair::Attestation<Mainnet>;
using SyncAggregate = altair::SyncAggregate<Mainnet>;
using SyncCommittee = altair::SyncCommittee<Mainnet>;
using BeaconBlockBody = altair::BeaconBlockBody<Mainnet>;
using BeaconBlock = altair::BeaconBlock<Mainnet>;
using SignedBeaconBlock = altair::SignedBeaconBlock<Mainnet>;
using BeaconState = altair::BeaconState<Mainnet>;
}  // namespace mainnet

/// altair containers of the minimal preset.
namespace minimal {
using IndexedAttestation = altair::IndexedAttestation<Minimal>;
using HistoricalBatch = altair::HistoricalBatch<Minimal>;
using AttesterSlashing = altair::AttesterSlashing<Minimal>;
using Attestation = altair::Attestation<Minimal>;
using SyncAggregate = altair::SyncAggregate<Minimal>;
using SyncCommittee = altair::SyncCommittee<Minimal>;
using BeaconBlockBody = altair::BeaconBlockBody<Minimal>;
using BeaconBlock = altair::BeaconBlock<Minimal>;
using SignedBeaconBlock = altair::SignedBeaconBlock<Minimal>;
using BeaconState = altair::BeaconState<Minimal>;
}  // namespace minimal

}  // namespace keel::beacon::altair
