// Generating a devnet chain (keel/devnet): blocks/s and transactions/s on the whole pool, and on
// one thread for the scaling ratio. Most of the time is secp256k1 signing, one signature per
// transaction (two or three for a set-code one), so the physical reference in the same run is
// BM_DevnetSignOnly: libsecp256k1 signing alone, one thread; generation on one thread should
// reach most of its rate, and on the pool scale with the cores.
#include <benchmark/benchmark.h>

#include <cstdint>

#include "keel/common/assert.hpp"
#include "keel/common/parallel.hpp"
#include "keel/crypto/keccak.hpp"
#include "keel/crypto/secp256k1.hpp"
#include "keel/devnet/accounts.hpp"
#include "keel/devnet/chain_gen.hpp"

namespace {

using namespace keel;
using namespace keel::devnet;

// 64 blocks of 50 transactions, the merge halfway.
ChainSpec bench_spec() {
    ChainSpec s;
    s.blocks = 64;
    s.txs_per_block = 50;
    s.merge_at = 32;
    return s;
}

void run_chain(benchmark::State& state) {
    const ChainSpec spec = bench_spec();
    std::uint64_t blocks = 0;
    std::uint64_t txs = 0;
    std::uint64_t bytes = 0;
    for (auto _ : state) {
        auto gen = ChainGenerator::create(spec);
        KEEL_ASSERT(gen.has_value());
        while (!gen->done()) benchmark::DoNotOptimize(gen->next().data());
        blocks += gen->stats().blocks;
        txs += gen->stats().transactions;
        bytes += gen->stats().bytes;
    }
    state.counters["blocks/s"] =
        benchmark::Counter(static_cast<double>(blocks), benchmark::Counter::kIsRate);
    state.counters["tx/s"] =
        benchmark::Counter(static_cast<double>(txs), benchmark::Counter::kIsRate);
    state.SetBytesProcessed(static_cast<std::int64_t>(bytes));
}

void BM_DevnetChainGen(benchmark::State& state) {
    run_chain(state);
}
BENCHMARK(BM_DevnetChainGen)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_DevnetChainGenOneThread(benchmark::State& state) {
    parallel::ThreadLimit one(1);
    run_chain(state);
}
BENCHMARK(BM_DevnetChainGenOneThread)->Unit(benchmark::kMillisecond)->UseRealTime();

// The floor of the work: one secp256k1 signature per iteration, one thread.
void BM_DevnetSignOnly(benchmark::State& state) {
    const AccountSet accounts = AccountSet::derive(1);
    Hash32 msg = crypto::keccak256(as_bytes("devnet"));
    std::uint64_t sigs = 0;
    for (auto _ : state) {
        auto sig = crypto::secp256k1::sign_recoverable(msg, accounts.senders[sigs % 256].secret);
        benchmark::DoNotOptimize(sig);
        msg[0] = static_cast<std::uint8_t>(++sigs);
    }
    state.counters["sig/s"] =
        benchmark::Counter(static_cast<double>(sigs), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_DevnetSignOnly);

}  // namespace
