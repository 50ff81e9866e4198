// era1 reader: open + decode all 8192 blocks of the first Sepolia archive + verify the
// accumulator. Reported as blocks/s and file bytes/s.
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>

#include "keel/store/era1.hpp"

namespace {

keel::Bytes load_first_era1() {
    // KEEL_BENCH_ERA1_FILE, else the vectors beside the source tree (../shared/vectors).
    const char* env = std::getenv("KEEL_BENCH_ERA1_FILE");
    const std::filesystem::path path =
        env != nullptr ? std::filesystem::path(env)
                       : std::filesystem::path(__FILE__).parent_path() /
                             "../../../shared/vectors/era1/sepolia-00000-643a00f7.era1";
    std::ifstream in(path, std::ios::binary);
    return keel::Bytes(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

void BM_Era1DecodeAll(benchmark::State& state) {
    const keel::Bytes file = load_first_era1();
    if (file.empty()) {
        state.SkipWithError("era1 vector file not found");
        return;
    }
    keel::Bytes scratch;
    std::size_t blocks = 0;
    for (auto _ : state) {
        auto era = keel::store::Era1::open(file);
        if (!era) {
            state.SkipWithError("open failed");
            return;
        }
        for (std::size_t i = 0; i < era->count(); ++i) {
            auto b = era->block(i, scratch);
            benchmark::DoNotOptimize(b);
        }
        auto acc = era->verify_accumulator();
        benchmark::DoNotOptimize(acc);
        blocks += era->count();
    }
    state.counters["blocks/s"] =
        benchmark::Counter(static_cast<double>(blocks), benchmark::Counter::kIsRate);
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * file.size()));
}
BENCHMARK(BM_Era1DecodeAll)->Unit(benchmark::kMillisecond);

}  // namespace
