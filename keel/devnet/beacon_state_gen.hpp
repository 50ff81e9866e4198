#pragma once
/// A deterministic generated beacon state, for benchmarks of SSZ decoding and hash_tree_root on
/// realistic input: a mainnet-preset BeaconState of deneb (default), electra or fulu with N
/// validators
/// (1..2,000,000), at a slot of that fork on mainnet (generated_slot()). See docs/devnet.md.
///
/// Validators (each a pure function of the seed and its index; beacon_validators.hpp):
/// distinct random public keys; withdrawal credentials 0x01 (execution address) for most,
/// 0x00 (BLS) for 14%, and from electra on 0x02 (compounding) for 6%, with effective balances of
/// 32-2048 ETH; activation epochs rising with the index (the first 21,063 at genesis), the
/// last 0.5% still queued (FAR_FUTURE_EPOCH), 8% exited or exiting, 0.05% slashed; balances
/// near the effective balance (0 once fully withdrawn); participation flags mostly 7 (all
/// three timely flags), inactivity scores mostly 0.
///
/// The rest: randao mixes, block and state roots filled (the roots agree with the checkpoints),
/// 758 historical roots (mainnet's, frozen at capella) and one historical summary per 8192 slots
/// since capella (some hundreds); eth1 data and the votes of the current voting period; all four
/// justification bits; current and next sync committees of 512 validator public keys each
/// (active validators, drawn at random) with a random aggregate key; a filled execution payload
/// header. electra adds the churn fields and pending deposits (1000), partial withdrawals (100)
/// and consolidations (20); fulu adds the proposer lookahead (64 validator indices of the
/// current and next epoch, drawn from the registry).
///
/// Public keys and signatures are random bytes shaped like compressed BLS12-381 points, NOT
/// valid points (beacon_values.hpp); the aggregate keys are not aggregates.
///
/// The output depends only on the spec, not on the thread count: validators are generated on
/// the oneTBB pool in chunks, each from its own random streams. 1,000,000 validators take about
/// 0.2 s on two cores (hash_tree_root of the result about twice that). A mainnet BeaconState
/// holds megabytes of fixed vectors, so the state lives on the heap.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <variant>

#include "keel/beacon/deneb.hpp"
#include "keel/beacon/electra.hpp"
#include "keel/beacon/fulu.hpp"
#include "keel/common/bytes.hpp"
#include "keel/common/progress.hpp"
#include "keel/common/result.hpp"
#include "keel/devnet/beacon_spec.hpp"

namespace keel::devnet {

/// A generated state of either fork. Movable, not copyable.
class GeneratedBeaconState {
  public:
    /// The deneb state.
    using Deneb = beacon::deneb::mainnet::BeaconState;
    /// The electra state.
    using Electra = beacon::electra::mainnet::BeaconState;
    /// The fulu state.
    using Fulu = beacon::fulu::mainnet::BeaconState;

    /// Takes ownership of a state (not null).
    explicit GeneratedBeaconState(std::unique_ptr<Deneb> s) noexcept : state_(std::move(s)) {}
    explicit GeneratedBeaconState(std::unique_ptr<Electra> s) noexcept : state_(std::move(s)) {}
    explicit GeneratedBeaconState(std::unique_ptr<Fulu> s) noexcept : state_(std::move(s)) {}

    /// deneb, electra or fulu.
    beacon::Fork fork() const noexcept;
    /// The state's slot.
    std::uint64_t slot() const noexcept;
    /// The number of validators.
    std::size_t validator_count() const noexcept;

    /// The deneb state, or nullptr when fork() is another.
    const Deneb* deneb() const noexcept;
    /// The electra state, or nullptr when fork() is another.
    const Electra* electra() const noexcept;
    /// The fulu state, or nullptr when fork() is another.
    const Fulu* fulu() const noexcept;

    /// The exact size of the SSZ encoding.
    std::size_t encoded_size() const noexcept;
    /// Writes the SSZ encoding (encoded_size() bytes) to `out`; returns the end.
    std::uint8_t* encode_to(std::uint8_t* out) const noexcept;
    /// The SSZ encoding, in one allocation.
    Bytes encode() const;
    /// hash_tree_root of the state (large lists merkleized on the oneTBB pool).
    Hash32 hash_tree_root() const noexcept;

  private:
    std::variant<std::unique_ptr<Deneb>, std::unique_ptr<Electra>, std::unique_ptr<Fulu>> state_;
};

/// The state of `spec`, or the first rule it breaks (check()). When `progress` is not null it
/// is advanced by one per validator generated (from several threads). Throws std::bad_alloc
/// when the state does not fit in memory: about 3 MB plus 146 bytes per validator (its SSZ
/// encoding is about 142 bytes per validator more).
[[nodiscard]] Result<GeneratedBeaconState, BeaconSpecError> generate_beacon_state(
    const BeaconStateSpec& spec, Progress* progress = nullptr);

}  // namespace keel::devnet
