#pragma once
/// Values the beacon block and state generators share (private to keel/devnet): their random
/// streams, BLS-looking byte strings, and mainnet constants.
///
/// Public keys, signatures and KZG commitments are NOT valid BLS12-381 points: they are random
/// bytes shaped like compressed points (the compression flag set, the infinity flag clear, a
/// random sign bit, and a first byte below the field modulus's 0x1a), which is all that SSZ
/// decoding and hash_tree_root look at. Nothing generated here verifies.

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>

#include "keel/beacon/common_types.hpp"
#include "keel/beacon/fork.hpp"
#include "keel/beacon/presets.hpp"
#include "keel/common/bytes.hpp"
#include "keel/devnet/detail/rng.hpp"

namespace keel::devnet::detail {

// The beacon generators' streams, numbered apart from the chain generator's Domain values so
// that neither output shifts when the other changes; the keys (a, b) are listed in rng.hpp.
inline constexpr Domain kBeaconBlockStream = Domain::beacon_block;
inline constexpr Domain kBeaconAttestationStream = Domain::beacon_attestation;
inline constexpr Domain kBeaconTxStream = Domain::beacon_tx;
inline constexpr Domain kBeaconValidatorStream = Domain::beacon_validator;
inline constexpr Domain kBeaconStateStream = Domain::beacon_state;
inline constexpr Domain kBeaconHistoryStream = Domain::beacon_history;

/// The parts of a block (or of the spec, for its slot) that draw from kBeaconBlockStream.
enum BlockPart : std::uint64_t {
    kSlotPart = 0,      ///< generated_slot()
    kTxKindsPart = 1,   ///< the size classes of the payload's transactions
    kHeaderPart = 2,    ///< the block's header fields and signature
    kPayloadPart = 3,   ///< the execution payload's fields and withdrawals
    kSyncPart = 4,      ///< the sync aggregate
    kOpsPart = 5,       ///< slashings, exits, BLS changes, blob commitments
    kRequestsPart = 6,  ///< electra execution requests
    kBodyPart = 7,      ///< the body's randao reveal, eth1 data
};

/// mainnet MIN_GENESIS_TIME + GENESIS_DELAY as it happened: the genesis of 1 December 2020.
inline constexpr std::uint64_t kMainnetGenesisTime = 1'606'824'023;
/// mainnet SECONDS_PER_SLOT.
inline constexpr std::uint64_t kSecondsPerSlot = 12;
/// The merge on mainnet: the first proof-of-stake execution block and its slot.
inline constexpr std::uint64_t kMergeBlockNumber = 15'537'394;
inline constexpr std::uint64_t kMergeSlot = 4'700'013;
/// EIP-4844 GAS_PER_BLOB.
inline constexpr std::uint64_t kBeaconGasPerBlob = 131'072;
/// The graffiti of generated blocks and the extra data of their execution payloads.
inline constexpr std::string_view kBeaconGraffiti = "keel devnet";
/// One ether in Gwei (beacon balances are in Gwei).
inline constexpr std::uint64_t kEthInGwei = 1'000'000'000;
/// One Gwei in wei (execution fees are in wei).
inline constexpr std::uint64_t kGweiInWei = 1'000'000'000;
/// phase0 FAR_FUTURE_EPOCH: the epoch of what has not happened (not exiting).
inline constexpr std::uint64_t kFarFutureEpoch = ~std::uint64_t{0};

/// Random bytes shaped like a compressed BLS12-381 point of N bytes (48: G1, 96: G2): see the
/// top of this file. Not a point.
template <std::size_t N>
FixedBytes<N> point_like(Rng& rng) noexcept {
    FixedBytes<N> out = rng.fixed<N>();
    const auto sign = static_cast<std::uint8_t>(out[0] & 0x20);
    out[0] = static_cast<std::uint8_t>(0x80 | sign | (out[0] % 0x1a));
    return out;
}

/// A public-key-looking value (48 bytes).
inline beacon::BLSPubkey fake_pubkey(Rng& rng) noexcept {
    return point_like<48>(rng);
}
/// A signature-looking value (96 bytes).
inline beacon::BLSSignature fake_signature(Rng& rng) noexcept {
    return point_like<96>(rng);
}
/// A KZG-commitment-looking value (48 bytes).
inline beacon::KZGCommitment fake_commitment(Rng& rng) noexcept {
    return point_like<48>(rng);
}

/// The kinds of history_root().
inline constexpr std::uint64_t kBlockRootKind = 0;  ///< the root of the block of a slot
inline constexpr std::uint64_t kStateRootKind = 1;  ///< the root of the state after it

/// Withdrawal credentials of an execution address: prefix (0x01, or 0x02 for a compounding
/// validator) || 11 zero bytes || address (capella ETH1_ADDRESS_WITHDRAWAL_PREFIX, electra
/// COMPOUNDING_WITHDRAWAL_PREFIX).
inline Bytes32 address_credentials(std::uint8_t prefix, const Address& a) noexcept {
    Bytes32 c;
    c[0] = prefix;
    std::memcpy(c.data() + 12, a.data(), Address::size());
    return c;
}

/// The root of kind `kind` of the generated chain at `slot`: one value per (seed, kind, slot),
/// so the block's attestations and parent root agree with each other, and the state's roots
/// vectors with its checkpoints.
inline Hash32 history_root(std::uint64_t seed, std::uint64_t kind, std::uint64_t slot) noexcept {
    Rng rng(seed, kBeaconHistoryStream, kind, slot);
    return rng.fixed<32>();
}

/// The execution block number at `slot` on a mainnet-like chain: the merge block's number plus
/// one block per slot after it, less the ~1% of slots that are missed.
constexpr std::uint64_t execution_block_number(std::uint64_t slot) noexcept {
    return kMergeBlockNumber + (slot - kMergeSlot) * 99 / 100;
}

/// The unix time of `slot` on mainnet.
constexpr std::uint64_t slot_time(std::uint64_t slot) noexcept {
    return kMainnetGenesisTime + slot * kSecondsPerSlot;
}

/// mainnet's block gas limit for the payloads of `fork`: 30M in the deneb (Cancun) era, 36M
/// after the 2025 raise (electra, Prague), 60M by fulu (raised in November 2025, before Osaka).
constexpr std::uint64_t payload_gas_limit(beacon::Fork fork) noexcept {
    if (fork == beacon::Fork::fulu) return 60'000'000;
    return fork == beacon::Fork::electra ? 36'000'000 : 30'000'000;
}

/// The first slot of `fork` on mainnet.
inline std::uint64_t fork_first_slot(beacon::Fork fork) noexcept {
    return beacon::mainnet_fork_epoch(fork) * beacon::Mainnet::SLOTS_PER_EPOCH;
}

}  // namespace keel::devnet::detail
