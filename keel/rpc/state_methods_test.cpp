// The rpc-compat suite's exchanges (hive, ../shared/vectors/rpc/) for the methods keel node
// serves so far, asked of the dispatcher on the hive chain imported executing, and compared as
// hive compares them: as JSON values, and where both sides answer an error, by code alone (the
// messages are each client's words).
#include "keel/rpc/state_methods.hpp"

#include <gtest/gtest.h>

#include "keel/blockchain/test_helpers.hpp"
#include "keel/rpc/block_methods.hpp"
#include "keel/rpc/web3_methods.hpp"

namespace keel::rpc::state_methods_test {
namespace {

using nlohmann::json;
namespace bt = keel::blockchain::testing;

// hive's comparison: the error's message is dropped when both sides answered an error.
json comparable(json r) {
    if (r.contains("error") && r["error"].is_object()) r["error"].erase("message");
    return r;
}

TEST(StateMethods, HivesRpcCompatExchanges) {
    bt::HiveStore hive;
    bt::import_hive(hive);
    if (::testing::Test::HasFatalFailure()) return;
    const eth::ChainConfig config = hive.genesis.config;
    Dispatcher d;
    add_web3_methods(d, NodeInfo{.client_version = "keel",
                                 .chain_id = config.chain_id.as_u64(),
                                 .network_id = config.chain_id.as_u64()});
    add_head_methods(d, *hive.store);
    add_state_methods(d, *hive.store, config);
    add_block_methods(d, *hive.store);
    std::size_t asked = 0;
    for (const char* method : {"eth_blockNumber", "eth_chainId", "net_version", "eth_getBalance",
                               "eth_getCode", "eth_getStorageAt", "eth_getTransactionCount",
                               "eth_getTransactionReceipt", "eth_getBlockReceipts"}) {
        for (const bt::Exchange& e : bt::exchanges(method)) {
            std::string out;
            d.handle(e.request.dump(), out);
            const json got = json::parse(out, nullptr, false);
            ASSERT_FALSE(got.is_discarded()) << e.file << ": " << out;
            EXPECT_EQ(comparable(got), comparable(e.response))
                << e.file.filename() << "\n  got  " << got.dump() << "\n  want "
                << e.response.dump();
            ++asked;
        }
    }
    EXPECT_GE(asked, 30u);
}

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
