// JSON-RPC request bodies as the HTTP server hands them to keel/rpc's dispatcher (the node's most
// hostile input): bad JSON, wrong types, huge numbers, deep nesting, batches, notifications.
// Properties:
//   - no input crashes, reads out of bounds or trips an assert (ASan/UBSan, KEEL_ASSERT);
//   - the answer is empty (notifications only) or one JSON value: an answer object or an array
//     of them, each with "jsonrpc":"2.0" and an id, and either a result or an error with a code;
//   - its size is bounded by the input's (no answer grows without bound).
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "keel/rpc/web3_methods.hpp"

namespace {

void check(bool ok) {
    if (!ok) std::abort();
}

const keel::rpc::Dispatcher& dispatcher() {
    static const keel::rpc::Dispatcher d = [] {
        keel::rpc::Dispatcher x(keel::rpc::Limits{.max_batch = 100, .max_response = 1 << 16});
        keel::rpc::add_web3_methods(
            x, {.client_version = "keel/fuzz", .chain_id = 1, .network_id = 1});
        return x;
    }();
    return d;
}

void check_answer(const nlohmann::json& a) {
    check(a.is_object());
    check(a.value("jsonrpc", "") == "2.0");
    check(a.contains("id"));
    check(a.contains("result") != a.contains("error"));
    if (a.contains("error"))
        check(a["error"].contains("code") && a["error"]["message"].is_string());
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view body(reinterpret_cast<const char*>(data), size);
    std::string out;
    dispatcher().handle(body, out);
    if (out.empty()) return 0;
    const auto answer = nlohmann::json::parse(out, nullptr, false);
    check(!answer.is_discarded());
    if (answer.is_array()) {
        check(!answer.empty());
        for (const auto& a : answer) check_answer(a);
    } else {
        check_answer(answer);
    }
    // Every answer echoes at most its id and method name from the input, beside fixed text.
    check(out.size() <= 200 + 4 * size + 200 * (size / 8 + 1));
    return 0;
}
