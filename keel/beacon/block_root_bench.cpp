// Real mainnet beacon blocks (vectors/ssz/mainnet_blocks), on one core (ThreadLimit 1):
//   BM_BeaconBlockDecode/<slot>         ssz::decode_into of the whole BeaconBlock, into a fresh
//                                       value each time (its lists are allocated anew)
//   BM_BeaconBlockRoot/<slot>           hash_tree_root of the decoded block (the block root)
//   BM_BeaconBlockDecodeAndRoot/<slot>  both: what computing a received block's root costs
// Blocks: deneb slot 11378687 (150 KB, 142 transactions, 128 attestations, 6 blob
// commitments) and capella slot 8626175 (346 KB). The goal: root of a ~140 KB deneb
// block in <= 0.5 ms (Lodestar: 5.5 ms on the same block).
#include <benchmark/benchmark.h>

#include <cstdint>
#include <memory>
#include <string>

#include "keel/beacon/capella.hpp"
#include "keel/beacon/deneb.hpp"
#include "keel/common/assert.hpp"
#include "keel/common/parallel.hpp"
#include "test/testutil/vectors.hpp"

namespace {

using namespace keel;
using namespace keel::beacon;

/// The block.ssz of one mainnet block.
Bytes block_bytes(const std::string& fork, std::int64_t slot) {
    return testutil::read_file(testutil::vectors_dir("ssz") / "mainnet_blocks" / fork /
                               ("slot_" + std::to_string(slot)) / "block.ssz");
}

/// Runs the loop for one block: decode into a fresh value, and/or root the decoded value.
template <class Block>
void run(benchmark::State& state, const char* fork, bool decode, bool root) {
    const parallel::ThreadLimit one_core(1);
    const Bytes bytes = block_bytes(fork, state.range(0));
    auto block = std::make_unique<Block>();
    KEEL_ASSERT(ssz::decode_into(bytes, *block).has_value());
    for (auto _ : state) {
        if (decode) {
            block = std::make_unique<Block>();
            auto r = ssz::decode_into(bytes, *block);
            benchmark::DoNotOptimize(r);
        }
        if (root) {
            Hash32 h = ssz::hash_tree_root(*block);
            benchmark::DoNotOptimize(h);
        }
    }
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * bytes.size()));
    state.counters["block_bytes"] = static_cast<double>(bytes.size());
}

void BM_BeaconBlockDecode(benchmark::State& state) {
    if (state.range(0) == 11378687) {
        run<deneb::mainnet::BeaconBlock>(state, "deneb", true, false);
    } else {
        run<capella::mainnet::BeaconBlock>(state, "capella", true, false);
    }
}

void BM_BeaconBlockRoot(benchmark::State& state) {
    if (state.range(0) == 11378687) {
        run<deneb::mainnet::BeaconBlock>(state, "deneb", false, true);
    } else {
        run<capella::mainnet::BeaconBlock>(state, "capella", false, true);
    }
}

void BM_BeaconBlockDecodeAndRoot(benchmark::State& state) {
    if (state.range(0) == 11378687) {
        run<deneb::mainnet::BeaconBlock>(state, "deneb", true, true);
    } else {
        run<capella::mainnet::BeaconBlock>(state, "capella", true, true);
    }
}

BENCHMARK(BM_BeaconBlockDecode)->Arg(11378687)->Arg(8626175)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_BeaconBlockRoot)->Arg(11378687)->Arg(8626175)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_BeaconBlockDecodeAndRoot)->Arg(11378687)->Arg(8626175)->Unit(benchmark::kMicrosecond);

}  // namespace
