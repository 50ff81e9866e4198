#include "keel/rpc/filter_methods.hpp"

#include <algorithm>
#include <chrono>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "keel/blockchain/reads.hpp"
#include "keel/common/hex.hpp"
#include "keel/eth/json.hpp"
#include "keel/rpc/log_query.hpp"
#include "keel/rpc/params.hpp"
#include "keel/rpc/random_id.hpp"

namespace keel::rpc {

using nlohmann::json;

namespace {

using Clock = std::chrono::steady_clock;
constexpr auto kFilterLifetime = std::chrono::minutes(5);
constexpr std::size_t kMaxFilters = 4096;
constexpr std::uint64_t kMaxBlocksPerPoll = 1024;

constexpr std::size_t kKeptHashes = 128;  ///< reported blocks remembered, to find a reorg's fork

struct Filter {
    enum class Kind { logs, blocks, pending } kind = Kind::blocks;
    LogQuery query;
    std::uint64_t next_block = 0;  ///< the first block not reported yet
    /// The hashes of the last blocks reported (up to next_block - 1) as they were then: a poll
    /// that finds them replaced reports the new branch (and, for logs, the old one's removed).
    std::deque<Hash32> reported;
    std::unordered_set<Hash32> seen;  ///< pending: the pool's hashes reported (or there at birth)
    Clock::time_point polled;
};

class Filters {
  public:
    explicit Filters(const NodeContext& node) : node_(node) {}

    Result<std::string, RpcError> add(Filter f) {
        std::lock_guard lock(mutex_);
        expire();
        if (map_.size() >= kMaxFilters)
            return std::unexpected(RpcError{ErrorCode::limit_exceeded,
                                            "too many filters (at most 4096; uninstall some)"});
        auto id = random_id();
        if (!id) return std::unexpected(internal_error("no randomness for a filter id"));
        std::string key = std::move(*id);
        f.polled = Clock::now();
        map_.emplace(key, std::move(f));
        return key;
    }

    bool remove(const std::string& id) {
        std::lock_guard lock(mutex_);
        return map_.erase(id) != 0;
    }

    // Runs `f` on the filter `id` under the lock (the poll updates it).
    template <typename F>
    Result<void, RpcError> with(const std::string& id, F&& f) {
        std::lock_guard lock(mutex_);
        expire();
        auto it = map_.find(id);
        if (it == map_.end()) return std::unexpected(server_error("filter not found"));
        it->second.polled = Clock::now();
        return f(it->second);
    }

    const NodeContext& node() const { return node_; }

  private:
    void expire() {
        const auto now = Clock::now();
        std::erase_if(map_,
                      [now](const auto& kv) { return now - kv.second.polled > kFilterLifetime; });
    }

    NodeContext node_;
    std::mutex mutex_;
    std::unordered_map<std::string, Filter> map_;
};

Result<std::string, RpcError> id_param(const json& p) {
    if (auto r = at_most(p, 1); !r) return std::unexpected(r.error());
    auto text = string_param(p, 0, "rpc.ID");
    if (!text) return std::unexpected(text.error());
    return **text;
}

std::unordered_set<Hash32> pool_hashes(const NodeContext& node) {
    std::unordered_set<Hash32> out;
    if (node.pool != nullptr)
        node.pool->for_each([&out](const txpool::Kept& k) { out.insert(k.tx->hash()); });
    return out;
}

// What a poll answers when the chain moved under it kPollTries times running.
constexpr std::string_view kChainMovedDuringPoll =
    "the chain reorganized during the poll; poll again";
constexpr int kPollTries = 3;

std::function<void(detail::PollStage)>& poll_race_hook() {
    static std::function<void(detail::PollStage)> hook;
    return hook;
}

// The canonical hashes of blocks [from, last] (nullopt where none is stored: the head moved
// back); empty when from > last.
Result<std::vector<std::optional<Hash32>>, RpcError> canonical_hashes(std::uint64_t from,
                                                                      std::uint64_t last,
                                                                      const NodeContext& node) {
    std::vector<std::optional<Hash32>> out;
    for (std::uint64_t n = from; n <= last && from <= last; ++n) {
        auto h = node.store.canonical_hash(n);
        if (!h) return std::unexpected(internal_error(h.error().message));
        out.push_back(h->found() ? std::optional<Hash32>(h->value) : std::nullopt);
    }
    return out;
}

// Takes off f.reported the blocks that are not canonical under `head` any more (a reorg, or
// the head set back), moving next_block back to the first of them; returns them oldest first.
Result<std::vector<std::pair<std::uint64_t, Hash32>>, RpcError> take_replaced(
    Filter& f, std::uint64_t head, const NodeContext& node) {
    std::vector<std::pair<std::uint64_t, Hash32>> out;
    while (!f.reported.empty()) {
        const std::uint64_t n = f.next_block - 1;
        if (n <= head) {
            auto h = node.store.canonical_hash(n);
            if (!h) return std::unexpected(internal_error(h.error().message));
            if (h->found() && h->value == f.reported.back()) break;
        }
        out.emplace_back(n, f.reported.back());
        f.reported.pop_back();
        --f.next_block;
    }
    std::reverse(out.begin(), out.end());
    return out;
}

// Remembers `hashes`, the canonical hashes of blocks [from, last] as the poll read them (the
// last kKeptHashes of them), as reported, and moves next_block past them.
void remember(Filter& f, std::uint64_t from, std::uint64_t last,
              const std::vector<std::optional<Hash32>>& hashes) {
    if (from != f.next_block) f.reported.clear();  // a gap: what came before is too old
    if (from > last) return;
    const std::uint64_t first = last - from + 1 > kKeptHashes ? last - kKeptHashes + 1 : from;
    for (std::uint64_t n = first; n <= last; ++n) {
        const auto& h = hashes[n - from];
        if (!h) {  // the head moved back meanwhile: the next poll starts afresh
            f.reported.clear();
            break;
        }
        f.reported.push_back(*h);
    }
    while (f.reported.size() > kKeptHashes) f.reported.pop_front();
    f.next_block = last + 1;
}

// A log filter's news: the logs of replaced blocks within its range, removed, then those of
// the canonical blocks [from, last] within its range.
Result<void, RpcError> log_changes(const Filter& f, keel::json::Writer& w,
                                   const std::vector<std::pair<std::uint64_t, Hash32>>& replaced,
                                   std::uint64_t from, std::uint64_t last,
                                   const NodeContext& node) {
    auto bounds = log_poll_bounds(f.query, last, node);
    if (!bounds) return std::unexpected(bounds.error());
    const auto [lo_end, hi_end] = *bounds;
    w.begin_array();
    for (const auto& [n, hash] : replaced) {
        if (n < lo_end || n > hi_end) continue;
        auto r = blockchain::for_each_block_log(
            node.store, node.config, n, hash,
            [&](const eth::Log& log, const eth::ReceiptPlace& place, const Hash32& tx_hash,
                std::uint64_t index) {
                if (blockchain::log_matches(log, f.query.filter))
                    eth::write_rpc_log(w, log, place, tx_hash, index, /*removed=*/true);
            });
        // A replaced block whose receipts are gone (pruned) has nothing left to report.
        if (!r && !r.error().not_found && !r.error().pruned)
            return std::unexpected(log_read_error(r.error()));
    }
    blockchain::LogFilter window = f.query.filter;
    window.from = std::max(from, lo_end);
    window.to = std::min(last, hi_end);
    if (window.from <= window.to && from <= last) {
        auto r = blockchain::for_each_log(
            node.store, node.config, window,
            [&w](const eth::Log& log, const eth::ReceiptPlace& place, const Hash32& tx_hash,
                 std::uint64_t index) { eth::write_rpc_log(w, log, place, tx_hash, index); });
        if (!r) return std::unexpected(log_read_error(r.error()));
    }
    w.end_array();
    return {};
}

Result<void, RpcError> poll(Filter& f, keel::json::Writer& w, const NodeContext& node) {
    if (f.kind == Filter::Kind::pending) {
        const auto now = pool_hashes(node);
        w.begin_array();
        for (const Hash32& h : now)
            if (!f.seen.contains(h)) w.data(h.view());
        w.end_array();
        f.seen = now;
        return {};
    }
    auto head = head_number(node.store);
    if (!head) return std::unexpected(head.error());
    const std::uint64_t last = *head;
    auto replaced = take_replaced(f, last, node);
    if (!replaced) return std::unexpected(replaced.error());
    if (f.next_block > last + 1) {  // the head went back below every block remembered
        f.next_block = last + 1;
        f.reported.clear();
    }
    std::uint64_t from = f.next_block;
    if (last >= kMaxBlocksPerPoll && from + kMaxBlocksPerPoll <= last)
        from = last - kMaxBlocksPerPoll + 1;
    // The canonical hashes of the blocks this poll reports, read before their logs and again
    // after, and the store's count of canonical rewrites around both: the store is read block
    // by block, and a reorg landing in between would otherwise report one block's logs under
    // another's hash (or miss the new block's); one that went away and came back leaves the
    // hashes as they were but not the count.
    const std::uint64_t rewrites = node.store.canonical_rewrites();
    auto before = canonical_hashes(from, last, node);
    if (!before) return std::unexpected(before.error());
    if (auto& hook = poll_race_hook(); hook) hook(detail::PollStage::hashes_read);
    if (f.kind == Filter::Kind::blocks) {
        w.begin_array();
        for (const auto& h : *before)
            if (h) w.data(h->view());
        w.end_array();
    } else if (auto r = log_changes(f, w, *replaced, from, last, node); !r) {
        return r;
    }
    if (auto& hook = poll_race_hook(); hook) hook(detail::PollStage::news_read);
    auto after = canonical_hashes(from, last, node);
    if (!after) return std::unexpected(after.error());
    if (*after != *before || node.store.canonical_rewrites() != rewrites)
        return std::unexpected(server_error(std::string(kChainMovedDuringPoll)));
    remember(f, from, last, *after);
    return {};
}

// A poll that fails (a result past --rpc.logs.maxresults, a failed read) leaves the filter as it
// was: the next poll reports the same news. One that the chain moved under is done again, into
// a fresh buffer, up to kPollTries times in all.
Result<void, RpcError> changes(Filter& f, keel::json::Writer& w, const NodeContext& node) {
    const std::uint64_t next_block = f.next_block;
    const std::deque<Hash32> reported = f.reported;
    for (int attempt = 1;; ++attempt) {
        std::string answer;
        keel::json::Writer out(answer);
        auto r = poll(f, out, node);
        if (r) {
            w.raw_value() += answer;
            return r;
        }
        f.next_block = next_block;
        f.reported = reported;
        if (r.error().message != kChainMovedDuringPoll || attempt == kPollTries) return r;
    }
}

}  // namespace

void add_filter_methods(Dispatcher& d, const NodeContext& node) {
    auto filters = std::make_shared<Filters>(node);
    const auto start = [filters](Filter f, keel::json::Writer& w) -> Result<void, RpcError> {
        auto head = head_number(filters->node().store);
        if (!head) return std::unexpected(head.error());
        f.next_block = *head;  // the head is remembered as reported: news comes after it
        auto hashes = canonical_hashes(*head, *head, filters->node());
        if (!hashes) return std::unexpected(hashes.error());
        remember(f, *head, *head, *hashes);
        auto id = filters->add(std::move(f));
        if (!id) return std::unexpected(id.error());
        w.string(*id);
        return {};
    };
    d.add("eth_newFilter",
          [filters, start](const json& p, keel::json::Writer& w) -> Result<void, RpcError> {
              if (auto r = at_most(p, 1); !r) return r;
              if (p.empty() || p[0].is_null())
                  return std::unexpected(
                      RpcError{ErrorCode::invalid_params, "missing value for required argument 0"});
              auto q = log_query_param(p[0], filters->node());
              if (!q) return std::unexpected(q.error());
              return start(Filter{.kind = Filter::Kind::logs,
                                  .query = std::move(*q),
                                  .next_block = 0,
                                  .reported = {},
                                  .seen = {},
                                  .polled = {}},
                           w);
          });
    d.add("eth_newBlockFilter",
          [start](const json& p, keel::json::Writer& w) -> Result<void, RpcError> {
              if (auto r = at_most(p, 0); !r) return r;
              return start(Filter{}, w);
          });
    d.add("eth_newPendingTransactionFilter",
          [filters, start](const json& p, keel::json::Writer& w) -> Result<void, RpcError> {
              if (auto r = at_most(p, 1); !r) return r;  // geth's optional fullTx is ignored
              Filter f;
              f.kind = Filter::Kind::pending;
              f.seen = pool_hashes(filters->node());
              return start(std::move(f), w);
          });
    d.add("eth_getFilterChanges",
          [filters](const json& p, keel::json::Writer& w) -> Result<void, RpcError> {
              auto id = id_param(p);
              if (!id) return std::unexpected(id.error());
              return filters->with(*id, [&](Filter& f) { return changes(f, w, filters->node()); });
          });
    d.add("eth_getFilterLogs",
          [filters](const json& p, keel::json::Writer& w) -> Result<void, RpcError> {
              auto id = id_param(p);
              if (!id) return std::unexpected(id.error());
              return filters->with(*id, [&](Filter& f) -> Result<void, RpcError> {
                  if (f.kind != Filter::Kind::logs)
                      return std::unexpected(server_error("filter not found"));
                  auto range = log_range(f.query, filters->node());
                  if (!range) return std::unexpected(range.error());
                  return write_log_range(w, f.query, range->first, range->second, filters->node());
              });
          });
    d.add("eth_uninstallFilter",
          [filters](const json& p, keel::json::Writer& w) -> Result<void, RpcError> {
              auto id = id_param(p);
              if (!id) return std::unexpected(id.error());
              w.boolean(filters->remove(*id));
              return {};
          });
}

namespace detail {

void set_poll_race_hook(std::function<void(PollStage)> hook) {
    poll_race_hook() = std::move(hook);
}

}  // namespace detail

}  // namespace keel::rpc
