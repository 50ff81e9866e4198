// Tracing stored blocks (issue 27's goals: callTracer, flatCallTracer and prestateTracer of a
// whole block within 1.2x of its untraced replay; trace_replayBlockTransactions with vmTrace
// within 3x): 24 blocks of the contract-heavy generator (keel devnet gen --contracts, about
// 23 M gas each) imported once into a store, then blocks 8-23 (the steady part: transfers,
// swaps, mints, storage loops, creations, delegations) replayed on their parents' historical
// state, untraced and with each tracer, every transaction's result written into a buffer that
// is emptied after each transaction (as a stream would). gas/s per mode; the ratio of a mode's
// time to "untraced" is the figure the goals are set in (bench/trace_overhead.sh prints it).
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

#include "keel/blockchain/chain.hpp"
#include "keel/blockchain/init.hpp"
#include "keel/blockchain/replay.hpp"
#include "keel/chain/genesis.hpp"
#include "keel/common/assert.hpp"
#include "keel/common/json_writer.hpp"
#include "keel/devnet/contract_chain.hpp"
#include "keel/eth/block.hpp"
#include "keel/trace/parity_tracer.hpp"
#include "keel/trace/tracer_spec.hpp"
#include "keel/trace/tx_selector.hpp"
#include "test/testutil/temp_dir.hpp"

namespace {

using namespace keel;

constexpr std::uint64_t kFirst = 8;
constexpr std::uint64_t kLast = 23;

struct Stored {
    testutil::TempDir dir{"trace-bench"};
    std::optional<store::ChainStore> store;
    eth::ChainConfig config;
    std::vector<blockchain::StoredBlock> blocks;
    std::uint64_t gas = 0;
};

// Built once per process: the store outlives every benchmark.
void build(Stored& out) {
    {
        testutil::TempDir work("trace-bench-gen");
        auto gen = devnet::ContractChainGenerator::create(
            devnet::ContractChainSpec{.blocks = kLast + 1, .blobs = false}, work.path() / "gen");
        KEEL_ASSERT(gen.has_value());
        auto genesis = chain::parse_genesis(gen->genesis_json());
        KEEL_ASSERT(genesis.has_value());
        auto st = store::ChainStore::create(out.dir.path() / "db");
        KEEL_ASSERT(st.has_value());
        out.store.emplace(std::move(*st));
        KEEL_ASSERT(blockchain::init_store(*out.store, *genesis, gen->genesis_json()).has_value());
        auto c = blockchain::Chain::open(*out.store, genesis->config, 0);
        KEEL_ASSERT(c.has_value());
        while (!gen->done()) {
            auto rlp = gen->next();
            KEEL_ASSERT(rlp.has_value());
            auto block = eth::decode_block(*rlp);
            KEEL_ASSERT(block.has_value());
            if (block->header.number == 0) continue;
            KEEL_ASSERT(c->insert(*block).has_value());
        }
        out.config = genesis->config;
        for (std::uint64_t n = kFirst; n <= kLast; ++n) {
            auto b = blockchain::load_for_replay(*out.store, out.config, n);
            KEEL_ASSERT(b.has_value());
            out.gas += b->block.header.gas_used;
            out.blocks.push_back(std::move(*b));
        }
    }
}

Stored* the_store = nullptr;

Stored& stored() {
    if (the_store == nullptr) {
        the_store = new Stored;
        build(*the_store);
        // Closed at exit before RocksDB's own statics go (they were made by the first open, after
        // this object: a static here would be destroyed after them).
        std::atexit([] {
            delete the_store;
            the_store = nullptr;
        });
    }
    return *the_store;
}

void report(benchmark::State& state, std::uint64_t gas, std::uint64_t bytes) {
    state.counters["gas/s"] =
        benchmark::Counter(static_cast<double>(gas), benchmark::Counter::kIsRate);
    const auto iterations = std::max<std::int64_t>(state.iterations(), 1);
    state.counters["out_MB/block"] = static_cast<double>(bytes) / 1e6 /
                                     static_cast<double>(kLast - kFirst + 1) /
                                     static_cast<double>(iterations);
}

void BM_TraceReplayUntraced(benchmark::State& state) {
    Stored& s = stored();
    std::uint64_t gas = 0;
    for (auto _ : state) {
        for (const auto& b : s.blocks)
            KEEL_ASSERT(blockchain::replay(*s.store, b, nullptr).has_value());
        gas += s.gas;
    }
    report(state, gas, 0);
}
BENCHMARK(BM_TraceReplayUntraced)->Unit(benchmark::kMillisecond)->UseRealTime();

// A debug_traceBlock tracer by name (trace/tracer_spec.hpp).
void BM_TraceReplayTracer(benchmark::State& state, const char* name) {
    Stored& s = stored();
    const auto spec = trace::parse_tracer_spec(name, "");
    KEEL_ASSERT(spec.has_value());
    std::uint64_t gas = 0, bytes = 0;
    std::string out;
    for (auto _ : state) {
        for (const auto& b : s.blocks) {
            trace::TxTracer tracer(
                *spec, b.config.fork_at(b.block.header.number, b.block.header.timestamp));
            tracer.set_drain(1 << 20, [&](std::string& o) {
                bytes += o.size();
                o.clear();
            });
            trace::TxSelector sel(
                [&](std::size_t, std::uint64_t first_log) { return tracer.begin(out, first_log); },
                [&](std::size_t, const evm::TxEndView& tx) {
                    tracer.end(out, tx, {});
                    bytes += out.size();
                    out.clear();
                });
            KEEL_ASSERT(blockchain::replay(*s.store, b, &sel).has_value());
        }
        gas += s.gas;
    }
    report(state, gas, bytes);
}
BENCHMARK_CAPTURE(BM_TraceReplayTracer, noopTracer, "noopTracer")
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK_CAPTURE(BM_TraceReplayTracer, callTracer, "callTracer")
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK_CAPTURE(BM_TraceReplayTracer, flatCallTracer, "flatCallTracer")
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK_CAPTURE(BM_TraceReplayTracer, prestateTracer, "prestateTracer")
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK_CAPTURE(BM_TraceReplayTracer, structLog, "structLog")
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

// trace_replayBlockTransactions with the given trace types.
void BM_TraceReplayParity(benchmark::State& state, trace::ParityTraceTypes types) {
    Stored& s = stored();
    std::uint64_t gas = 0, bytes = 0;
    std::string out;
    for (auto _ : state) {
        for (const auto& b : s.blocks) {
            trace::ParityTracer tracer(types);
            trace::TxSelector sel([&](std::size_t, std::uint64_t) { return &tracer; },
                                  [&](std::size_t i, const evm::TxEndView&) {
                                      tracer.write(out, &b.block.body.transactions[i].hash());
                                      bytes += out.size();
                                      out.clear();
                                  });
            KEEL_ASSERT(blockchain::replay(*s.store, b, &sel).has_value());
        }
        gas += s.gas;
    }
    report(state, gas, bytes);
}
BENCHMARK_CAPTURE(BM_TraceReplayParity, trace, trace::ParityTraceTypes{.trace = true})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK_CAPTURE(BM_TraceReplayParity, vmTrace, trace::ParityTraceTypes{.vm_trace = true})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK_CAPTURE(BM_TraceReplayParity, stateDiff, trace::ParityTraceTypes{.state_diff = true})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

}  // namespace
