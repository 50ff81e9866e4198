#pragma once
/// What `keel devnet gen-beacon-block` and `gen-beacon-state` make: the fork, the seed and the
/// sizes, the rules they must keep, and the mainnet facts both generators share (the slot they
/// place a fork's output at, the execution fork that goes with it). See docs/devnet.md.
///
/// Only deneb, electra and fulu are generated, always with the mainnet preset and at a slot that
/// beacon::mainnet_fork_at_slot() maps to the requested fork, so tools that detect the fork from
/// the slot (`keel ssz block-root`) read the output correctly.

#include <cstdint>
#include <optional>
#include <string_view>

#include "keel/beacon/fork.hpp"
#include "keel/common/result.hpp"
#include "keel/eth/fork.hpp"

namespace keel::devnet {

/// The most validators a generated state may have (mainnet had about 1.1 million active and
/// 2 million registered in 2025).
inline constexpr std::uint64_t kMaxBeaconValidators = 2'000'000;

/// The most execution transactions a generated block may be asked to hold.
inline constexpr std::uint64_t kMaxBeaconBlockTxs = 5000;

/// The block to generate. Defaults make a busy mainnet deneb block of about 140 KB.
struct BeaconBlockSpec {
    beacon::Fork fork = beacon::Fork::deneb;  ///< deneb, electra or fulu
    std::uint64_t seed = 1;                   ///< every arbitrary value derives from it
    /// Attestations in the body; std::nullopt: the fork's maximum, MAX_ATTESTATIONS (128) for
    /// deneb, MAX_ATTESTATIONS_ELECTRA (8) for electra and fulu. At most that maximum.
    std::optional<std::uint64_t> attestations;
    std::uint64_t transactions = 200;  ///< in the execution payload, 0..kMaxBeaconBlockTxs
    bool proposer_slashing = true;     ///< include one proposer slashing
};

/// The state to generate.
struct BeaconStateSpec {
    beacon::Fork fork = beacon::Fork::deneb;  ///< deneb, electra or fulu
    std::uint64_t validators = 0;             ///< 1..kMaxBeaconValidators
    std::uint64_t seed = 1;                   ///< every arbitrary value derives from it
};

/// Why a beacon spec is refused (docs/errors.md, "devnet").
enum class BeaconSpecErrc : std::uint8_t {
    unsupported_fork,       ///< a fork other than deneb, electra or fulu
    too_many_attestations,  ///< more than the fork's maximum
    too_many_txs,           ///< transactions > kMaxBeaconBlockTxs
    no_validators,          ///< validators is 0
    too_many_validators,    ///< validators > kMaxBeaconValidators
};

/// A phrase naming the rule, e.g. "too many validators (want 1..2000000)".
std::string_view describe(BeaconSpecErrc e) noexcept;

/// A refused beacon spec: the code alone, like devnet::Error (a spec has no input offset).
using BeaconSpecError = BeaconSpecErrc;

/// Checks a block spec (fork, then attestations, then transactions); the first failure.
[[nodiscard]] Result<void, BeaconSpecError> check(const BeaconBlockSpec& spec) noexcept;

/// Checks a state spec (fork, then validators); the first failure.
[[nodiscard]] Result<void, BeaconSpecError> check(const BeaconStateSpec& spec) noexcept;

/// The attestation count of a block spec: its own, or the fork's maximum.
std::uint64_t attestation_count(const BeaconBlockSpec& spec) noexcept;

/// The slot a generated block or state of `fork` and `seed` is placed at: between 100,000 and
/// 300,000 slots (two to six weeks) after the fork's first mainnet slot, so that every slot the
/// output refers to (attestations of a few slots back, checkpoints) lies in the same fork.
/// Precondition: fork is deneb, electra or fulu.
std::uint64_t generated_slot(beacon::Fork fork, std::uint64_t seed) noexcept;

/// The execution fork of a consensus fork's payloads: Cancun for deneb, Prague for electra,
/// Osaka for fulu (Fusaka).
constexpr eth::Fork execution_fork(beacon::Fork fork) noexcept {
    switch (fork) {
        case beacon::Fork::fulu:
            return eth::Fork::osaka;
        case beacon::Fork::electra:
            return eth::Fork::prague;
        default:
            return eth::Fork::cancun;
    }
}

}  // namespace keel::devnet
