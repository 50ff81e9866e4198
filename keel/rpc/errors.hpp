#pragma once
/// JSON-RPC errors as geth returns them: the code (hive's rpc-compat suite compares codes) and a
/// one-line message. The standard codes are JSON-RPC 2.0's; geth answers an execution failure
/// (eth_call, estimateGas, traces) with -32000 and a revert with 3.

#include <cstdint>
#include <optional>
#include <string>
#include <utility>

namespace keel::rpc {

enum class ErrorCode : std::int32_t {
    parse_error = -32700,       ///< the body is not JSON
    invalid_request = -32600,   ///< not a request object, an empty or too large batch
    method_not_found = -32601,  ///< no such method
    invalid_params = -32602,    ///< a parameter of the wrong type, count or value
    internal_error = -32603,    ///< keel failed (a store read)
    server_error = -32000,      ///< geth's catch-all: a request that cannot be answered
    limit_exceeded = -32005,    ///< a query past a node limit (eth_getLogs range or results)
    execution_reverted = 3,     ///< geth: a call that reverted (with its data)
};

struct RpcError {
    RpcError() = default;
    RpcError(ErrorCode c, std::string m, std::optional<std::string> d = std::nullopt)
        : code(c), message(std::move(m)), data(std::move(d)) {}

    ErrorCode code = ErrorCode::internal_error;
    std::string message;
    /// The error's "data" member, a JSON string when set: a revert's output as hex.
    std::optional<std::string> data;
};

/// -32000 with `message`: a request that cannot be answered (geth's catch-all).
inline RpcError server_error(std::string message) {
    return RpcError{ErrorCode::server_error, std::move(message)};
}
/// -32603 with `message`: keel failed (a store read).
inline RpcError internal_error(std::string message) {
    return RpcError{ErrorCode::internal_error, std::move(message)};
}

/// geth's words for an invalid parameter: "invalid argument 0: hex string without 0x prefix".
RpcError invalid_argument(std::size_t index, const std::string& why);

}  // namespace keel::rpc
