#pragma once
/// Rewinding the chain store: removes every block above a given number (headers, canonical
/// hashes, total difficulties, bodies, receipts, hash -> number and tx lookup entries) and
/// lowers the head to it, unwinding the state (when the store holds state) block by block from
/// the kept history, so that a damaged or foreign stretch of chain can be replaced by
/// importing the right file (docs/store.md, "Rewind").
///
/// Atomic to readers of the head, and resumable: the first step records the operation in meta
/// together with the new head, in one batch; the blocks above it then go in batches of
/// RewindOptions::chunk_blocks, each atomic and idempotent, and the marker is cleared last. A
/// rewind interrupted at any point (kill -9 included) is finished by the next rewind_chain()
/// call, which ends with the same store an uninterrupted rewind gives; until then import,
/// prune and verify refuse the store and name the command that finishes it.
///
/// Threading: rewind_chain() must be the only writer of the store while it runs.

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "keel/common/bytes.hpp"
#include "keel/common/result.hpp"
#include "keel/store/chain_store.hpp"

namespace keel::store {

/// The pending_operation kind of a rewind.
inline constexpr std::string_view kRewindOperation = "rewind";

/// The steps of a rewind, in order.
enum class RewindStep : std::uint8_t {
    mark,           ///< 1. one batch: pending_operation ("rewind", target) and head = target
    unwind_state,   ///< 2. the state back to the target's, one block per batch (state_store.hpp)
    delete_blocks,  ///< 3. the rows of every block above the target, a chunk per batch
    clear_mark,     ///< 4. forget a merge block above the target; clear pending_operation
};

/// Number of steps in RewindStep.
inline constexpr std::size_t kRewindStepCount = 4;

/// The step's name: "mark", "unwind state", "delete blocks", "clear mark".
std::string_view to_string(RewindStep step) noexcept;

/// How to rewind.
struct RewindOptions {
    /// The new head: every block above it is removed. Must lie in [tail, head] and not below
    /// the history floor.
    std::uint64_t to = 0;
    /// Blocks per atomic delete batch (at least 1).
    std::size_t chunk_blocks = 4096;
    /// Called on the calling thread before (done = false) and after (done = true) each step,
    /// and before each delete batch of step 2 (as the crash tests' hook). May be empty.
    std::function<void(RewindStep step, bool done)> on_step;
};

/// What rewind_chain() did.
struct RewindReport {
    /// False when there was nothing to do (the head is already `to`, no rewind pending).
    bool rewound = false;
    std::uint64_t previous_head = 0;  ///< the head before the rewind (or the interrupted one's)
    std::uint64_t head = 0;           ///< the head now
    /// Set when an interrupted rewind was found: the head it was rewinding to. It is finished
    /// first; a lower `to` then rewinds further.
    std::optional<std::uint64_t> resumed;
    std::uint64_t blocks_removed = 0;        ///< canonical blocks removed by this call
    std::uint64_t transactions_removed = 0;  ///< tx lookup entries removed by this call
    bool merge_block_cleared = false;        ///< meta merge_block lay above the new head
    std::uint64_t state_blocks_unwound = 0;  ///< blocks whose state changes were undone
};

/// Why rewind_chain() refused or failed.
enum class RewindErrc : std::uint8_t {
    empty_store,      ///< no block stored
    above_head,       ///< `to` is above the head: nothing to remove
    below_tail,       ///< `to` is below the first stored block (the store would be empty)
    below_floor,      ///< `to` is below the history floor (pruned history cannot come back)
    other_operation,  ///< an operation other than a rewind is pending
    bad_marker,       ///< a pending rewind whose argument cannot be read
    store,            ///< a RocksDB or file-system failure (or state that cannot be unwound)
    other,            ///< a block the state unwind needs is missing or damaged
};

/// A short phrase for the code, e.g. "the block is below the history floor".
std::string_view describe(RewindErrc e) noexcept;

/// A rewind failure: the code and one line naming the blocks, e.g. "block 80 is above the
/// head 59".
struct RewindError {
    RewindErrc code = RewindErrc::store;
    std::string message;
};

/// The one-line message.
inline const std::string& to_string(const RewindError& e) noexcept {
    return e.message;
}

/// The pending_operation argument of a rewind to `to` from `previous_head`:
/// BE8(to) ‖ BE8(previous_head).
Bytes rewind_marker_argument(std::uint64_t to, std::uint64_t previous_head);

/// The target of a pending rewind marker's argument, nullopt when it is malformed.
std::optional<std::uint64_t> rewind_marker_target(BytesView argument) noexcept;

/// Removes every block above `options.to`, first finishing an interrupted rewind if the store
/// holds one. Everything is checked before anything is written. Errors: see RewindErrc; a
/// store failure leaves a state that the next call finishes.
[[nodiscard]] Result<RewindReport, RewindError> rewind_chain(ChainStore& store,
                                                             const RewindOptions& options);

}  // namespace keel::store
