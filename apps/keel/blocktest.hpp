#pragma once
// The blockchain-test runner behind `keel evm blocktest`: each test of a fixture file
// (execution-spec-tests blockchain_tests, ethereum/tests BlockchainTests, also their older
// format) imports its genesis and pre-state, imports every block into a keel/chain BlockTree
// (side chains and total-difficulty fork choice; the ones marked `expectException` must be
// refused, for that reason), and checks the head against `lastblockhash` and the head's state
// against `postState` (or `postStateHash`).
#include <cstddef>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>

#include "apps/keel/fixture_json.hpp"
#include "keel/eth/chain_config.hpp"

namespace keel::cli {

struct BlockTestOptions {
    std::optional<fixture::NamePattern> run;  ///< only tests whose name matches
    /// The system contracts' rules: mainnet's, or (devnet) those of the Pectra devnets the
    /// fixtures were filled for: a request contract without code is skipped, and the devnet-5
    /// addresses are used by a test whose pre- or post-state has code at one of them (the fixture
    /// carries no other record of where its system contracts live).
    bool devnet_system_contracts = false;
    /// Each test through the chain store instead of in memory: keel init of its genesis and
    /// pre-state into a temporary datadir, every block inserted by blockchain::Chain (executed
    /// on the stored state, side chains and reorganisations through the state history), and the
    /// head and post-state read back from the store.
    bool store = false;
};

/// One test's outcome.
struct BlockTestCase {
    std::string file;
    std::string name;
    std::string network;
    bool pass = false;
    std::size_t blocks = 0;   ///< blocks executed and accepted
    std::size_t refused = 0;  ///< blocks refused, as expected
    std::string head;         ///< 0x-hex hash of the head keel ended on
    std::string error;        ///< why it failed
};

/// Runs every test of the fixture at `path`, calling `report` for each. A file that cannot be
/// read or is not a fixture (bad JSON) is reported as one failed case named by its path, and a
/// test with a bad or missing field as a failed case whose error names the file, test and field:
/// nothing is thrown, so a run over many files reports every test.
void run_block_test_file(const std::filesystem::path& path, const BlockTestOptions& options,
                         const std::function<void(const BlockTestCase&)>& report);

}  // namespace keel::cli
