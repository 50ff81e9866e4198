#pragma once
// The evm-benchmarks inputs (../shared/vectors/evm/benchmarks: state tests whose transactions
// call one contract) as calls to run: the pre-state, the contract, its input and gas. Used by
// keel-bench's EVM cases and by the hook-cost check (evm_hooks_cost.cpp).

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "keel/eth/fork.hpp"
#include "keel/evm/analysis.hpp"
#include "keel/evm/message.hpp"
#include "keel/evm/tracer.hpp"
#include "keel/state/memory_state.hpp"

namespace keel::bench {

struct EvmCase {
    std::string name;  ///< "<test>/<data index>", e.g. "snailtracer/0"
    state::MemoryState pre;
    Address sender, contract;
    Bytes input;
    std::int64_t gas = 0;  ///< the transaction's gas limit less its intrinsic gas
    eth::Fork fork = eth::Fork::london;
};

/// Every (test, data index) of every fixture under `dir`, sorted by name. Throws
/// std::runtime_error naming the file and field when one is not such a fixture.
std::vector<EvmCase> load_evm_cases(const std::filesystem::path& dir);

/// Runs the case's call once on a fresh overlay (the analysis cache carries over).
evm::CallResult run_evm_case(const EvmCase& c, evm::AnalysisCache& cache,
                             evm::Tracer* tracer = nullptr);

}  // namespace keel::bench
