#include "keel/rpc/web3_methods.hpp"

#include <gtest/gtest.h>

#include "test/testutil/temp_dir.hpp"

namespace keel::rpc::web3_methods_test {
namespace {

using nlohmann::json;

json call(const Dispatcher& d, const std::string& method, const json& params) {
    std::string out;
    d.handle(json{{"jsonrpc", "2.0"}, {"id", 1}, {"method", method}, {"params", params}}.dump(),
             out);
    return json::parse(out);
}

Dispatcher web3() {
    Dispatcher d;
    add_web3_methods(
        d, NodeInfo{.client_version = "keel/v0.1.0", .chain_id = 1337, .network_id = 1337});
    return d;
}

TEST(Web3Methods, AnswersFromTheNode) {
    const Dispatcher d = web3();
    EXPECT_EQ(call(d, "web3_clientVersion", json::array())["result"], "keel/v0.1.0");
    EXPECT_EQ(call(d, "net_version", json::array())["result"], "1337");
    EXPECT_EQ(call(d, "net_listening", json::array())["result"], true);
    EXPECT_EQ(call(d, "eth_chainId", json::array())["result"], "0x539");
    // keccak256("hello world"), as every Ethereum library computes it.
    EXPECT_EQ(call(d, "web3_sha3", json::array({"0x68656c6c6f20776f726c64"}))["result"],
              "0x47173285a8d7341e5e972fc677286384f802f8ef42a5ec5f03bbfa254cb01fad");
    EXPECT_EQ(call(d, "web3_sha3", json::array({"0x"}))["result"],
              "0xc5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470");
}

TEST(Web3Methods, RefusesParametersWithGethsWords) {
    const Dispatcher d = web3();
    const auto message = [&](const json& params) {
        const json r = call(d, "web3_sha3", params);
        EXPECT_EQ(r["error"]["code"], -32602) << r.dump();
        return r["error"]["message"].get<std::string>();
    };
    EXPECT_EQ(message(json::array({"68656c"})), "invalid argument 0: hex string without 0x prefix");
    EXPECT_EQ(message(json::array({"0x123"})), "invalid argument 0: hex string of odd length");
    EXPECT_EQ(message(json::array({"0xzz"})), "invalid argument 0: invalid hex string");
    EXPECT_EQ(message(json::array({5})),
              "invalid argument 0: json: cannot unmarshal non-string into Go value of type "
              "hexutil.Bytes");
    EXPECT_EQ(message(json::array()), "missing value for required argument 0");
    EXPECT_EQ(message(json::array({"0x", "0x"})), "too many arguments, want at most 1");
    EXPECT_EQ(call(d, "eth_chainId", json::array({1}))["error"]["message"],
              "too many arguments, want at most 0");
}

TEST(HeadMethods, BlockNumberIsTheStoresHead) {
    testutil::TempDir dir("rpc");
    auto store = store::ChainStore::create(dir.path() / "db");
    ASSERT_TRUE(store.has_value()) << store.error().message;
    Dispatcher d;
    add_head_methods(d, *store);
    EXPECT_EQ(call(d, "eth_blockNumber", json::array())["result"], "0x0");  // empty: genesis's
}

}  // namespace
}  // namespace keel::rpc::web3_methods_test
