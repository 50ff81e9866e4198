#include "keel/rpc/dispatcher.hpp"

#include <gtest/gtest.h>

#include <string>

namespace keel::rpc::dispatcher_test {
namespace {

using nlohmann::json;

// A dispatcher with echo (its params back), fail (an error), partial (writes, then fails) and
// throws (a handler that throws).
Dispatcher make(Limits limits = {}) {
    Dispatcher d(limits);
    d.add("test_echo", [](const json& p, keel::json::Writer& w) -> Result<void, RpcError> {
        w.begin_array();
        for (const json& v : p) w.string(v.dump());
        w.end_array();
        return {};
    });
    d.add("test_fail", [](const json&, keel::json::Writer&) -> Result<void, RpcError> {
        return std::unexpected(server_error("it failed"));
    });
    d.add("test_partial", [](const json&, keel::json::Writer& w) -> Result<void, RpcError> {
        w.begin_array();
        w.number(1);
        return std::unexpected(RpcError{ErrorCode::invalid_params, "half way"});
    });
    d.add("test_throws", [](const json& p, keel::json::Writer& w) -> Result<void, RpcError> {
        w.number(p.at(5).get<std::uint64_t>());  // out of range
        return {};
    });
    d.add("test_big", [](const json&, keel::json::Writer& w) -> Result<void, RpcError> {
        w.string(std::string(1000, 'x'));
        return {};
    });
    return d;
}

std::string ask(const Dispatcher& d, std::string_view body) {
    std::string out;
    d.handle(body, out);
    return out;
}

TEST(Dispatcher, OneRequestEchoesItsIdAsItCame) {
    const Dispatcher d = make();
    EXPECT_EQ(ask(d, R"({"jsonrpc":"2.0","id":7,"method":"test_echo","params":[1,"a"]})"),
              R"({"jsonrpc":"2.0","id":7,"result":["1","\"a\""]})");
    EXPECT_EQ(ask(d, R"({"jsonrpc":"2.0","id":"x","method":"test_echo"})"),
              R"({"jsonrpc":"2.0","id":"x","result":[]})");
    EXPECT_EQ(ask(d, R"({"jsonrpc":"2.0","id":null,"method":"test_echo","params":null})"),
              R"({"jsonrpc":"2.0","id":null,"result":[]})");
}

TEST(Dispatcher, ErrorsWithGethsCodes) {
    const Dispatcher d = make();
    EXPECT_EQ(ask(d, "{nope"),
              R"({"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"parse error"}})");
    EXPECT_EQ(
        ask(d, R"({"jsonrpc":"2.0","id":1,"method":"x_y"})"),
        R"({"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"the method x_y does not exist/is not available"}})");
    EXPECT_EQ(ask(d, R"({"jsonrpc":"1.0","id":1,"method":"test_echo"})"),
              R"({"jsonrpc":"2.0","id":1,"error":{"code":-32600,"message":"invalid request"}})");
    EXPECT_EQ(ask(d, R"({"jsonrpc":"2.0","id":{},"method":"test_echo"})"),
              R"({"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"invalid request"}})");
    EXPECT_EQ(ask(d, R"({"jsonrpc":"2.0","id":1,"method":5})"),
              R"({"jsonrpc":"2.0","id":1,"error":{"code":-32600,"message":"invalid request"}})");
    EXPECT_EQ(ask(d, R"({"jsonrpc":"2.0","id":1,"method":"test_echo","params":{"a":1}})"),
              R"({"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"non-array args"}})");
    EXPECT_EQ(ask(d, R"({"jsonrpc":"2.0","id":1,"method":"test_fail"})"),
              R"({"jsonrpc":"2.0","id":1,"error":{"code":-32000,"message":"it failed"}})");
    EXPECT_EQ(ask(d, "5"),
              R"({"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"invalid request"}})");
}

TEST(Dispatcher, AFailedHandlersPartialResultIsTakenBack) {
    const Dispatcher d = make();
    EXPECT_EQ(ask(d, R"({"jsonrpc":"2.0","id":2,"method":"test_partial"})"),
              R"({"jsonrpc":"2.0","id":2,"error":{"code":-32602,"message":"half way"}})");
    const json thrown = json::parse(ask(d, R"({"jsonrpc":"2.0","id":3,"method":"test_throws"})"));
    EXPECT_EQ(thrown["error"]["code"], -32603);
    EXPECT_EQ(thrown["id"], 3);
}

TEST(Dispatcher, NotificationsAreRunButNotAnswered) {
    const Dispatcher d = make();
    EXPECT_EQ(ask(d, R"({"jsonrpc":"2.0","method":"test_echo"})"), "");
    EXPECT_EQ(ask(d, R"({"jsonrpc":"2.0","method":"x_y"})"), "");
    EXPECT_EQ(
        ask(d,
            R"([{"jsonrpc":"2.0","method":"test_echo"},{"jsonrpc":"2.0","method":"test_fail"}])"),
        "");
}

TEST(Dispatcher, BatchesAnswerInOrderWithoutTheNotifications) {
    const Dispatcher d = make();
    EXPECT_EQ(
        ask(d, R"([{"jsonrpc":"2.0","id":1,"method":"test_echo"},)"
               R"({"jsonrpc":"2.0","method":"test_echo"},)"
               R"({"jsonrpc":"2.0","id":2,"method":"x_y"},7])"),
        R"([{"jsonrpc":"2.0","id":1,"result":[]},)"
        R"({"jsonrpc":"2.0","id":2,"error":{"code":-32601,"message":"the method x_y does not exist/is not available"}},)"
        R"({"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"invalid request"}}])");
    EXPECT_EQ(ask(d, "[]"),
              R"({"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"empty batch"}})");
}

TEST(Dispatcher, BatchLimitsRefuseWhatWouldExhaustMemory) {
    const Dispatcher d = make(Limits{.max_batch = 3, .max_response = 2000});
    std::string four = "[";
    for (int i = 0; i < 4; ++i)
        four += std::string(i ? "," : "") + R"({"jsonrpc":"2.0","id":1,"method":"test_echo"})";
    four += "]";
    EXPECT_EQ(ask(d, four),
              R"({"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"batch too large"}})");
    // Each answer is ~1 KB: past 2,000 bytes the rest are "response too large".
    const json r = json::parse(ask(d, R"([{"jsonrpc":"2.0","id":1,"method":"test_big"},)"
                                      R"({"jsonrpc":"2.0","id":2,"method":"test_big"},)"
                                      R"({"jsonrpc":"2.0","id":3,"method":"test_big"}])"));
    ASSERT_EQ(r.size(), 3u);
    EXPECT_TRUE(r[0].contains("result"));
    EXPECT_TRUE(r[1].contains("result"));
    EXPECT_EQ(r[2]["error"]["code"], -32003);
    EXPECT_EQ(r[2]["id"], 3);
}

}  // namespace
}  // namespace keel::rpc::dispatcher_test
