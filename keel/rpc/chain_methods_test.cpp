// The chain, fee and config methods beyond what hive's exchanges cover: raw encodings checked
// against the roots and hashes they must reproduce, uncles, the eth_getLogs and
// eth_getStorageValues limits, eth_feeHistory's shape and refusals, and the fee oracle.
#include "keel/rpc/chain_methods.hpp"

#include <gtest/gtest.h>

#include "keel/rpc/test_ask.hpp"

#include "keel/blockchain/reads.hpp"
#include "keel/blockchain/test_helpers.hpp"
#include "keel/common/hex.hpp"
#include "keel/eth/block.hpp"
#include "keel/eth/receipt.hpp"

namespace keel::rpc::chain_methods_test {
namespace {

using nlohmann::json;
namespace bt = keel::blockchain::testing;

class ChainMethods : public ::testing::Test {
  protected:
    void SetUp() override {
        bt::import_hive(hive_);
        if (HasFatalFailure()) return;
        config_ = hive_.genesis.config;
        make({});
    }

    // A dispatcher with the given log limits.
    void make(std::pair<std::uint64_t, std::uint64_t> log_limits) {
        d_ = Dispatcher();
        NodeContext node{.store = *hive_.store,
                         .config = config_,
                         .info = {.client_version = "keel", .chain_id = 1, .network_id = 1}};
        if (log_limits.first != 0) node.max_log_blocks = log_limits.first;
        if (log_limits.second != 0) node.max_logs = log_limits.second;
        add_methods(d_, node);
    }

    json ask(const std::string& method, const std::vector<json>& args) {
        return testing::ask(d_, method, args);
    }

    bt::HiveStore hive_;
    eth::ChainConfig config_;
    Dispatcher d_;
};

std::string qty(std::uint64_t n) {
    return Uint256(n).to_hex();
}

Bytes bytes_of(const json& v) {
    return *hex::decode(v.get<std::string>().substr(2));
}

TEST_F(ChainMethods, RawBlocksAndReceiptsReproduceTheirHashesAndRoots) {
    const std::uint64_t head = *hive_.store->head().value();
    for (std::uint64_t n = 0; n <= head; ++n) {
        const std::string number = qty(n);
        const json block = ask("eth_getBlockByNumber", {number, false})["result"];
        auto decoded = eth::decode_block(bytes_of(ask("debug_getRawBlock", {number})["result"]));
        ASSERT_TRUE(decoded.has_value()) << n;
        EXPECT_EQ(json(hex::encode_prefixed(decoded->hash().view())), block["hash"]) << n;
        auto header = eth::decode_header(bytes_of(ask("debug_getRawHeader", {number})["result"]));
        ASSERT_TRUE(header.has_value()) << n;
        EXPECT_EQ(header->hash(), decoded->hash()) << n;
        std::vector<eth::Receipt> receipts;
        const json raw_receipts = ask("debug_getRawReceipts", {number})["result"];
        ASSERT_TRUE(raw_receipts.is_array()) << n;
        for (const json& r : raw_receipts) {
            auto one = eth::decode_receipt(bytes_of(r));
            ASSERT_TRUE(one.has_value()) << n;
            receipts.push_back(std::move(*one));
        }
        EXPECT_EQ(receipts.size(), decoded->body.transactions.size()) << n;
        EXPECT_EQ(eth::receipts_root(receipts), header->receipts_root) << n;
        // Uncles: the count and each one's hash, as the body holds them.
        const json count = ask("eth_getUncleCountByBlockNumber", {number})["result"];
        EXPECT_EQ(count, json(qty(decoded->body.ommers.size()))) << n;
        for (std::size_t i = 0; i < decoded->body.ommers.size(); ++i) {
            const json u =
                ask("eth_getUncleByBlockHashAndIndex", {block["hash"], qty(i)})["result"];
            EXPECT_EQ(u["hash"], json(hex::encode_prefixed(decoded->body.ommers[i].hash().view())));
            EXPECT_EQ(u["transactions"], json::array());
        }
        EXPECT_TRUE(ask("eth_getUncleByBlockNumberAndIndex",
                        {number, qty(decoded->body.ommers.size())})["result"]
                        .is_null());
        // Each transaction by position is the one the block lists, and its raw form hashes to it.
        for (std::size_t i = 0; i < decoded->body.transactions.size(); ++i) {
            const json t =
                ask("eth_getTransactionByBlockNumberAndIndex", {number, qty(i)})["result"];
            const Hash32 h = decoded->body.transactions[i].hash();
            EXPECT_EQ(t["hash"], json(hex::encode_prefixed(h.view())));
            EXPECT_EQ(t["blockTimestamp"], block["timestamp"]);
            EXPECT_EQ(bytes_of(ask("debug_getRawTransaction", {t["hash"]})["result"]),
                      Bytes(decoded->body.transactions[i].encoded().begin(),
                            decoded->body.transactions[i].encoded().end()));
        }
        EXPECT_TRUE(ask("eth_getTransactionByBlockNumberAndIndex",
                        {number, qty(decoded->body.transactions.size())})["result"]
                        .is_null());
    }
    // Past the head: "not found" errors for raw reads, null for lookups.
    EXPECT_EQ(ask("debug_getRawBlock", {"0x1000"})["error"]["code"], -32000);
    EXPECT_TRUE(
        ask("eth_getTransactionByBlockNumberAndIndex", {"0x1000", "0x0"})["result"].is_null());
    EXPECT_TRUE(
        ask("eth_getUncleCountByBlockHash", {"0x" + std::string(64, '1')})["result"].is_null());
}

TEST_F(ChainMethods, LogQueriesPastTheLimitsAreRefused) {
    const json all = ask("eth_getLogs", {json{{"fromBlock", "0x0"}, {"toBlock", "latest"}}});
    ASSERT_TRUE(all["result"].is_array()) << all.dump();
    ASSERT_GE(all["result"].size(), 3u);
    make({0, 2});  // at most 2 logs
    const json too_many = ask("eth_getLogs", {json{{"fromBlock", "0x0"}, {"toBlock", "latest"}}});
    EXPECT_EQ(too_many["error"]["code"], -32005) << too_many.dump();
    EXPECT_EQ(too_many["error"]["message"],
              "query returned more than 2 results (--rpc.logs.maxresults)");
    make({3, 0});  // at most 3 blocks a query
    EXPECT_EQ(ask("eth_getLogs", {json{{"fromBlock", "0x1"}, {"toBlock", "0x4"}}})["error"]["code"],
              -32005);
    EXPECT_TRUE(
        ask("eth_getLogs", {json{{"fromBlock", "0x1"}, {"toBlock", "0x3"}}})["result"].is_array());
    // Malformed filters: one line each, -32602.
    for (const json& bad :
         {json{{"topics", json::array({"0x12"})}}, json{{"address", 7}},
          json{{"topics", json::array({nullptr, nullptr, nullptr, nullptr, nullptr})}},
          json{{"fromBlock", "latest"}, {"toBlock", "0x0"}}}) {
        EXPECT_EQ(ask("eth_getLogs", {bad})["error"]["code"], -32602) << bad.dump();
    }
    EXPECT_EQ(
        ask("eth_getLogs", {json{{"blockHash", "0x" + std::string(64, '2')}}})["error"]["code"],
        -32000);
    EXPECT_EQ(ask("eth_getLogs", {})["error"]["code"], -32602);
}

TEST_F(ChainMethods, TraceFilterRangeIsBounded) {
    Dispatcher d;
    NodeContext node{.store = *hive_.store,
                     .config = config_,
                     .info = {.client_version = "keel", .chain_id = 1, .network_id = 1}};
    node.max_trace_filter_blocks = 3;
    add_methods(d, node);
    const auto filter = [&](const char* from, const char* to) {
        std::string out;
        d.handle(json{{"jsonrpc", "2.0"},
                      {"id", 1},
                      {"method", "trace_filter"},
                      {"params", json::array({json{{"fromBlock", from}, {"toBlock", to}}})}}
                     .dump(),
                 out);
        return json::parse(out);
    };
    EXPECT_EQ(filter("0x1", "0x10")["error"]["code"], -32005);
    EXPECT_TRUE(filter("0x1", "0x3")["result"].is_array());
}

TEST_F(ChainMethods, StorageValuesAndProofLimits) {
    json slots = json::array();
    for (int i = 0; i < 1025; ++i) slots.push_back(qty(static_cast<unsigned>(i)));
    const std::string a = "0x7dcd17433742f4c0ca53122ab541d0ba67fc27df";
    EXPECT_EQ(ask("eth_getStorageValues", {json{{a, slots}}, "latest"})["error"]["code"], -32602);
    EXPECT_EQ(ask("eth_getProof", {a, slots, "latest"})["error"]["code"], -32602);
    slots.erase(1024);
    EXPECT_EQ(ask("eth_getStorageValues", {json{{a, slots}}, "latest"})["result"][a].size(), 1024u);
    EXPECT_EQ(ask("eth_getStorageValues", {json{{a, json::array({"0xzz"})}}})["error"]["code"],
              -32602);
    // Proofs of a past block's state are not kept: a clear refusal, not a wrong proof.
    const json past = ask("eth_getProof", {a, json::array(), "0x1"});
    EXPECT_EQ(past["error"]["code"], -32000) << past.dump();
}

TEST_F(ChainMethods, FeeHistoryShapeAndRefusals) {
    const std::uint64_t head = *hive_.store->head().value();
    const json h = ask("eth_feeHistory", {"0x4", "latest", {10, 50, 90}})["result"];
    EXPECT_EQ(h["oldestBlock"], json(qty(head - 3)));
    EXPECT_EQ(h["baseFeePerGas"].size(), 5u);
    EXPECT_EQ(h["baseFeePerBlobGas"].size(), 5u);
    EXPECT_EQ(h["gasUsedRatio"].size(), 4u);
    EXPECT_EQ(h["blobGasUsedRatio"].size(), 4u);
    ASSERT_EQ(h["reward"].size(), 4u);
    for (const json& r : h["reward"]) EXPECT_EQ(r.size(), 3u);  // h is a local: no dangling
    // The last base fee is the next block's: eth_baseFee's.
    EXPECT_EQ(h["baseFeePerGas"][4], ask("eth_baseFee", {})["result"]);
    // Each block's gas ratio is its gas used over its limit.
    const json b = ask("eth_getBlockByNumber", {"latest", false})["result"];
    const double ratio =
        static_cast<double>(std::stoull(b["gasUsed"].get<std::string>(), nullptr, 16)) /
        static_cast<double>(std::stoull(b["gasLimit"].get<std::string>(), nullptr, 16));
    EXPECT_DOUBLE_EQ(h["gasUsedRatio"][3].get<double>(), ratio);
    // Decimal block counts are read as geth reads them; too many blocks are clamped.
    EXPECT_EQ(ask("eth_feeHistory", {4, "latest"})["result"]["oldestBlock"], h["oldestBlock"]);
    EXPECT_EQ(ask("eth_feeHistory", {"0x10000", "0x2"})["result"]["oldestBlock"], "0x0");
    EXPECT_EQ(ask("eth_feeHistory", {"0x0", "latest"})["result"],
              json::parse(R"({"oldestBlock":"0x0"})"));
    EXPECT_EQ(ask("eth_feeHistory", {"0x2", "latest", {50, 10}})["error"]["code"], -32602);
    EXPECT_EQ(ask("eth_feeHistory", {"0x2", "latest", {101}})["error"]["code"], -32602);
    EXPECT_EQ(ask("eth_feeHistory", {"0x2", "0x1000"})["error"]["code"], -32000);
    // The oracle: the price is the suggested tip plus the head's base fee.
    const Uint256 tip = *Uint256::from_hex(
        ask("eth_maxPriorityFeePerGas", {})["result"].get<std::string>().substr(2));
    const Uint256 price =
        *Uint256::from_hex(ask("eth_gasPrice", {})["result"].get<std::string>().substr(2));
    const Uint256 base = *Uint256::from_hex(b["baseFeePerGas"].get<std::string>().substr(2));
    EXPECT_EQ(price, tip + base);
    EXPECT_GT(tip, Uint256(0));
}

TEST_F(ChainMethods, SafeAndFinalizedAreTheConsensusClients) {
    // No consensus client has named them: geth's error.
    EXPECT_EQ(ask("eth_getBlockByNumber", {"safe", false})["error"]["message"],
              "safe block not found");
    EXPECT_EQ(ask("eth_getBalance", {"0x" + std::string(40, '0'), "finalized"})["error"]["code"],
              -32000);
    ASSERT_TRUE(hive_.store->set_forkchoice({.safe = 40, .finalized = 30}).has_value());
    EXPECT_EQ(ask("eth_getBlockByNumber", {"safe", false})["result"]["number"], "0x28");
    EXPECT_EQ(ask("eth_getBlockByNumber", {"finalized", false})["result"]["number"], "0x1e");
    // A later forkchoice naming only the safe block keeps the finalized one.
    ASSERT_TRUE(hive_.store->set_forkchoice({.safe = 41, .finalized = std::nullopt}).has_value());
    EXPECT_EQ(hive_.store->forkchoice().value().safe, 41u);
    EXPECT_EQ(hive_.store->forkchoice().value().finalized, 30u);
    const json logs = ask("eth_getLogs", {json{{"fromBlock", "finalized"}, {"toBlock", "safe"}}});
    EXPECT_TRUE(logs["result"].is_array()) << logs.dump();
}

TEST_F(ChainMethods, NodeFacts) {
    EXPECT_EQ(ask("eth_syncing", {})["result"], false);
    EXPECT_EQ(ask("eth_accounts", {})["result"], json::array());
    const json caps = ask("eth_capabilities", {})["result"];
    EXPECT_EQ(caps["head"]["number"], ask("eth_blockNumber", {})["result"]);
    EXPECT_EQ(caps["blocks"]["oldestBlock"], "0x0");
    EXPECT_EQ(caps["stateproofs"]["oldestBlock"], caps["head"]["number"]);
}

}  // namespace
}  // namespace keel::rpc::chain_methods_test
