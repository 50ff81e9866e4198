#pragma once
/// The state changes of the latest blocks, in memory: for each of the last blocks written, every
/// account and slot key the block changed with its value before the block (the block's history
/// rows, state_store.hpp). A read of the state after a recent block N then needs no history seek:
/// the value is the one from before the first block after N that changed the key, and when no
/// block in (N, head] changed it, the flat value (one point read). Replays read the state of the
/// block before the one they trace, nearly always a recent one; geth keeps its 128 diff layers
/// for the same reason. Private to the store module.
///
/// Only kept once asked for (keep_recent_state(): keel node); fed by the store's own state writes
/// after they went through: a block that continues the kept ones is appended (the oldest drop out
/// past kMaxBlocks or the byte budget); any other state write (an unwind, a rewind, a block that
/// does not continue them, one without history) forgets everything and starts a new epoch.
///
/// Why a view may trust it: a view reads the epoch before it takes its RocksDB snapshot and
/// passes it, with the snapshot's state head, to every find(). Within one epoch the kept blocks
/// only grow at the top and drop out at the bottom, and each was written before it was added, so
/// while the epoch is unchanged the kept blocks at or below the view's head are the blocks its
/// snapshot holds; find() answers "unknown" (read the history) when the epoch moved on or when
/// a block of (N, head] is not kept (not yet added, or dropped).
///
/// Threading: find() from any thread (a shared lock), the writes from the store's writer.

#include <cstddef>
#include <cstdint>
#include <deque>
#include <optional>
#include <shared_mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "keel/common/bytes.hpp"

namespace keel::store {
struct StateUpdate;
}

namespace keel::store::detail {

class RecentState {
  public:
    RecentState();

    /// A key's value before one block: empty when the key was absent (an account) or zero (a
    /// slot), as the history rows hold it.
    struct Change {
        std::uint64_t block = 0;
        std::string before;
    };
    /// One block's changes (the history rows of its state update).
    struct Block {
        std::uint64_t number = 0;
        std::vector<std::pair<std::string, std::string>> changes;  ///< key, value before
    };

    /// What find() knows of a key after block N.
    enum class Answer : std::uint8_t {
        unknown,    ///< not kept here: read the history
        unchanged,  ///< no block in (N, head] changed it: the flat value is the answer
        changed,    ///< `value` is the answer (nullopt: absent or zero)
    };

    /// Starts keeping at most `max_blocks` blocks and about `max_bytes` bytes of them (0 blocks:
    /// keep none); forgets what was kept.
    void enable(std::size_t max_blocks, std::size_t max_bytes);

    /// The current epoch, read by a view before it takes its snapshot.
    std::uint64_t epoch() const;

    /// The value of `key` (an account key of 32 bytes or a slot key of 64) after block `number`,
    /// for a view opened at `epoch` whose snapshot's state head is `head` (number < head).
    Answer find(std::uint64_t epoch, std::uint64_t number, std::uint64_t head, BytesView key,
                std::optional<std::string>& value) const;

    /// Whether a state update of block `number` would continue this epoch's blocks (the one
    /// after the last kept, or dropped, in it). A write of any other state update must call
    /// forget() before it and again after it went through, then written().
    bool continues(std::uint64_t number) const;
    /// After `update` went into the store: keeps its block when it continues this epoch's
    /// blocks, else starts a new epoch with it. An update without a change set (no history kept)
    /// forgets everything.
    void written(const StateUpdate& update);
    /// Before and after any other write of the state (an unwind): forgets everything, a new
    /// epoch.
    void forget();

    /// Replaces what is kept by `blocks` (consecutive, oldest first), in a new epoch; the
    /// oldest drop out while over the limits. Call with the store's writes held off.
    void load(std::vector<Block> blocks);

    struct Stats {
        std::uint64_t first = 0;  ///< the oldest block kept (when blocks > 0)
        std::uint64_t last = 0;   ///< the newest
        std::size_t blocks = 0;
        std::size_t keys = 0;
        std::size_t bytes = 0;
    };
    Stats stats() const;

  private:
    struct KeyHash {
        using is_transparent = void;
        std::size_t seed = 0;
        std::size_t operator()(std::string_view key) const noexcept;
    };
    struct KeyEqual {
        using is_transparent = void;
        bool operator()(std::string_view a, std::string_view b) const noexcept { return a == b; }
    };
    using Map = std::unordered_map<std::string, std::vector<Change>, KeyHash, KeyEqual>;
    /// A kept block: its number, the keys it changed (the map's own strings) and its cost.
    struct Kept {
        std::uint64_t number = 0;
        std::vector<const std::string*> keys;
        std::size_t bytes = 0;
    };

    void clear_locked();
    void append_locked(Block&& block);
    void drop_oldest_locked();

    mutable std::shared_mutex mutex_;
    std::size_t max_blocks_ = 0;
    std::size_t max_bytes_ = 0;
    std::uint64_t epoch_ = 0;
    std::optional<std::uint64_t> last_;  ///< the newest block added in this epoch (kept or not)
    std::size_t bytes_ = 0;
    Map keys_{0, KeyHash{}, KeyEqual{}};
    std::deque<Kept> blocks_;
};

}  // namespace keel::store::detail
