#include "keel/rpc/web3_methods.hpp"

#include "keel/common/hex.hpp"
#include "keel/crypto/keccak.hpp"

namespace keel::rpc {

using nlohmann::json;

Result<void, RpcError> at_most(const json& params, std::size_t max) {
    if (params.size() <= max) return {};
    return std::unexpected(RpcError{ErrorCode::invalid_params,
                                    "too many arguments, want at most " + std::to_string(max)});
}

Result<const std::string*, RpcError> string_param(const json& params, std::size_t index,
                                                  std::string_view go_type) {
    if (index >= params.size() || params[index].is_null()) {
        return std::unexpected(
            RpcError{ErrorCode::invalid_params,
                     "missing value for required argument " + std::to_string(index)});
    }
    if (!params[index].is_string()) {
        return std::unexpected(invalid_argument(
            index,
            "json: cannot unmarshal non-string into Go value of type " + std::string(go_type)));
    }
    return &params[index].get_ref<const std::string&>();
}

Result<Bytes, RpcError> data_param(const json& params, std::size_t index) {
    auto text = string_param(params, index, "hexutil.Bytes");
    if (!text) return std::unexpected(text.error());
    const std::string& s = **text;
    if (s.size() < 2 || s[0] != '0' || (s[1] != 'x' && s[1] != 'X'))
        return std::unexpected(invalid_argument(index, "hex string without 0x prefix"));
    if (s.size() % 2 != 0)
        return std::unexpected(invalid_argument(index, "hex string of odd length"));
    auto bytes = hex::decode(std::string_view(s).substr(2));
    if (!bytes) return std::unexpected(invalid_argument(index, "invalid hex string"));
    return std::move(*bytes);
}

void add_web3_methods(Dispatcher& d, const NodeInfo& info) {
    d.add("web3_clientVersion",
          [version = info.client_version](const json& p,
                                          keel::json::Writer& w) -> Result<void, RpcError> {
              if (auto r = at_most(p, 0); !r) return r;
              w.string(version);
              return {};
          });
    d.add("web3_sha3", [](const json& p, keel::json::Writer& w) -> Result<void, RpcError> {
        if (auto r = at_most(p, 1); !r) return r;
        auto data = data_param(p, 0);
        if (!data) return std::unexpected(data.error());
        const Hash32 h = crypto::keccak256(*data);
        w.data(h.view());
        return {};
    });
    d.add("net_version",
          [id = info.network_id](const json& p, keel::json::Writer& w) -> Result<void, RpcError> {
              if (auto r = at_most(p, 0); !r) return r;
              w.string(std::to_string(id));
              return {};
          });
    d.add("net_listening", [](const json& p, keel::json::Writer& w) -> Result<void, RpcError> {
        if (auto r = at_most(p, 0); !r) return r;
        w.boolean(true);
        return {};
    });
    d.add("eth_chainId",
          [id = info.chain_id](const json& p, keel::json::Writer& w) -> Result<void, RpcError> {
              if (auto r = at_most(p, 0); !r) return r;
              w.quantity(id);
              return {};
          });
}

void add_head_methods(Dispatcher& d, const store::ChainStore& store) {
    d.add("eth_blockNumber",
          [&store](const json& p, keel::json::Writer& w) -> Result<void, RpcError> {
              if (auto r = at_most(p, 0); !r) return r;
              auto head = store.head();
              if (!head)
                  return std::unexpected(RpcError{ErrorCode::internal_error, head.error().message});
              w.quantity(head->value_or(0));
              return {};
          });
}

}  // namespace keel::rpc
