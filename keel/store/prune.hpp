#pragma once
/// History pruning: removes the bodies, receipts and transaction lookup entries of the blocks
/// below a given number and keeps headers, canonical hashes and total difficulties
/// (docs/store.md, "Pruning"). Nothing is decoded and nothing is deleted one key at a time:
/// bodies and receipts go by range deletes over their block-number keys, lookup entries by the
/// tx_lookup compaction filter, which reads the history floor.
///
/// Crash-safe and resumable: the first step records the operation in meta together with the new
/// floor, in one atomic batch; every later step is idempotent. A prune interrupted at any point
/// (kill -9 included) is finished by the next prune_history() call on the store, which ends with
/// the same store an uninterrupted prune gives.
///
/// Threading: prune_history() must be the only writer of the store while it runs.

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "keel/common/bytes.hpp"
#include "keel/common/result.hpp"
#include "keel/store/chain_store.hpp"

namespace keel::store {

/// The pending_operation kind of a prune.
inline constexpr std::string_view kPruneOperation = "prune";

/// The steps of a prune, in order (docs/store.md "Pruning design").
enum class PruneStep : std::uint8_t {
    mark,               ///< 1. one batch: pending_operation ("prune", target) and history_floor
    delete_ranges,      ///< 2. drop tables below the floor; range-delete bodies and receipts
    compact_tx_lookup,  ///< 3. compact tx_lookup, whose filter drops entries below the floor
    compact_history,    ///< 4. compact bodies and receipts over the pruned range
    clear_mark,         ///< 5. clear pending_operation
};

/// Number of steps in PruneStep.
inline constexpr std::size_t kPruneStepCount = 5;

/// The step's name: "mark", "delete ranges", "compact tx_lookup", "compact history",
/// "clear mark".
std::string_view to_string(PruneStep step) noexcept;

/// How to prune.
struct PruneOptions {
    /// The new history floor: history of the blocks below it is removed. nullopt: the store's
    /// merge block (meta merge_block), or, without one, only an interrupted prune's target.
    std::optional<std::uint64_t> until;
    /// Called on the calling thread before (done = false) and after (done = true) each step that
    /// runs: for progress messages, and as the crash tests' hook. May be empty.
    std::function<void(PruneStep step, bool done)> on_step;
};

/// What prune_history() did.
struct PruneReport {
    /// False when there was nothing to do: no interrupted prune, and the target at or below the
    /// history floor. Only `target` and `floor` are meaningful then.
    bool pruned = false;
    std::uint64_t target = 0;          ///< the floor asked for (--until, or the merge block)
    std::uint64_t previous_floor = 0;  ///< the floor before the prune that ran
    std::uint64_t floor = 0;           ///< the history floor now
    /// Set when an interrupted prune was found: the floor it was pruning to. It is finished
    /// (together with `target` when that is higher) by the same run.
    std::optional<std::uint64_t> resumed;
    /// Canonical blocks in [previous_floor, floor) whose bodies and receipts were range-deleted.
    std::uint64_t blocks_pruned = 0;
    /// Tx lookup entries the compaction filter dropped during this call (entries dropped by a
    /// run that was interrupted are not counted again).
    std::uint64_t tx_lookups_dropped = 0;
    DiskUsage before;            ///< measured after a flush, before the first step
    DiskUsage after;             ///< measured after a flush, after the last step
    double prune_seconds = 0;    ///< steps 1, 2 and 5: marker and floor, range deletes, clear
    double reclaim_seconds = 0;  ///< steps 3 and 4: the compactions that reclaim the space
};

/// Why prune_history() refused or failed.
struct PruneError {
    enum class Code : std::uint8_t {
        no_target,        ///< no `until` given and no merge block stored
        above_head,       ///< the target is above the head: the store does not hold it yet
        empty_store,      ///< no block stored
        other_operation,  ///< an operation other than a prune is pending
        bad_marker,       ///< a pending prune whose argument cannot be read
        store,            ///< a RocksDB or file-system failure
    };
    Code code = Code::store;
    std::string message;  ///< one line, e.g. "block 20 is above the head 10; ..."
};

/// A short phrase for the code, e.g. "the target is above the head".
std::string_view describe(PruneError::Code code) noexcept;

/// The one-line message.
inline const std::string& to_string(const PruneError& e) noexcept {
    return e.message;
}

/// The pending_operation argument of a prune to `target` from `previous_floor`:
/// BE8(target) ‖ BE8(previous_floor).
Bytes prune_marker_argument(std::uint64_t target, std::uint64_t previous_floor);

/// Prunes history below `options.until` (or the merge block), first finishing an interrupted
/// prune if the store holds one. The target must not be above the head (refused: a floor above
/// the head would mark blocks not yet imported as pruned). A target at or below the current
/// floor has nothing to do. Errors: see PruneError::Code; a store failure leaves a state that
/// the next call finishes.
[[nodiscard]] Result<PruneReport, PruneError> prune_history(ChainStore& store,
                                                            const PruneOptions& options = {});

}  // namespace keel::store
