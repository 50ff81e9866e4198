#include "keel/rpc/chain_methods.hpp"

#include <algorithm>
#include <vector>

#include "keel/blockchain/reads.hpp"
#include "keel/common/hex.hpp"
#include "keel/eth/block.hpp"
#include "keel/eth/json.hpp"
#include "keel/eth/receipt.hpp"
#include "keel/rlp/encode.hpp"
#include "keel/rpc/log_query.hpp"
#include "keel/rpc/params.hpp"
#include "keel/store/state_store.hpp"

namespace keel::rpc {

using nlohmann::json;

namespace {

// A read that found nothing (not stored, pruned) is answered with null; a failure is an error.
Result<void, RpcError> null_or_error(const blockchain::ReadError& e, keel::json::Writer& w) {
    if (!e.not_found && !e.pruned) return std::unexpected(internal_error(e.message));
    w.null();
    return {};
}

void write_tx(keel::json::Writer& w, const blockchain::StoredTransaction& t) {
    // A sender that does not recover is written as null; the object is complete either way.
    (void)eth::write_transaction(w, t.tx, {.with_sender = true, .place = &t.place});
}

// The block and index a "...AndIndex" method names; no block: not stored (answered with null).
struct BlockIndex {
    std::optional<std::uint64_t> block;
    std::uint64_t index = 0;
};

Result<BlockIndex, RpcError> block_and_index(const json& p, const store::ChainStore& store,
                                             StoredBlockParam block_of) {
    if (auto r = at_most(p, 2); !r) return std::unexpected(r.error());
    auto n = block_of(p, store);
    if (!n) return std::unexpected(n.error());
    auto index = quantity_param(p, 1, "hexutil.Uint");
    if (!index) return std::unexpected(index.error());
    return BlockIndex{*n, *index};
}

Result<void, RpcError> tx_at(const json& p, keel::json::Writer& w, const store::ChainStore& store,
                             StoredBlockParam block_of) {
    auto at = block_and_index(p, store, block_of);
    if (!at) return std::unexpected(at.error());
    if (!at->block) {
        w.null();
        return {};
    }
    auto t = blockchain::stored_transaction_at(store, *at->block, at->index);
    if (!t) return null_or_error(t.error(), w);
    write_tx(w, *t);
    return {};
}

Result<void, RpcError> raw_tx(const json& p, keel::json::Writer& w,
                              const store::ChainStore& store) {
    if (auto r = at_most(p, 1); !r) return r;
    auto hash = hash_param(p, 0);
    if (!hash) return std::unexpected(hash.error());
    auto t = blockchain::stored_transaction(store, *hash);
    if (!t) return null_or_error(t.error(), w);
    w.data(t->tx.encoded());
    return {};
}

// A stored block for the raw and uncle methods; a block not stored is geth's "not found".
Result<blockchain::StoredBlockView, RpcError> block_for_raw(std::uint64_t n,
                                                            const store::ChainStore& store) {
    auto b = blockchain::stored_block(store, n);
    if (!b) {
        if (b.error().not_found)
            return std::unexpected(server_error("block #" + std::to_string(n) + " not found"));
        return std::unexpected(internal_error(b.error().message));
    }
    return std::move(*b);
}

Result<void, RpcError> raw_block(const json& p, keel::json::Writer& w,
                                 const store::ChainStore& store, bool header_only) {
    if (auto r = at_most(p, 1); !r) return r;
    auto n = block_number_param(p, 0, store);
    if (!n) return std::unexpected(n.error());
    auto b = block_for_raw(*n, store);
    if (!b) return std::unexpected(b.error());
    if (header_only) {
        w.data(eth::encode(b->header));
        return {};
    }
    if (!b->body) {
        return std::unexpected(server_error("block #" + std::to_string(*n) + "'s body is " +
                                            (b->body_pruned ? "pruned" : "not stored")));
    }
    eth::Block block{std::move(b->header), std::move(*b->body)};
    w.data(eth::encode(block));
    return {};
}

Result<void, RpcError> raw_receipts(const json& p, keel::json::Writer& w,
                                    const store::ChainStore& store) {
    if (auto r = at_most(p, 1); !r) return r;
    auto n = block_number_param(p, 0, store);
    if (!n) return std::unexpected(n.error());
    auto receipts = blockchain::stored_receipts(store, *n);
    if (!receipts) {
        if (receipts.error().not_found || receipts.error().pruned)
            return std::unexpected(server_error(receipts.error().message));
        return std::unexpected(internal_error(receipts.error().message));
    }
    w.begin_array();
    for (const eth::Receipt& r : *receipts) w.data(eth::encode(r));
    w.end_array();
    return {};
}

Result<void, RpcError> uncle_count(const json& p, keel::json::Writer& w,
                                   const store::ChainStore& store, StoredBlockParam block_of) {
    if (auto r = at_most(p, 1); !r) return r;
    auto n = block_of(p, store);
    if (!n) return std::unexpected(n.error());
    if (!*n) {
        w.null();
        return {};
    }
    auto b = blockchain::stored_block(store, **n);
    if (!b) return null_or_error(b.error(), w);
    if (!b->body) {
        w.null();
        return {};
    }
    w.quantity(static_cast<std::uint64_t>(b->body->ommers.size()));
    return {};
}

Result<void, RpcError> uncle_at(const json& p, keel::json::Writer& w,
                                const store::ChainStore& store, StoredBlockParam block_of) {
    auto at = block_and_index(p, store, block_of);
    if (!at) return std::unexpected(at.error());
    if (!at->block) {
        w.null();
        return {};
    }
    auto b = blockchain::stored_block(store, *at->block);
    if (!b) return null_or_error(b.error(), w);
    if (!b->body || at->index >= b->body->ommers.size()) {
        w.null();
        return {};
    }
    // geth shows an uncle as a block of that header alone: no transactions, no uncles.
    const eth::Header& u = b->body->ommers[at->index];
    const eth::BlockBody empty;
    const std::uint64_t size =
        rlp::list_length(eth::encode(u).size() + rlp::list_length(0) + rlp::list_length(0));
    eth::write_block(w, u, u.hash(), std::nullopt, size, &empty, false);
    return {};
}

// ---- proofs and storage values ------------------------------------------------------------------

constexpr std::size_t kMaxSlots = 1024;

Result<Uint256, RpcError> storage_key(const json& v, std::size_t index) {
    if (!v.is_string())
        return std::unexpected(invalid_argument(
            index, "json: cannot unmarshal non-string into Go value of type string"));
    auto k = parse_word(v.get_ref<const std::string&>());
    if (!k)
        return std::unexpected(
            invalid_argument(index, "unable to decode storage key: hex string invalid"));
    return *k;
}

Result<void, RpcError> get_proof(const json& p, keel::json::Writer& w,
                                 const store::ChainStore& store) {
    if (auto r = at_most(p, 3); !r) return r;
    auto address = address_param(p, 0);
    if (!address) return std::unexpected(address.error());
    if (p.size() < 2 || !p[1].is_array())
        return std::unexpected(
            invalid_argument(1, "json: cannot unmarshal non-array into Go value of type []string"));
    if (p[1].size() > kMaxSlots)
        return std::unexpected(
            invalid_argument(1, "too many storage keys: " + std::to_string(p[1].size()) +
                                    ", want at most " + std::to_string(kMaxSlots)));
    std::vector<Uint256> slots;
    for (const json& k : p[1]) {
        auto key = storage_key(k, 1);
        if (!key) return std::unexpected(key.error());
        slots.push_back(*key);
    }
    auto n = block_number_param(p, 2, store);
    if (!n) return std::unexpected(n.error());
    auto proof = store::prove_account(store, *address, slots);
    if (!proof) return std::unexpected(server_error(proof.error().message));
    if (proof->head.number != *n) {
        return std::unexpected(server_error("proofs of block " + std::to_string(*n) +
                                            "'s state are not available: keel keeps " +
                                            "the tries of the head's state (block " +
                                            std::to_string(proof->head.number) + ") only"));
    }
    blockchain::write_account_proof(w, *proof);
    return {};
}

Result<void, RpcError> get_storage_values(const json& p, keel::json::Writer& w,
                                          const store::ChainStore& store) {
    if (auto r = at_most(p, 2); !r) return r;
    if (p.empty() || p[0].is_null())
        return std::unexpected(
            RpcError{ErrorCode::invalid_params, "missing value for required argument 0"});
    if (!p[0].is_object())
        return std::unexpected(invalid_argument(
            0,
            "json: cannot unmarshal non-object into Go value of type map[common.Address][]"
            "common.Hash"));
    if (p[0].empty()) return std::unexpected(RpcError{ErrorCode::invalid_params, "empty request"});
    struct Want {
        Address address;
        std::vector<Uint256> slots;
    };
    std::vector<Want> wants;
    std::size_t total = 0;
    for (const auto& [key, slots] : p[0].items()) {
        json single = json::array({key});
        auto address = address_param(single, 0);
        if (!address) return std::unexpected(invalid_argument(0, "invalid address " + key));
        if (!slots.is_array())
            return std::unexpected(invalid_argument(0, "slots of " + key + " are not an array"));
        total += slots.size();
        if (total > kMaxSlots)
            return std::unexpected(
                RpcError{ErrorCode::invalid_params,
                         "too many slots (max " + std::to_string(kMaxSlots) + ")"});
        Want& want = wants.emplace_back(Want{*address, {}});
        for (const json& s : slots) {
            auto slot = storage_key(s, 0);
            if (!slot) return std::unexpected(slot.error());
            want.slots.push_back(*slot);
        }
    }
    auto n = block_param(p, 1, store);
    if (!n) return std::unexpected(n.error());
    auto view = store::StateView::open(store, *n);
    if (!view) return std::unexpected(server_error(view.error().message));
    w.begin_object();
    for (const Want& want : wants) {
        w.key_data(want.address.view());
        w.begin_array();
        for (const Uint256& slot : want.slots)
            w.data(view->storage(want.address, slot).to_bytes32().view());
        w.end_array();
    }
    w.end_object();
    if (auto f = view->failure()) return std::unexpected(internal_error(*f));
    return {};
}

}  // namespace

void add_chain_methods(Dispatcher& d, const NodeContext& node) {
    const store::ChainStore& store = node.store;
    d.add(
        "eth_getTransactionByHash",
        [&store, pool = node.pool](const json& p, keel::json::Writer& w) -> Result<void, RpcError> {
            if (auto r = at_most(p, 1); !r) return r;
            auto hash = hash_param(p, 0);
            if (!hash) return std::unexpected(hash.error());
            auto t = blockchain::stored_transaction(store, *hash);
            if (!t && t.error().not_found && pool != nullptr) {
                // Not in a block: a pending one, as geth shows it (no block fields).
                if (auto pending = pool->get(*hash)) {
                    (void)eth::write_transaction(
                        w, *pending, {.with_sender = true, .place = nullptr, .pending = true});
                    return {};
                }
            }
            if (!t) return null_or_error(t.error(), w);
            write_tx(w, *t);
            return {};
        });
    d.add("eth_getTransactionByBlockHashAndIndex", [&store](const json& p, keel::json::Writer& w) {
        return tx_at(p, w, store, stored_block_by_hash);
    });
    d.add("eth_getTransactionByBlockNumberAndIndex",
          [&store](const json& p, keel::json::Writer& w) {
              return tx_at(p, w, store, stored_block_by_number);
          });
    for (const char* name : {"eth_getRawTransactionByHash", "debug_getRawTransaction"}) {
        d.add(name, [&store](const json& p, keel::json::Writer& w) { return raw_tx(p, w, store); });
    }
    d.add("debug_getRawHeader",
          [&store](const json& p, keel::json::Writer& w) { return raw_block(p, w, store, true); });
    d.add("debug_getRawBlock",
          [&store](const json& p, keel::json::Writer& w) { return raw_block(p, w, store, false); });
    d.add("debug_getRawReceipts",
          [&store](const json& p, keel::json::Writer& w) { return raw_receipts(p, w, store); });
    d.add("eth_getUncleCountByBlockHash", [&store](const json& p, keel::json::Writer& w) {
        return uncle_count(p, w, store, stored_block_by_hash);
    });
    d.add("eth_getUncleCountByBlockNumber", [&store](const json& p, keel::json::Writer& w) {
        return uncle_count(p, w, store, stored_block_by_number);
    });
    d.add("eth_getUncleByBlockHashAndIndex", [&store](const json& p, keel::json::Writer& w) {
        return uncle_at(p, w, store, stored_block_by_hash);
    });
    d.add("eth_getUncleByBlockNumberAndIndex", [&store](const json& p, keel::json::Writer& w) {
        return uncle_at(p, w, store, stored_block_by_number);
    });
    d.add("eth_getLogs", [node](const json& p, keel::json::Writer& w) -> Result<void, RpcError> {
        if (auto r = at_most(p, 1); !r) return r;
        if (p.empty() || p[0].is_null())
            return std::unexpected(
                RpcError{ErrorCode::invalid_params, "missing value for required argument 0"});
        auto q = log_query_param(p[0], node);
        if (!q) return std::unexpected(q.error());
        auto range = log_range(*q, node);
        if (!range) return std::unexpected(range.error());
        return write_log_range(w, *q, range->first, range->second, node);
    });
    d.add("eth_getProof",
          [&store](const json& p, keel::json::Writer& w) { return get_proof(p, w, store); });
    d.add("eth_getStorageValues", [&store](const json& p, keel::json::Writer& w) {
        return get_storage_values(p, w, store);
    });
}

}  // namespace keel::rpc
