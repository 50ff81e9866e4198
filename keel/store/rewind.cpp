#include "keel/store/rewind.hpp"

#include "keel/eth/header.hpp"
#include "keel/store/state_store.hpp"

#include <algorithm>
#include <limits>
#include <utility>
#include <vector>

#include "keel/crypto/keccak.hpp"
#include "keel/store/chain_config.hpp"
#include "keel/store/detail/envelopes.hpp"
#include "keel/store/keys.hpp"

namespace keel::store {
namespace {

RewindError store_error(const StoreError& e) {
    return RewindError{RewindErrc::store, e.message};
}

struct Marker {
    std::uint64_t to = 0;
    std::uint64_t previous_head = 0;
};

std::optional<Marker> parse_marker(BytesView argument) noexcept {
    if (argument.size() != 16) return std::nullopt;
    return Marker{keys::get_be64(argument.data()), keys::get_be64(argument.data() + 8)};
}

// Runs `step` between the hook's before and after calls.
template <class F>
Result<void, RewindError> run_step(const RewindOptions& options, RewindStep step, F&& body) {
    if (options.on_step) options.on_step(step, false);
    Result<void, RewindError> r = body();
    if (!r) return r;
    if (options.on_step) options.on_step(step, true);
    return {};
}

// The rows of the blocks in [lo, hi) that are keyed by hash: every stored header's hash (side
// blocks' too: the headers family is keyed by number ‖ hash), and the transactions of every
// stored body whose lookup entry points into the removed range (an entry pointing at or below
// the new head belongs to a kept block and stays). Counts the canonical blocks.
struct ChunkRows {
    std::vector<Hash32> header_hashes;
    std::vector<Hash32> tx_hashes;
    std::uint64_t canonical = 0;
};

Result<ChunkRows, RewindError> read_chunk(const ChainStore& store, std::uint64_t lo,
                                          std::uint64_t hi, std::uint64_t target) {
    ChunkRows rows;
    const auto lower = keys::number(lo);
    const auto upper = keys::number(hi);
    auto headers = store.cursor(Family::headers, lower, upper);
    if (!headers) return unexpected(store_error(headers.error()));
    for (; headers->valid(); headers->next()) {
        const auto nh = keys::parse_number_hash(headers->key());
        if (nh) rows.header_hashes.push_back(nh->hash);
    }
    if (auto r = headers->status(); !r) return unexpected(store_error(r.error()));

    auto canonical = store.cursor(Family::canonical, lower, upper);
    if (!canonical) return unexpected(store_error(canonical.error()));
    for (; canonical->valid(); canonical->next()) ++rows.canonical;
    if (auto r = canonical->status(); !r) return unexpected(store_error(r.error()));

    auto bodies = store.cursor(Family::bodies, lower, upper);
    if (!bodies) return unexpected(store_error(bodies.error()));
    std::vector<Hash32> hashes;
    for (; bodies->valid(); bodies->next()) {
        auto txs = detail::envelopes(bodies->value());
        if (!txs) continue;  // a damaged body: its lookup entries cannot be named, nor read
        hashes.resize(txs->size());
        crypto::keccak256_many(*txs, hashes);
        for (const Hash32& h : hashes) {
            auto loc = store.tx_lookup(h);
            if (!loc) return unexpected(store_error(loc.error()));
            if (loc->status != ReadStatus::not_found && loc->value.number > target) {
                rows.tx_hashes.push_back(h);
            }
        }
    }
    if (auto r = bodies->status(); !r) return unexpected(store_error(r.error()));
    return rows;
}

// The lowest block number with a header row above `from`, nullopt when none.
Result<std::optional<std::uint64_t>, RewindError> next_header(const ChainStore& store,
                                                              std::uint64_t from) {
    auto c = store.cursor(Family::headers, keys::number(from));
    if (!c) return unexpected(store_error(c.error()));
    if (!c->valid()) {
        if (auto r = c->status(); !r) return unexpected(store_error(r.error()));
        return std::optional<std::uint64_t>{};
    }
    const auto nh = keys::parse_number_hash(c->key());
    if (!nh) return std::optional<std::uint64_t>{from};  // a corrupt key: deleted by range
    return std::optional<std::uint64_t>{nh->number};
}

}  // namespace

std::string_view to_string(RewindStep step) noexcept {
    switch (step) {
        case RewindStep::mark:
            return "mark";
        case RewindStep::unwind_state:
            return "unwind state";
        case RewindStep::delete_blocks:
            return "delete blocks";
        case RewindStep::clear_mark:
            return "clear mark";
    }
    return "?";
}

std::string_view describe(RewindErrc e) noexcept {
    switch (e) {
        case RewindErrc::empty_store:
            return "the store is empty";
        case RewindErrc::above_head:
            return "the block is above the head";
        case RewindErrc::below_tail:
            return "the block is below the first stored block";
        case RewindErrc::below_floor:
            return "the block is below the history floor";
        case RewindErrc::other_operation:
            return "another operation is pending";
        case RewindErrc::bad_marker:
            return "the pending rewind's marker cannot be read";
        case RewindErrc::store:
            return "store failure";
        case RewindErrc::other:
            return "a block the state unwind needs is missing or damaged";
    }
    return "unknown rewind error";
}

Bytes rewind_marker_argument(std::uint64_t to, std::uint64_t previous_head) {
    Bytes out(16);
    keys::put_be64(out.data(), to);
    keys::put_be64(out.data() + 8, previous_head);
    return out;
}

std::optional<std::uint64_t> rewind_marker_target(BytesView argument) noexcept {
    const auto m = parse_marker(argument);
    if (!m) return std::nullopt;
    return m->to;
}

Result<RewindReport, RewindError> rewind_chain(ChainStore& store, const RewindOptions& options) {
    // Everything is checked before anything is written.
    auto pending = store.pending_operation();
    if (!pending) return unexpected(store_error(pending.error()));
    std::optional<Marker> marker;
    if (*pending) {
        const PendingOperation& op = **pending;
        if (op.kind != kRewindOperation) {
            return unexpected(RewindError{
                RewindErrc::other_operation,
                "the store has a pending '" + op.kind + "' operation; finish it first"});
        }
        marker = parse_marker(op.argument);
        if (!marker) {
            return unexpected(
                RewindError{RewindErrc::bad_marker, "the pending rewind's argument is " +
                                                        std::to_string(op.argument.size()) +
                                                        " bytes, want 16"});
        }
    }
    auto head = store.head();
    if (!head) return unexpected(store_error(head.error()));
    auto tail = store.tail();
    if (!tail) return unexpected(store_error(tail.error()));
    if (!*head || !*tail) {
        return unexpected(RewindError{RewindErrc::empty_store, "the store is empty"});
    }
    const std::uint64_t to = options.to;
    // The head to rewind from: an interrupted rewind has lowered the stored one already.
    const std::uint64_t from_head = marker ? marker->to : **head;
    RewindReport report;
    report.previous_head = marker ? marker->previous_head : **head;
    report.head = from_head;
    if (!marker && to > **head) {
        return unexpected(RewindError{RewindErrc::above_head,
                                      "block " + std::to_string(to) + " is above the head " +
                                          std::to_string(**head) + "; nothing to remove"});
    }
    std::uint64_t target = from_head;
    if (to < from_head) {
        if (to < **tail) {
            return unexpected(
                RewindError{RewindErrc::below_tail,
                            "block " + std::to_string(to) + " is below the first stored block " +
                                std::to_string(**tail) + "; a rewind keeps at least one block"});
        }
        if (to < store.history_floor()) {
            return unexpected(
                RewindError{RewindErrc::below_floor,
                            "block " + std::to_string(to) + " is below the history floor " +
                                std::to_string(store.history_floor()) +
                                "; the pruned history below it cannot be imported again"});
        }
        target = to;
    }
    // The state goes back block by block from its history: it must reach the target.
    auto state = state_head(store);
    if (!state) return unexpected(store_error(state.error()));
    auto state_low = state_floor(store);
    if (!state_low) return unexpected(store_error(state_low.error()));
    if (*state && (*state)->number > target && *state_low && target < **state_low) {
        return unexpected(
            RewindError{RewindErrc::below_floor,
                        "block " + std::to_string(target) + " is below the state history floor " +
                            std::to_string(**state_low) + "; the state there cannot be restored"});
    }
    if (!marker && target == **head) return report;  // nothing above it

    report.rewound = true;
    if (marker) report.resumed = marker->to;
    report.head = target;
    const PendingOperation op{std::string(kRewindOperation),
                              rewind_marker_argument(target, report.previous_head)};
    auto r = run_step(options, RewindStep::mark, [&]() -> Result<void, RewindError> {
        if (auto w = store.lower_head(target, op); !w) return unexpected(store_error(w.error()));
        return {};
    });
    if (!r) return unexpected(r.error());

    r = run_step(options, RewindStep::unwind_state, [&]() -> Result<void, RewindError> {
        // One block per atomic batch, from the state head down: an interrupted run resumes
        // from wherever the state head is (the mark keeps imports away until then).
        while (true) {
            auto at = state_head(store);
            if (!at) return unexpected(store_error(at.error()));
            if (!*at || (*at)->number <= target) break;
            const std::uint64_t n = (*at)->number;
            auto parent_rlp = store.header_by_number(n - 1);
            if (!parent_rlp) return unexpected(store_error(parent_rlp.error()));
            auto parent_hash = store.canonical_hash(n - 1);
            if (!parent_hash) return unexpected(store_error(parent_hash.error()));
            if (!parent_rlp->found() || !parent_hash->found()) {
                return unexpected(RewindError{RewindErrc::other,
                                              "block " + std::to_string(n - 1) +
                                                  " is not stored: cannot unwind the state to it"});
            }
            auto parent = eth::decode_header(parent_rlp->value);
            if (!parent) {
                return unexpected(RewindError{RewindErrc::other,
                                              "block " + std::to_string(n - 1) +
                                                  "'s header: " + eth::to_string(parent.error())});
            }
            auto u = prepare_state_unwind(store, n, parent_hash->value, parent->state_root);
            if (!u) return unexpected(store_error(u.error()));
            if (options.on_step) options.on_step(RewindStep::unwind_state, false);
            if (auto w = store.put_state(*u); !w) return unexpected(store_error(w.error()));
            ++report.state_blocks_unwound;
        }
        return {};
    });
    if (!r) return unexpected(r.error());

    r = run_step(options, RewindStep::delete_blocks, [&]() -> Result<void, RewindError> {
        constexpr std::uint64_t kEnd = std::numeric_limits<std::uint64_t>::max();
        const std::uint64_t chunk = std::max<std::size_t>(options.chunk_blocks, 1);
        std::uint64_t lo = target + 1;
        while (true) {
            // Rows left by an interrupted run start wherever it stopped: skip to the first.
            auto next = next_header(store, lo);
            if (!next) return unexpected(next.error());
            if (!*next) break;
            lo = std::max(lo, **next);
            const std::uint64_t hi = kEnd - lo > chunk ? lo + chunk : kEnd;
            auto rows = read_chunk(store, lo, hi, target);
            if (!rows) return unexpected(rows.error());
            if (options.on_step) options.on_step(RewindStep::delete_blocks, false);
            if (auto w = store.delete_blocks(lo, hi, rows->header_hashes, rows->tx_hashes); !w) {
                return unexpected(store_error(w.error()));
            }
            report.blocks_removed += rows->canonical;
            report.transactions_removed += rows->tx_hashes.size();
            if (hi == kEnd) break;
            lo = hi;
        }
        // Rows of any family above the target that no header names (a body without its
        // header): one last range over everything above it.
        if (auto w = store.delete_blocks(target + 1, kEnd, {}, {}); !w) {
            return unexpected(store_error(w.error()));
        }
        return {};
    });
    if (!r) return unexpected(r.error());

    r = run_step(options, RewindStep::clear_mark, [&]() -> Result<void, RewindError> {
        // A merge block above the new head was found in the removed blocks (EIP-3675: the first
        // block without difficulty), unless it is a known network's: the next import finds it
        // again. A crash between these two writes is finished by the next call.
        auto merge = store.merge_block();
        if (!merge) return unexpected(store_error(merge.error()));
        auto genesis = store.genesis_hash();
        if (!genesis) return unexpected(store_error(genesis.error()));
        const bool known = *genesis && network_by_genesis(**genesis).has_value();
        if (*merge && **merge > target && !known) {
            if (auto w = store.clear_merge_block(); !w) return unexpected(store_error(w.error()));
            report.merge_block_cleared = true;
        }
        if (auto w = store.set_pending_operation(std::nullopt); !w) {
            return unexpected(store_error(w.error()));
        }
        return {};
    });
    if (!r) return unexpected(r.error());
    return report;
}

}  // namespace keel::store
