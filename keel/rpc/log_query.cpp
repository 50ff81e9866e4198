#include "keel/rpc/log_query.hpp"

#include <algorithm>
#include <limits>
#include <string>
#include <vector>

#include "keel/common/hex.hpp"
#include "keel/rpc/params.hpp"

namespace keel::rpc {

using nlohmann::json;

namespace {

// geth's limit on the values of one filter position (addresses, or a topic position).
constexpr std::size_t kMaxFilterValues = 1000;
constexpr std::size_t kMaxTopicPositions = 4;

Result<Hash32, RpcError> topic_of(const json& v) {
    if (!v.is_string()) return std::unexpected(invalid_argument(0, "invalid topic(s)"));
    auto h = hex::decode_fixed<Hash32>(v.get_ref<const std::string&>());
    if (!h) return std::unexpected(invalid_argument(0, "invalid topic(s)"));
    return *h;
}

Result<void, RpcError> read_addresses(const json& v, std::vector<Address>& out) {
    const auto one = [&out](const json& a) -> Result<void, RpcError> {
        json single = json::array({a});
        auto address = address_param(single, 0);
        if (!address) return std::unexpected(invalid_argument(0, "invalid address"));
        out.push_back(*address);
        return {};
    };
    if (v.is_null()) return {};
    if (v.is_string()) return one(v);
    if (!v.is_array()) return std::unexpected(invalid_argument(0, "invalid addresses in query"));
    if (v.size() > kMaxFilterValues) {
        return std::unexpected(
            invalid_argument(0, "exceed max addresses or topics per search position"));
    }
    for (const json& a : v)
        if (auto r = one(a); !r) return r;
    return {};
}

Result<void, RpcError> read_topics(const json& v, std::vector<std::vector<Hash32>>& out) {
    if (v.is_null()) return {};
    if (!v.is_array()) return std::unexpected(invalid_argument(0, "invalid topic(s)"));
    if (v.size() > kMaxTopicPositions)
        return std::unexpected(invalid_argument(0, "exceed max topics"));
    for (const json& position : v) {
        std::vector<Hash32>& any = out.emplace_back();
        if (position.is_null()) continue;
        if (position.is_string()) {
            auto t = topic_of(position);
            if (!t) return std::unexpected(t.error());
            any.push_back(*t);
            continue;
        }
        if (!position.is_array()) return std::unexpected(invalid_argument(0, "invalid topic(s)"));
        if (position.size() > kMaxFilterValues) {
            return std::unexpected(
                invalid_argument(0, "exceed max addresses or topics per search position"));
        }
        for (const json& t : position) {
            if (t.is_null()) {  // a null among the alternatives matches any topic
                any.clear();
                break;
            }
            auto h = topic_of(t);
            if (!h) return std::unexpected(h.error());
            any.push_back(*h);
        }
    }
    // Trailing wildcard positions constrain nothing (geth drops them too).
    while (!out.empty() && out.back().empty()) out.pop_back();
    return {};
}

// One end of a log range: a tag or a number ("safe" and "finalized" as block_param reads them);
// "latest", "pending" and
// a missing end are the head.
Result<std::uint64_t, RpcError> range_end(const json& v, std::uint64_t head,
                                          const store::ChainStore& store) {
    if (v.is_null()) return head;
    if (!v.is_string()) return std::unexpected(invalid_argument(0, "invalid block number"));
    const std::string& s = v.get_ref<const std::string&>();
    if (s == "latest" || s == "pending") return head;
    if (s == "safe" || s == "finalized" || s == "earliest") {
        json single = json::array({v});
        auto n = block_param(single, 0, store);
        if (!n) return std::unexpected(n.error());
        return n->value_or(head);
    }
    auto n = parse_quantity(s);
    if (!n) return std::unexpected(invalid_argument(0, n.error()));
    return *n;
}

}  // namespace

Result<LogQuery, RpcError> log_query_param(const json& q, const NodeContext& node) {
    if (!q.is_object())
        return std::unexpected(invalid_argument(
            0, "json: cannot unmarshal non-object into Go value of type filters.FilterCriteria"));
    const auto member = [&q](const char* name) -> json {
        auto it = q.find(name);
        return it == q.end() ? json() : *it;
    };
    LogQuery out;
    out.filter.max_logs = node.max_logs;
    if (auto r = read_addresses(member("address"), out.filter.addresses); !r)
        return std::unexpected(r.error());
    if (auto r = read_topics(member("topics"), out.filter.topics); !r)
        return std::unexpected(r.error());
    const json block_hash = member("blockHash");
    if (!block_hash.is_null()) {
        if (!member("fromBlock").is_null() || !member("toBlock").is_null()) {
            return std::unexpected(invalid_argument(
                0, "cannot specify both BlockHash and FromBlock/ToBlock, choose one or the other"));
        }
        if (!block_hash.is_string())
            return std::unexpected(invalid_argument(0, "invalid block hash"));
        auto n = hash_block_number(block_hash.get_ref<const std::string&>(), 0, node.store);
        if (!n) return std::unexpected(n.error());
        if (!*n) return std::unexpected(server_error("unknown block"));
        out.block = **n;
        return out;
    }
    out.from = member("fromBlock");
    out.to = member("toBlock");
    return out;
}

Result<std::pair<std::uint64_t, std::uint64_t>, RpcError> log_poll_bounds(const LogQuery& q,
                                                                          std::uint64_t head,
                                                                          const NodeContext& node) {
    if (q.block) return std::pair{*q.block, *q.block};
    const auto follows_head = [](const json& v) {
        return v.is_null() || (v.is_string() && (v == "latest" || v == "pending"));
    };
    std::uint64_t from = 0;
    std::uint64_t to = std::numeric_limits<std::uint64_t>::max();
    if (!follows_head(q.from)) {
        auto n = range_end(q.from, head, node.store);
        if (!n) return std::unexpected(n.error());
        from = *n;
    }
    if (!follows_head(q.to)) {
        auto n = range_end(q.to, head, node.store);
        if (!n) return std::unexpected(n.error());
        to = *n;
    }
    return std::pair{from, to};
}

Result<std::pair<std::uint64_t, std::uint64_t>, RpcError> log_range(const LogQuery& q,
                                                                    const NodeContext& node) {
    if (q.block) return std::pair{*q.block, *q.block};
    auto head = head_number(node.store);
    if (!head) return std::unexpected(head.error());
    auto from = range_end(q.from, *head, node.store);
    if (!from) return std::unexpected(from.error());
    auto to = range_end(q.to, *head, node.store);
    if (!to) return std::unexpected(to.error());
    if (*from > *to)
        return std::unexpected(RpcError{ErrorCode::invalid_params, "invalid block range params"});
    if (*to > *head) {
        return std::unexpected(
            RpcError{ErrorCode::invalid_params, "block range extends beyond current head block"});
    }
    if (*to - *from >= node.max_log_blocks) {
        return std::unexpected(
            RpcError{ErrorCode::limit_exceeded,
                     "query spans " + std::to_string(*to - *from + 1) + " blocks, more than the " +
                         std::to_string(node.max_log_blocks) + " allowed (--rpc.logs.maxblocks)"});
    }
    return std::pair{*from, *to};
}

RpcError log_read_error(const blockchain::ReadError& e) {
    if (e.limit_exceeded)
        return RpcError{ErrorCode::limit_exceeded, e.message + " (--rpc.logs.maxresults)"};
    if (e.pruned || e.not_found) return server_error(e.message);
    return internal_error(e.message);
}

Result<void, RpcError> write_log_range(keel::json::Writer& w, const LogQuery& q, std::uint64_t from,
                                       std::uint64_t to, const NodeContext& node) {
    blockchain::LogFilter f = q.filter;
    f.from = from;
    f.to = to;
    if (auto r = blockchain::write_logs(w, node.store, node.config, f); !r)
        return std::unexpected(log_read_error(r.error()));
    return {};
}

}  // namespace keel::rpc
