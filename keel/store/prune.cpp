#include "keel/store/prune.hpp"

#include <algorithm>
#include <chrono>
#include <utility>

#include "keel/store/keys.hpp"

namespace keel::store {
namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) {
    return std::chrono::duration<double>(Clock::now() - start).count();
}

PruneError store_error(const StoreError& e) {
    return PruneError{PruneError::Code::store, e.message};
}

// The target and previous floor of a pending prune's argument. An 8-byte argument (the target
// alone) reads as a prune from floor 0.
struct Marker {
    std::uint64_t target = 0;
    std::uint64_t previous_floor = 0;
};

std::optional<Marker> parse_marker(BytesView argument) {
    if (argument.size() != 8 && argument.size() != 16) return std::nullopt;
    Marker m;
    m.target = keys::get_be64(argument.data());
    if (argument.size() == 16) m.previous_floor = keys::get_be64(argument.data() + 8);
    return m;
}

// Canonical blocks in [from, to), the chain being contiguous from tail to head.
std::uint64_t blocks_in(std::uint64_t from, std::uint64_t to, std::uint64_t tail,
                        std::uint64_t head) {
    const std::uint64_t lo = std::max(from, tail);
    const std::uint64_t hi = std::min(to, head + 1);
    return hi > lo ? hi - lo : 0;
}

// Runs `step` between the hook's before and after calls, adding its time to `seconds`.
template <class F>
Result<void, PruneError> run_step(const PruneOptions& options, PruneStep step, double& seconds,
                                  F&& body) {
    if (options.on_step) options.on_step(step, false);
    const auto start = Clock::now();
    Result<void, StoreError> r = body();
    seconds += seconds_since(start);
    if (!r) return unexpected(store_error(r.error()));
    if (options.on_step) options.on_step(step, true);
    return {};
}

}  // namespace

std::string_view to_string(PruneStep step) noexcept {
    switch (step) {
        case PruneStep::mark:
            return "mark";
        case PruneStep::delete_ranges:
            return "delete ranges";
        case PruneStep::compact_tx_lookup:
            return "compact tx_lookup";
        case PruneStep::compact_history:
            return "compact history";
        case PruneStep::clear_mark:
            return "clear mark";
    }
    return "?";
}

std::string_view describe(PruneError::Code code) noexcept {
    switch (code) {
        case PruneError::Code::no_target:
            return "no target: no --until and no merge block";
        case PruneError::Code::above_head:
            return "the target is above the head";
        case PruneError::Code::empty_store:
            return "the store is empty";
        case PruneError::Code::other_operation:
            return "another operation is pending";
        case PruneError::Code::bad_marker:
            return "the pending prune's marker cannot be read";
        case PruneError::Code::store:
            return "store failure";
    }
    return "unknown prune error";
}

Bytes prune_marker_argument(std::uint64_t target, std::uint64_t previous_floor) {
    Bytes out(16);
    keys::put_be64(out.data(), target);
    keys::put_be64(out.data() + 8, previous_floor);
    return out;
}

Result<PruneReport, PruneError> prune_history(ChainStore& store, const PruneOptions& options) {
    // Everything is checked before anything is written.
    auto pending = store.pending_operation();
    if (!pending) return unexpected(store_error(pending.error()));
    std::optional<Marker> marker;
    if (*pending) {
        const PendingOperation& op = **pending;
        if (op.kind != kPruneOperation) {
            return unexpected(
                PruneError{PruneError::Code::other_operation,
                           "the store has a pending '" + op.kind + "' operation; finish it first"});
        }
        marker = parse_marker(op.argument);
        if (!marker) {
            return unexpected(
                PruneError{PruneError::Code::bad_marker, "the pending prune's argument is " +
                                                             std::to_string(op.argument.size()) +
                                                             " bytes, want 8 or 16"});
        }
    }

    std::uint64_t target = 0;
    if (options.until) {
        target = *options.until;
    } else {
        auto merge = store.merge_block();
        if (!merge) return unexpected(store_error(merge.error()));
        if (!*merge && marker) {
            target = marker->target;  // finish the interrupted prune, nothing more
        } else if (!*merge) {
            return unexpected(PruneError{PruneError::Code::no_target,
                                         "the store has no merge block (meta merge_block); give "
                                         "the first block to keep with --until"});
        } else {
            target = **merge;
        }
    }
    auto head = store.head();
    if (!head) return unexpected(store_error(head.error()));
    auto tail = store.tail();
    if (!tail) return unexpected(store_error(tail.error()));
    if (!*head || !*tail) {
        return unexpected(PruneError{PruneError::Code::empty_store, "the store is empty"});
    }
    if (target > **head) {
        return unexpected(PruneError{PruneError::Code::above_head,
                                     "block " + std::to_string(target) + " is above the head " +
                                         std::to_string(**head) +
                                         "; import up to it first or give a lower --until"});
    }

    PruneReport report;
    report.target = target;
    report.floor = store.history_floor();
    if (!marker && target <= report.floor) return report;  // already pruned that far

    // One prune to the higher of the interrupted one's target and this one's: raising a pending
    // marker is as atomic as writing a new one, and saves a second pass of compactions.
    report.pruned = true;
    report.previous_floor = marker ? marker->previous_floor : report.floor;
    if (marker) {
        report.resumed = marker->target;
        target = std::max(target, marker->target);
    }
    target = std::max(target, report.floor);  // the floor is never lowered
    if (auto r = store.flush(); !r) return unexpected(store_error(r.error()));
    auto before = store.disk_usage();
    if (!before) return unexpected(store_error(before.error()));
    report.before = *before;
    const std::uint64_t dropped_at_start = store.tx_lookup_entries_dropped();

    // The ranges start at 0, not at the previous floor: a range tombstone over rows already
    // gone costs nothing, and rows left below an old floor (one raised without pruning) go too.
    const PendingOperation op{std::string(kPruneOperation),
                              prune_marker_argument(target, report.previous_floor)};
    auto r = run_step(options, PruneStep::mark, report.prune_seconds,
                      [&] { return store.set_history_floor(target, op); });
    if (r) {
        r = run_step(options, PruneStep::delete_ranges, report.prune_seconds,
                     [&] { return store.delete_history(0, target); });
    }
    if (r) {
        r = run_step(options, PruneStep::compact_tx_lookup, report.reclaim_seconds,
                     [&] { return store.compact_tx_lookup(); });
    }
    if (r) {
        r = run_step(options, PruneStep::compact_history, report.reclaim_seconds,
                     [&] { return store.compact_history(0, target); });
    }
    if (r) {
        r = run_step(options, PruneStep::clear_mark, report.prune_seconds,
                     [&] { return store.set_pending_operation(std::nullopt); });
    }
    if (!r) return unexpected(r.error());

    report.floor = target;
    report.blocks_pruned = blocks_in(report.previous_floor, target, **tail, **head);
    report.tx_lookups_dropped = store.tx_lookup_entries_dropped() - dropped_at_start;
    if (auto f = store.flush(); !f) return unexpected(store_error(f.error()));
    auto after = store.disk_usage();
    if (!after) return unexpected(store_error(after.error()));
    report.after = *after;
    return report;
}

}  // namespace keel::store
