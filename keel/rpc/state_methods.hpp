#pragma once
/// The methods that read the store: eth_getBalance, eth_getTransactionCount, eth_getCode,
/// eth_getStorageAt (the state after a block: a tag, a number, or EIP-1898's {blockNumber} /
/// {blockHash}), eth_getTransactionReceipt (null when unknown) and eth_getBlockReceipts (null for
/// a block not stored). A block beyond the head is geth's -32000 "header not found"; state no
/// longer kept is -32000 with the store's words ("state at block 5 is not kept: ...").
/// Blocks are named as params.hpp's block_param() reads them.

#include "keel/eth/chain_config.hpp"
#include "keel/rpc/dispatcher.hpp"
#include "keel/store/chain_store.hpp"
#include "keel/txpool/pool.hpp"

namespace keel::rpc {

/// `store`, `config` and `pool` (may be null) must outlive `d`. With a pool,
/// eth_getTransactionCount at "pending" counts the sender's transactions waiting in it.
void add_state_methods(Dispatcher& d, const store::ChainStore& store,
                       const eth::ChainConfig& config, const txpool::Pool* pool = nullptr);

}  // namespace keel::rpc
