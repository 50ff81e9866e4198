#pragma once
/// The state head and floor in memory, for StateView::open(): every view of the state read them
/// from RocksDB, two point reads that cost a cheap read (eth_getBalance) twice its account read.
/// Private to the store module.
///
/// The tip is filled by a reader from its own snapshot and emptied by every state write: a
/// writer calls writing() before its write and written() after it (went through or not). A
/// reader takes its snapshot under the tip's lock through open(): when the tip is known, no
/// write was in flight (writing() empties it under the same lock), so the snapshot holds exactly
/// that tip. When it is not known, the reader reads head and floor from its snapshot and offers
/// them back (remember()); they are kept only if no write was in flight when the snapshot was
/// taken and none began since (a generation counts the writes begun).
///
/// Threading: any thread; the writes come from the store's one writer at a time.

#include <rocksdb/db.h>

#include <cstdint>
#include <mutex>
#include <optional>

#include "keel/store/state_store.hpp"

namespace keel::store::detail {

class StateTip {
  public:
    struct Value {
        std::optional<StateHead> head;
        std::optional<std::uint64_t> floor;
    };
    /// A snapshot taken by open(), with the tip when it was known.
    struct Opened {
        const rocksdb::Snapshot* snapshot = nullptr;
        std::optional<Value> value;
        std::uint64_t generation = 0;
        bool quiet = false;  ///< no write was in flight when the snapshot was taken
    };

    /// Takes a snapshot of `db` (the caller releases it).
    Opened open(rocksdb::DB& db) const {
        const std::lock_guard lock(mutex_);
        Opened o;
        o.snapshot = db.GetSnapshot();
        o.value = value_;
        o.generation = generation_;
        o.quiet = !writing_;
        return o;
    }
    /// The head and floor read from `opened`'s snapshot, kept when nothing was written meanwhile.
    void remember(const Opened& opened, const Value& v) const {
        const std::lock_guard lock(mutex_);
        if (opened.quiet && !writing_ && generation_ == opened.generation) value_ = v;
    }
    /// Before a write of the state head or floor.
    void writing() {
        const std::lock_guard lock(mutex_);
        writing_ = true;
        ++generation_;
        value_.reset();
    }
    /// After it, whether it went through or not: the next reader reads the tip again.
    void written() {
        const std::lock_guard lock(mutex_);
        writing_ = false;
        value_.reset();
    }

  private:
    mutable std::mutex mutex_;
    mutable std::optional<Value> value_;
    std::uint64_t generation_ = 0;
    bool writing_ = false;
};

}  // namespace keel::store::detail
