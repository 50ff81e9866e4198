// keccak256_many() (eight Keccak-f[1600] states per AVX-512 register set) against the same
// messages hashed one keccak256() call at a time, in hashes per second:
//   BM_Keccak256Single/N   8 messages of N bytes, eight keccak256() calls
//   BM_Keccak256Many/N     the same 8 messages, one keccak256_many() call
//   BM_Keccak256ManyLarge  1024 messages of 32-330 bytes (a transaction-like spread), one call
//   BM_KeccakF1600x8       the bare eight-state permutation (8 permutations per iteration), next
//                          to BM_KeccakF1600Single (one keccak_f1600() per iteration)
#include <benchmark/benchmark.h>

#include <cstdint>
#include <random>
#include <vector>

#include "keel/crypto/detail/keccak_backend.hpp"
#include "keel/crypto/keccak.hpp"

namespace {

using keel::Bytes;
using keel::BytesView;
using keel::Hash32;

std::vector<Bytes> make_messages(std::size_t count, std::size_t min_len, std::size_t max_len) {
    std::mt19937_64 rng(42);
    std::vector<Bytes> out;
    for (std::size_t i = 0; i < count; ++i) {
        Bytes b(min_len + rng() % (max_len - min_len + 1));
        for (auto& x : b) x = static_cast<std::uint8_t>(rng());
        out.push_back(std::move(b));
    }
    return out;
}

void report(benchmark::State& state, const std::vector<Bytes>& msgs) {
    std::size_t bytes = 0;
    for (const auto& m : msgs) bytes += m.size();
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * msgs.size()));
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * bytes));
}

void BM_Keccak256Single(benchmark::State& state) {
    const auto n = static_cast<std::size_t>(state.range(0));
    const auto msgs = make_messages(8, n, n);
    const std::vector<BytesView> in(msgs.begin(), msgs.end());
    Hash32 out[8];
    for (auto _ : state) {
        for (std::size_t i = 0; i < 8; ++i) out[i] = keel::crypto::keccak256(in[i]);
        benchmark::DoNotOptimize(out);
    }
    report(state, msgs);
}
BENCHMARK(BM_Keccak256Single)->Arg(32)->Arg(136)->Arg(330);

void BM_Keccak256Many(benchmark::State& state) {
    const auto n = static_cast<std::size_t>(state.range(0));
    const auto msgs = make_messages(8, n, n);
    const std::vector<BytesView> in(msgs.begin(), msgs.end());
    Hash32 out[8];
    for (auto _ : state) {
        keel::crypto::keccak256_many(in, out);
        benchmark::DoNotOptimize(out);
    }
    report(state, msgs);
}
BENCHMARK(BM_Keccak256Many)->Arg(32)->Arg(136)->Arg(330);

void BM_Keccak256SingleLarge(benchmark::State& state) {
    const auto msgs = make_messages(1024, 32, 330);
    const std::vector<BytesView> in(msgs.begin(), msgs.end());
    std::vector<Hash32> out(in.size());
    for (auto _ : state) {
        for (std::size_t i = 0; i < in.size(); ++i) out[i] = keel::crypto::keccak256(in[i]);
        benchmark::DoNotOptimize(out.data());
    }
    report(state, msgs);
}
BENCHMARK(BM_Keccak256SingleLarge);

void BM_Keccak256ManyLarge(benchmark::State& state) {
    const auto msgs = make_messages(1024, 32, 330);
    const std::vector<BytesView> in(msgs.begin(), msgs.end());
    std::vector<Hash32> out(in.size());
    for (auto _ : state) {
        keel::crypto::keccak256_many(in, out);
        benchmark::DoNotOptimize(out.data());
    }
    report(state, msgs);
}
BENCHMARK(BM_Keccak256ManyLarge);

void BM_KeccakF1600Single(benchmark::State& state) {
    std::uint64_t s[25] = {};
    for (auto _ : state) {
        keel::crypto::keccak_f1600(s);
        benchmark::DoNotOptimize(s);
    }
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()));
}
BENCHMARK(BM_KeccakF1600Single);

void BM_KeccakF1600x8(benchmark::State& state) {
    if (!keel::crypto::keccak_backend_available(keel::crypto::KeccakBackend::avx512)) {
        state.SkipWithError("AVX-512F not available on this CPU");
        return;
    }
    alignas(64) std::uint64_t lanes[25][8] = {};
    for (auto _ : state) {
        keel::crypto::detail::keccak_f1600_x8(lanes);
        benchmark::DoNotOptimize(lanes);
    }
    // Items: single-state permutations (eight per call).
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * 8));
}
BENCHMARK(BM_KeccakF1600x8);

}  // namespace
