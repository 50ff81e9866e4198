#pragma once
/// The methods that answer from what the node is, not from its chain: web3_clientVersion,
/// web3_sha3, net_version, net_listening, eth_chainId; and eth_blockNumber from the store's head.

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

}  // namespace keel::rpc
