// eth_simulateV1 beyond hive's 84 exchanges (which rpc_compat_test.cpp runs): the limits and the
// hostile inputs, answered with the spec's codes in bounded time, and what a simulation must
// leave alone (the store and the head).
#include "keel/rpc/simulate_methods.hpp"

#include <gtest/gtest.h>

#include "keel/rpc/test_ask.hpp"

#include "keel/blockchain/test_helpers.hpp"
#include "keel/store/state_store.hpp"

namespace keel::rpc::simulate_methods_test {
namespace {

using nlohmann::json;
namespace bt = keel::blockchain::testing;

const char* const kSender = "0xc000000000000000000000000000000000000000";
const char* const kContract = "0xc200000000000000000000000000000000000000";

class Simulate : public ::testing::Test {
  protected:
    void SetUp() override {
        bt::import_hive(hive_);
        if (HasFatalFailure()) return;
        config_ = hive_.genesis.config;
        add_methods(d_, NodeContext{.store = *hive_.store,
                                    .config = config_,
                                    .info = {.client_version = "keel",
                                             .chain_id = config_.chain_id.as_u64(),
                                             .network_id = 1}});
    }

    json simulate(const json& opts, const json& block = "latest") {
        return testing::ask(d_, "eth_simulateV1", {opts, block});
    }

    static int code_of(const json& answer) {
        return answer.contains("error") ? answer["error"]["code"].get<int>() : 0;
    }

    bt::HiveStore hive_;
    eth::ChainConfig config_;
    Dispatcher d_;
};

json blocks_of(std::size_t n) {
    json calls = json::array();
    for (std::size_t i = 0; i < n; ++i) calls.push_back(json::object());
    return json{{"blockStateCalls", calls}};
}

TEST_F(Simulate, LimitsAreRefusedWithTheSpecsCodes) {
    EXPECT_EQ(code_of(simulate(blocks_of(0))), -32602);  // "empty input"
    EXPECT_EQ(code_of(simulate(json::object())), -32602);
    EXPECT_EQ(code_of(simulate(json::array())), -32602);
    EXPECT_EQ(code_of(simulate(blocks_of(257))), -38026);  // too many blocks
    const json ok = simulate(blocks_of(256));
    ASSERT_TRUE(ok.contains("result")) << ok.dump().substr(0, 300);
    EXPECT_EQ(ok["result"].size(), 256u);

    // A number more than 256 past the base (the gap would be filled with empty blocks).
    EXPECT_EQ(code_of(simulate(json::parse(
                  R"({"blockStateCalls":[{"blockOverrides":{"number":"0xffffffffffffffff"}}]})"))),
              -38026);
    // Numbers and timestamps must rise.
    EXPECT_EQ(code_of(simulate(json::parse(R"({"blockStateCalls":[
                  {"blockOverrides":{"number":"0x40"}},{"blockOverrides":{"number":"0x3f"}}]})"))),
              -38020);
    // A timestamp at 2^64 - 1 leaves no room for the next block's default one.
    EXPECT_EQ(code_of(simulate(json::parse(R"({"blockStateCalls":[
                  {"blockOverrides":{"time":"0xffffffffffffffff"}},{}]})"))),
              -38021);

    // 5,001 calls in one block.
    json many = json::array();
    for (int i = 0; i < 5001; ++i) many.push_back({{"from", kSender}, {"to", kSender}});
    json opts = blocks_of(1);
    opts["blockStateCalls"][0]["calls"] = many;
    EXPECT_EQ(code_of(simulate(opts)), -38026);
}

TEST_F(Simulate, GasAtItsTypesMaximumIsRefusedOrCapped) {
    // More gas than the block has: -38015.
    const json over = simulate(json::parse(R"({"blockStateCalls":[{"calls":[
        {"from":"0xc000000000000000000000000000000000000000",
         "to":"0xc000000000000000000000000000000000000000","gas":"0xffffffffffffffff"}]}]})"));
    EXPECT_EQ(code_of(over), -38015) << over.dump();
    // A block gas limit of 2^64 - 1: the call's gas is capped by the request's budget.
    const json big = simulate(json::parse(R"({"blockStateCalls":[{
        "blockOverrides":{"gasLimit":"0xffffffffffffffff"},
        "calls":[{"from":"0xc000000000000000000000000000000000000000",
                  "to":"0xc000000000000000000000000000000000000000"}]}]})"));
    ASSERT_TRUE(big.contains("result")) << big.dump();
    EXPECT_EQ(big["result"][0]["transactions"].size(), 1u);
    EXPECT_EQ(big["result"][0]["gasLimit"], "0xffffffffffffffff");
}

TEST_F(Simulate, EndlessLoopsShareOneGasBudget) {
    // JUMPDEST PUSH1 0 JUMP burns all the gas it is given. The calls of a request together get
    // at most 50 M gas, so a request of many such calls ends: the first runs out of gas, the
    // next one has none left (an intrinsic gas error for the request).
    json block = json::parse(R"({"stateOverrides":{
        "0xc200000000000000000000000000000000000000":{"code":"0x5b600056"}}})");
    json calls = json::array();
    for (int i = 0; i < 20; ++i) calls.push_back({{"from", kSender}, {"to", kContract}});
    block["calls"] = calls;
    const json r = simulate(json{{"blockStateCalls", json::array({block})}});
    EXPECT_EQ(code_of(r), -38013) << r.dump().substr(0, 400);

    block["calls"] = json::array({calls[0]});
    const json one = simulate(json{{"blockStateCalls", json::array({block})}});
    ASSERT_TRUE(one.contains("result")) << one.dump();
    const json& call = one["result"][0]["calls"][0];
    EXPECT_EQ(call["status"], "0x0");
    EXPECT_EQ(call["error"]["code"], -32015);
    EXPECT_EQ(call["gasUsed"], "0x2faf080");  // 50,000,000
}

TEST_F(Simulate, NothingIsWrittenAndTheHeadStays) {
    const auto head = hive_.store->head();
    ASSERT_TRUE(head.has_value());
    const auto state_before = store::state_head(*hive_.store);
    ASSERT_TRUE(state_before.has_value());
    const json r = simulate(json::parse(R"({"blockStateCalls":[{
        "stateOverrides":{"0xc000000000000000000000000000000000000000":{"balance":"0xde0b6b3a7640000"}},
        "calls":[{"from":"0xc000000000000000000000000000000000000000",
                  "to":"0xc200000000000000000000000000000000000000","value":"0x1"}]}]})"));
    ASSERT_TRUE(r.contains("result")) << r.dump();
    EXPECT_EQ(*hive_.store->head(), *head);
    const auto state_after = store::state_head(*hive_.store);
    ASSERT_TRUE(state_after.has_value());
    EXPECT_EQ(*state_after, *state_before);
    const json balance = testing::ask(d_, "eth_getBalance", {kContract, "latest"});
    EXPECT_EQ(balance["result"], "0x0");
}

}  // namespace
}  // namespace keel::rpc::simulate_methods_test
