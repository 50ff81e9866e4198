// SSZ on generated beacon inputs (keel/devnet: `keel devnet gen-beacon-block` and
// `gen-beacon-state`), the performance goals:
//   BM_GeneratedBlockRoot            hash_tree_root of the generated deneb block's message
//                                    (~140 KB, 128 attestations, 200 txs), one core; goal 0.5 ms
//   BM_GeneratedBlockDecodeAndRoot   decode the SignedBeaconBlock + the message's root, one core
//   BM_BeaconStateRoot/<threads>     fresh hash_tree_root of a deneb BeaconState with 1,000,000
//                                    validators (nothing cached between iterations) on 1 and 2
//                                    threads; goal 0.5 s on one core, faster on two
//   BM_BeaconStateDecode             strict decode of that state's SSZ (~140 MB) into a fresh
//                                    value on the heap, one core; goal >= 1 GB/s
//   BM_BeaconStateEncode             its encoding into a preallocated buffer, one core
// The inputs are generated once per process (the state takes about a second).
#include <benchmark/benchmark.h>

#include <cstdint>
#include <memory>

#include "keel/beacon/deneb.hpp"
#include "keel/common/assert.hpp"
#include "keel/common/parallel.hpp"
#include "keel/devnet/beacon_block_gen.hpp"
#include "keel/devnet/beacon_state_gen.hpp"
#include "keel/ssz/ssz.hpp"

namespace {

using namespace keel;
using State = beacon::deneb::mainnet::BeaconState;
using SignedBlock = beacon::deneb::mainnet::SignedBeaconBlock;

constexpr std::uint64_t kValidators = 1'000'000;

/// The generated deneb block (default spec), encoded.
const Bytes& block_ssz() {
    static const Bytes bytes = [] {
        auto b = devnet::generate_beacon_block(devnet::BeaconBlockSpec{});
        KEEL_ASSERT(b.has_value());
        return std::move(b->ssz);
    }();
    return bytes;
}

/// The generated deneb state of kValidators validators.
const devnet::GeneratedBeaconState& state() {
    static const devnet::GeneratedBeaconState s = [] {
        devnet::BeaconStateSpec spec;
        spec.validators = kValidators;
        auto g = devnet::generate_beacon_state(spec);
        KEEL_ASSERT(g.has_value());
        return std::move(*g);
    }();
    return s;
}

/// Its SSZ encoding.
const Bytes& state_ssz() {
    static const Bytes bytes = state().encode();
    return bytes;
}

void BM_GeneratedBlockRoot(benchmark::State& st) {
    const parallel::ThreadLimit one_core(1);
    auto block = ssz::decode_boxed<SignedBlock>(block_ssz());
    KEEL_ASSERT(block.has_value());
    for (auto _ : st) {
        Hash32 h = ssz::hash_tree_root((*block)->message);
        benchmark::DoNotOptimize(h);
    }
    st.SetBytesProcessed(static_cast<std::int64_t>(st.iterations() * block_ssz().size()));
    st.counters["block_bytes"] = static_cast<double>(block_ssz().size());
}

void BM_GeneratedBlockDecodeAndRoot(benchmark::State& st) {
    const parallel::ThreadLimit one_core(1);
    for (auto _ : st) {
        auto block = ssz::decode_boxed<SignedBlock>(block_ssz());
        Hash32 h = ssz::hash_tree_root((*block)->message);
        benchmark::DoNotOptimize(h);
    }
    st.SetBytesProcessed(static_cast<std::int64_t>(st.iterations() * block_ssz().size()));
}

void BM_BeaconStateRoot(benchmark::State& st) {
    const auto& s = state();
    const parallel::ThreadLimit threads(static_cast<std::size_t>(st.range(0)));
    for (auto _ : st) {
        Hash32 h = ssz::hash_tree_root(*s.deneb());
        benchmark::DoNotOptimize(h);
    }
    st.counters["validators"] = static_cast<double>(kValidators);
    st.counters["validators_per_s"] = benchmark::Counter(
        static_cast<double>(kValidators * st.iterations()), benchmark::Counter::kIsRate);
}

void BM_BeaconStateDecode(benchmark::State& st) {
    const Bytes& bytes = state_ssz();
    const parallel::ThreadLimit one_core(1);
    for (auto _ : st) {
        auto value = std::make_unique<State>();
        auto r = ssz::decode_into(bytes, *value);
        KEEL_ASSERT(r.has_value());
        benchmark::DoNotOptimize(value);
        st.PauseTiming();  // freeing 1M validators is not decoding
        value.reset();
        st.ResumeTiming();
    }
    st.SetBytesProcessed(static_cast<std::int64_t>(st.iterations() * bytes.size()));
    st.counters["state_bytes"] = static_cast<double>(bytes.size());
}

void BM_BeaconStateEncode(benchmark::State& st) {
    const auto& s = state();
    const parallel::ThreadLimit one_core(1);
    Bytes out(s.encoded_size());
    for (auto _ : st) {
        std::uint8_t* end = ssz::encode_to(*s.deneb(), out.data());
        benchmark::DoNotOptimize(end);
    }
    st.SetBytesProcessed(static_cast<std::int64_t>(st.iterations() * out.size()));
}

}  // namespace

BENCHMARK(BM_GeneratedBlockRoot)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_GeneratedBlockDecodeAndRoot)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_BeaconStateRoot)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_BeaconStateDecode)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_BeaconStateEncode)->Unit(benchmark::kMillisecond)->UseRealTime();
