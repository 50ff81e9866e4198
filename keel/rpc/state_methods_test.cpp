// State methods' parameter refusals, in geth's words (the rpc-compat exchanges are in
// rpc_compat_test.cpp).
#include "keel/rpc/state_methods.hpp"

#include <gtest/gtest.h>

#include "keel/blockchain/test_helpers.hpp"

namespace keel::rpc::state_methods_test {
namespace {

using nlohmann::json;
namespace bt = keel::blockchain::testing;

TEST(StateMethods, ParametersRefusedWithGethsWords) {
    bt::HiveStore hive;
    bt::import_hive(hive);
    if (::testing::Test::HasFatalFailure()) return;
    Dispatcher d;
    add_state_methods(d, *hive.store, hive.genesis.config);
    const auto ask = [&](const json& params) {
        std::string out;
        d.handle(
            json{{"jsonrpc", "2.0"}, {"id", 1}, {"method", "eth_getBalance"}, {"params", params}}
                .dump(),
            out);
        return json::parse(out);
    };
    const std::string a = "0x7dcd17433742f4c0ca53122ab541d0ba67fc27df";
    EXPECT_EQ(ask(json::array({"0x1234", "latest"}))["error"]["message"],
              "invalid argument 0: hex string has length 4, want 40 for common.Address");
    EXPECT_EQ(ask(json::array({a, "0x99999"}))["error"]["code"], -32000);  // beyond the head
    EXPECT_EQ(ask(json::array({a, "0x99999"}))["error"]["message"], "header not found");
    EXPECT_EQ(ask(json::array({a, "0x01"}))["error"]["message"],
              "invalid argument 1: hex number with leading zero digits");
    EXPECT_EQ(ask(json::array({a, "12"}))["error"]["message"],
              "invalid argument 1: hex string without 0x prefix");
    EXPECT_EQ(ask(json::array({a, json{{"blockNumber", "0x1"}}}))["result"], "0x0");
    EXPECT_EQ(ask(json::array({a, "latest", 1}))["error"]["message"],
              "too many arguments, want at most 2");
}

}  // namespace
}  // namespace keel::rpc::state_methods_test
