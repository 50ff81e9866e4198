#include "keel/rpc/block_methods.hpp"

#include "keel/blockchain/reads.hpp"
#include "keel/eth/json.hpp"
#include "keel/rpc/params.hpp"

namespace keel::rpc {

using nlohmann::json;

namespace {

Result<void, RpcError> write_block(const json& p, keel::json::Writer& w,
                                   const store::ChainStore& store, StoredBlockParam resolve) {
    if (auto r = at_most(p, 2); !r) return r;
    auto n = resolve(p, store);
    if (!n) return std::unexpected(n.error());
    const bool full = p.size() > 1 && p[1].is_boolean() && p[1].get<bool>();
    if (p.size() > 1 && !p[1].is_boolean())
        return std::unexpected(
            invalid_argument(1, "json: cannot unmarshal non-bool into Go value of type bool"));
    if (!*n) {
        w.null();
        return {};
    }
    auto b = blockchain::stored_block(store, **n, full);
    if (!b) {
        if (b.error().not_found) {
            w.null();
            return {};
        }
        return std::unexpected(internal_error(b.error().message));
    }
    // No totalDifficulty: geth dropped it from blocks after the merge (1.14), hive compares.
    eth::write_block(w, b->header, b->hash, std::nullopt, b->size, b->body ? &*b->body : nullptr,
                     full);
    return {};
}

Result<void, RpcError> write_count(const json& p, keel::json::Writer& w,
                                   const store::ChainStore& store, StoredBlockParam resolve) {
    if (auto r = at_most(p, 1); !r) return r;
    auto n = resolve(p, store);
    if (!n) return std::unexpected(n.error());
    if (!*n) {
        w.null();
        return {};
    }
    auto b = blockchain::stored_block(store, **n);
    if (!b || !b->body) {
        if (!b && !b.error().not_found) return std::unexpected(internal_error(b.error().message));
        w.null();
        return {};
    }
    w.quantity(static_cast<std::uint64_t>(b->body->transactions.size()));
    return {};
}

}  // namespace

void add_block_methods(Dispatcher& d, const store::ChainStore& store) {
    d.add("eth_getBlockByNumber", [&store](const json& p, keel::json::Writer& w) {
        return write_block(p, w, store, stored_block_by_number);
    });
    d.add("eth_getBlockByHash", [&store](const json& p, keel::json::Writer& w) {
        return write_block(p, w, store, stored_block_by_hash);
    });
    d.add("eth_getBlockTransactionCountByNumber", [&store](const json& p, keel::json::Writer& w) {
        return write_count(p, w, store, stored_block_by_number);
    });
    d.add("eth_getBlockTransactionCountByHash", [&store](const json& p, keel::json::Writer& w) {
        return write_count(p, w, store, stored_block_by_hash);
    });
}

}  // namespace keel::rpc
