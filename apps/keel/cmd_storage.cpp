// keel storage prune-pre-merge-blocks --datadir D [--until N]: removes the bodies, receipts and
// transaction lookups of the blocks below N (default: the merge block), resuming an interrupted
// prune first, and reports the space before and after.
// keel storage verify --datadir D: checks the store's consistency and prints its counts (opened
// read-only: it works while an import runs).
// keel storage rewind --datadir D --to N: removes every block above N, resuming an interrupted
// rewind first.
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <optional>
#include <string>

#include <fmt/format.h>

#include "apps/keel/commands.hpp"
#include "apps/keel/datadir.hpp"
#include "apps/keel/input.hpp"
#include "keel/common/hex.hpp"
#include "keel/store/prune.hpp"
#include "keel/store/rewind.hpp"
#include "keel/store/state_store.hpp"
#include "keel/store/state_verify.hpp"
#include "keel/store/verify.hpp"

namespace keel::cli {
namespace {

struct StorageArgs {
    std::string datadir;
    std::optional<std::uint64_t> until;
    std::uint64_t to = 0;
    bool quiet = false;
};

// "1.23 GiB": a byte count for people (the exact count is printed beside it).
std::string human_bytes(std::uint64_t bytes) {
    static constexpr const char* kUnits[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    double v = static_cast<double>(bytes);
    std::size_t u = 0;
    while (v >= 1024.0 && u + 1 < std::size(kUnits)) {
        v /= 1024.0;
        ++u;
    }
    return u == 0 ? fmt::format("{} B", bytes) : fmt::format("{:.2f} {}", v, kUnits[u]);
}

int prune_exit_code(store::PruneError::Code code) {
    switch (code) {
        case store::PruneError::Code::no_target:
        case store::PruneError::Code::above_head:
            return kExitUsage;  // a different --until fixes it
        default:
            return kExitBadData;
    }
}

void print_prune_report(const store::PruneReport& r) {
    if (r.resumed) {
        std::printf("resumed: an interrupted prune to block %llu\n",
                    static_cast<unsigned long long>(*r.resumed));
    }
    std::printf("pruned: history below block %llu (floor %llu -> %llu)\n",
                static_cast<unsigned long long>(r.floor),
                static_cast<unsigned long long>(r.previous_floor),
                static_cast<unsigned long long>(r.floor));
    std::printf("blocks: %llu (bodies and receipts range-deleted)\n",
                static_cast<unsigned long long>(r.blocks_pruned));
    std::printf("tx lookups dropped: %llu\n",
                static_cast<unsigned long long>(r.tx_lookups_dropped));
    std::printf("size before: %llu bytes (%s)\n",
                static_cast<unsigned long long>(r.before.directory_bytes),
                human_bytes(r.before.directory_bytes).c_str());
    std::printf("size after: %llu bytes (%s)\n",
                static_cast<unsigned long long>(r.after.directory_bytes),
                human_bytes(r.after.directory_bytes).c_str());
    for (const store::Family f :
         {store::Family::bodies, store::Family::receipts, store::Family::tx_lookup}) {
        const auto i = static_cast<std::size_t>(f);
        std::printf("  %s: %s -> %s\n", std::string(store::family_name(f)).c_str(),
                    human_bytes(r.before.family_bytes[i]).c_str(),
                    human_bytes(r.after.family_bytes[i]).c_str());
    }
    // Rows removed: each pruned block's body and receipts, and each dropped lookup entry.
    const std::uint64_t entries = 2 * r.blocks_pruned + r.tx_lookups_dropped;
    const double seconds = r.prune_seconds + r.reclaim_seconds;
    std::printf("prune time: %.3f s (marker and floor, range deletes)\n", r.prune_seconds);
    std::printf("reclaim time: %.3f s (compactions)\n", r.reclaim_seconds);
    std::printf("entries removed: %llu (%.0f/s)\n", static_cast<unsigned long long>(entries),
                seconds > 0 ? static_cast<double>(entries) / seconds : 0.0);
}

void run_prune(const StorageArgs& args) {
    store::ChainStore chain = open_datadir(args.datadir, Access::write);
    store::PruneOptions options;
    options.until = args.until;
    if (!args.quiet) {
        options.on_step = [](store::PruneStep step, bool done) {
            if (done) return;
            std::fprintf(stderr, "prune: step %d/%zu: %s\n", static_cast<int>(step) + 1,
                         store::kPruneStepCount, std::string(store::to_string(step)).c_str());
        };
    }
    auto r = store::prune_history(chain, options);
    if (!r && r.error().code == store::PruneError::Code::other_operation) {
        throw Failure{kExitBadData,
                      fmt::format("storage prune-pre-merge-blocks {}: {} (keel storage "
                                  "rewind --datadir {} finishes a rewind)",
                                  args.datadir, r.error().message, args.datadir)};
    }
    if (!r) {
        throw Failure{
            prune_exit_code(r.error().code),
            fmt::format("storage prune-pre-merge-blocks {}: {}", args.datadir, r.error().message)};
    }
    if (!r->pruned) {
        std::printf("nothing to do: history below block %llu is already pruned (asked for %llu)\n",
                    static_cast<unsigned long long>(r->floor),
                    static_cast<unsigned long long>(r->target));
        return;
    }
    print_prune_report(*r);
}

int rewind_exit_code(store::RewindErrc code) {
    switch (code) {
        case store::RewindErrc::above_head:
        case store::RewindErrc::below_tail:
        case store::RewindErrc::below_floor:
            return kExitUsage;  // a different --to fixes it
        default:
            return kExitBadData;
    }
}

void run_rewind(const StorageArgs& args) {
    store::ChainStore chain = open_datadir(args.datadir, Access::write);
    store::RewindOptions options;
    options.to = args.to;
    if (!args.quiet) {
        options.on_step = [](store::RewindStep step, bool done) {
            static int last = -1;  // one message per step, not one per delete batch
            if (done || static_cast<int>(step) == last) return;
            last = static_cast<int>(step);
            std::fprintf(stderr, "rewind: step %d/%zu: %s\n", static_cast<int>(step) + 1,
                         store::kRewindStepCount, std::string(store::to_string(step)).c_str());
        };
    }
    auto r = store::rewind_chain(chain, options);
    if (!r) {
        throw Failure{rewind_exit_code(r.error().code),
                      fmt::format("storage rewind {}: {}", args.datadir, r.error().message)};
    }
    if (r->resumed) {
        std::printf("resumed: an interrupted rewind to block %llu\n",
                    static_cast<unsigned long long>(*r->resumed));
    }
    if (!r->rewound) {
        std::printf("nothing to do: the head is block %llu\n",
                    static_cast<unsigned long long>(r->head));
        return;
    }
    std::printf("rewound: head %llu -> %llu\n", static_cast<unsigned long long>(r->previous_head),
                static_cast<unsigned long long>(r->head));
    std::printf("blocks removed: %llu\n", static_cast<unsigned long long>(r->blocks_removed));
    std::printf("tx lookups removed: %llu\n",
                static_cast<unsigned long long>(r->transactions_removed));
    if (r->state_blocks_unwound > 0) {
        std::printf("state unwound: %llu blocks\n",
                    static_cast<unsigned long long>(r->state_blocks_unwound));
    }
    if (auto state = store::state_head(chain); state && *state) {
        std::printf("state: block %llu, root %s\n",
                    static_cast<unsigned long long>((*state)->number),
                    hex::encode((*state)->state_root.view(), {.prefix = true}).c_str());
    }
    if (r->merge_block_cleared) {
        std::printf(
            "merge block: forgotten (it lay above the new head; the next import finds it)\n");
    }
}

// The state's share of the disk, from the families' live tables (what an import's final
// flush wrote; data still only in the write-ahead log is not counted), per account and slot.
void print_state_sizes(const store::ChainStore& chain, const store::StateVerifyReport& v) {
    auto usage = chain.disk_usage();
    if (!usage) return;  // sizes are a report, not a check
    const auto bytes = [&](store::Family f) {
        return usage->family_bytes[static_cast<std::size_t>(f)];
    };
    using store::Family;
    const std::uint64_t accounts = bytes(Family::accounts) + bytes(Family::account_trie);
    const std::uint64_t storage = bytes(Family::storage) + bytes(Family::storage_trie);
    const std::uint64_t history = bytes(Family::account_history) + bytes(Family::storage_history) +
                                  bytes(Family::change_sets);
    const auto per = [](std::uint64_t b, std::uint64_t n) {
        return n == 0 ? 0.0 : static_cast<double>(b) / static_cast<double>(n);
    };
    std::printf(
        "state on disk: accounts %s (%.0f B/account: flat %.0f, trie %.0f), storage %s (%.0f "
        "B/slot: flat %.0f, trie %.0f), code %s, history %s\n",
        human_bytes(accounts).c_str(), per(accounts, v.accounts),
        per(bytes(Family::accounts), v.accounts), per(bytes(Family::account_trie), v.accounts),
        human_bytes(storage).c_str(), per(storage, v.slots), per(bytes(Family::storage), v.slots),
        per(bytes(Family::storage_trie), v.slots), human_bytes(bytes(Family::code)).c_str(),
        human_bytes(history).c_str());
}

void run_verify(const StorageArgs& args) {
    store::ChainStore chain = open_datadir(args.datadir, Access::read);
    auto r = store::verify_store(chain, store::VerifyOptions{.progress = !args.quiet});
    // Beside an import, a read-only open may see the families at different points (a flush
    // between RocksDB's reads of the manifest and of the logs: ChainStore::has_writer): what
    // is found then is checked again on a fresh open, twice at most, before it is reported.
    for (int again = 0; !r && again < 2 && store::ChainStore::has_writer(args.datadir); ++again) {
        chain = open_datadir(args.datadir, Access::read);
        r = store::verify_store(chain, store::VerifyOptions{.progress = !args.quiet});
    }
    if (!r) {
        throw Failure{kExitBadData,
                      fmt::format("storage verify {}: {}", args.datadir, r.error().message)};
    }
    const auto t0 = std::chrono::steady_clock::now();
    auto state = store::verify_state(chain);
    if (!state) {
        throw Failure{kExitBadData,
                      fmt::format("storage verify {}: {}", args.datadir, state.error().message)};
    }
    const double state_seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::printf("verify: ok\n");
    if (r->tail && r->head) {
        std::printf("blocks: %llu (%llu..%llu)\n", static_cast<unsigned long long>(r->blocks),
                    static_cast<unsigned long long>(*r->tail),
                    static_cast<unsigned long long>(*r->head));
    } else {
        std::printf("blocks: 0\n");
    }
    std::printf("history floor: %llu\n", static_cast<unsigned long long>(r->floor));
    if (r->pending) {
        std::printf("pending operation: %s%s\n", r->pending->kind.c_str(),
                    r->pending->kind == store::kPruneOperation
                        ? " (history below the floor not checked; re-run the prune to finish it)"
                        : "");
    }
    std::printf("bodies: %llu\n", static_cast<unsigned long long>(r->bodies));
    std::printf("receipts: %llu (blocks without receipts: %llu)\n",
                static_cast<unsigned long long>(r->receipts),
                static_cast<unsigned long long>(r->no_receipts));
    std::printf("transactions: %llu\n", static_cast<unsigned long long>(r->transactions));
    std::printf("tx lookups: %llu\n", static_cast<unsigned long long>(r->tx_lookups));
    if (*state) {
        const store::StateVerifyReport& v = **state;
        std::printf(
            "state: block %llu, root %s recomputed from %llu accounts and %llu slots (%llu "
            "codes)\n",
            static_cast<unsigned long long>(v.head.number),
            hex::encode(v.head.state_root.view(), {.prefix = true}).c_str(),
            static_cast<unsigned long long>(v.accounts), static_cast<unsigned long long>(v.slots),
            static_cast<unsigned long long>(v.codes));
        std::printf("state tries: %llu account rows, %llu storage rows, all reached and hashed\n",
                    static_cast<unsigned long long>(v.account_trie_rows),
                    static_cast<unsigned long long>(v.storage_trie_rows));
        std::printf("state history: %llu rows of the latest %llu change sets present\n",
                    static_cast<unsigned long long>(v.history_rows_checked),
                    static_cast<unsigned long long>(v.change_sets_checked));
        print_state_sizes(chain, v);
    } else {
        std::printf("state: none (a history-only store)\n");
    }
    std::printf("seconds: %.2f\n", r->seconds + state_seconds);
}

}  // namespace

void add_storage_command(CLI::App& app) {
    auto* storage =
        app.add_subcommand("storage", "Chain store maintenance: pruning, checks, rewinding");
    storage->require_subcommand(1);

    auto prune_args = std::make_shared<StorageArgs>();
    auto* prune = storage->add_subcommand(
        "prune-pre-merge-blocks",
        "Remove bodies, receipts and tx lookups below the merge block (or --until); keeps "
        "headers, canonical hashes and total difficulty. Resumes an interrupted prune.");
    prune->add_option("--datadir", prune_args->datadir, "directory of the chain store")->required();
    prune
        ->add_option("--until", prune_args->until,
                     "first block to keep (default: the store's merge block; at most the head)")
        ->check(whole_number("a block number"));
    prune->add_flag("--quiet", prune_args->quiet, "no step messages on stderr");
    prune->callback([prune_args] { run_prune(*prune_args); });

    auto verify_args = std::make_shared<StorageArgs>();
    auto* verify = storage->add_subcommand(
        "verify",
        "Check the chain store's consistency; print its counts (exit 1 at the first "
        "inconsistency)");
    verify->add_option("--datadir", verify_args->datadir, "directory of the chain store")
        ->required();
    verify->add_flag("--quiet", verify_args->quiet, "no progress on stderr");
    verify->callback([verify_args] { run_verify(*verify_args); });

    auto rewind_args = std::make_shared<StorageArgs>();
    auto* rewind = storage->add_subcommand(
        "rewind",
        "Remove every block above --to (headers, bodies, receipts, tx lookups) so that a damaged "
        "or foreign stretch of chain can be imported again. Atomic; resumes an interrupted "
        "rewind.");
    rewind->add_option("--datadir", rewind_args->datadir, "directory of the chain store")
        ->required();
    rewind->add_option("--to", rewind_args->to, "the new head: the last block to keep")
        ->required()
        ->check(whole_number("a block number"));
    rewind->add_flag("--quiet", rewind_args->quiet, "no step messages on stderr");
    rewind->callback([rewind_args] { run_rewind(*rewind_args); });
}

}  // namespace keel::cli
