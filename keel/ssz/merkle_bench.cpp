// Merkleization throughput: the 64-byte SHA-256 that every tree node costs, and a large packed
// list. Peer/limit: sha256_64_many's blocks/s is the ceiling for any tree; the List[uint64]
// root should run near (or, with threads, above) chunks / that rate.
#include <benchmark/benchmark.h>

#include <vector>

#include "keel/crypto/sha256.hpp"
#include "keel/ssz/ssz.hpp"

namespace {

using namespace keel;

/// One tree level of 64-byte messages hashed per call (the merkleization inner loop); items/s
/// is 64-byte hashes per second on one core.
void BM_SszSha256_64Many(benchmark::State& state) {
    const auto n = static_cast<std::size_t>(state.range(0));
    std::vector<std::uint8_t> in(64 * n, 0x5a), out(32 * n);
    for (auto _ : state) {
        crypto::sha256_64_many(in.data(), out.data(), n);
        benchmark::DoNotOptimize(out.data());
    }
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * n));
    state.SetLabel(crypto::sha256_backend_name());
}
BENCHMARK(BM_SszSha256_64Many)->Arg(1024)->Arg(65536);

/// hash_tree_root of List[uint64, 2^40] with 1M elements (8 MB, 262144 chunks); Arg = threads.
void BM_SszRootListUint64(benchmark::State& state) {
    ssz::List<std::uint64_t, (std::size_t{1} << 40)> l(1u << 20);
    for (std::size_t i = 0; i < l.size(); ++i) l[i] = i * 0x9e3779b97f4a7c15ull;
    parallel::ThreadLimit limit(static_cast<std::size_t>(state.range(0)));
    for (auto _ : state) benchmark::DoNotOptimize(ssz::hash_tree_root(l));
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * l.size()));
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * l.size() * 8));
}
BENCHMARK(BM_SszRootListUint64)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace
