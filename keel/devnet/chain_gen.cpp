#include "keel/devnet/chain_gen.hpp"

#include <algorithm>
#include <optional>
#include <utility>
#include <vector>

#include "keel/common/assert.hpp"
#include "keel/common/parallel.hpp"
#include "keel/devnet/detail/block_parts.hpp"
#include "keel/devnet/tx_gen.hpp"
#include "keel/devnet/tx_plan.hpp"
#include "keel/eth/block.hpp"
#include "keel/rlp/encode.hpp"

namespace keel::devnet {
namespace {

// Transactions built per parallel batch: enough to keep every core busy, few enough that a
// batch's memory stays small.
constexpr std::uint64_t kBatchTxs = 2048;
constexpr std::uint64_t kMaxBatchBlocks = 256;

}  // namespace

struct ChainGenerator::State {
    ChainSpec spec;
    AccountSet accounts;
    TxPlanner planner;
    std::uint64_t gas_limit = 0;
    std::uint64_t batch_blocks = 1;

    // The current batch: bodies ready, headers not yet made.
    std::vector<detail::PreparedBody> batch;
    std::size_t batch_pos = 0;
    std::vector<TxPlan> plans;                           // reused
    std::vector<TxSite> sites;                           // where each plan goes
    std::vector<std::size_t> block_start;                // first plan of each batch block, and end
    std::vector<std::optional<eth::Transaction>> slots;  // reused

    std::optional<eth::Header> parent;  // the last block's header
    Hash32 parent_hash;
    Bytes out;  // the last block's encoding
    ChainStats stats;

    explicit State(const ChainSpec& s)
        : spec(s),
          accounts(AccountSet::derive(s.seed)),
          planner(s.seed),
          gas_limit(block_gas_limit(s)),
          batch_blocks(std::clamp<std::uint64_t>(
              kBatchTxs / std::max<std::uint64_t>(s.txs_per_block, 1), 1, kMaxBatchBlocks)) {}

    void prepare_batch();
};

void ChainGenerator::State::prepare_batch() {
    const std::uint64_t first = stats.blocks;
    const std::uint64_t count = std::min(batch_blocks, spec.blocks - first);

    // Sequential: types, senders and nonces in block order.
    plans.clear();
    sites.clear();
    block_start.assign(1, 0);
    for (std::uint64_t b = 0; b < count; ++b) {
        const std::uint64_t number = first + b;
        const std::uint64_t txs = number == 0 ? 0 : spec.txs_per_block;  // the genesis has none
        const eth::Fork fork = fork_at(spec, number);
        planner.plan_block(number, fork, txs, plans);
        for (std::uint64_t i = 0; i < txs; ++i) {
            sites.push_back(TxSite{spec.seed, spec.chain_id, number, i, fork});
        }
        block_start.push_back(plans.size());
    }

    // Parallel: every transaction built and signed from its own stream, into its own slot.
    slots.clear();
    slots.resize(plans.size());
    parallel::for_each_index(plans.size(), 4, [&](std::size_t i) {
        slots[i].emplace(make_transaction(plans[i], sites[i], accounts));
    });

    // Parallel: each block's body, receipts and roots.
    batch.clear();
    batch.resize(count);
    parallel::for_each_index(count, 1, [&](std::size_t b) {
        std::vector<eth::Transaction> txs;
        txs.reserve(block_start[b + 1] - block_start[b]);
        for (std::size_t i = block_start[b]; i < block_start[b + 1]; ++i) {
            txs.push_back(std::move(*slots[i]));
        }
        batch[b] = detail::prepare_body(spec, accounts, first + b, std::move(txs));
    });
    batch_pos = 0;
}

ChainGenerator::ChainGenerator(std::unique_ptr<State> state) noexcept : state_(std::move(state)) {}
ChainGenerator::ChainGenerator(ChainGenerator&&) noexcept = default;
ChainGenerator& ChainGenerator::operator=(ChainGenerator&&) noexcept = default;
ChainGenerator::~ChainGenerator() = default;

Result<ChainGenerator, Error> ChainGenerator::create(const ChainSpec& spec) {
    if (auto ok = check(spec); !ok) return unexpected(ok.error());
    return ChainGenerator(std::make_unique<State>(spec));
}

bool ChainGenerator::done() const noexcept {
    return state_->stats.blocks >= state_->spec.blocks;
}

std::uint64_t ChainGenerator::next_number() const noexcept {
    return state_->stats.blocks;
}

const ChainSpec& ChainGenerator::spec() const noexcept {
    return state_->spec;
}

const AccountSet& ChainGenerator::accounts() const noexcept {
    return state_->accounts;
}

const ChainStats& ChainGenerator::stats() const noexcept {
    return state_->stats;
}

BytesView ChainGenerator::next() {
    State& s = *state_;
    KEEL_ASSERT(!done());
    if (s.batch_pos == s.batch.size()) s.prepare_batch();
    detail::PreparedBody& body = s.batch[s.batch_pos++];

    eth::Block block;
    block.body.transactions = std::move(body.transactions);
    block.body.withdrawals = std::move(body.withdrawals);
    const detail::HeaderContext ctx{s.spec, s.accounts, s.gas_limit,
                                    s.parent ? &*s.parent : nullptr, s.parent_hash};
    block.header = detail::make_header(ctx, body, block.body.ommers);
    for (const eth::Transaction& tx : block.body.transactions) {
        // The fee caps were drawn above the initial base fee, which the base fee never exceeds.
        KEEL_ASSERT(tx.max_fee_per_gas() >= *block.header.base_fee_per_gas);
    }

    s.out.clear();
    {
        rlp::Encoder enc(s.out);
        enc.reserve(eth::encoded_size(block));
        eth::encode(block, enc);
    }
    s.parent_hash = block.header.hash();
    s.stats.blocks += 1;
    s.stats.transactions += block.body.transactions.size();
    s.stats.bytes += s.out.size();
    s.parent = std::move(block.header);
    return s.out;
}

}  // namespace keel::devnet
