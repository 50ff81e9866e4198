// Hex codec throughput (DESIGN.md: hex formatting is a table lookup into a caller's buffer).
#include <benchmark/benchmark.h>

#include <string>

#include "keel/common/hex.hpp"
#include "test/testutil/data.hpp"

namespace {

using keel::testutil::pattern_bytes;

void BM_HexEncode(benchmark::State& state) {
    auto in = pattern_bytes(static_cast<std::size_t>(state.range(0)));
    std::string out(keel::hex::encoded_size(in.size()), '\0');
    for (auto _ : state) {
        keel::hex::encode_to(in, out.data());
        benchmark::DoNotOptimize(out.data());
        benchmark::ClobberMemory();
    }
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * in.size()));
}
BENCHMARK(BM_HexEncode)->Arg(32)->Arg(1024)->Arg(1 << 20);

// A 256-bit EVM stack word written as a 0x-prefixed, 64-digit JSON value.
void BM_HexEncodeStackWord(benchmark::State& state) {
    auto in = pattern_bytes(32);
    char out[66];
    for (auto _ : state) {
        keel::hex::encode_to(in, out, {.prefix = true, .width = 64});
        benchmark::DoNotOptimize(out);
        benchmark::ClobberMemory();
    }
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()));
}
BENCHMARK(BM_HexEncodeStackWord);

void BM_HexDecode(benchmark::State& state) {
    std::string text = keel::hex::encode(pattern_bytes(static_cast<std::size_t>(state.range(0))));
    keel::Bytes out(text.size() / 2);
    for (auto _ : state) {
        auto r = keel::hex::decode_to(text, out);
        benchmark::DoNotOptimize(r);
        benchmark::ClobberMemory();
    }
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * out.size()));
}
BENCHMARK(BM_HexDecode)->Arg(32)->Arg(1024)->Arg(1 << 20);

}  // namespace
