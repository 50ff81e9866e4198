// The phase0 rows of the type registry (registry.hpp): every phase0 container, including those
// reused unchanged from earlier forks, and the req/resp and ENR payloads of p2p-interface.md
// (Status, MetaData v1, BeaconBlocksByRangeRequest, ENRForkID).
#include <array>
#include <span>

#include "keel/beacon/detail/registry_entry.hpp"
#include "keel/beacon/phase0.hpp"

namespace keel::beacon::detail {

namespace {

constexpr std::array kEntries{
    fixed_entry<phase0::BeaconBlocksByRangeRequest>("BeaconBlocksByRangeRequest"),
    fixed_entry<phase0::ENRForkID>("ENRForkID"),
    fixed_entry<phase0::Status>("Status"),
    fixed_entry<phase0::MetaData>("MetaData"),
    preset_entry<phase0::AggregateAndProof>("AggregateAndProof"),
    fixed_entry<phase0::Eth1Block>("Eth1Block"),
    preset_entry<phase0::SignedAggregateAndProof>("SignedAggregateAndProof"),
    preset_entry<phase0::Attestation>("Attestation"),
    fixed_entry<phase0::AttestationData>("AttestationData"),
    preset_entry<phase0::AttesterSlashing>("AttesterSlashing"),
    preset_entry<phase0::BeaconBlock>("BeaconBlock"),
    preset_entry<phase0::BeaconBlockBody>("BeaconBlockBody"),
    fixed_entry<phase0::BeaconBlockHeader>("BeaconBlockHeader"),
    preset_entry<phase0::BeaconState>("BeaconState"),
    fixed_entry<phase0::Checkpoint>("Checkpoint"),
    fixed_entry<phase0::Deposit>("Deposit"),
    fixed_entry<phase0::DepositData>("DepositData"),
    fixed_entry<phase0::DepositMessage>("DepositMessage"),
    fixed_entry<phase0::Eth1Data>("Eth1Data"),
    fixed_entry<phase0::Fork>("Fork"),
    fixed_entry<phase0::ForkData>("ForkData"),
    preset_entry<phase0::HistoricalBatch>("HistoricalBatch"),
    preset_entry<phase0::IndexedAttestation>("IndexedAttestation"),
    preset_entry<phase0::PendingAttestation>("PendingAttestation"),
    fixed_entry<phase0::ProposerSlashing>("ProposerSlashing"),
    preset_entry<phase0::SignedBeaconBlock>("SignedBeaconBlock"),
    fixed_entry<phase0::SignedBeaconBlockHeader>("SignedBeaconBlockHeader"),
    fixed_entry<phase0::SignedVoluntaryExit>("SignedVoluntaryExit"),
    fixed_entry<phase0::SigningData>("SigningData"),
    fixed_entry<phase0::Validator>("Validator"),
    fixed_entry<phase0::VoluntaryExit>("VoluntaryExit")};

}  // namespace

std::span<const Entry> phase0_entries() {
    return kEntries;
}

}  // namespace keel::beacon::detail
