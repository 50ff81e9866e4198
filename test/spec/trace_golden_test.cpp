// keel evm statetest --trace against the EIP-3155 traces goevmlab recorded from geth and evmone
// (../shared/vectors/evm/traces/eip3155_goevmlab; issue 15). Runs the keel binary (KEEL_BIN) on
// each case and compares line by line.
//
// Against geth, every line: each step on every field (pc, op, gas, gasCost, memSize, stack,
// depth, refund, opName), each frame's end line (output, gasUsed), the stateRoot line, and where
// an error is. Two things are not compared, because clients disagree on them (docs/evm.md):
// the error phrases themselves, and gasCost on the step that fails (geth prints the constant
// part when its dynamic-gas function fails; keel, like EELS, the whole cost it could not pay).
// Against evmone, the steps on pc, op, gas, depth, stack and memSize: evmone's gasCost is the
// constant part only, it prints no frame end lines, and it does not trace the STOP that ends
// code by running off its end (STOP steps are left out on both sides for evmone).
#include <array>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "test/testutil/temp_dir.hpp"
#include "test/testutil/vectors.hpp"

namespace {

namespace fs = std::filesystem;
using nlohmann::json;

std::vector<json> json_lines(const fs::path& p) {
    std::ifstream in(p);
    std::vector<json> out;
    std::string line;
    while (std::getline(in, line)) {
        if (line.empty() || line[0] != '{') continue;  // keel's summary, besu's warnings
        out.push_back(json::parse(line));
    }
    return out;
}

std::vector<json> keel_trace(const fs::path& fixture, const keel::testutil::TempDir& dir) {
    const char* bin = std::getenv("KEEL_BIN");
    if (bin == nullptr) {
        ADD_FAILURE() << "KEEL_BIN is not set (CTest sets it to the keel binary)";
        return {};
    }
    const fs::path err = dir.path() / (fixture.filename().string() + ".trace");
    const std::string cmd = std::string("'") + bin + "' evm statetest --trace '" +
                            fixture.string() + "' >/dev/null 2>'" + err.string() + "'";
    // The fixtures are unfilled (post roots are zero), so keel reports every case as failed and
    // exits 1; what matters here is the trace. 2 (bad usage) or a crash is an error.
    const int rc = std::system(cmd.c_str());
    EXPECT_TRUE(WIFEXITED(rc) && WEXITSTATUS(rc) <= 1) << cmd << ": status " << rc;
    return json_lines(err);
}

json without(json j, std::initializer_list<const char*> keys) {
    for (const char* k : keys) j.erase(k);
    return j;
}

class GoevmlabTrace : public ::testing::TestWithParam<const char*> {};

TEST_P(GoevmlabTrace, EqualsGeth) {
    const fs::path dir = keel::testutil::vectors_dir("evm/traces/eip3155_goevmlab");
    const keel::testutil::TempDir tmp("trace");
    const auto keel = keel_trace(dir / "cases" / GetParam(), tmp);
    const auto geth = json_lines(dir / "traces" / (std::string(GetParam()) + ".geth.stderr.txt"));
    ASSERT_FALSE(geth.empty());
    for (std::size_t i = 0; i < std::min(keel.size(), geth.size()); ++i) {
        const json& k = keel[i];
        const json& g = geth[i];
        ASSERT_EQ(k.contains("error"), g.contains("error"))
            << "line " << i + 1 << "\nkeel " << k.dump() << "\ngeth " << g.dump();
        const bool failed_step = g.contains("error") && g.contains("pc");
        const json kc = failed_step ? without(k, {"error", "gasCost"}) : without(k, {"error"});
        const json gc = failed_step ? without(g, {"error", "gasCost"}) : without(g, {"error"});
        ASSERT_EQ(kc, gc) << "line " << i + 1 << "\nkeel " << k.dump() << "\ngeth " << g.dump();
    }
    EXPECT_EQ(keel.size(), geth.size());
}

TEST_P(GoevmlabTrace, EqualsEvmoneOnTheFieldsItPrints) {
    const fs::path dir = keel::testutil::vectors_dir("evm/traces/eip3155_goevmlab");
    const keel::testutil::TempDir tmp("trace");
    const auto steps = [](const std::vector<json>& lines) {
        std::vector<json> out;
        for (const json& l : lines) {
            if (!l.contains("pc") || l.at("op") == 0) continue;
            out.push_back(json{{"pc", l.at("pc")},
                               {"op", l.at("op")},
                               {"gas", l.at("gas")},
                               {"depth", l.at("depth")},
                               {"stack", l.at("stack")},
                               {"memSize", l.at("memSize")}});
        }
        return out;
    };
    const auto keel = steps(keel_trace(dir / "cases" / GetParam(), tmp));
    const auto evmone =
        steps(json_lines(dir / "traces" / (std::string(GetParam()) + ".evmone.stderr.txt")));
    for (std::size_t i = 0; i < std::min(keel.size(), evmone.size()); ++i)
        ASSERT_EQ(keel[i], evmone[i]) << "step " << i + 1;
    EXPECT_EQ(keel.size(), evmone.size());
}

// All six cases here: London, Byzantium and Cancun rules, nested calls and creates, precompile
// calls, out of gas, stack underflow, a gas-overflowing memory offset, and an invalid
// transaction (eofcode: gas limit 0, only the stateRoot line).
INSTANTIATE_TEST_SUITE_P(Cases, GoevmlabTrace,
                         ::testing::Values("00000006-naivefuzz-0.json", "00003656-naivefuzz-0.json",
                                           "eofcode.json", "stackUnderflow_nonzeroMem.json",
                                           "statetest1.json", "statetest_filled.json"),
                         [](const auto& p) {
                             std::string n = p.param;
                             n = n.substr(0, n.find('.'));
                             for (char& c : n)
                                 if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
                             return n;
                         });

}  // namespace
