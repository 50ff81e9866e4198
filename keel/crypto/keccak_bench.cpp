// Keccak-256 throughput, judged against two references measured in the same run: the
// permutation itself (one Keccak-f[1600] per 136 bytes, so BM_KeccakF1600's time x 7,710 bounds
// the 1 MiB case) and a peer, OpenSSL's SHA3-256, which runs the same permutation at the same
// rate (its hand-written scalar assembly) and differs only in the padding byte.
#include <benchmark/benchmark.h>
#include <openssl/evp.h>

#include "keel/crypto/keccak.hpp"
#include "test/testutil/data.hpp"

namespace {

using keel::crypto::KeccakBackend;

using keel::testutil::pattern_bytes;

// The process-wide implementation: 32 B (a key or hash), 136 B (one rate block: two
// permutations), 1 KiB and 1 MiB.
void BM_Keccak256(benchmark::State& state) {
    const auto in = pattern_bytes(static_cast<std::size_t>(state.range(0)));
    for (auto _ : state) {
        auto h = keel::crypto::keccak256(in);
        benchmark::DoNotOptimize(h);
    }
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * in.size()));
}
BENCHMARK(BM_Keccak256)->Arg(32)->Arg(136)->Arg(1024)->Arg(1 << 20);

// Each implementation on 1 MiB, for comparison with the active one.
void BM_Keccak256Backend(benchmark::State& state) {
    const auto backend = static_cast<KeccakBackend>(state.range(0));
    if (!keel::crypto::keccak_backend_available(backend)) {
        state.SkipWithError("backend not available on this CPU");
        return;
    }
    const auto in = pattern_bytes(static_cast<std::size_t>(state.range(1)));
    for (auto _ : state) {
        auto h = keel::crypto::keccak256_with(backend, in);
        benchmark::DoNotOptimize(h);
    }
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * in.size()));
    state.SetLabel(keel::crypto::keccak_backend_name(backend));
}
BENCHMARK(BM_Keccak256Backend)
    ->ArgsProduct({{static_cast<int>(KeccakBackend::portable),
                    static_cast<int>(KeccakBackend::bmi2), static_cast<int>(KeccakBackend::avx512)},
                   {32, 1 << 20}});

// Incremental hashing in 100-byte pieces (RLPx MAC-style small updates).
void BM_Keccak256Incremental(benchmark::State& state) {
    const auto in = pattern_bytes(1 << 16);
    for (auto _ : state) {
        keel::crypto::Keccak256 h;
        for (std::size_t i = 0; i < in.size(); i += 100)
            h.update(keel::BytesView(in).subspan(i, std::min<std::size_t>(100, in.size() - i)));
        auto d = h.finalize();
        benchmark::DoNotOptimize(d);
    }
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * in.size()));
}
BENCHMARK(BM_Keccak256Incremental);

// The bare permutation.
void BM_KeccakF1600(benchmark::State& state) {
    std::uint64_t st[25] = {};
    for (auto _ : state) {
        keel::crypto::keccak_f1600(st);
        benchmark::DoNotOptimize(st);
    }
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()));
}
BENCHMARK(BM_KeccakF1600);

// Peer: OpenSSL SHA3-256 (EVP one-shot; the context allocation is noise at 1 MiB).
void BM_OpenSslSha3_256(benchmark::State& state) {
    const auto in = pattern_bytes(static_cast<std::size_t>(state.range(0)));
    unsigned char out[32];
    unsigned len = 0;
    for (auto _ : state) {
        if (EVP_Digest(in.data(), in.size(), out, &len, EVP_sha3_256(), nullptr) != 1) {
            state.SkipWithError("EVP_Digest failed");
            return;
        }
        benchmark::DoNotOptimize(out);
    }
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * in.size()));
    state.SetLabel("peer");
}
BENCHMARK(BM_OpenSslSha3_256)->Arg(1 << 20);

}  // namespace
