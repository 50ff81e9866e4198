#include "keel/blockchain/executor.hpp"

#include <optional>
#include <utility>

#include "keel/chain/execute.hpp"
#include "keel/chain/genesis.hpp"
#include "keel/chain/header_rules.hpp"
#include "keel/chain/ommers.hpp"
#include "keel/eth/receipt.hpp"
#include "keel/rlp/encode.hpp"

namespace keel::blockchain {
namespace {

using Clock = std::chrono::steady_clock;

// chain::to_string() without its "block <n>" start: the importer names the block.
std::string without_block(const chain::BlockError& e) {
    std::string s = chain::to_string(e);
    const std::string prefix = "block " + std::to_string(e.number);
    if (s.starts_with(prefix)) s.erase(0, prefix.size());
    if (s.starts_with(": ")) s.erase(0, 2);
    if (s.starts_with(" ")) s.erase(0, 1);
    return s;
}

std::unexpected<ExecError> rule(chain::BlockError e) {
    std::string m = without_block(e);
    return std::unexpected(ExecError{std::move(e), std::move(m)});
}

std::unexpected<ExecError> other(std::string m) {
    return std::unexpected(ExecError{std::nullopt, std::move(m)});
}

// A stored ancestor (canonical or side) for the ommer rules.
std::optional<chain::Ancestor> stored_ancestor(const store::ChainStore& store, const Hash32& hash) {
    auto number = store.block_number(hash);
    if (!number || !number->found()) return std::nullopt;
    auto header_rlp = store.header_by_hash(hash);
    if (!header_rlp || !header_rlp->found()) return std::nullopt;
    auto header = eth::decode_header(header_rlp->value);
    if (!header) return std::nullopt;
    chain::Ancestor a{.header = std::move(*header), .hash = hash, .ommers = {}};
    auto body_rlp = store.body_at(number->value, hash);
    if (body_rlp && body_rlp->found()) {
        auto body = eth::decode_body(body_rlp->value);
        if (body) {
            for (const eth::Header& o : body->ommers) a.ommers.push_back(o.hash());
        }
    }
    return a;
}

// execute_on_head() and build_on_head(): with `seal` null the block is checked, with `seal`
// (pointing at `block`) its header's results are filled in and `hash` is ignored.
Result<Executed, ExecError> run_on_head(const store::ChainStore& store,
                                        const eth::ChainConfig& config_in, const eth::Block& block,
                                        eth::Block* seal, const Hash32& hash,
                                        std::size_t encoded_size, ExecutionTimes* times,
                                        std::uint64_t keep_history) {
    const auto t0 = Clock::now();
    const eth::Header& h = block.header;
    auto parent_number = store.block_number(h.parent_hash);
    if (!parent_number) return other(parent_number.error().message);
    if (!parent_number->found()) {
        return rule(chain::BlockError{.code = chain::Errc::unknown_parent, .number = h.number});
    }
    auto parent_rlp = store.header_by_hash(h.parent_hash);
    if (!parent_rlp) return other(parent_rlp.error().message);
    if (!parent_rlp->found()) return other("the parent's header is not stored");
    auto parent = eth::decode_header(parent_rlp->value);
    if (!parent) return other("the parent's header: " + eth::to_string(parent.error()));

    auto merged = merge_rules(store, config_in, h.number, parent_number->value, h.parent_hash);
    if (!merged) return other(merged.error());
    const eth::ChainConfig* config = *merged ? &**merged : &config_in;
    if (seal != nullptr) {
        const eth::Fork fork = config->fork_at(h.number, h.timestamp);
        const eth::Fork parent_fork = config->fork_at(parent->number, parent->timestamp);
        if (fork >= eth::Fork::london)
            seal->header.base_fee_per_gas = chain::expected_base_fee(*parent, parent_fork, fork);
        if (fork >= eth::Fork::cancun)
            seal->header.excess_blob_gas = chain::expected_excess_blob_gas(
                *parent, fork, config->blob_params(fork, h.timestamp));
    } else if (auto v = chain::validate_header(h, *parent, *config); !v) {
        return rule(std::move(v.error()));
    }
    if (!block.body.ommers.empty()) {
        const auto ancestor = [&store](const Hash32& a) { return stored_ancestor(store, a); };
        if (auto v = chain::check_ommers(block, *config, ancestor); !v) {
            return rule(std::move(v.error()));
        }
    }

    auto view = store::StateView::open(store);
    if (!view) return other(view.error().message);
    // What execution reads at the head, the update takes as the values before the block.
    store::HeadReads head_reads;
    view->record_reads(head_reads);
    auto state = store::state_head(store);
    if (!state) return other(state.error().message);
    if (!*state || (*state)->hash != h.parent_hash) {
        return other("the stored state is not the parent's (state head " +
                     (*state ? std::to_string((*state)->number) : std::string("none")) + ")");
    }
    std::string read_error;
    const chain::BlockHashes hashes = stored_hashes(store, read_error);
    std::optional<store::StateUpdate> update;
    std::string state_error;
    Clock::duration state_time{};
    const auto root_of = [&](std::span<const state::AccountChange> changes) {
        const auto s0 = Clock::now();
        auto u = store::prepare_state_update(store, h.number, hash, changes, true, keep_history,
                                             &head_reads);
        state_time += Clock::now() - s0;
        if (!u) {
            if (state_error.empty()) state_error = u.error().message;
            return Hash32{};
        }
        update = std::move(*u);
        return update->state_root;
    };
    const auto t1 = Clock::now();
    auto r = seal != nullptr ? chain::seal_block(*seal, *parent, *config, *view, hashes, root_of)
                             : chain::execute_block(block, *parent, *config, *view, hashes, root_of,
                                                    nullptr, encoded_size);
    const auto t2 = Clock::now();
    // A failure to read state or a damaged trie comes first: the block may be fine.
    if (auto f = view->failure()) return other("state read: " + *f);
    if (!state_error.empty()) return other(state_error);
    if (!read_error.empty()) return other(read_error);
    if (!r) return rule(std::move(r.error()));

    Executed out;
    rlp::Encoder enc(out.receipts_rlp);
    const auto list = enc.begin_list();
    for (const eth::Receipt& receipt : r->receipts) eth::encode_item(receipt, enc);
    enc.end_list(list);
    enc.trim();
    out.state = std::move(*update);
    if (seal != nullptr) out.state.block_hash = seal->header.hash();
    out.gas_used = r->gas_used;
    out.requests = std::move(r->requests);
    out.receipts = std::move(r->receipts);
    if (times != nullptr) {
        times->checks += std::chrono::duration_cast<std::chrono::nanoseconds>(t1 - t0);
        times->execution +=
            std::chrono::duration_cast<std::chrono::nanoseconds>(t2 - t1 - state_time);
        times->state += std::chrono::duration_cast<std::chrono::nanoseconds>(state_time);
        times->blocks += 1;
        times->gas += r->gas_used;
    }
    return out;
}

}  // namespace

chain::BlockHashes stored_hashes(const store::ChainStore& store, std::string& first_error) {
    return [&store, &first_error](std::uint64_t n) {
        auto c = store.canonical_hash(n);
        if (!c || !c->found()) {
            if (first_error.empty())
                first_error = "block hash " + std::to_string(n) + " not stored";
            return Hash32{};
        }
        return c->value;
    };
}

Result<std::optional<eth::ChainConfig>, std::string> merge_rules(const store::ChainStore& store,
                                                                 const eth::ChainConfig& config,
                                                                 std::uint64_t number,
                                                                 std::uint64_t parent_number,
                                                                 const Hash32& parent_hash) {
    // The Merge by total difficulty: Paris's rules from the first block whose parent reached the
    // terminal total difficulty, on this block's own branch (EIP-3675).
    if (!config.terminal_total_difficulty || config.activation(eth::Fork::paris)) {
        return std::optional<eth::ChainConfig>();
    }
    auto td = store.total_difficulty_at(parent_number, parent_hash);
    if (!td) return unexpected(td.error().message);
    if (!td->found()) return unexpected(std::string("the parent's total difficulty is not stored"));
    if (td->value < *config.terminal_total_difficulty) return std::optional<eth::ChainConfig>();
    std::optional<eth::ChainConfig> merged = config;
    merged->set_fork(eth::Fork::paris, number);
    return merged;
}

Result<Executed, ExecError> execute_on_head(const store::ChainStore& store,
                                            const eth::ChainConfig& config, const eth::Block& block,
                                            const Hash32& hash, std::size_t encoded_size,
                                            ExecutionTimes* times, std::uint64_t keep_history) {
    return run_on_head(store, config, block, nullptr, hash, encoded_size, times, keep_history);
}

Result<Executed, ExecError> build_on_head(const store::ChainStore& store,
                                          const eth::ChainConfig& config, eth::Block& block,
                                          ExecutionTimes* times, std::uint64_t keep_history) {
    auto state = store::state_head(store);
    if (!state) return other(state.error().message);
    if (!*state) return other("the store holds no state (keel init makes it)");
    block.header.parent_hash = (*state)->hash;
    block.header.number = (*state)->number + 1;
    return run_on_head(store, config, block, &block, Hash32{}, 0, times, keep_history);
}

Result<eth::ChainConfig, std::string> StoreExecutor::stored_config(const store::ChainStore& store) {
    auto spec = store.chain_spec();
    if (!spec) return unexpected(spec.error().message);
    if (!*spec) {
        return unexpected(std::string(
            "store: no chain spec (the datadir was not made by keel init): cannot execute"));
    }
    const BytesView text = **spec;
    auto genesis = chain::parse_genesis(
        std::string_view(reinterpret_cast<const char*>(text.data()), text.size()));
    if (!genesis) return unexpected("store: chain spec: " + chain::to_string(genesis.error()));
    return std::move(genesis->config);
}

Result<std::unique_ptr<StoreExecutor>, std::string> StoreExecutor::create(
    store::ChainStore& store, std::uint64_t keep_history) {
    auto config = stored_config(store);
    if (!config) return unexpected(config.error());
    return std::unique_ptr<StoreExecutor>(
        new StoreExecutor(store, std::move(*config), keep_history));
}

Result<store::BlockExecutor::Output, std::string> StoreExecutor::execute(
    const store::LinkedBlock& linked) {
    auto header = eth::decode_header(linked.header_rlp);
    if (!header) return unexpected("header: " + eth::to_string(header.error()));
    eth::Block block{.header = std::move(*header), .body = {}};
    if (linked.body != nullptr) {
        block.body = std::move(*linked.body);
    } else {
        auto body = eth::decode_body(linked.body_rlp);
        if (!body) return unexpected("body: " + eth::to_string(body.error()));
        block.body = std::move(*body);
    }
    auto r = execute_on_head(*store_, config_, block, linked.hash, 0, &times_, keep_history_);
    if (!r) return unexpected(std::move(r.error().message));
    return Output{.receipts_rlp = std::move(r->receipts_rlp),
                  .state = std::move(r->state),
                  .gas_used = r->gas_used};
}

}  // namespace keel::blockchain
