#pragma once
/// The attestations of a generated beacon block (private to keel/devnet), shaped like those of a
/// busy mainnet block with about 1,000,000 active validators: 64 committees per slot of 488 or
/// 489 members (the spec's compute_committee split of 1,000,000 / 32 slots / 64 committees).
///
/// deneb (one committee per attestation, phase0 Attestation):
///   the first 64 attestations are the 64 committees of the previous slot, 90-100% of their bits
///   set; the rest are late aggregates of slots 2-5 back, random committees, 60-100% set.
/// electra (EIP-7549: one attestation spans the committees named in committee_bits, its
/// aggregation bits are those committees' bits concatenated in committee order, data.index 0):
///   attestation 0 covers all 64 committees of the previous slot; attestation 1 the same slot
///   with the minority head vote; attestation k >= 2 slot k back; from attestation 1 on each
///   committee is present with probability 1/2 (at least one).
/// Data: the head root is the chain's root at the attested slot (5% of deneb attestations vote
/// for the slot before: a late block), the target the root at its epoch's first slot, the
/// source the epoch before's. Signatures are random bytes, not BLS signatures.

#include <cstdint>
#include <vector>

#include "keel/beacon/deneb.hpp"
#include "keel/beacon/electra.hpp"

namespace keel::devnet {

/// Active validators the committee sizes assume.
inline constexpr std::uint64_t kAssumedActiveValidators = 1'000'000;

/// Members of committee `index` at `slot` for kAssumedActiveValidators (488 or 489).
std::uint64_t committee_size(std::uint64_t slot, std::uint64_t index) noexcept;

/// Appends `count` (at most 128) deneb attestations for a block at `slot` to `out`.
void append_attestations(std::uint64_t seed, std::uint64_t slot, std::uint64_t count,
                         std::vector<beacon::deneb::mainnet::Attestation>& out);

/// Appends `count` (at most 8) electra attestations for a block at `slot` to `out`.
void append_attestations(std::uint64_t seed, std::uint64_t slot, std::uint64_t count,
                         std::vector<beacon::electra::mainnet::Attestation>& out);

}  // namespace keel::devnet
