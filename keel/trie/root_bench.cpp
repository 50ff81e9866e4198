// Trie roots of ordered lists (transactions, receipts, withdrawals roots).
//   BM_TrieOrderedRootTxs/200     200 typical transaction encodings (110-400 bytes), the tx root of
//                                 a full mainnet block
//   BM_TrieOrderedRoot10k         10,000 entries of 100 bytes
//   BM_TrieKeccakSameBytes/200    physical reference in the same run: Keccak-256 over the same
//                                 values once each (every value must be hashed at least once, as
//                                 part of its leaf)
#include <benchmark/benchmark.h>

#include <cstdint>
#include <vector>

#include "keel/crypto/keccak.hpp"
#include "keel/trie/root.hpp"

namespace {

using namespace keel;

std::vector<Bytes> make_values(std::size_t n, std::size_t min_len, std::size_t spread) {
    std::uint64_t s = 0x9e3779b97f4a7c15ull;
    const auto next = [&] {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        return s;
    };
    std::vector<Bytes> out(n);
    for (auto& v : out) {
        v.resize(min_len + (spread ? next() % spread : 0));
        for (auto& b : v) b = static_cast<std::uint8_t>(next());
        v[0] = 0x02;  // like a type-2 envelope
    }
    return out;
}

void BM_TrieOrderedRootTxs(benchmark::State& state) {
    const auto values = make_values(static_cast<std::size_t>(state.range(0)), 110, 290);
    std::size_t bytes = 0;
    for (const auto& v : values) bytes += v.size();
    trie::RootBuilder builder;
    for (auto _ : state) {
        benchmark::DoNotOptimize(trie::ordered_root(
            values.size(), [&](std::size_t i) { return BytesView(values[i]); }, builder));
    }
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * bytes));
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * values.size()));
}
BENCHMARK(BM_TrieOrderedRootTxs)->Arg(200);

void BM_TrieKeccakSameBytes(benchmark::State& state) {
    const auto values = make_values(static_cast<std::size_t>(state.range(0)), 110, 290);
    std::size_t bytes = 0;
    for (const auto& v : values) bytes += v.size();
    for (auto _ : state) {
        for (const auto& v : values) benchmark::DoNotOptimize(crypto::keccak256(v));
    }
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * bytes));
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * values.size()));
}
BENCHMARK(BM_TrieKeccakSameBytes)->Arg(200);

void BM_TrieOrderedRoot10k(benchmark::State& state) {
    const auto values = make_values(10000, 100, 0);
    trie::RootBuilder builder;
    for (auto _ : state) {
        benchmark::DoNotOptimize(trie::ordered_root(
            values.size(), [&](std::size_t i) { return BytesView(values[i]); }, builder));
    }
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * values.size() * 100));
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * values.size()));
}
BENCHMARK(BM_TrieOrderedRoot10k);

}  // namespace
