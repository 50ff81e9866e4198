// Generating beacon blocks and states (keel/devnet beacon_*_gen.hpp) for SSZ benchmarks.
//
// A block's cost is signing its 200 transactions (BM_DevnetSignOnly in chain_gen_bench.cpp is
// the per-signature floor) plus AccountSet::derive (320 public keys). A state's cost is writing
// its memory: the physical reference in the same run is BM_DevnetBeaconStateMemsetOnly, which
// only zero-fills as many bytes as the state's per-validator lists hold; generation on the pool
// should stay within a small factor of it, and on one thread scale with the cores.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <vector>

#include "keel/common/assert.hpp"
#include "keel/common/parallel.hpp"
#include "keel/devnet/beacon_block_gen.hpp"
#include "keel/devnet/beacon_state_gen.hpp"

namespace {

using namespace keel;
using namespace keel::devnet;

// Bytes of the per-validator lists in memory: Validator (128 with padding), balance (8), two
// participation flags (2) and an inactivity score (8).
constexpr std::size_t kBytesPerValidator = 146;

void block_gen(benchmark::State& state, beacon::Fork fork) {
    BeaconBlockSpec spec;
    spec.fork = fork;
    std::uint64_t bytes = 0;
    for (auto _ : state) {
        auto block = generate_beacon_block(spec);
        KEEL_ASSERT(block.has_value());
        bytes += block->ssz.size();
        benchmark::DoNotOptimize(block->ssz.data());
    }
    state.SetBytesProcessed(static_cast<std::int64_t>(bytes));
}

void BM_DevnetBeaconBlockDeneb(benchmark::State& state) {
    block_gen(state, beacon::Fork::deneb);
}
BENCHMARK(BM_DevnetBeaconBlockDeneb)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_DevnetBeaconBlockElectra(benchmark::State& state) {
    block_gen(state, beacon::Fork::electra);
}
BENCHMARK(BM_DevnetBeaconBlockElectra)->Unit(benchmark::kMillisecond)->UseRealTime();

void state_gen(benchmark::State& state) {
    BeaconStateSpec spec;
    spec.validators = static_cast<std::uint64_t>(state.range(0));
    for (auto _ : state) {
        auto s = generate_beacon_state(spec);
        KEEL_ASSERT(s.has_value());
        benchmark::DoNotOptimize(s->deneb());
    }
    state.counters["validators/s"] = benchmark::Counter(
        static_cast<double>(spec.validators * state.iterations()), benchmark::Counter::kIsRate);
}

void BM_DevnetBeaconState(benchmark::State& state) {
    state_gen(state);
}
BENCHMARK(BM_DevnetBeaconState)
    ->Arg(100'000)
    ->Arg(1'000'000)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

void BM_DevnetBeaconStateOneThread(benchmark::State& state) {
    parallel::ThreadLimit one(1);
    state_gen(state);
}
BENCHMARK(BM_DevnetBeaconStateOneThread)
    ->Arg(1'000'000)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

// The floor: allocating and zero-filling the per-validator lists' bytes, one thread.
void BM_DevnetBeaconStateMemsetOnly(benchmark::State& state) {
    const std::size_t n = static_cast<std::size_t>(state.range(0)) * kBytesPerValidator;
    for (auto _ : state) {
        std::vector<std::uint8_t> bytes(n);
        benchmark::DoNotOptimize(bytes.data());
    }
    state.counters["validators/s"] = benchmark::Counter(
        static_cast<double>(state.range(0) * state.iterations()), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_DevnetBeaconStateMemsetOnly)
    ->Arg(1'000'000)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

}  // namespace
