#include "keel/rpc/block_methods.hpp"

#include "keel/blockchain/reads.hpp"
#include "keel/eth/json.hpp"
#include "keel/rpc/state_methods.hpp"
#include "keel/rpc/web3_methods.hpp"

namespace keel::rpc {

using nlohmann::json;

namespace {

// Which block a request names: a number (by tag or number) or a hash; nullopt: not stored
// (answered with null, as geth does).
using Named = Result<std::optional<std::uint64_t>, RpcError>;

Named by_number(const json& p, const store::ChainStore& store) {
    auto n = block_param(p, 0, store);
    if (!n) {
        // A number past the head is null here (geth), not "header not found".
        if (n.error().code == ErrorCode::server_error) return std::optional<std::uint64_t>();
        return std::unexpected(n.error());
    }
    if (*n) return n;
    auto head = store.head();
    if (!head) return std::unexpected(RpcError{ErrorCode::internal_error, head.error().message});
    return *head;
}

Named by_hash(const json& p, const store::ChainStore& store) {
    auto text = string_param(p, 0, "common.Hash");
    if (!text) return std::unexpected(text.error());
    return hash_block_number(**text, 0, store);  // not stored: null
}

using Resolve = Named (*)(const json&, const store::ChainStore&);

Result<void, RpcError> write_block(const json& p, keel::json::Writer& w,
                                   const store::ChainStore& store, Resolve resolve) {
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
    auto b = blockchain::stored_block(store, **n);
    if (!b) {
        if (b.error().not_found) {
            w.null();
            return {};
        }
        return std::unexpected(RpcError{ErrorCode::internal_error, b.error().message});
    }
    eth::write_block(w, b->header, b->hash, b->total_difficulty, b->size,
                     b->body ? &*b->body : nullptr, full);
    return {};
}

Result<void, RpcError> write_count(const json& p, keel::json::Writer& w,
                                   const store::ChainStore& store, Resolve resolve) {
    if (auto r = at_most(p, 1); !r) return r;
    auto n = resolve(p, store);
    if (!n) return std::unexpected(n.error());
    if (!*n) {
        w.null();
        return {};
    }
    auto b = blockchain::stored_block(store, **n);
    if (!b || !b->body) {
        if (!b && !b.error().not_found)
            return std::unexpected(RpcError{ErrorCode::internal_error, b.error().message});
        w.null();
        return {};
    }
    w.quantity(static_cast<std::uint64_t>(b->body->transactions.size()));
    return {};
}

}  // namespace

void add_block_methods(Dispatcher& d, const store::ChainStore& store) {
    d.add("eth_getBlockByNumber", [&store](const json& p, keel::json::Writer& w) {
        return write_block(p, w, store, by_number);
    });
    d.add("eth_getBlockByHash", [&store](const json& p, keel::json::Writer& w) {
        return write_block(p, w, store, by_hash);
    });
    d.add("eth_getBlockTransactionCountByNumber", [&store](const json& p, keel::json::Writer& w) {
        return write_count(p, w, store, by_number);
    });
    d.add("eth_getBlockTransactionCountByHash", [&store](const json& p, keel::json::Writer& w) {
        return write_count(p, w, store, by_hash);
    });
}

}  // namespace keel::rpc
