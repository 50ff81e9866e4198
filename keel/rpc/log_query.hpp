#pragma once
/// Log queries (eth_getLogs, and the log filters of filter_methods.hpp), read as geth reads
/// them: a blockHash, or a fromBlock/toBlock range (tags, numbers; missing: the head), addresses
/// (one or a list, at most 1,000) and topics by position (at most 4 positions; null, one, or a
/// list of alternatives, at most 1,000). A range is checked against the head and NodeContext's
/// limits when it is resolved, so that a filter's "latest" follows the head.

#include <cstdint>
#include <optional>
#include <utility>

#include <nlohmann/json.hpp>

#include "keel/blockchain/reads.hpp"
#include "keel/rpc/methods.hpp"

namespace keel::rpc {

/// A log query: what matches (addresses, topics) and where (a block, or range ends as given).
struct LogQuery {
    blockchain::LogFilter filter;        ///< addresses and topics; its range set by log_range()
    std::optional<std::uint64_t> block;  ///< a blockHash query's block
    nlohmann::json from = nullptr;       ///< fromBlock as given (null: the head)
    nlohmann::json to = nullptr;         ///< toBlock as given (null: the head)
};

/// Reads filters.FilterCriteria (argument 0). Errors: -32602 with geth's words, -32000
/// "unknown block" for a blockHash the store does not have.
[[nodiscard]] Result<LogQuery, RpcError> log_query_param(const nlohmann::json& criteria,
                                                         const NodeContext& node);

/// The blocks a log filter's polls report from: its range ends as numbers at `head`, except
/// that "latest", "pending" and a missing end bound nothing (as geth's filters: each new block's
/// logs are news), so a poll covering several new blocks reports them all.
[[nodiscard]] Result<std::pair<std::uint64_t, std::uint64_t>, RpcError> log_poll_bounds(
    const LogQuery& q, std::uint64_t head, const NodeContext& node);

/// The query's blocks now: [from, to], checked ("invalid block range params", "block range
/// extends beyond current head block", and -32005 past NodeContext::max_log_blocks).
[[nodiscard]] Result<std::pair<std::uint64_t, std::uint64_t>, RpcError> log_range(
    const LogQuery& q, const NodeContext& node);

/// A log read's failure as the client sees it: -32005 past NodeContext::max_logs, -32000 for
/// history that is pruned or not stored, -32603 for a damaged store.
[[nodiscard]] RpcError log_read_error(const blockchain::ReadError& e);

/// Writes the logs of blocks [from, to] that match `q` (a JSON array), within
/// NodeContext::max_logs (-32005 past it).
[[nodiscard]] Result<void, RpcError> write_log_range(json::Writer& w, const LogQuery& q,
                                                     std::uint64_t from, std::uint64_t to,
                                                     const NodeContext& node);

}  // namespace keel::rpc
