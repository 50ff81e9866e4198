#pragma once
/// Transactions, raw encodings, uncles, logs and proofs from the store:
/// - eth_getTransactionByHash, eth_getTransactionByBlockHashAndIndex,
///   eth_getTransactionByBlockNumberAndIndex (null when unknown), eth_getRawTransactionByHash and
///   debug_getRawTransaction (the canonical envelope; null when unknown);
/// - debug_getRawHeader, debug_getRawBlock, debug_getRawReceipts (rlp(header), rlp(block), each
///   receipt's envelope) of a block parameter;
/// - eth_getUncleCountByBlockHash/ByBlockNumber, eth_getUncleByBlockHashAndIndex/
///   ByBlockNumberAndIndex;
/// - eth_getLogs (a block range or a blockHash; addresses; topics by position), within
///   NodeContext's range and result limits (-32005);
/// - eth_getProof (the head's state only: the store keeps the head's tries, as geth's path
///   scheme does) and eth_getStorageValues (many slots of many accounts at one block).

#include "keel/rpc/methods.hpp"

namespace keel::rpc {

/// Registers the methods above on `d`.
void add_chain_methods(Dispatcher& d, const NodeContext& node);

}  // namespace keel::rpc
