#include "keel/devnet/beacon_state_gen.hpp"

#include <algorithm>
#include <cstring>
#include <type_traits>
#include <utility>
#include <vector>

#include "keel/common/assert.hpp"
#include "keel/common/parallel.hpp"
#include "keel/devnet/beacon_validators.hpp"
#include "keel/devnet/beacon_values.hpp"
#include "keel/ssz/ssz.hpp"

namespace keel::devnet {
namespace {

using beacon::Mainnet;
using detail::kEthInGwei;
using detail::Rng;

// Parts of a state that draw from kBeaconStateStream.
enum StatePart : std::uint64_t {
    kHeaderPart = 0,         // versioning, latest block header, eth1, finality
    kHistoryPart = 1,        // historical roots and summaries
    kRandaoPart = 2,         // randao mixes, slashings
    kSyncPart = 3,           // the sync committees
    kPayloadHeaderPart = 4,  // the latest execution payload header, withdrawal cursors
    kQueuesPart = 5,         // electra churn and pending queues
    kLookaheadPart = 6,      // fulu proposer lookahead
};

// mainnet's historical_roots, frozen at capella (HistoricalBatch roots of 758 periods).
constexpr std::size_t kHistoricalRoots = 758;
// The eth1 block hashes voted on in a period: most votes agree on one of a few candidates.
constexpr std::size_t kEth1Candidates = 3;
// electra queue lengths.
constexpr std::size_t kPendingDeposits = 1000;
constexpr std::size_t kPendingPartialWithdrawals = 100;
constexpr std::size_t kPendingConsolidations = 20;
// Validators per parallel chunk: a task of a few hundred microseconds, enough chunks to keep
// every core busy and the progress line moving.
constexpr std::size_t kValidatorGrain = 4096;

// mainnet's genesis_validators_root.
constexpr std::uint8_t kGenesisValidatorsRoot[32] = {
    0x4b, 0x36, 0x3d, 0xb9, 0x4e, 0x28, 0x61, 0x20, 0xd7, 0x6e, 0xb9, 0x05, 0x34, 0x0f, 0xdd, 0x4e,
    0x54, 0xbf, 0xe9, 0xf0, 0x6b, 0xf3, 0x3f, 0xf6, 0xcf, 0x5a, 0xd2, 0x7f, 0x51, 0x1b, 0xfe, 0x95};

struct StateContext {
    const BeaconStateSpec& spec;
    std::uint64_t slot;
    std::uint64_t epoch;
};

Rng part_rng(const StateContext& ctx, StatePart part, std::uint64_t index = 0) noexcept {
    return Rng(ctx.spec.seed, detail::kBeaconStateStream, part, index);
}

// mainnet fork versions: GENESIS_FORK_VERSION 0x00000000, then 0x01.. per fork.
beacon::Version fork_version(beacon::Fork f) noexcept {
    beacon::Version v;
    v[0] = static_cast<std::uint8_t>(f);
    return v;
}

// The checkpoint of `epoch`: its first slot's block root.
beacon::deneb::Checkpoint checkpoint(const StateContext& ctx, std::uint64_t epoch) noexcept {
    return {epoch, detail::history_root(ctx.spec.seed, detail::kBlockRootKind,
                                        epoch * Mainnet::SLOTS_PER_EPOCH)};
}

template <class State>
void fill_versioning(const StateContext& ctx, State& s, Rng& rng) {
    s.genesis_time = detail::kMainnetGenesisTime;
    std::memcpy(s.genesis_validators_root.data(), kGenesisValidatorsRoot, 32);
    s.slot = ctx.slot;
    const auto fork = ctx.spec.fork;
    s.fork.previous_version = fork_version(static_cast<beacon::Fork>(static_cast<int>(fork) - 1));
    s.fork.current_version = fork_version(fork);
    s.fork.epoch = beacon::mainnet_fork_epoch(fork);

    // The header of the block at this slot; its state root is filled by the next process_slot.
    s.latest_block_header.slot = ctx.slot;
    s.latest_block_header.proposer_index = rng.below(ctx.spec.validators);
    s.latest_block_header.parent_root =
        detail::history_root(ctx.spec.seed, detail::kBlockRootKind, ctx.slot - 1);
    s.latest_block_header.body_root = rng.fixed<32>();
}

template <class State>
void fill_history(const StateContext& ctx, State& s) {
    // block_roots[x % 8192] is the root of slot x for the 8192 slots before this one.
    constexpr std::uint64_t kPeriod = Mainnet::SLOTS_PER_HISTORICAL_ROOT;
    for (std::uint64_t x = ctx.slot - kPeriod; x < ctx.slot; ++x) {
        s.block_roots[x % kPeriod] = detail::history_root(ctx.spec.seed, detail::kBlockRootKind, x);
        s.state_roots[x % kPeriod] = detail::history_root(ctx.spec.seed, detail::kStateRootKind, x);
    }

    Rng history = part_rng(ctx, kHistoryPart);
    s.historical_roots.resize(kHistoricalRoots);
    for (auto& r : s.historical_roots) r = history.fixed<32>();
    const std::uint64_t capella_slot = detail::fork_first_slot(beacon::Fork::capella);
    s.historical_summaries.resize((ctx.slot - capella_slot) / kPeriod);
    for (auto& h : s.historical_summaries) {
        h.block_summary_root = history.fixed<32>();
        h.state_summary_root = history.fixed<32>();
    }
}

template <class State>
void fill_eth1_and_finality(const StateContext& ctx, State& s, Rng& rng) {
    // eth1: every deposit processed; one vote per slot of the current voting period so far.
    s.eth1_data.deposit_root = rng.fixed<32>();
    s.eth1_data.deposit_count = ctx.spec.validators + rng.below(10'000);
    s.eth1_data.block_hash = rng.fixed<32>();
    s.eth1_deposit_index = s.eth1_data.deposit_count;
    beacon::deneb::Eth1Data candidates[kEth1Candidates];
    for (auto& c : candidates) {
        c = s.eth1_data;
        c.deposit_count += rng.below(100);
        c.block_hash = rng.fixed<32>();
    }
    constexpr std::uint64_t kVotingSlots =
        Mainnet::EPOCHS_PER_ETH1_VOTING_PERIOD * Mainnet::SLOTS_PER_EPOCH;
    s.eth1_data_votes.resize(ctx.slot % kVotingSlots);
    for (auto& v : s.eth1_data_votes) v = candidates[rng.chance(90) ? 0 : rng.between(1, 2)];

    // Finality: the last four epochs justified, the one before the last finalized.
    s.justification_bits.bytes[0] = 0x0f;
    s.previous_justified_checkpoint = checkpoint(ctx, ctx.epoch - 2);
    s.current_justified_checkpoint = checkpoint(ctx, ctx.epoch - 1);
    s.finalized_checkpoint = checkpoint(ctx, ctx.epoch - 2);
}

template <class State>
void fill_randao_and_slashings(const StateContext& ctx, State& s) {
    Rng rng = part_rng(ctx, kRandaoPart);
    for (auto& mix : s.randao_mixes) mix = rng.fixed<32>();
    // A slashed validator adds its effective balance to the slot of its slashing epoch.
    for (auto& amount : s.slashings) {
        amount = rng.chance(1) ? 32 * kEthInGwei * rng.between(1, 3) : 0;
    }
}

template <class State>
void fill_registry(const StateContext& ctx, State& s, Progress* progress) {
    const std::size_t n = ctx.spec.validators;
    s.validators.resize(n);
    s.balances.resize(n);
    s.previous_epoch_participation.resize(n);
    s.current_epoch_participation.resize(n);
    s.inactivity_scores.resize(n);
    const ValidatorParams params{ctx.spec.seed, n, ctx.epoch, ctx.spec.fork};
    const ValidatorColumns columns{s.validators, s.balances, s.previous_epoch_participation,
                                   s.current_epoch_participation, s.inactivity_scores};
    parallel::for_ranges(n, kValidatorGrain, [&](std::size_t begin, std::size_t end) {
        fill_validators(params, begin, end, columns);
        if (progress != nullptr) progress->advance(end - begin);
    });
}

// 512 public keys of validators active at the state's epoch, drawn at random (a committee may
// repeat a validator, as the spec's sampling may), and a random aggregate key.
template <class Committee>
void fill_sync_committee(const StateContext& ctx, const std::vector<beacon::deneb::Validator>& vs,
                         std::uint64_t which, Committee& c) {
    Rng rng = part_rng(ctx, kSyncPart, which);
    for (auto& pk : c.pubkeys) {
        std::uint64_t i = rng.below(vs.size());
        // A few tries for an active one (almost all are); a tiny registry may have none.
        for (int t = 0; t < 16 && !is_active(vs[i], ctx.epoch); ++t) i = rng.below(vs.size());
        pk = vs[i].pubkey;
    }
    c.aggregate_pubkey = detail::fake_pubkey(rng);
}

template <class State>
void fill_execution(const StateContext& ctx, State& s) {
    Rng rng = part_rng(ctx, kPayloadHeaderPart);
    auto& h = s.latest_execution_payload_header;
    h.parent_hash = rng.fixed<32>();
    h.fee_recipient = rng.fixed<20>();
    h.state_root = rng.fixed<32>();
    h.receipts_root = rng.fixed<32>();
    rng.fill(h.logs_bloom.mutable_view());
    h.prev_randao = rng.fixed<32>();
    h.block_number = detail::execution_block_number(ctx.slot);
    h.gas_limit = detail::payload_gas_limit(ctx.spec.fork);
    h.gas_used = rng.between(h.gas_limit / 3, h.gas_limit);
    h.timestamp = detail::slot_time(ctx.slot);
    h.extra_data.assign(detail::kBeaconGraffiti.begin(), detail::kBeaconGraffiti.end());
    h.base_fee_per_gas = rng.between(1'000'000'000, 20'000'000'000);
    h.block_hash = rng.fixed<32>();
    h.transactions_root = rng.fixed<32>();
    h.withdrawals_root = rng.fixed<32>();
    h.blob_gas_used = rng.below(7) * detail::kBeaconGasPerBlob;
    h.excess_blob_gas = rng.below(64) * detail::kBeaconGasPerBlob;

    // The withdrawal sweep's cursors: 16 withdrawals per slot since capella, less missed slots.
    const std::uint64_t capella_slot = detail::fork_first_slot(beacon::Fork::capella);
    s.next_withdrawal_index =
        (ctx.slot - capella_slot) * Mainnet::MAX_WITHDRAWALS_PER_PAYLOAD * 99 / 100;
    s.next_withdrawal_validator_index = rng.below(ctx.spec.validators);
}

template <class State>
void fill_electra_queues(const StateContext& ctx, State& s) {
    Rng rng = part_rng(ctx, kQueuesPart);
    const std::uint64_t n = ctx.spec.validators;
    // The deposit-request era has begun and the eth1 bridge has caught up with it.
    s.deposit_requests_start_index = s.eth1_data.deposit_count;
    s.deposit_balance_to_consume = rng.below(256 * kEthInGwei);
    s.exit_balance_to_consume = rng.below(256 * kEthInGwei);
    s.earliest_exit_epoch = ctx.epoch + rng.between(5, 50);
    s.consolidation_balance_to_consume = rng.below(256 * kEthInGwei);
    s.earliest_consolidation_epoch = ctx.epoch + rng.between(5, 300);

    s.pending_deposits.resize(kPendingDeposits);
    for (auto& d : s.pending_deposits) {
        if (rng.chance(50)) {  // a top-up of an existing validator
            const auto& v = s.validators[rng.below(n)];
            d.pubkey = v.pubkey;
            d.withdrawal_credentials = v.withdrawal_credentials;
            d.amount = rng.between(1, 100) * kEthInGwei;
        } else {  // a new validator
            d.pubkey = detail::fake_pubkey(rng);
            d.withdrawal_credentials = detail::address_credentials(0x02, rng.fixed<20>());
            d.amount = 32 * kEthInGwei;
        }
        d.signature = detail::fake_signature(rng);
        d.slot = ctx.slot - rng.below(10'000);
    }
    s.pending_partial_withdrawals.resize(kPendingPartialWithdrawals);
    for (auto& w : s.pending_partial_withdrawals) {
        w.validator_index = rng.below(n);
        w.amount = rng.between(1, 100) * kEthInGwei;
        w.withdrawable_epoch = ctx.epoch + rng.below(256);
    }
    s.pending_consolidations.resize(kPendingConsolidations);
    for (auto& c : s.pending_consolidations) {
        c.source_index = rng.below(n);
        c.target_index = rng.below(n);
    }
}

// fulu (EIP-7917): the proposers of the current and the next epoch. They are drawn from the
// registry rather than computed (compute_proposer_index needs the real shuffling and balances,
// which a benchmark input does not).
void fill_proposer_lookahead(const StateContext& ctx, GeneratedBeaconState::Fulu& s) {
    Rng rng = part_rng(ctx, kLookaheadPart);
    for (auto& index : s.proposer_lookahead) index = rng.below(ctx.spec.validators);
}

template <class State>
std::unique_ptr<State> build(const StateContext& ctx, Progress* progress) {
    // Megabytes of fixed vectors: never on the stack.
    auto s = std::make_unique<State>();
    Rng rng = part_rng(ctx, kHeaderPart);
    fill_versioning(ctx, *s, rng);
    fill_history(ctx, *s);
    fill_eth1_and_finality(ctx, *s, rng);
    fill_randao_and_slashings(ctx, *s);
    fill_registry(ctx, *s, progress);
    fill_sync_committee(ctx, s->validators, 0, s->current_sync_committee);
    fill_sync_committee(ctx, s->validators, 1, s->next_sync_committee);
    fill_execution(ctx, *s);
    if constexpr (!std::is_same_v<State, GeneratedBeaconState::Deneb>) {
        fill_electra_queues(ctx, *s);
    }
    if constexpr (std::is_same_v<State, GeneratedBeaconState::Fulu>) {
        fill_proposer_lookahead(ctx, *s);
    }
    return s;
}

}  // namespace

beacon::Fork GeneratedBeaconState::fork() const noexcept {
    constexpr beacon::Fork kByIndex[] = {beacon::Fork::deneb, beacon::Fork::electra,
                                         beacon::Fork::fulu};
    return kByIndex[state_.index()];
}

std::uint64_t GeneratedBeaconState::slot() const noexcept {
    return std::visit([](const auto& s) { return s->slot; }, state_);
}

std::size_t GeneratedBeaconState::validator_count() const noexcept {
    return std::visit([](const auto& s) { return s->validators.size(); }, state_);
}

const GeneratedBeaconState::Deneb* GeneratedBeaconState::deneb() const noexcept {
    const auto* p = std::get_if<0>(&state_);
    return p != nullptr ? p->get() : nullptr;
}

const GeneratedBeaconState::Electra* GeneratedBeaconState::electra() const noexcept {
    const auto* p = std::get_if<1>(&state_);
    return p != nullptr ? p->get() : nullptr;
}

const GeneratedBeaconState::Fulu* GeneratedBeaconState::fulu() const noexcept {
    const auto* p = std::get_if<2>(&state_);
    return p != nullptr ? p->get() : nullptr;
}

std::size_t GeneratedBeaconState::encoded_size() const noexcept {
    return std::visit([](const auto& s) { return ssz::encoded_size(*s); }, state_);
}

std::uint8_t* GeneratedBeaconState::encode_to(std::uint8_t* out) const noexcept {
    return std::visit([out](const auto& s) { return ssz::encode_to(*s, out); }, state_);
}

Bytes GeneratedBeaconState::encode() const {
    return std::visit([](const auto& s) { return ssz::encode(*s); }, state_);
}

Hash32 GeneratedBeaconState::hash_tree_root() const noexcept {
    return std::visit([](const auto& s) { return ssz::hash_tree_root(*s); }, state_);
}

Result<GeneratedBeaconState, BeaconSpecError> generate_beacon_state(const BeaconStateSpec& spec,
                                                                    Progress* progress) {
    if (auto ok = check(spec); !ok) return unexpected(ok.error());
    const std::uint64_t slot = generated_slot(spec.fork, spec.seed);
    const StateContext ctx{spec, slot, slot / Mainnet::SLOTS_PER_EPOCH};
    if (spec.fork == beacon::Fork::fulu) {
        return GeneratedBeaconState(build<GeneratedBeaconState::Fulu>(ctx, progress));
    }
    if (spec.fork == beacon::Fork::electra) {
        return GeneratedBeaconState(build<GeneratedBeaconState::Electra>(ctx, progress));
    }
    return GeneratedBeaconState(build<GeneratedBeaconState::Deneb>(ctx, progress));
}

}  // namespace keel::devnet
