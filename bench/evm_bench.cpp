// The EVM on the evm-benchmarks inputs (../shared/vectors/evm/benchmarks, the cases evmone's
// evmone-bench runs): one benchmark per (test, input), BM_Evm/<test>/<input>, each a call of
// the contract on a fresh overlay over its pre-state with the code analysis cached (as evmone's
// "baseline/execute" times pre-analysed code). Counters: gas used per call, and gas per second
// of wall time (UseRealTime). bench/side_by_side_evm.sh compares them with anvil's revm.
// BM_EvmStructLog/<test>/<input>/<mode>: the same call traced by the struct logger (mode 0: the
// defaults, stack and storage; mode 1: disable_stack and disable_storage), its JSON drained in
// 1 MiB chunks to /dev/null (so memory is the chunk, not the trace); counters: the JSON's bytes
// per second and per call, and steps per call.
// BM_EvmTraceHooks/<test>/<input>: the same call with a tracer whose hooks do nothing: the cost
// of the traced interpreter itself (per-instruction checks, a virtual call and a StepView per
// step), the floor under any tracer. BM_TraceCopyFloor: copying 1 MiB chunks to /dev/null's
// buffer, the rate at which a trace's bytes could leave if formatting cost nothing.
#include <benchmark/benchmark.h>

#include <cstdio>
#include <exception>
#include <string>
#include <vector>

#include "bench/evm_fixture.hpp"
#include "keel/common/assert.hpp"
#include "keel/trace/struct_logger.hpp"
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

void run_struct_log(benchmark::State& state, const EvmCase* c, bool bare) {
    keel::evm::AnalysisCache cache;
    std::FILE* sink = std::fopen("/dev/null", "wb");
    KEEL_ASSERT(sink != nullptr);
    std::string out;
    out.reserve(2u << 20);
    std::uint64_t bytes = 0, per_call = 0, steps = 0;
    keel::trace::StructLoggerOptions options;
    options.disable_stack = options.disable_storage = bare;
    for (auto _ : state) {
        out.clear();
        std::uint64_t drained = 0;
        keel::trace::StructLogger logger(out, c->fork, options);
        logger.set_drain(1u << 20, [&](std::string& buf) {
            std::fwrite(buf.data(), 1, buf.size(), sink);
            drained += buf.size();
            buf.clear();
        });
        const auto r = keel::bench::run_evm_case(*c, cache, &logger);
        logger.finish(static_cast<std::uint64_t>(c->gas - r.gas_left),
                      r.status != keel::evm::Status::success, r.output);
        std::fwrite(out.data(), 1, out.size(), sink);
        per_call = drained + out.size();
        bytes += per_call;
        steps = logger.steps();
    }
    std::fclose(sink);
    state.SetBytesProcessed(static_cast<std::int64_t>(bytes));
    state.counters["json_bytes"] = static_cast<double>(per_call);
    state.counters["steps"] = static_cast<double>(steps);
}

void run_hooks(benchmark::State& state, const EvmCase* c) {
    keel::evm::AnalysisCache cache;
    keel::evm::Tracer nothing;  // every hook is a no-op
    for (auto _ : state) {
        const auto r = keel::bench::run_evm_case(*c, cache, &nothing);
        benchmark::DoNotOptimize(r.gas_left);
    }
}

void BM_TraceCopyFloor(benchmark::State& state) {
    const std::string chunk(1u << 20, 'x');
    std::string out;
    out.reserve(2u << 20);
    for (auto _ : state) {
        out.assign(chunk);
        benchmark::DoNotOptimize(out.data());
        benchmark::ClobberMemory();
    }
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations()) * (1 << 20));
}
BENCHMARK(BM_TraceCopyFloor)->UseRealTime();

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
    for (const EvmCase& c : cases)
        benchmark::RegisterBenchmark(("BM_EvmTraceHooks/" + c.name).c_str(), run_hooks, &c)
            ->UseRealTime();
    for (const EvmCase& c : cases) {
        for (const int mode : {0, 1})
            benchmark::RegisterBenchmark(
                ("BM_EvmStructLog/" + c.name + "/" + std::to_string(mode)).c_str(),
                [mode](benchmark::State& st, const EvmCase* e) {
                    run_struct_log(st, e, mode == 1);
                },
                &c)
                ->UseRealTime();
    }
    return true;
}();

}  // namespace
