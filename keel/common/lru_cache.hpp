#pragma once
/// A least-recently-used cache of immutable values (shared pointers, typically), bounded by a
/// total cost: entries are weighed when put (1 each by default, or their size in bytes) and the
/// least recently used ones leave when the total passes the capacity. For content-addressed
/// data that never goes stale (a body by block hash, code by code hash): a key names one value,
/// so put() of a key already held keeps the held value.
///
/// Threading: any thread; one mutex around the index, held only for the lookup or insertion
/// (values are copied out, so a reader keeps its value after it leaves the cache).

#include <cstddef>
#include <functional>
#include <list>
#include <mutex>
#include <optional>
#include <unordered_map>
#include <utility>

namespace keel {

template <class Key, class Value, class Hash = std::hash<Key>>
class LruCache {
  public:
    /// A cache holding at most `capacity` in total cost (an entry costing more is not kept).
    explicit LruCache(std::size_t capacity) noexcept : capacity_(capacity) {}

    LruCache(const LruCache&) = delete;
    LruCache& operator=(const LruCache&) = delete;

    /// The value of `key`, now the most recently used, or nullopt.
    std::optional<Value> get(const Key& key) {
        const std::lock_guard lock(mutex_);
        auto it = index_.find(key);
        if (it == index_.end()) return std::nullopt;
        order_.splice(order_.begin(), order_, it->second);
        return it->second->value;
    }

    /// Keeps `value` under `key` at `cost`, unless `key` is held already or the cost alone
    /// passes the capacity; drops the least recently used entries past the capacity.
    void put(const Key& key, Value value, std::size_t cost = 1) {
        if (cost > capacity_) return;
        const std::lock_guard lock(mutex_);
        if (index_.contains(key)) return;
        order_.push_front(Entry{key, std::move(value), cost});
        index_.emplace(key, order_.begin());
        total_ += cost;
        while (total_ > capacity_) {
            total_ -= order_.back().cost;
            index_.erase(order_.back().key);
            order_.pop_back();
        }
    }

    /// The number of entries held.
    std::size_t size() const {
        const std::lock_guard lock(mutex_);
        return order_.size();
    }

    /// Their total cost (at most the capacity).
    std::size_t cost() const {
        const std::lock_guard lock(mutex_);
        return total_;
    }

  private:
    struct Entry {
        Key key;
        Value value;
        std::size_t cost;
    };
    const std::size_t capacity_;
    mutable std::mutex mutex_;
    std::list<Entry> order_;  // most recently used first
    std::unordered_map<Key, typename std::list<Entry>::iterator, Hash> index_;
    std::size_t total_ = 0;
};

}  // namespace keel
