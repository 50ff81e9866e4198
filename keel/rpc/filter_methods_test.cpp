// Filters on the hive chain: a block filter sees a block made after it, a log filter's logs are
// eth_getLogs's, a pending filter sees a transaction the pool takes, and ids die when uninstalled.
#include "keel/rpc/filter_methods.hpp"

#include <gtest/gtest.h>

#include "keel/rpc/test_ask.hpp"

#include "keel/blockchain/chain.hpp"
#include "keel/blockchain/test_helpers.hpp"
#include "keel/common/hex.hpp"

namespace keel::rpc::filter_methods_test {
namespace {

using nlohmann::json;
namespace bt = keel::blockchain::testing;

class Filters : public ::testing::Test {
  protected:
    void SetUp() override {
        bt::import_hive(hive_);
        if (HasFatalFailure()) return;
        config_ = hive_.genesis.config;
        add_methods(d_,
                    NodeContext{.store = *hive_.store,
                                .config = config_,
                                .info = {.client_version = "keel", .chain_id = 1, .network_id = 1},
                                .pool = &pool_});
    }

    json ask(const std::string& method, const std::vector<json>& args) {
        return testing::ask(d_, method, args);
    }

    // A new empty block on the head, as a block producer makes one.
    Hash32 make_block() {
        auto chain = blockchain::Chain::open(*hive_.store, config_);
        EXPECT_TRUE(chain.has_value());
        auto head = blockchain::canonical_header(*hive_.store, chain->head().number).value();
        eth::Block b;
        b.header.timestamp = head.header.timestamp + 12;
        b.header.gas_limit = head.header.gas_limit;
        b.header.ommers_hash = eth::kEmptyOmmersHash;
        b.header.parent_beacon_block_root = Hash32{};
        b.body.withdrawals.emplace();
        auto built = chain->build(b);
        EXPECT_TRUE(built.has_value()) << (built ? "" : built.error().message);
        return built ? *built : Hash32{};
    }

    bt::HiveStore hive_;
    eth::ChainConfig config_;
    txpool::Pool pool_;
    Dispatcher d_;
};

TEST_F(Filters, BlockFilterSeesTheNewBlock) {
    const std::string id = ask("eth_newBlockFilter", {})["result"];
    EXPECT_EQ(id.size(), 34u);  // "0x" and 16 bytes
    EXPECT_EQ(ask("eth_getFilterChanges", {id})["result"], json::array());
    const Hash32 made = make_block();
    EXPECT_EQ(ask("eth_getFilterChanges", {id})["result"],
              json::array({hex::encode_prefixed(made.view())}));
    EXPECT_EQ(ask("eth_getFilterChanges", {id})["result"], json::array());  // reported once
    EXPECT_EQ(ask("eth_uninstallFilter", {id})["result"], true);
    EXPECT_EQ(ask("eth_uninstallFilter", {id})["result"], false);
    EXPECT_EQ(ask("eth_getFilterChanges", {id})["error"]["code"], -32000);
}

TEST_F(Filters, LogFilterLogsAreGetLogsAnswer) {
    const json query = {{"fromBlock", "0x1"},
                        {"toBlock", "0x20"},
                        {"address", "0x7dcd17433742f4c0ca53122ab541d0ba67fc27df"}};
    const std::string id = ask("eth_newFilter", {query})["result"];
    const json all = ask("eth_getFilterLogs", {id})["result"];
    ASSERT_TRUE(all.is_array());
    EXPECT_GT(all.size(), 0u);
    EXPECT_EQ(all, ask("eth_getLogs", {query})["result"]);
    // Nothing new below the filter's birth; an empty block adds none.
    EXPECT_EQ(ask("eth_getFilterChanges", {id})["result"], json::array());
    make_block();
    EXPECT_EQ(ask("eth_getFilterChanges", {id})["result"], json::array());
    // A bad query is refused as eth_getLogs refuses it.
    EXPECT_EQ(ask("eth_newFilter", {json{{"topics", json::array({"0x12"})}}})["error"]["code"],
              -32602);
    const std::string blocks = ask("eth_newBlockFilter", {})["result"];
    EXPECT_EQ(ask("eth_getFilterLogs", {blocks})["error"]["code"], -32000);  // not a log filter
}

TEST_F(Filters, PendingFilterSeesWhatThePoolTakes) {
    const std::string id = ask("eth_newPendingTransactionFilter", {})["result"];
    EXPECT_EQ(ask("eth_getFilterChanges", {id})["result"], json::array());
    // A transaction of the suite's exchanges, valid on the hive chain's head.
    std::string raw;
    for (const bt::Exchange& e : bt::exchanges("eth_sendRawTransaction"))
        if (e.file.filename() == "send-legacy-transaction.io") raw = e.request["params"][0];
    ASSERT_FALSE(raw.empty());
    const json sent = ask("eth_sendRawTransaction", {raw});
    ASSERT_TRUE(sent.contains("result")) << sent.dump();
    EXPECT_EQ(ask("eth_getFilterChanges", {id})["result"], json::array({sent["result"]}));
    // The pool's transaction is pending: "pending" counts it, "latest" does not.
    const json tx = ask("eth_getTransactionByHash", {sent["result"]})["result"];
    EXPECT_TRUE(tx["blockHash"].is_null());
    const json latest = ask("eth_getTransactionCount", {tx["from"], "latest"})["result"];
    const json pending = ask("eth_getTransactionCount", {tx["from"], "pending"})["result"];
    EXPECT_EQ(std::stoull(pending.get<std::string>(), nullptr, 16),
              std::stoull(latest.get<std::string>(), nullptr, 16) + 1);
    EXPECT_EQ(ask("eth_getFilterChanges", {id})["result"], json::array());
}

}  // namespace
}  // namespace keel::rpc::filter_methods_test
