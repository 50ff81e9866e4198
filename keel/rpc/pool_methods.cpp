#include "keel/rpc/pool_methods.hpp"

#include <map>

#include "keel/blockchain/executor.hpp"
#include "keel/blockchain/reads.hpp"
#include "keel/chain/header_rules.hpp"
#include "keel/common/hex.hpp"
#include "keel/eth/json.hpp"
#include "keel/rpc/params.hpp"
#include "keel/store/state_store.hpp"

namespace keel::rpc {

using nlohmann::json;

Result<txpool::Head, std::string> pool_head(const store::ChainStore& store,
                                            const eth::ChainConfig& config) {
    auto head = store.head();
    if (!head) return unexpected(head.error().message);
    auto h = blockchain::canonical_header(store, head->value_or(0));
    if (!h) return unexpected(h.error().message);
    const eth::Header& parent = h->header;
    eth::ChainConfig rules = config;
    if (auto merged =
            blockchain::merge_rules(store, config, parent.number + 1, parent.number, h->hash);
        merged && *merged) {
        rules = std::move(**merged);
    }
    txpool::Head out;
    out.number = parent.number;
    out.fork = rules.fork_at(parent.number + 1, parent.timestamp);
    out.chain_id = config.chain_id.as_u64();
    out.gas_limit = parent.gas_limit;
    if (out.fork >= eth::Fork::london) {
        out.base_fee = chain::expected_base_fee(
            parent, rules.fork_at(parent.number, parent.timestamp), out.fork);
    }
    return out;
}

namespace {

// Pending and queued transactions, by sender then nonce.
struct Grouped {
    std::map<Address, std::map<std::uint64_t, const eth::Transaction*>> pending, queued;
};

void write_group(keel::json::Writer& w,
                 const std::map<Address, std::map<std::uint64_t, const eth::Transaction*>>& g,
                 const std::optional<Address>& only, bool inspect) {
    w.begin_object();
    for (const auto& [sender, txs] : g) {
        if (only && sender != *only) continue;
        if (!only) w.key_data(sender.view());
        if (!only) w.begin_object();
        for (const auto& [nonce, tx] : txs) {
            w.key(std::to_string(nonce));
            if (inspect) {
                const auto to = tx->to();
                w.string(
                    (to ? hex::encode_prefixed(to->view()) : std::string("contract creation")) +
                    ": " + tx->value().to_dec() + " wei + " + std::to_string(tx->gas_limit()) +
                    " gas × " + tx->max_fee_per_gas().to_dec() + " wei");
            } else {
                (void)eth::write_transaction(
                    w, *tx, {.with_sender = true, .place = nullptr, .pending = true});
            }
        }
        if (!only) w.end_object();
    }
    w.end_object();
}

Result<void, RpcError> content(const json& p, keel::json::Writer& w, txpool::Pool& pool, bool from,
                               bool inspect) {
    if (auto r = at_most(p, from ? 1 : 0); !r) return r;
    std::optional<Address> only;
    if (from) {
        auto a = address_param(p, 0);
        if (!a) return std::unexpected(a.error());
        only = *a;
    }
    // Copies: the pool's lock is not held while writing.
    std::vector<std::pair<Address, std::pair<bool, eth::Transaction>>> kept;
    pool.for_each([&](const txpool::Kept& k) {
        if (!only || k.sender == *only) kept.push_back({k.sender, {k.pending, *k.tx}});
    });
    Grouped g;
    for (const auto& [sender, pt] : kept)
        (pt.first ? g.pending : g.queued)[sender][pt.second.nonce()] = &pt.second;
    w.begin_object();
    w.key("pending");
    write_group(w, g.pending, only, inspect);
    w.key("queued");
    write_group(w, g.queued, only, inspect);
    w.end_object();
    return {};
}

}  // namespace

void add_pool_methods(Dispatcher& d, const NodeContext& node) {
    if (node.pool == nullptr) return;
    txpool::Pool& pool = *node.pool;
    d.add("eth_sendRawTransaction",
          [node, &pool](const json& p, keel::json::Writer& w) -> Result<void, RpcError> {
              if (auto r = at_most(p, 1); !r) return r;
              auto raw = data_param(p, 0);
              if (!raw) return std::unexpected(raw.error());
              auto head = pool_head(node.store, node.config);
              if (!head) return std::unexpected(internal_error(head.error()));
              auto view = store::StateView::open(node.store);
              if (!view) return std::unexpected(internal_error(view.error().message));
              auto hash = pool.add(*raw, *head, *view);
              if (!hash) return std::unexpected(server_error(hash.error()));
              w.data(hash->view());
              return {};
          });
    d.add("txpool_status", [&pool](const json& p, keel::json::Writer& w) -> Result<void, RpcError> {
        if (auto r = at_most(p, 0); !r) return r;
        const txpool::Status s = pool.status();
        w.begin_object();
        w.member_quantity("pending", static_cast<std::uint64_t>(s.pending));
        w.member_quantity("queued", static_cast<std::uint64_t>(s.queued));
        w.end_object();
        return {};
    });
    d.add("txpool_content", [&pool](const json& p, keel::json::Writer& w) {
        return content(p, w, pool, false, false);
    });
    d.add("txpool_contentFrom", [&pool](const json& p, keel::json::Writer& w) {
        return content(p, w, pool, true, false);
    });
    d.add("txpool_inspect", [&pool](const json& p, keel::json::Writer& w) {
        return content(p, w, pool, false, true);
    });
}

}  // namespace keel::rpc
