#pragma once
/// The methods that read the store: eth_getBalance, eth_getTransactionCount, eth_getCode,
/// eth_getStorageAt (the state after a block: a tag, a number, or EIP-1898's {blockNumber} /
/// {blockHash}), eth_getTransactionReceipt (null when unknown) and eth_getBlockReceipts (null for
/// a block not stored). A block beyond the head is geth's -32000 "header not found"; state no
/// longer kept is -32000 with the store's words ("state at block 5 is not kept: ...").
///
/// Block tags: "latest", "pending", "safe" and "finalized" name the head (keel follows no
/// consensus client yet: safe and finalized come with the Engine API), "earliest" the lowest
/// stored block.

#include <cstdint>
#include <optional>

#include "keel/eth/chain_config.hpp"
#include "keel/rpc/dispatcher.hpp"
#include "keel/store/chain_store.hpp"

namespace keel::rpc {

/// `store` and `config` must outlive `d`.
void add_state_methods(Dispatcher& d, const store::ChainStore& store,
                       const eth::ChainConfig& config);

/// A block parameter, as a canonical number (nullopt: the head). Missing: the head.
[[nodiscard]] Result<std::optional<std::uint64_t>, RpcError> block_param(
    const nlohmann::json& params, std::size_t index, const store::ChainStore& store);
/// The number of the block whose hash is `text` (argument `index`); nullopt when the store does
/// not have it.
[[nodiscard]] Result<std::optional<std::uint64_t>, RpcError> hash_block_number(
    const std::string& text, std::size_t index, const store::ChainStore& store);
/// An address parameter (common.Address).
[[nodiscard]] Result<Address, RpcError> address_param(const nlohmann::json& params,
                                                      std::size_t index);

}  // namespace keel::rpc
