#pragma once
/// Filters a client polls, as geth keeps them (eth/filters): eth_newFilter (logs matching a
/// query, as eth_getLogs reads it), eth_newBlockFilter (new canonical block hashes),
/// eth_newPendingTransactionFilter (hashes of transactions the pool took), eth_getFilterChanges
/// (what is new since the last poll: the blocks after the one the filter last saw, the logs of
/// those blocks within the query's range, the pool's new hashes), eth_getFilterLogs (every log
/// of a log filter's query), eth_uninstallFilter. A filter not polled for 5 minutes is removed,
/// as geth does; at most 4,096 live at once; a poll reports at most the last 1,024 blocks. An
/// unknown id is -32000 "filter not found".
///
/// Reorgs: a filter remembers the hashes of the last 128 blocks it reported. When a poll finds
/// some of them no longer canonical (a reorg, or the head set back), a block filter reports the
/// new branch's blocks from the fork on, and a log filter first reports the logs of the
/// replaced blocks that match it with "removed": true (oldest first, read from the stored side
/// blocks), then the new branch's logs. A poll sees the net change since the last one: a
/// branch that came and went between two polls is never reported. A poll reads the canonical
/// hashes of the blocks it reports before and after their logs; when they differ (a reorg
/// landed during the poll) it is done again, at most three times in all, then answered -32000
/// "the chain reorganized during the poll; poll again" with the filter left as it was.

#include <functional>

#include "keel/rpc/methods.hpp"

namespace keel::rpc {

/// Registers the methods above on `d` (the filters live as long as `d`).
void add_filter_methods(Dispatcher& d, const NodeContext& node);

namespace detail {
/// Where a block or log filter poll calls the test hook: after it read the canonical hashes of
/// what it reports, and after it read what it reports (before checking that the chain did not
/// move meanwhile).
enum class PollStage { hashes_read, news_read };
/// Tests only: called by every block or log filter poll at each PollStage, so that a test can
/// move the chain there. Not thread-safe: set it while no poll runs (nullptr: none, the
/// default).
void set_poll_race_hook(std::function<void(PollStage)> hook);
}  // namespace detail

}  // namespace keel::rpc
