#pragma once
/// The methods that answer from what the node is, not from its chain: web3_clientVersion,
/// web3_sha3, net_version, net_listening, eth_chainId; and eth_blockNumber from the store's head.
/// Parameters are read as geth reads them, and refused with geth's words ("invalid argument 0:
/// hex string without 0x prefix", "missing value for required argument 0", "too many
/// arguments, want at most 1").

#include <cstdint>
#include <string>

#include "keel/rpc/dispatcher.hpp"
#include "keel/store/chain_store.hpp"

namespace keel::rpc {

struct NodeInfo {
    std::string client_version;  ///< "keel/v0.1.0/linux-amd64"
    std::uint64_t chain_id = 1;
    std::uint64_t network_id = 1;  ///< net_version (geth: the network id, here the chain id)
};

void add_web3_methods(Dispatcher& d, const NodeInfo& info);

/// eth_blockNumber: the store's canonical head. `store` must outlive `d`.
void add_head_methods(Dispatcher& d, const store::ChainStore& store);

/// A required string argument: geth's "missing value for required argument N", or "json: cannot
/// unmarshal non-string into Go value of type GO_TYPE".
[[nodiscard]] Result<const std::string*, RpcError> string_param(const nlohmann::json& params,
                                                                std::size_t index,
                                                                std::string_view go_type);
/// A DATA parameter (hexutil.Bytes): "0x" and an even number of hex digits.
[[nodiscard]] Result<Bytes, RpcError> data_param(const nlohmann::json& params, std::size_t index);
/// Checks that `params` holds at most `max` arguments.
[[nodiscard]] Result<void, RpcError> at_most(const nlohmann::json& params, std::size_t max);

}  // namespace keel::rpc
