#pragma once
/// Blocks from the store: eth_getBlockByNumber and eth_getBlockByHash (the header's fields, the
/// transactions as hashes or whole objects, uncles, withdrawals; no totalDifficulty, as geth since
/// the merge; null for a block not stored),
/// eth_getBlockTransactionCountByNumber and eth_getBlockTransactionCountByHash (null likewise).

#include "keel/rpc/dispatcher.hpp"
#include "keel/store/chain_store.hpp"

namespace keel::rpc {

/// `store` must outlive `d`.
void add_block_methods(Dispatcher& d, const store::ChainStore& store);

}  // namespace keel::rpc
