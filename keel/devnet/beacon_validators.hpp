#pragma once
/// The per-validator part of a generated beacon state (private to keel/devnet): each validator's
/// registry entry, balance, participation flags and inactivity score, a pure function of
/// (seed, index, count, epoch, fork), so any thread may make any range of them.
///
/// Rules (percentages are per validator, drawn independently):
///   pubkey        random, shaped like a compressed G1 point (not a point)
///   credentials   electra: 0x02 || 11 zero bytes || address for 6%; 0x00 || 31 random bytes
///                 (BLS) for 14%; 0x01 || 11 zero bytes || address otherwise
///   activation    the first min(N, 21063) at genesis (epoch 0, mainnet's genesis count); of
///                 the others, the last N / 200 queued (activation FAR_FUTURE_EPOCH, eligible
///                 0-3 epochs ago); the rest activated at epochs rising linearly with the index, up
///                 to five epochs before the state's, eligible 1-4 epochs before activation
///   exit          8% of the activated exit at a random epoch after activation (up to 8
///                 epochs ahead: initiated exits), withdrawable 256 epochs later
///                 (MIN_VALIDATOR_WITHDRAWABILITY_DELAY); 0.05% are slashed, withdrawable
///                 8192 epochs after the exit (EPOCHS_PER_SLASHINGS_VECTOR)
///   balances      effective 32 ETH (31 ETH for 3% and for the slashed); 0x02: 32-2048 ETH,
///                 skewed to the low end; the balance 0.2 ETH below to 0.06 ETH above the
///                 effective one (2 ETH above for 0x00, whose rewards are never swept); both 0
///                 once a 0x01/0x02 validator is withdrawable (fully withdrawn)
///   participation active validators: 7 (source, target and head timely) for 90%, 0-6 for the
///                 others, drawn for the previous and current epochs apart; others 0
///   inactivity    1-100 for 1% of the active validators, 0 for everyone else

#include <cstddef>
#include <cstdint>
#include <span>

#include "keel/beacon/deneb.hpp"
#include "keel/beacon/fork.hpp"

namespace keel::devnet {

/// What every validator of a state depends on.
struct ValidatorParams {
    std::uint64_t seed = 0;                   ///< the state's seed
    std::uint64_t count = 0;                  ///< N: validators in the state
    std::uint64_t epoch = 0;                  ///< the state's epoch
    beacon::Fork fork = beacon::Fork::deneb;  ///< deneb or electra (0x02 credentials)
};

/// The state's per-validator lists, each of `count` entries, to write into.
struct ValidatorColumns {
    std::span<beacon::deneb::Validator> validators;  ///< registry entries
    std::span<std::uint64_t> balances;               ///< balances in Gwei
    std::span<std::uint8_t> previous_participation;  ///< previous_epoch_participation
    std::span<std::uint8_t> current_participation;   ///< current_epoch_participation
    std::span<std::uint64_t> inactivity_scores;      ///< inactivity_scores
};

/// Writes validators [begin, end) into `out` (see the top of this file). Thread-safe for
/// disjoint ranges.
void fill_validators(const ValidatorParams& params, std::size_t begin, std::size_t end,
                     const ValidatorColumns& out) noexcept;

/// True when `v` is active at `epoch` (phase0 is_active_validator).
constexpr bool is_active(const beacon::deneb::Validator& v, std::uint64_t epoch) noexcept {
    return v.activation_epoch <= epoch && epoch < v.exit_epoch;
}

}  // namespace keel::devnet
