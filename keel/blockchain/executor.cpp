#include "keel/blockchain/executor.hpp"

#include <optional>
#include <utility>

#include "keel/chain/execute.hpp"
#include "keel/chain/genesis.hpp"
#include "keel/chain/header_rules.hpp"
#include "keel/chain/ommers.hpp"
#include "keel/eth/block.hpp"
#include "keel/eth/receipt.hpp"
#include "keel/rlp/encode.hpp"
#include "keel/store/state_store.hpp"

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

// A canonical ancestor for the ommer rules, read from the store.
std::optional<chain::Ancestor> stored_ancestor(const store::ChainStore& store, const Hash32& hash) {
    auto number = store.block_number(hash);
    if (!number || !number->found()) return std::nullopt;
    auto header_rlp = store.header_by_hash(hash);
    if (!header_rlp || !header_rlp->found()) return std::nullopt;
    auto header = eth::decode_header(header_rlp->value);
    if (!header) return std::nullopt;
    chain::Ancestor a{.header = std::move(*header), .hash = hash, .ommers = {}};
    auto body_rlp = store.body(number->value);
    if (body_rlp && body_rlp->found()) {
        auto body = eth::decode_body(body_rlp->value);
        if (body) {
            for (const eth::Header& o : body->ommers) a.ommers.push_back(o.hash());
        }
    }
    return a;
}

}  // namespace

Result<std::unique_ptr<StoreExecutor>, std::string> StoreExecutor::create(
    store::ChainStore& store) {
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
    return std::unique_ptr<StoreExecutor>(new StoreExecutor(store, std::move(genesis->config)));
}

Result<store::BlockExecutor::Output, std::string> StoreExecutor::execute(
    const store::LinkedBlock& linked) {
    const auto t0 = Clock::now();
    auto header = eth::decode_header(linked.header_rlp);
    if (!header) return unexpected("header: " + eth::to_string(header.error()));
    auto body = eth::decode_body(linked.body_rlp);
    if (!body) return unexpected("body: " + eth::to_string(body.error()));
    const eth::Block block{.header = std::move(*header), .body = std::move(*body)};
    if (linked.number == 0)
        return unexpected(std::string("a genesis block is written by keel init"));
    const std::uint64_t parent_number = linked.number - 1;
    auto parent_rlp = store_->header_by_number(parent_number);
    if (!parent_rlp) return unexpected(parent_rlp.error().message);
    if (!parent_rlp->found()) return unexpected(std::string("the parent's header is not stored"));
    auto parent = eth::decode_header(parent_rlp->value);
    if (!parent) return unexpected("the parent's header: " + eth::to_string(parent.error()));

    // The Merge by total difficulty: Paris's rules from the first block whose parent reached
    // the terminal total difficulty (EIP-3675).
    const eth::ChainConfig* config = &config_;
    std::optional<eth::ChainConfig> merged;
    if (config_.terminal_total_difficulty && !config_.activation(eth::Fork::paris)) {
        auto td = store_->total_difficulty(parent_number);
        if (!td) return unexpected(td.error().message);
        if (!td->found())
            return unexpected(std::string("the parent's total difficulty is not stored"));
        auto stored_merge = store_->merge_block();
        if (!stored_merge) return unexpected(stored_merge.error().message);
        std::optional<std::uint64_t> merge_at;
        if (*stored_merge && **stored_merge <= linked.number) merge_at = **stored_merge;
        if (!merge_at && td->value >= *config_.terminal_total_difficulty) merge_at = linked.number;
        if (merge_at) {
            merged = config_;
            merged->set_fork(eth::Fork::paris, *merge_at);
            config = &*merged;
        }
    }
    if (auto v = chain::validate_header(block.header, *parent, *config); !v) {
        return unexpected(without_block(v.error()));
    }
    if (!block.body.ommers.empty()) {
        const auto ancestor = [this](const Hash32& hash) { return stored_ancestor(*store_, hash); };
        if (auto v = chain::check_ommers(block, *config, ancestor); !v) {
            return unexpected(without_block(v.error()));
        }
    }

    auto view = store::StateView::open(*store_);
    if (!view) return unexpected(view.error().message);
    if (view->number() != parent_number) {
        return unexpected("the stored state is block " + std::to_string(view->number()) +
                          "'s, not the parent's");
    }
    std::string read_error;
    const auto hashes = [&](std::uint64_t n) {
        auto h = store_->canonical_hash(n);
        if (!h || !h->found()) {
            if (read_error.empty()) read_error = "block hash " + std::to_string(n) + " not stored";
            return Hash32{};
        }
        return h->value;
    };
    std::optional<store::StateUpdate> update;
    std::string state_error;
    Clock::duration state_time{};
    const auto root_of = [&](std::span<const state::AccountChange> changes) {
        const auto s0 = Clock::now();
        auto u = store::prepare_state_update(*store_, linked.number, linked.hash, changes);
        state_time += Clock::now() - s0;
        if (!u) {
            if (state_error.empty()) state_error = u.error().message;
            return Hash32{};
        }
        update = std::move(*u);
        return update->state_root;
    };
    const auto t1 = Clock::now();
    auto r = chain::execute_block(block, *parent, *config, *view, hashes, root_of);
    const auto t2 = Clock::now();
    // A failure to read state or a damaged trie comes first: the block may be fine.
    if (auto f = view->failure()) return unexpected("state read: " + *f);
    if (!state_error.empty()) return unexpected(state_error);
    if (!read_error.empty()) return unexpected(read_error);
    if (!r) return unexpected(without_block(r.error()));

    Output out;
    rlp::Encoder enc(out.receipts_rlp);
    const auto list = enc.begin_list();
    for (const eth::Receipt& receipt : r->receipts) eth::encode_item(receipt, enc);
    enc.end_list(list);
    enc.trim();
    out.state = std::move(*update);
    out.gas_used = r->gas_used;
    times_.checks += std::chrono::duration_cast<std::chrono::nanoseconds>(t1 - t0);
    times_.execution += std::chrono::duration_cast<std::chrono::nanoseconds>(t2 - t1 - state_time);
    times_.state += std::chrono::duration_cast<std::chrono::nanoseconds>(state_time);
    times_.blocks += 1;
    times_.gas += r->gas_used;
    return out;
}

}  // namespace keel::blockchain
