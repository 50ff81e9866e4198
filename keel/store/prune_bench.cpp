// History pruning and verification of a synthetic store of ~200k transactions (23 400 blocks,
// 10 transactions in six blocks of seven; KEEL_BENCH_PRUNE_BLOCKS changes the count), pruned
// below two thirds of it (block 15 600). The prune
// benchmark times prune_history() alone on a fresh copy each iteration (manual time: marker,
// range deletes and the compactions that reclaim the space) and reports rows removed per second
// (bodies, receipts and tx lookup entries) and the store's size before and after; the verify
// benchmark reads the whole unpruned store and reports transactions per second.
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <filesystem>
#include <stdexcept>
#include <string>

#include "keel/store/prune.hpp"
#include "keel/store/store_test_helpers.hpp"
#include "keel/store/synthetic_chain.hpp"
#include "keel/store/verify.hpp"
#include "test/testutil/temp_dir.hpp"

namespace {

namespace fs = std::filesystem;
using keel::store::ChainStore;

// KEEL_BENCH_PRUNE_BLOCKS=n makes a chain of n blocks instead (pruned below 2n/3).
keel::store::synthetic::ChainOptions chain_options() {
    keel::store::synthetic::ChainOptions o{.count = 23400, .txs_per_block = 10};
    if (const char* env = std::getenv("KEEL_BENCH_PRUNE_BLOCKS")) o.count = std::stoull(env);
    o.merge_block = o.count * 2 / 3;
    return o;
}

// The unpruned store, written once per process in batches with periodic flushes.
struct Template {
    keel::testutil::TempDir dir{"prune-bench"};
    std::uint64_t transactions = 0;

    Template() {
        auto store = ChainStore::create(path());
        if (!store) throw std::runtime_error(store.error().message);
        const auto options = chain_options();
        auto txs = keel::store::synthetic::write_chain(*store, options, 500, 4);
        if (!txs) throw std::runtime_error(txs.error().message);
        if (!store->set_merge_block(options.merge_block)) throw std::runtime_error("merge block");
        transactions = *txs;
    }
    fs::path path() const { return dir.path() / "template"; }
};

const Template& store_template() {
    static const Template t;
    return t;
}

void BM_PruneHistory(benchmark::State& state) {
    const Template& t = store_template();
    const fs::path work = t.path().parent_path() / "work";
    double entries = 0;
    double lookups = 0;
    keel::store::PruneReport last;
    for (auto _ : state) {
        std::error_code ec;
        fs::remove_all(work, ec);
        fs::copy(t.path(), work, fs::copy_options::recursive);
        auto store = ChainStore::open(work);
        if (!store) {
            state.SkipWithError(store.error().message.c_str());
            return;
        }
        auto r = keel::store::prune_history(*store);
        if (!r) {
            state.SkipWithError(r.error().message.c_str());
            return;
        }
        state.SetIterationTime(r->prune_seconds + r->reclaim_seconds);
        entries += static_cast<double>(2 * r->blocks_pruned + r->tx_lookups_dropped);
        lookups += static_cast<double>(r->tx_lookups_dropped);
        last = *r;
    }
    state.counters["entries/s"] = benchmark::Counter(entries, benchmark::Counter::kIsRate);
    state.counters["tx_lookups/s"] = benchmark::Counter(lookups, benchmark::Counter::kIsRate);
    state.counters["prune_ms"] = last.prune_seconds * 1e3;
    state.counters["reclaim_ms"] = last.reclaim_seconds * 1e3;
    state.counters["MiB_before"] = static_cast<double>(last.before.directory_bytes) / (1 << 20);
    state.counters["MiB_after"] = static_cast<double>(last.after.directory_bytes) / (1 << 20);
    std::error_code ec;
    fs::remove_all(work, ec);
}
BENCHMARK(BM_PruneHistory)->UseManualTime()->Unit(benchmark::kMillisecond)->Iterations(3);

void BM_VerifyStore(benchmark::State& state) {
    const Template& t = store_template();
    auto store = ChainStore::open(t.path());
    if (!store) {
        state.SkipWithError(store.error().message.c_str());
        return;
    }
    double txs = 0;
    for (auto _ : state) {
        auto r = keel::store::verify_store(*store, {.progress = false});
        if (!r) {
            state.SkipWithError(r.error().message.c_str());
            return;
        }
        txs += static_cast<double>(r->transactions);
    }
    state.counters["tx/s"] = benchmark::Counter(txs, benchmark::Counter::kIsRate);
}
BENCHMARK(BM_VerifyStore)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace
