#pragma once
// The tracer-fixture runner behind `keel evm tracetest`: go-ethereum's tracer test format
// (eth/tracers/internal/tracetest/testdata: `genesis`, `context`, `input`, `result`, optional
// `tracerConfig`; ../shared/vectors/evm/traces/geth_tracers/SOURCES.md). The transaction runs
// on the genesis alloc in the block `context` describes, with the tracer attached, as geth's
// runner does (one transaction, no rewards, no system calls), and the tracer's result is
// compared with `result` as geth compares it: callTracer's and prestateTracer's as JSON values
// (the expected one read through geth's result type, so that a member geth leaves out when
// empty is left out), flatCallTracer's field by field with absent and zero alike and the
// block position members ignored.

#include <filesystem>
#include <optional>
#include <string>

namespace keel::cli {

/// The tracers a fixture can name.
enum class FixtureTracer {
    call,             ///< callTracer
    call_legacy,      ///< geth's JS callTracerLegacy: callTracer's output, both sides normalised
    flat_call,        ///< flatCallTracer
    prestate,         ///< prestateTracer
    prestate_legacy,  ///< geth's JS prestateTracerLegacy: prestateTracer's, normalised
    erc7562           ///< erc7562Tracer
};

/// The tracer for a fixture in geth's folder `dir` (call_tracer, call_tracer_withLog,
/// call_tracer_legacy, call_tracer_flat, prestate_tracer, prestate_tracer_with_diff_mode,
/// prestate_tracer_legacy, erc7562_tracer); nullopt for any other folder.
std::optional<FixtureTracer> tracer_of_folder(const std::string& dir);
/// The tracer of a name as geth registers it ("callTracer", "flatCallTracer", ...).
std::optional<FixtureTracer> tracer_of_name(const std::string& name);

struct TraceTestResult {
    bool pass = false;
    std::string error;     ///< why it failed: the first difference, or a bad fixture
    std::string got;       ///< keel's result (compact JSON)
    std::string expected;  ///< the fixture's, as compared
};

/// Runs the fixture at `path` with `tracer` (nullopt: by its folder). A file that is not such a
/// fixture gives pass = false and the field at fault, never an exception.
TraceTestResult run_trace_test_file(const std::filesystem::path& path,
                                    std::optional<FixtureTracer> tracer);

}  // namespace keel::cli
