// keel import --datadir D FILE...: chain history from era1 archives and RLP chain files (as
// `geth export` writes them) into the datadir's chain store, every block checked first.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "apps/keel/commands.hpp"
#include "apps/keel/datadir.hpp"
#include "apps/keel/input.hpp"
#include "keel/blockchain/executor.hpp"
#include "keel/common/hex.hpp"
#include "keel/common/progress.hpp"
#include "keel/store/import.hpp"
#include "keel/store/state_store.hpp"

namespace keel::cli {
namespace {

struct ImportArgs {
    std::string datadir;
    std::vector<std::string> files;
    std::size_t batch = 256;
    bool quiet = false;
    bool no_execute = false;
    std::uint64_t history_state = blockchain::kDefaultStateHistory;
};

// "pace: ..." of an executing import of one file: the rate of each tenth of its blocks, and
// the last tenth's time per gas against the first's (does execution slow as the state grows?).
std::string pace_by_tenths(const std::vector<store::FileImportReport::Pace>& pace) {
    std::string rates, ranges;
    double first_s_per_gas = 0, last_s_per_gas = 0;
    std::uint64_t from_block = pace.front().block;
    std::chrono::nanoseconds from_time{};
    std::uint64_t from_gas = 0;
    // The first point is the file's first executed block's end: count that block in the first
    // tenth (its start is the file's start, time 0, gas 0).
    if (pace.size() > 1 && pace[1].block > pace[0].block)
        from_block -= std::min(from_block, pace[1].block - pace[0].block - 1);
    for (std::size_t k = 1; k <= 10; ++k) {
        const auto& to = pace[k * (pace.size() - 1) / 10];
        const double s = std::chrono::duration<double>(to.elapsed - from_time).count();
        const double gas = static_cast<double>(to.gas - from_gas);
        rates += fmt::format("{}{:.0f}", k == 1 ? "" : ", ", s > 0 ? gas / 1e6 / s : 0.0);
        ranges += fmt::format("{}{}-{}", k == 1 ? "" : ", ", from_block, to.block);
        if (gas > 0 && k == 1) first_s_per_gas = s / gas;
        if (gas > 0 && k == 10) last_s_per_gas = s / gas;
        from_block = to.block + 1;
        from_time = to.elapsed;
        from_gas = to.gas;
    }
    return fmt::format(
        "pace: Mgas/s by tenth of the blocks {} (blocks {}); time per gas, last tenth / first: "
        "{:.2f}x",
        rates, ranges, first_s_per_gas > 0 ? last_s_per_gas / first_s_per_gas : 0.0);
}

std::string describe_file(const store::FileImportReport& r) {
    const std::uint64_t last = r.file.first + r.file.count - 1;
    std::string s = fmt::format("{}: {}, blocks {}-{}: ", r.file.path.filename().string(),
                                store::to_string(r.file.kind), r.file.first, last);
    if (r.imported == 0 && r.skipped == r.file.count) return s + "already imported, skipped";
    s += fmt::format("imported {} blocks ({} transactions)", r.imported, r.transactions);
    if (r.skipped > 0) s += fmt::format(", {} already stored", r.skipped);
    return s;
}

// What a new datadir's creation adds to the file system, to remove after a failed import that
// stored nothing: the highest missing directory on the path (and everything under it), or,
// for an empty directory that exists, only its contents.
struct Created {
    std::filesystem::path root;  // empty: the store existed, nothing to remove
    bool keep_root = false;      // the directory existed (empty): remove only what is inside
};

Created what_create_adds(const std::filesystem::path& dir) {
    namespace fs = std::filesystem;
    std::error_code ec;
    if (fs::exists(dir, ec)) {
        if (fs::is_directory(dir, ec) && fs::is_empty(dir, ec)) return Created{dir, true};
        return Created{};
    }
    fs::path top = fs::absolute(dir, ec).lexically_normal();
    if (!top.has_filename()) top = top.parent_path();
    while (top.has_parent_path() && top.parent_path() != top &&
           !fs::exists(top.parent_path(), ec)) {
        top = top.parent_path();
    }
    return Created{top, false};
}

void remove_created(const Created& c) {
    namespace fs = std::filesystem;
    std::error_code ec;
    if (c.root.empty()) return;
    if (!c.keep_root) {
        fs::remove_all(c.root, ec);
        return;
    }
    for (auto it = fs::directory_iterator(c.root, ec); !ec && it != fs::directory_iterator();
         it.increment(ec)) {
        std::error_code rm;
        fs::remove_all(it->path(), rm);
    }
}

// The import's one line, with how to rewind when the file and the store disagree.
std::string import_failure(const ImportArgs& args, const store::ImportError& e) {
    if (!e.rewind_to) return e.message;
    return fmt::format(
        "{}; to replace the stored blocks above {}: keel storage rewind --datadir {} --to {}",
        e.message, *e.rewind_to, args.datadir, *e.rewind_to);
}

void import_into(const ImportArgs& args, const std::vector<store::ChainFileInfo>& files,
                 std::uint64_t total, store::ChainStore& chain) {
    // Executing, the second rate is gas per second; history only, transactions per second.
    Progress progress("import", total,
                      {.enabled = !args.quiet,
                       .unit = "blocks",
                       .secondary_unit = args.no_execute ? "tx" : "gas"});
    std::unique_ptr<blockchain::StoreExecutor> executor;
    if (!args.no_execute) {
        auto e = blockchain::StoreExecutor::create(chain, args.history_state);
        if (!e) {
            throw Failure{kExitBadData,
                          "import: the datadir holds no state to execute on (" + e.error() +
                              "): run keel init first, or import with --no-execute (history only)"};
        }
        executor = std::move(*e);
    }
    auto importer = store::Importer::create(
        chain, {.batch_blocks = args.batch, .progress = &progress, .executor = executor.get()});
    if (!importer) throw Failure{kExitBadData, import_failure(args, importer.error())};

    const auto t0 = std::chrono::steady_clock::now();
    std::vector<std::string> lines;
    std::uint64_t blocks = 0, txs = 0;
    std::chrono::nanoseconds senders{}, writes{};
    std::vector<store::FileImportReport::Pace> pace;  // a single file's
    for (const store::ChainFileInfo& f : files) {
        auto r = importer->import_file(f.path);
        if (!r) {
            progress.finish();
            for (const std::string& l : lines) std::printf("%s\n", l.c_str());
            std::fflush(stdout);
            throw Failure{kExitBadData, import_failure(args, r.error())};
        }
        blocks += r->imported;
        txs += r->transactions;
        senders += r->senders;
        writes += r->writes;
        pace = files.size() == 1 ? r->pace : decltype(pace){};
        lines.push_back(describe_file(*r));
    }
    // Memtables to table files now, so that the next open does not replay the import's WAL
    // (seconds for a large import); counted in the import's time.
    const auto flush0 = std::chrono::steady_clock::now();
    if (auto f = chain.flush(); !f) throw Failure{kExitBadData, f.error().message};
    const double flush_s =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - flush0).count();
    progress.finish();
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    for (const std::string& l : lines) std::printf("%s\n", l.c_str());
    auto head = chain.head();
    const std::string head_text = head && *head ? std::to_string(**head) : std::string("none");
    std::printf(
        "import: %llu blocks, %llu transactions in %.2f s (%.0f blocks/s, %.0f tx/s); "
        "head %s\n",
        static_cast<unsigned long long>(blocks), static_cast<unsigned long long>(txs), s,
        s > 0 ? static_cast<double>(blocks) / s : 0.0, s > 0 ? static_cast<double>(txs) / s : 0.0,
        head_text.c_str());
    if (executor) {
        const blockchain::ExecutionTimes& t = executor->times();
        auto sec = [](std::chrono::nanoseconds ns) {
            return std::chrono::duration<double>(ns).count();
        };
        const double exec_s = sec(t.checks + t.execution + t.state);
        // Senders are recovered while staging, beside execution (another core when there is
        // one): their time is not part of the sum, and "the rest" includes any wait for them.
        std::printf(
            "executed: %llu blocks, %.3f Mgas, %.1f Mgas/s overall; time: senders %.2f s "
            "(staging, beside execution), checks %.2f s, execution %.2f s, state and roots "
            "%.2f s, writes %.2f s, the rest %.2f s, final flush %.2f s\n",
            static_cast<unsigned long long>(t.blocks), static_cast<double>(t.gas) / 1e6,
            s > 0 ? static_cast<double>(t.gas) / 1e6 / s : 0.0, sec(senders), sec(t.checks),
            sec(t.execution), sec(t.state), sec(writes),
            std::max(0.0, s - exec_s - sec(writes) - flush_s), flush_s);
        if (pace.size() >= 10 && t.gas > 0) std::printf("%s\n", pace_by_tenths(pace).c_str());
        if (auto state = store::state_head(chain); state && *state) {
            std::printf("state: block %llu, root %s\n",
                        static_cast<unsigned long long>((*state)->number),
                        hex::encode((*state)->state_root.view(), {.prefix = true}).c_str());
        }
    }
}

// Bad usage (exit 2), found before anything is read or created: a --datadir that is a file, an
// input that is missing or a directory.
void check_paths(const ImportArgs& args) {
    namespace fs = std::filesystem;
    std::error_code ec;
    if (fs::exists(args.datadir, ec) && !fs::is_directory(args.datadir, ec)) {
        throw Failure{kExitUsage, fmt::format("--datadir {}: not a directory", args.datadir)};
    }
    for (const std::string& f : args.files) {
        const fs::file_status st = fs::status(f, ec);
        if (!fs::exists(st)) {
            throw Failure{kExitUsage, fmt::format("{}: No such file or directory", f)};
        }
        if (fs::is_directory(st)) {
            throw Failure{kExitUsage, fmt::format("{}: is a directory, not a chain file", f)};
        }
    }
}

void run_import(const ImportArgs& args) {
    check_paths(args);
    std::vector<store::ChainFileInfo> files;
    std::uint64_t total = 0;
    for (const std::string& f : args.files) {
        auto info = store::inspect_chain_file(f);
        if (!info) throw Failure{kExitBadData, info.error().message};
        total += info->count;
        files.push_back(std::move(*info));
    }
    // Files in block order (then by name), whatever order the shell gave them in.
    std::sort(files.begin(), files.end(), [](const auto& a, const auto& b) {
        return a.first != b.first ? a.first < b.first : a.path < b.path;
    });

    const Created created = what_create_adds(args.datadir);
    std::optional<store::ChainStore> opened(open_datadir(args.datadir, Access::create));
    try {
        import_into(args, files, total, *opened);
    } catch (const Failure&) {
        // A new datadir that holds no block after the failure goes again, and only what this
        // run created: the blocks of a partly good file stay (re-running resumes after them).
        auto head = opened->head();
        const bool empty = head && !*head;
        opened.reset();  // closed before its files go
        if (empty) remove_created(created);
        throw;
    }
}

}  // namespace

void add_import_command(CLI::App& app) {
    auto args = std::make_shared<ImportArgs>();
    auto* cmd = app.add_subcommand(
        "import",
        "Import blocks from era1 archives and RLP chain files (geth export) into a datadir made "
        "by keel init, executing each on its parent's state (--no-execute: history only); "
        "re-running resumes");
    cmd->add_option("--datadir", args->datadir,
                    "the chain store's directory (created if missing; removed again if the import "
                    "fails before storing a block)")
        ->required();
    cmd->add_option("files", args->files, "era1 archives and RLP chain files, in any order")
        ->required();
    cmd->add_option("--batch", args->batch, "blocks per atomic write")
        ->check(whole_number("a batch size", 1, 100000));
    cmd->add_flag("--quiet", args->quiet, "no progress output");
    cmd->add_flag("--no-execute", args->no_execute,
                  "store history only: no execution, no receipts from RLP files, no state (for "
                  "ranges whose state keel does not have); by default every block is executed "
                  "on the state keel init made");
    cmd->add_option("--history.state", args->history_state,
                    "blocks of state history to keep readable (older history is pruned as new "
                    "blocks come, in the same writes); 0 keeps all of it (archive)")
        ->check(whole_number("a block count"))
        ->capture_default_str();
    cmd->callback([args] { run_import(*args); });
}

}  // namespace keel::cli
