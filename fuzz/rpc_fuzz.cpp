// JSON-RPC request bodies as the HTTP server hands them to keel/rpc's dispatcher (the node's most
// hostile input): bad JSON, wrong types, huge numbers, deep nesting, batches, notifications.
// Every method keel node serves is registered (rpc::add_methods), over an empty chain store made
// once in a temporary directory: parameter readers (block tags, filters, fee history counts and
// percentiles, storage-value maps) all run before the store answers "not stored".
// Properties:
//   - no input crashes, reads out of bounds or trips an assert (ASan/UBSan, KEEL_ASSERT);
//   - the answer is empty (notifications only) or one JSON value: an answer object or an array
//     of them, each with "jsonrpc":"2.0" and an id, and either a result or an error with a code;
//   - its size is bounded by the input's (no answer grows without bound).
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "keel/eth/chain_config.hpp"
#include "keel/rpc/methods.hpp"
#include "keel/store/chain_store.hpp"

namespace {

void check(bool ok) {
    if (!ok) std::abort();
}

// An empty store, removed at exit.
struct EmptyStore {
    std::filesystem::path dir;
    std::optional<keel::store::ChainStore> store;

    EmptyStore() {
        std::string path =
            (std::filesystem::temp_directory_path() / "keel-rpc-fuzz-XXXXXX").string();
        check(mkdtemp(path.data()) != nullptr);
        dir = path;
        auto s = keel::store::ChainStore::create(dir / "chain");
        check(s.has_value());
        store.emplace(std::move(*s));
    }
    ~EmptyStore() {
        store.reset();
        std::error_code ec;
        std::filesystem::remove_all(dir, ec);
    }
};

const keel::rpc::Dispatcher& dispatcher() {
    static EmptyStore empty;
    static const keel::eth::ChainConfig config = keel::eth::ChainConfig::mainnet();
    static const keel::rpc::Dispatcher d = [] {
        keel::rpc::Dispatcher x(keel::rpc::Limits{.max_batch = 100, .max_response = 1 << 16});
        keel::rpc::add_methods(
            x, keel::rpc::NodeContext{
                   .store = *empty.store,
                   .config = config,
                   .info = {.client_version = "keel/fuzz", .chain_id = 1, .network_id = 1}});
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
