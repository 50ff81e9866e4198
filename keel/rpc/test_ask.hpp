#pragma once
/// For keel/rpc's tests: one JSON-RPC request to a dispatcher, its answer parsed.

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "keel/rpc/dispatcher.hpp"

namespace keel::rpc::testing {

/// Asks `d` for `method` with `args` as its params array ({} for none); the parsed answer.
inline nlohmann::json ask(const Dispatcher& d, const std::string& method,
                          const std::vector<nlohmann::json>& args) {
    nlohmann::json params = nlohmann::json::array();
    for (const nlohmann::json& a : args) params.push_back(a);
    std::string out;
    d.handle(nlohmann::json{{"jsonrpc", "2.0"}, {"id", 1}, {"method", method}, {"params", params}}
                 .dump(),
             out);
    return nlohmann::json::parse(out);
}

}  // namespace keel::rpc::testing
