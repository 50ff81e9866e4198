// Importing an RLP chain file into a fresh chain store (keel/store import.hpp): blocks/s and
// transactions/s for a generated chain (keel devnet: 512 blocks of 50 signed transactions, the
// merge at block 384), everything included: mapping the file, decoding, every root and link
// checked, RocksDB batches through the WAL. A second figure stages only (decode and checks, no
// store), to show how much of the time the database takes.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <fstream>
#include <memory>
#include <string>

#include "keel/common/assert.hpp"
#include "keel/devnet/chain_gen.hpp"
#include "keel/eth/block.hpp"
#include "keel/rlp/decode.hpp"
#include "keel/store/chain_store.hpp"
#include "keel/store/import.hpp"
#include "test/testutil/temp_dir.hpp"

namespace {

using namespace keel;

struct ChainFile {
    testutil::TempDir dir{"import-bench"};
    std::filesystem::path path = dir.path() / "chain.rlp";
    std::uint64_t blocks = 0;
    std::uint64_t txs = 0;
    Bytes bytes;
};

const ChainFile& chain_file() {
    static const ChainFile* f = [] {
        auto* out = new ChainFile;
        auto gen =
            devnet::ChainGenerator::create({.blocks = 512, .txs_per_block = 50, .merge_at = 384});
        KEEL_ASSERT(gen.has_value());
        while (!gen->done()) {
            const BytesView b = gen->next();
            out->bytes.insert(out->bytes.end(), b.begin(), b.end());
        }
        out->blocks = gen->stats().blocks;
        out->txs = gen->stats().transactions;
        std::ofstream(out->path, std::ios::binary)
            .write(reinterpret_cast<const char*>(out->bytes.data()),
                   static_cast<std::streamsize>(out->bytes.size()));
        return out;
    }();
    return *f;
}

void set_rates(benchmark::State& state, std::uint64_t blocks, std::uint64_t txs) {
    state.counters["blocks/s"] =
        benchmark::Counter(static_cast<double>(blocks), benchmark::Counter::kIsRate);
    state.counters["tx/s"] =
        benchmark::Counter(static_cast<double>(txs), benchmark::Counter::kIsRate);
}

void BM_ImportRlpChain(benchmark::State& state) {
    const ChainFile& f = chain_file();
    std::uint64_t blocks = 0, txs = 0;
    int round = 0;
    for (auto _ : state) {
        state.PauseTiming();
        const auto db = f.dir.path() / ("db-" + std::to_string(round++));
        auto store = std::make_unique<store::ChainStore>(store::ChainStore::create(db).value());
        state.ResumeTiming();
        auto importer = store::Importer::create(*store);
        KEEL_ASSERT(importer.has_value());
        auto r = importer->import_file(f.path);
        KEEL_ASSERT(r.has_value());
        blocks += r->imported;
        txs += r->transactions;
        state.PauseTiming();
        store.reset();  // close before removing
        std::filesystem::remove_all(db);
        state.ResumeTiming();
    }
    set_rates(state, blocks, txs);
}
BENCHMARK(BM_ImportRlpChain)->Unit(benchmark::kMillisecond)->UseRealTime();

// The importer's checks without the store: decode every block and recompute its roots, one thread.
void BM_ImportChecksOnly(benchmark::State& state) {
    const ChainFile& f = chain_file();
    std::uint64_t blocks = 0, txs = 0;
    trie::RootBuilder builder;
    for (auto _ : state) {
        BytesView rest = f.bytes;
        while (!rest.empty()) {
            auto item = rlp::decode_header(rest).value();
            auto block = eth::decode_block(item.encoded()).value();
            benchmark::DoNotOptimize(eth::transactions_root(block.body.transactions, builder));
            benchmark::DoNotOptimize(eth::ommers_hash(block.body.ommers));
            if (block.body.withdrawals) {
                benchmark::DoNotOptimize(eth::withdrawals_root(*block.body.withdrawals, builder));
            }
            txs += block.body.transactions.size();
            ++blocks;
            rest = rest.subspan(item.size());
        }
    }
    set_rates(state, blocks, txs);
}
BENCHMARK(BM_ImportChecksOnly)->Unit(benchmark::kMillisecond);

}  // namespace
