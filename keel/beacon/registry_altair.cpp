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
    inherited("BeaconBlocksByRangeRequest"),
    inherited("ENRForkID"),
    inherited("Status"),
    fixed_entry<altair::MetaData>("MetaData"),
    fixed_entry<light_client::LightClientUpdatesByRange>("LightClientUpdatesByRange"),
    inherited("AggregateAndProof"),
    inherited("Eth1Block"),
    inherited("SignedAggregateAndProof"),
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
    inherited("Attestation"),
    inherited("AttestationData"),
    inherited("AttesterSlashing"),
    preset_entry<altair::BeaconBlock>("BeaconBlock"),
    preset_entry<altair::BeaconBlockBody>("BeaconBlockBody"),
    inherited("BeaconBlockHeader"),
    preset_entry<altair::BeaconState>("BeaconState"),
    inherited("Checkpoint"),
    inherited("Deposit"),
    inherited("DepositData"),
    inherited("DepositMessage"),
    inherited("Eth1Data"),
    inherited("Fork"),
    inherited("ForkData"),
    inherited("HistoricalBatch"),
    inherited("IndexedAttestation"),
    inherited("ProposerSlashing"),
    preset_entry<altair::SignedBeaconBlock>("SignedBeaconBlock"),
    inherited("SignedBeaconBlockHeader"),
    inherited("SignedVoluntaryExit"),
    inherited("SigningData"),
    preset_entry<altair::SyncAggregate>("SyncAggregate"),
    preset_entry<altair::SyncCommittee>("SyncCommittee"),
    inherited("Validator"),
    inherited("VoluntaryExit"),
};

}  // namespace

std::span<const Entry> altair_entries() {
    return kEntries;
}

}  // namespace keel::beacon::detail
