// SHA-256: 64-byte hashes (SSZ Merkle nodes) per second for each backend, and bulk throughput.
#include <benchmark/benchmark.h>

#include "keel/crypto/sha256.hpp"
#include "test/testutil/data.hpp"

namespace {

using keel::crypto::Sha256Backend;

using keel::testutil::pattern_bytes;

const char* label(Sha256Backend b) {
    return keel::crypto::sha256_backend_name(b);
}

// One 64-byte message per call (two 32-byte nodes -> parent).
void BM_Sha256_64(benchmark::State& state) {
    const auto backend = static_cast<Sha256Backend>(state.range(0));
    if (!keel::crypto::sha256_backend_available(backend)) {
        state.SkipWithError("backend not available on this CPU");
        return;
    }
    auto in = pattern_bytes(64);
    std::uint8_t out[32];
    for (auto _ : state) {
        keel::crypto::sha256_64_with(backend, in.data(), out);
        benchmark::DoNotOptimize(out);
        benchmark::ClobberMemory();
    }
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()));
    state.SetLabel(label(backend));
}
BENCHMARK(BM_Sha256_64)
    ->Arg(static_cast<int>(Sha256Backend::shani))
    ->Arg(static_cast<int>(Sha256Backend::openssl));

// A whole tree level of 1,024 nodes per call.
void BM_Sha256_64Many(benchmark::State& state) {
    const auto backend = static_cast<Sha256Backend>(state.range(0));
    if (!keel::crypto::sha256_backend_available(backend)) {
        state.SkipWithError("backend not available on this CPU");
        return;
    }
    constexpr std::size_t kN = 1024;
    auto in = pattern_bytes(64 * kN);
    keel::Bytes out(32 * kN);
    for (auto _ : state) {
        keel::crypto::sha256_64_many_with(backend, in.data(), out.data(), kN);
        benchmark::DoNotOptimize(out.data());
        benchmark::ClobberMemory();
    }
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * kN));
    state.SetLabel(label(backend));
}
BENCHMARK(BM_Sha256_64Many)
    ->Arg(static_cast<int>(Sha256Backend::shani))
    ->Arg(static_cast<int>(Sha256Backend::openssl));

// Bulk hashing with each backend: 1 KiB and 1 MiB.
void BM_Sha256(benchmark::State& state) {
    const auto backend = static_cast<Sha256Backend>(state.range(0));
    if (!keel::crypto::sha256_backend_available(backend)) {
        state.SkipWithError("backend not available on this CPU");
        return;
    }
    const auto in = pattern_bytes(static_cast<std::size_t>(state.range(1)));
    for (auto _ : state) {
        auto h = keel::crypto::sha256_with(backend, in);
        benchmark::DoNotOptimize(h);
    }
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * in.size()));
    state.SetLabel(label(backend));
}
BENCHMARK(BM_Sha256)->ArgsProduct({{static_cast<int>(Sha256Backend::shani),
                                    static_cast<int>(Sha256Backend::openssl)},
                                   {1024, 1 << 20}});

}  // namespace
