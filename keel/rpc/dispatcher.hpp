#pragma once
/// rpc::Dispatcher: JSON-RPC 2.0 over a request body, as geth answers it. A body holds one
/// request object or a batch (an array of them); each request names a registered method, whose
/// handler writes its result straight into the response buffer through a json::Writer (no
/// result tree is built: DESIGN.md, rpc). What the body gets back:
/// - a request: {"jsonrpc":"2.0","id":ID,"result":...} or {"jsonrpc":"2.0","id":ID,"error":
///   {"code":C,"message":"..."}}, the id echoed as it came (a number, a string or null);
/// - a notification (no id): nothing;
/// - a batch: an array of the answers of its requests, in order, notifications left out (an
///   empty body when every one was a notification); an empty batch and one past
///   Limits::max_batch get one error object, geth's "empty batch" / "batch too large";
/// - a body that is not JSON: -32700 "parse error"; an element that is not a request object, a
///   "jsonrpc" other than "2.0", a missing or non-string method: -32600 "invalid request";
///   an unknown method: -32601 "the method X does not exist/is not available"; params that are
///   not an array: -32602 "non-array args".
/// Once a batch's answers pass Limits::max_response bytes, its remaining requests are answered
/// with geth's -32003 "response too large" (memory stays bounded by one answer past the limit).
///
/// Threading: handle() may run on many threads at once; add() before any handle().

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>
#include <unordered_map>

#include <nlohmann/json.hpp>

#include "keel/common/json_writer.hpp"
#include "keel/common/result.hpp"
#include "keel/rpc/errors.hpp"

namespace keel::rpc {

/// A method's handler: its params (a JSON array: empty when the request had none) and a writer
/// placed where the result goes. It writes exactly one JSON value, or returns an error having
/// written nothing it needs kept (what it wrote is taken back).
using Handler =
    std::function<Result<void, RpcError>(const nlohmann::json& params, json::Writer& w)>;

struct Limits {
    std::size_t max_batch = 1000;          ///< geth's BatchRequestLimit
    std::size_t max_response = 25u << 20;  ///< geth's BatchResponseMaxSize, for a batch's answers
};

class Dispatcher {
  public:
    explicit Dispatcher(Limits limits = {}) : limits_(limits) {}

    /// Registers `method` (replacing one of the same name).
    void add(std::string method, Handler handler);
    bool has(std::string_view method) const;

    /// Appends the answer to `body` to `out` (nothing for notifications only).
    void handle(std::string_view body, std::string& out) const;

  private:
    void answer(const nlohmann::json& request, std::string& out) const;

    Limits limits_;
    std::unordered_map<std::string, Handler> methods_;
};

/// Appends {"jsonrpc":"2.0","id":ID,"error":{...}}; `id` as JSON text ("null" when unknown).
void append_error(std::string& out, std::string_view id, const RpcError& e);

}  // namespace keel::rpc
