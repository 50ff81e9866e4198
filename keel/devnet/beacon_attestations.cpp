#include "keel/devnet/beacon_attestations.hpp"

#include <algorithm>

#include "keel/common/assert.hpp"
#include "keel/devnet/beacon_values.hpp"

namespace keel::devnet {
namespace {

using beacon::Mainnet;
using detail::Rng;

constexpr std::uint64_t kCommittees = Mainnet::MAX_COMMITTEES_PER_SLOT;
constexpr std::uint64_t kSlotsPerEpoch = Mainnet::SLOTS_PER_EPOCH;

// The data of an attestation to `att_slot` seen from a block of `seed`; `late` votes for the
// block before as head.
beacon::deneb::AttestationData attestation_data(std::uint64_t seed, std::uint64_t att_slot,
                                                std::uint64_t index, bool late) noexcept {
    const std::uint64_t epoch = att_slot / kSlotsPerEpoch;
    beacon::deneb::AttestationData d;
    d.slot = att_slot;
    d.index = index;
    d.beacon_block_root =
        detail::history_root(seed, detail::kBlockRootKind, att_slot - (late ? 1 : 0));
    d.source.epoch = epoch - 1;
    d.source.root =
        detail::history_root(seed, detail::kBlockRootKind, (epoch - 1) * kSlotsPerEpoch);
    d.target.epoch = epoch;
    d.target.root = detail::history_root(seed, detail::kBlockRootKind, epoch * kSlotsPerEpoch);
    return d;
}

// Appends `n` bits to `bits`, each set with probability percent / 100.
template <class Bitlist>
void append_bits(Rng& rng, std::uint64_t n, std::uint64_t percent, Bitlist& bits) {
    for (std::uint64_t i = 0; i < n; ++i) bits.push_back(rng.chance(percent));
}

}  // namespace

std::uint64_t committee_size(std::uint64_t slot, std::uint64_t index) noexcept {
    // compute_committee's split of the epoch's shuffled indices into SLOTS_PER_EPOCH *
    // committees_per_slot committees (phase0 beacon-chain.md).
    const std::uint64_t count = kSlotsPerEpoch * kCommittees;
    const std::uint64_t j = (slot % kSlotsPerEpoch) * kCommittees + index;
    return kAssumedActiveValidators * (j + 1) / count - kAssumedActiveValidators * j / count;
}

void append_attestations(std::uint64_t seed, std::uint64_t slot, std::uint64_t count,
                         std::vector<beacon::deneb::mainnet::Attestation>& out) {
    KEEL_ASSERT(count <= Mainnet::MAX_ATTESTATIONS);
    for (std::uint64_t i = 0; i < count; ++i) {
        Rng rng(seed, detail::kBeaconAttestationStream, i);
        // The previous slot's committees first, then late aggregates of older slots.
        const bool fresh = i < kCommittees;
        const std::uint64_t back = fresh ? 1 : rng.between(2, 5);
        const std::uint64_t index = fresh ? i : rng.below(kCommittees);
        const std::uint64_t percent = fresh ? rng.between(90, 100) : rng.between(60, 100);
        auto& a = out.emplace_back();
        append_bits(rng, committee_size(slot - back, index), percent, a.aggregation_bits);
        a.data = attestation_data(seed, slot - back, index, rng.chance(5));
        a.signature = detail::fake_signature(rng);
    }
}

void append_attestations(std::uint64_t seed, std::uint64_t slot, std::uint64_t count,
                         std::vector<beacon::electra::mainnet::Attestation>& out) {
    KEEL_ASSERT(count <= Mainnet::MAX_ATTESTATIONS_ELECTRA);
    for (std::uint64_t k = 0; k < count; ++k) {
        Rng rng(seed, detail::kBeaconAttestationStream, k);
        const std::uint64_t back = std::max<std::uint64_t>(k, 1);
        auto& a = out.emplace_back();
        // Which committees: all of them for the main aggregate, about half (at least one) for
        // the others.
        for (std::uint64_t c = 0; c < kCommittees; ++c) {
            if (k == 0 || rng.chance(50)) a.committee_bits.set(c, true);
        }
        if (k != 0) a.committee_bits.set(rng.below(kCommittees), true);
        const std::uint64_t percent = k == 0 ? rng.between(90, 100) : rng.between(40, 100);
        for (std::uint64_t c = 0; c < kCommittees; ++c) {
            if (a.committee_bits.get(c)) {
                append_bits(rng, committee_size(slot - back, c), percent, a.aggregation_bits);
            }
        }
        // EIP-7549: data.index is 0; attestation 1 is the minority head vote of the same slot.
        a.data = attestation_data(seed, slot - back, 0, k == 1);
        a.signature = detail::fake_signature(rng);
    }
}

}  // namespace keel::devnet
