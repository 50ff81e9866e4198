// The altair rows of the type registry (registry.hpp): every altair container, including those
// reused unchanged from earlier forks, the light-client sync-protocol containers, and the p2p
// payloads (phase0's, MetaData v2, light-client/p2p-interface.md's LightClientUpdatesByRange).
#include <array>
#include <span>

#include "keel/beacon/altair.hpp"
#include "keel/beacon/detail/registry_entry.hpp"
#include "keel/beacon/light_client.hpp"

namespace keel::beacon::detail {

namespace {

constexpr std::array kEntries{
    fixed_entry<phase0::BeaconBlocksByRangeRequest>("BeaconBlocksByRangeRequest"),
    fixed_entry<phase0::ENRForkID>("ENRForkID"),
    fixed_entry<phase0::Status>("Status"),
    fixed_entry<altair::MetaData>("MetaData"),
    fixed_entry<light_client::LightClientUpdatesByRange>("LightClientUpdatesByRange"),
    preset_entry<phase0::AggregateAndProof>("AggregateAndProof"),
    fixed_entry<phase0::Eth1Block>("Eth1Block"),
    preset_entry<phase0::SignedAggregateAndProof>("SignedAggregateAndProof"),
    preset_entry<altair::ContributionAndProof>("ContributionAndProof"),
    preset_entry<altair::SignedContributionAndProof>("SignedContributionAndProof"),
    fixed_entry<altair::SyncAggregatorSelectionData>("SyncAggregatorSelectionData"),
    preset_entry<altair::SyncCommitteeContribution>("SyncCommitteeContribution"),
    fixed_entry<altair::SyncCommitteeMessage>("SyncCommitteeMessage"),
    pair_entry<light_client::Altair<Mainnet>::LightClientBootstrap,
               light_client::Altair<Minimal>::LightClientBootstrap>("LightClientBootstrap"),
    pair_entry<light_client::Altair<Mainnet>::LightClientFinalityUpdate,
               light_client::Altair<Minimal>::LightClientFinalityUpdate>(
        "LightClientFinalityUpdate"),
    pair_entry<light_client::Altair<Mainnet>::LightClientHeader,
               light_client::Altair<Minimal>::LightClientHeader>("LightClientHeader"),
    pair_entry<light_client::Altair<Mainnet>::LightClientOptimisticUpdate,
               light_client::Altair<Minimal>::LightClientOptimisticUpdate>(
        "LightClientOptimisticUpdate"),
    pair_entry<light_client::Altair<Mainnet>::LightClientUpdate,
               light_client::Altair<Minimal>::LightClientUpdate>("LightClientUpdate"),
    preset_entry<altair::Attestation>("Attestation"),
    fixed_entry<altair::AttestationData>("AttestationData"),
    preset_entry<altair::AttesterSlashing>("AttesterSlashing"),
    preset_entry<altair::BeaconBlock>("BeaconBlock"),
    preset_entry<altair::BeaconBlockBody>("BeaconBlockBody"),
    fixed_entry<altair::BeaconBlockHeader>("BeaconBlockHeader"),
    preset_entry<altair::BeaconState>("BeaconState"),
    fixed_entry<altair::Checkpoint>("Checkpoint"),
    fixed_entry<altair::Deposit>("Deposit"),
    fixed_entry<altair::DepositData>("DepositData"),
    fixed_entry<altair::DepositMessage>("DepositMessage"),
    fixed_entry<altair::Eth1Data>("Eth1Data"),
    fixed_entry<altair::Fork>("Fork"),
    fixed_entry<altair::ForkData>("ForkData"),
    preset_entry<altair::HistoricalBatch>("HistoricalBatch"),
    preset_entry<altair::IndexedAttestation>("IndexedAttestation"),
    fixed_entry<altair::ProposerSlashing>("ProposerSlashing"),
    preset_entry<altair::SignedBeaconBlock>("SignedBeaconBlock"),
    fixed_entry<altair::SignedBeaconBlockHeader>("SignedBeaconBlockHeader"),
    fixed_entry<altair::SignedVoluntaryExit>("SignedVoluntaryExit"),
    fixed_entry<altair::SigningData>("SigningData"),
    preset_entry<altair::SyncAggregate>("SyncAggregate"),
    preset_entry<altair::SyncCommittee>("SyncCommittee"),
    fixed_entry<altair::Validator>("Validator"),
    fixed_entry<altair::VoluntaryExit>("VoluntaryExit")};

}  // namespace

std::span<const Entry> altair_entries() {
    return kEntries;
}

}  // namespace keel::beacon::detail
