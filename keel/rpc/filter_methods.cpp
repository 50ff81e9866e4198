#include "keel/rpc/filter_methods.hpp"

#include <chrono>
#include <memory>
#include <mutex>
#include <unordered_map>
#include <unordered_set>

#include "keel/blockchain/reads.hpp"
#include "keel/common/hex.hpp"
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

struct Filter {
    enum class Kind { logs, blocks, pending } kind = Kind::blocks;
    LogQuery query;
    std::uint64_t next_block = 0;     ///< the first block not reported yet
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

Result<void, RpcError> changes(Filter& f, keel::json::Writer& w, const NodeContext& node) {
    auto head = head_number(node.store);
    if (!head) return std::unexpected(head.error());
    const std::uint64_t last = *head;
    std::uint64_t from = f.next_block;
    if (last >= kMaxBlocksPerPoll && from + kMaxBlocksPerPoll <= last)
        from = last - kMaxBlocksPerPoll + 1;
    switch (f.kind) {
        case Filter::Kind::blocks: {
            w.begin_array();
            for (std::uint64_t n = from; n <= last && from <= last; ++n) {
                auto h = node.store.canonical_hash(n);
                if (!h) return std::unexpected(internal_error(h.error().message));
                if (h->found()) w.data(h->value.view());
            }
            w.end_array();
            break;
        }
        case Filter::Kind::pending: {
            const auto now = pool_hashes(node);
            w.begin_array();
            for (const Hash32& h : now)
                if (!f.seen.contains(h)) w.data(h.view());
            w.end_array();
            f.seen = now;
            break;
        }
        case Filter::Kind::logs: {
            auto range = log_range(f.query, node);
            if (!range) return std::unexpected(range.error());
            const std::uint64_t lo = std::max(from, range->first);
            const std::uint64_t hi = std::min(last, range->second);
            if (lo > hi || from > last) {
                w.begin_array();
                w.end_array();
            } else if (auto r = write_log_range(w, f.query, lo, hi, node); !r) {
                return r;
            }
            break;
        }
    }
    f.next_block = last + 1;
    return {};
}

}  // namespace

void add_filter_methods(Dispatcher& d, const NodeContext& node) {
    auto filters = std::make_shared<Filters>(node);
    const auto start = [filters](Filter f, keel::json::Writer& w) -> Result<void, RpcError> {
        auto head = head_number(filters->node().store);
        if (!head) return std::unexpected(head.error());
        f.next_block = *head + 1;
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

}  // namespace keel::rpc
