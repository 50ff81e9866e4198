#pragma once
// The state-test runner behind `keel evm statetest`: each (test, fork, data/gas/value index) of
// a fixture file (ethereum/tests GeneralStateTests, execution-spec-tests state_tests) executed
// on its pre-state and checked against the post-state root and logs hash.

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>

#include "apps/keel/fixture_json.hpp"
#include "keel/eth/fork.hpp"
#include "keel/trace/eip3155.hpp"

namespace keel::cli {

struct StateTestOptions {
    std::optional<eth::Fork> fork;            ///< only this fork's post entries
    std::optional<fixture::NamePattern> run;  ///< only tests whose name matches
    /// Where each case's EIP-3155 trace goes (then geth's {"stateRoot": ...} line), if anywhere.
    std::FILE* trace = nullptr;
    trace::Eip3155Options trace_options{};
};

/// One post entry's outcome.
struct StateTestCase {
    std::string file;
    std::string name;
    std::string fork;
    std::size_t data = 0, gas = 0, value = 0;
    bool pass = false;
    std::string state_root;  ///< 0x-hex, what keel computed
    std::string logs_hash;
    std::string error;  ///< why it failed, or the transaction's exception when expected
    std::uint64_t gas_used = 0;
};

/// Runs every case of the fixture at `path`, calling `report` for each. A file that is not a
/// fixture (bad JSON, missing fields) throws Failure naming the file and field.
void run_state_test_file(const std::filesystem::path& path, const StateTestOptions& options,
                         const std::function<void(const StateTestCase&)>& report);

}  // namespace keel::cli
