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

// The same tree level on the 16-lane AVX-512F kernel (sha256_64_many_x16), against
// BM_Sha256_64Many/shani above; BM_Sha256_64ManyDefault is what sha256_64_many() runs.
void BM_Sha256_64ManyX16(benchmark::State& state) {
    if (!keel::crypto::sha256_x16_available()) {
        state.SkipWithError("AVX-512F not available on this CPU");
        return;
    }
    constexpr std::size_t kN = 1024;
    auto in = pattern_bytes(64 * kN);
    keel::Bytes out(32 * kN);
    for (auto _ : state) {
        keel::crypto::sha256_64_many_x16(in.data(), out.data(), kN);
        benchmark::DoNotOptimize(out.data());
        benchmark::ClobberMemory();
    }
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * kN));
    state.SetLabel("avx512 x16");
}
BENCHMARK(BM_Sha256_64ManyX16);

void BM_Sha256_64ManyDefault(benchmark::State& state) {
    constexpr std::size_t kN = 1024;
    auto in = pattern_bytes(64 * kN);
    keel::Bytes out(32 * kN);
    for (auto _ : state) {
        keel::crypto::sha256_64_many(in.data(), out.data(), kN);
        benchmark::DoNotOptimize(out.data());
        benchmark::ClobberMemory();
    }
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * kN));
    state.SetLabel(keel::crypto::sha256_64_many_uses_x16() ? "avx512 x16"
                                                           : keel::crypto::sha256_backend_name());
}
BENCHMARK(BM_Sha256_64ManyDefault);

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
