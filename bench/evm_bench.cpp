// The EVM on the evm-benchmarks inputs (../shared/vectors/evm/benchmarks, the cases evmone's
// evmone-bench runs): one benchmark per (test, input), BM_Evm/<test>/<input>, each a call of
// the contract on a fresh overlay over its pre-state with the code analysis cached (as evmone's
// "baseline/execute" times pre-analysed code). Counters: gas used per call, and gas per second
// of wall time (UseRealTime). bench/side_by_side_evm.sh compares them with anvil's revm.
#include <benchmark/benchmark.h>

#include <cstdio>
#include <exception>
#include <vector>

#include "bench/evm_fixture.hpp"
#include "keel/common/assert.hpp"
#include "test/testutil/vectors.hpp"

namespace {

using keel::bench::EvmCase;

void run(benchmark::State& state, const EvmCase* c) {
    keel::evm::AnalysisCache cache;
    std::int64_t used = 0;
    for (auto _ : state) {
        const auto r = keel::bench::run_evm_case(*c, cache);
        used = c->gas - r.gas_left;
        benchmark::DoNotOptimize(used);
    }
    state.counters["gas"] = static_cast<double>(used);
    state.counters["gas/s"] =
        benchmark::Counter(static_cast<double>(used) * static_cast<double>(state.iterations()),
                           benchmark::Counter::kIsRate);
}

// Registered when the vectors are there; without them keel-bench still runs its other cases.
[[maybe_unused]] const bool registered = [] {
    static std::vector<EvmCase> cases;
    try {
        cases = keel::bench::load_evm_cases(keel::testutil::vectors_dir("evm/benchmarks"));
    } catch (const std::exception& e) {
        std::fprintf(stderr, "keel-bench: no BM_Evm cases: %s\n", e.what());
        return false;
    }
    for (const EvmCase& c : cases)
        benchmark::RegisterBenchmark(("BM_Evm/" + c.name).c_str(), run, &c)->UseRealTime();
    return true;
}();

}  // namespace
