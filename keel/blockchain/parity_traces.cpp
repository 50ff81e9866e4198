#include "keel/blockchain/parity_traces.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>

#include "keel/blockchain/replay.hpp"
#include "keel/chain/execute.hpp"
#include "keel/common/answer_stream.hpp"
#include "keel/common/hex.hpp"
#include "keel/common/json_writer.hpp"
#include "keel/trace/tx_selector.hpp"

namespace keel::blockchain {
namespace {

// Appends `items` (a JSON array's text) to the array being written in `out`, without its
// brackets, after a comma unless it is the first.
void append_items(std::string& out, bool& first, const std::string& items) {
    if (items.size() <= 2) return;  // []
    if (!first) out += ',';
    out.append(items, 1, items.size() - 2);
    first = false;
}

// The flat traces of `b`'s transactions (`only`: one of them), appended as items.
Result<void, ReadError> append_tx_traces(std::string& out, bool& first,
                                         const store::ChainStore& store, const StoredBlock& b,
                                         std::optional<std::size_t> only) {
    trace::ParityTracer tracer({.trace = true});
    std::string items;
    trace::TxSelector selector(
        [&](std::size_t i, std::uint64_t) -> evm::Tracer* {
            return only && i != *only ? nullptr : &tracer;
        },
        [&](std::size_t i, const evm::TxEndView&) {
            const Hash32& tx_hash = b.block.body.transactions[i].hash();
            items.clear();
            json::Writer w(items);
            tracer.calls().write_flat(w, {.parity = true},
                                      {.block_hash = &b.hash,
                                       .block_number = b.block.header.number,
                                       .tx_hash = &tx_hash,
                                       .tx_index = i});
            append_items(out, first, items);
            json::flush_point(out);  // a streamed answer leaves between transactions
        });
    auto r = replay(store, b, &selector, {.last_tx = only});
    if (!r) return std::unexpected(r.error());
    return {};
}

// The block's rewards before the Merge, appended as items.
void append_rewards(std::string& out, bool& first, const StoredBlock& b) {
    const eth::Header& h = b.block.header;
    const eth::Fork fork = b.config.fork_at(h.number, h.timestamp);
    if (fork >= eth::Fork::paris) return;
    const Uint256 reward = chain::block_reward(fork);
    const auto one = [&](const Address& author, const char* type, const Uint256& value) {
        std::string item;
        json::Writer w(item);
        w.begin_object();
        w.key("action");
        w.begin_object();
        w.member_data("author", author.view());
        w.key("rewardType");
        w.string(type);
        w.member_quantity("value", value);
        w.end_object();
        w.member_data("blockHash", b.hash.view());
        w.key("blockNumber");
        w.number(h.number);
        w.key("result");
        w.null();
        w.key("subtraces");
        w.number(0);
        w.key("traceAddress");
        w.begin_array();
        w.end_array();
        w.key("transactionHash");
        w.null();
        w.key("transactionPosition");
        w.null();
        w.key("type");
        w.string("reward");
        w.end_object();
        append_items(out, first, "[" + item + "]");
    };
    const Uint256 ommers(b.block.body.ommers.size());
    one(h.beneficiary, "block", reward + reward / Uint256(32) * ommers);
    for (const eth::Header& o : b.block.body.ommers) {
        if (o.number >= h.number || h.number - o.number > 6) continue;
        one(o.beneficiary, "uncle", reward * Uint256(8 - (h.number - o.number)) / Uint256(8));
    }
}

struct TxLocationRead {
    std::uint64_t number = 0;
    std::size_t index = 0;
};

Result<TxLocationRead, ReadError> locate(const store::ChainStore& store, const Hash32& tx_hash) {
    auto where = store.tx_lookup(tx_hash);
    if (!where) return std::unexpected(ReadError{false, false, where.error().message});
    if (where->status == store::ReadStatus::pruned) {
        return std::unexpected(ReadError{false, true, "its block's history is pruned"});
    }
    if (!where->found()) return std::unexpected(ReadError{true, false, "transaction not found"});
    return TxLocationRead{where->value.number, where->value.index};
}

}  // namespace

Result<void, ReadError> write_trace_block(std::string& out, const store::ChainStore& store,
                                          const eth::ChainConfig& config, std::uint64_t number) {
    out += '[';
    if (number > 0) {
        auto b = load_for_replay(store, config, number);
        if (!b) return std::unexpected(b.error());
        bool first = true;
        if (auto r = append_tx_traces(out, first, store, *b, std::nullopt); !r) return r;
        append_rewards(out, first, *b);
    } else {
        auto hash = store.canonical_hash(0);
        if (!hash) return std::unexpected(ReadError{false, false, hash.error().message});
        if (!hash->found()) return std::unexpected(ReadError{true, false, "block 0 is not stored"});
    }
    out += ']';
    return {};
}

Result<void, ReadError> write_trace_transaction(std::string& out, const store::ChainStore& store,
                                                const eth::ChainConfig& config,
                                                const Hash32& tx_hash) {
    auto at = locate(store, tx_hash);
    if (!at) return std::unexpected(at.error());
    auto b = load_for_replay(store, config, at->number);
    if (!b) return std::unexpected(b.error());
    out += '[';
    bool first = true;
    if (auto r = append_tx_traces(out, first, store, *b, at->index); !r) return r;
    out += ']';
    return {};
}

Result<void, ReadError> write_trace_get(std::string& out, const store::ChainStore& store,
                                        const eth::ChainConfig& config, const Hash32& tx_hash,
                                        std::uint64_t index) {
    std::string all;
    if (auto r = write_trace_transaction(all, store, config, tx_hash); !r) return r;
    const auto traces = nlohmann::json::parse(all);
    if (traces.size() > 1 && index <= traces.size() - 2) {
        out += traces[static_cast<std::size_t>(index) + 1].dump();
    } else {
        out += "null";
    }
    return {};
}

namespace {

Result<void, ReadError> append_replays(std::string& out, const store::ChainStore& store,
                                       const StoredBlock& b, std::optional<std::size_t> only,
                                       trace::ParityTraceTypes types) {
    trace::ParityTracer tracer(types);
    bool first = true;
    trace::TxSelector selector(
        [&](std::size_t i, std::uint64_t) -> evm::Tracer* {
            return only && i != *only ? nullptr : &tracer;
        },
        [&](std::size_t i, const evm::TxEndView&) {
            if (!only && !first) out += ',';
            first = false;
            tracer.write(out, &b.block.body.transactions[i].hash());
            json::flush_point(out);
        });
    auto r = replay(store, b, &selector, {.last_tx = only});
    if (!r) return std::unexpected(r.error());
    return {};
}

}  // namespace

Result<void, ReadError> write_replay_block(std::string& out, const store::ChainStore& store,
                                           const eth::ChainConfig& config, std::uint64_t number,
                                           trace::ParityTraceTypes types) {
    out += '[';
    if (number > 0) {
        auto b = load_for_replay(store, config, number);
        if (!b) return std::unexpected(b.error());
        if (auto r = append_replays(out, store, *b, std::nullopt, types); !r) return r;
    }
    out += ']';
    return {};
}

Result<void, ReadError> write_replay_transaction(std::string& out, const store::ChainStore& store,
                                                 const eth::ChainConfig& config,
                                                 const Hash32& tx_hash,
                                                 trace::ParityTraceTypes types) {
    auto at = locate(store, tx_hash);
    if (!at) return std::unexpected(at.error());
    auto b = load_for_replay(store, config, at->number);
    if (!b) return std::unexpected(b.error());
    return append_replays(out, store, *b, at->index, types);
}

Result<void, ReadError> write_trace_filter(std::string& out, const store::ChainStore& store,
                                           const eth::ChainConfig& config,
                                           const TraceFilter& filter) {
    using nlohmann::json;
    const auto address_of = [](const json& v) -> std::optional<Address> {
        if (!v.is_string()) return std::nullopt;
        auto a = hex::decode_fixed<Address>(v.get<std::string>());
        if (!a) return std::nullopt;
        return *a;
    };
    const auto matches = [](const std::vector<Address>& any, const std::optional<Address>& a) {
        if (any.empty()) return true;
        return a && std::find(any.begin(), any.end(), *a) != any.end();
    };
    out += '[';
    bool first = true;
    std::uint64_t seen = 0, written = 0;
    for (std::uint64_t n = filter.from; n <= filter.to; ++n) {
        if (filter.count && written >= *filter.count) break;
        std::string block;
        if (auto r = write_trace_block(block, store, config, n); !r) return r;
        const json traces = json::parse(block);
        for (const json& t : traces) {
            const json& a = t["action"];
            std::optional<Address> from = address_of(a.value("from", json()));
            if (!from) from = address_of(a.value("address", json()));
            if (!from) from = address_of(a.value("author", json()));
            std::optional<Address> to = address_of(a.value("to", json()));
            if (!to && t.contains("result") && t["result"].is_object()) {
                to = address_of(t["result"].value("address", json()));
            }
            if (!to) to = address_of(a.value("refundAddress", json()));
            if (!matches(filter.from_addresses, from) || !matches(filter.to_addresses, to)) {
                continue;
            }
            if (seen++ < filter.after) continue;
            if (filter.count && written >= *filter.count) break;
            if (!first) out += ',';
            first = false;
            out += t.dump();
            ++written;
            keel::json::flush_point(out);
        }
        if (n == filter.to) break;  // to = UINT64_MAX
    }
    out += ']';
    return {};
}

}  // namespace keel::blockchain
