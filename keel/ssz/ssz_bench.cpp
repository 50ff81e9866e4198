// SSZ codec benchmarks: an execution payload's transaction list root, and decoding the spec's
// ComplexTestStruct.
#include <benchmark/benchmark.h>

#include <random>

#include "keel/common/parallel.hpp"
#include "keel/ssz/generic_test_types.hpp"
#include "keel/ssz/ssz.hpp"

namespace {

using namespace keel;

/// Transaction = ByteList[2^30]; ExecutionPayload.transactions = List[Transaction, 2^20].
using Transactions = ssz::List<ssz::ByteList<(std::size_t{1} << 30)>, (std::size_t{1} << 20)>;

Transactions make_transactions() {
    std::mt19937_64 rng(42);
    Transactions txs(200);
    for (auto& tx : txs) {
        tx.resize(100 + rng() % (10 * 1024 - 100));
        for (auto& b : tx) b = static_cast<std::uint8_t>(rng());
    }
    return txs;
}

/// hash_tree_root of 200 transactions of 100 B - 10 KB (~1 MB); Arg = threads.
void BM_SszRootTransactions(benchmark::State& state) {
    const Transactions txs = make_transactions();
    std::size_t bytes = 0;
    for (const auto& tx : txs) bytes += tx.size();
    parallel::ThreadLimit limit(static_cast<std::size_t>(state.range(0)));
    for (auto _ : state) benchmark::DoNotOptimize(ssz::hash_tree_root(txs));
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * bytes));
}
BENCHMARK(BM_SszRootTransactions)->Arg(1)->Arg(2)->Unit(benchmark::kMicrosecond)->UseRealTime();

/// Decoding the transaction list (one allocation per transaction).
void BM_SszDecodeTransactions(benchmark::State& state) {
    const Bytes enc = ssz::encode(make_transactions());
    for (auto _ : state) benchmark::DoNotOptimize(ssz::decode<Transactions>(enc));
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * enc.size()));
}
BENCHMARK(BM_SszDecodeTransactions)->Unit(benchmark::kMicrosecond);

ssz::generic::ComplexTestStruct make_complex() {
    ssz::generic::ComplexTestStruct c;
    c.A = 1;
    c.B.assign(128, 7);
    c.D.assign(256, 9);
    c.E.B.assign(1024, 3);
    for (auto& g : c.G) g.B.assign(512, 5);
    return c;
}

/// Decoding a ComplexTestStruct (every field kind, 5.4 KB).
void BM_SszDecodeComplex(benchmark::State& state) {
    const Bytes enc = ssz::encode(make_complex());
    for (auto _ : state) {
        benchmark::DoNotOptimize(ssz::decode<ssz::generic::ComplexTestStruct>(enc));
    }
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * enc.size()));
}
BENCHMARK(BM_SszDecodeComplex);

/// hash_tree_root of the same ComplexTestStruct.
void BM_SszRootComplex(benchmark::State& state) {
    const auto c = make_complex();
    for (auto _ : state) benchmark::DoNotOptimize(ssz::hash_tree_root(c));
}
BENCHMARK(BM_SszRootComplex);

}  // namespace
