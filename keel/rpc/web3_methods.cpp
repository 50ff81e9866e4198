#include "keel/rpc/web3_methods.hpp"

#include "keel/common/hex.hpp"
#include "keel/crypto/keccak.hpp"
#include "keel/rpc/params.hpp"

namespace keel::rpc {

using nlohmann::json;

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
              if (!head) return std::unexpected(internal_error(head.error().message));
              w.quantity(head->value_or(0));
              return {};
          });
}

}  // namespace keel::rpc
