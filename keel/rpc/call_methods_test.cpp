// The calls' time limit (NodeContext::call_timeout, geth's --rpc.evmtimeout) on the hive chain:
// a request out of time fails in geth's words, whichever method ran it; no limit, or one not
// reached, changes nothing. (The calls' answers are in the rpc-compat exchanges.)
#include "keel/rpc/call_methods.hpp"

#include <gtest/gtest.h>

#include <chrono>

#include "keel/blockchain/test_helpers.hpp"
#include "keel/rpc/simulate_methods.hpp"
#include "keel/rpc/test_ask.hpp"

namespace keel::rpc::call_methods_test {
namespace {

using nlohmann::json;
namespace bt = keel::blockchain::testing;

// A contract put in place by a state override: it returns the word 42.
constexpr const char* kContract = "0x00000000000000000000000000000000000c0de5";
const json kOverride = {{kContract, {{"code", "0x602a60005260206000f3"}}}};
const json kCall = {{"to", kContract}};

class CallTimeouts : public ::testing::Test {
  protected:
    void SetUp() override {
        bt::import_hive(hive_);
        if (HasFatalFailure()) return;
        config_ = hive_.genesis.config;
    }

    // The call methods served with `timeout` as the limit.
    json ask(std::chrono::nanoseconds timeout, const std::string& method,
             const std::vector<json>& args) {
        const NodeContext node{.store = *hive_.store,
                               .config = config_,
                               .info = {.client_version = "keel", .chain_id = 1, .network_id = 1},
                               .call_timeout = timeout};
        Dispatcher d;
        add_call_methods(d, node);
        add_simulate_methods(d, node);
        return testing::ask(d, method, args);
    }

    bt::HiveStore hive_;
    eth::ChainConfig config_;
};

TEST_F(CallTimeouts, ARequestOutOfTimeFailsInGethsWords) {
    // A limit of 1 ns has passed by the time the call's first frame starts.
    const auto tiny = std::chrono::nanoseconds(1);
    for (const auto& [method, args] :
         {std::pair<std::string, std::vector<json>>{"eth_call", {kCall, "latest", kOverride}},
          {"eth_estimateGas", {kCall, "latest", kOverride}},
          {"eth_createAccessList", {kCall, "latest", kOverride}},
          {"eth_simulateV1",
           {json{{"blockStateCalls",
                  json::array({{{"stateOverrides", kOverride}, {"calls", json::array({kCall})}}})}},
            "latest"}}}) {
        SCOPED_TRACE(method);
        const json r = ask(tiny, method, args);
        EXPECT_EQ(r["error"]["code"], -32000) << r.dump();
        EXPECT_EQ(r["error"]["message"], "execution aborted (timeout = 1ns)");
    }
}

TEST_F(CallTimeouts, NoLimitOrOneNotReachedChangesNothing) {
    const std::string word = "0x000000000000000000000000000000000000000000000000000000000000002a";
    for (const auto limit :
         {std::chrono::nanoseconds(0), std::chrono::nanoseconds(std::chrono::hours(1))}) {
        EXPECT_EQ(ask(limit, "eth_call", {kCall, "latest", kOverride})["result"], word);
        EXPECT_TRUE(
            ask(limit, "eth_estimateGas", {kCall, "latest", kOverride})["result"].is_string());
    }
}

}  // namespace
}  // namespace keel::rpc::call_methods_test
