#pragma once
/// The transaction pool over JSON-RPC (NodeContext::pool):
/// - eth_sendRawTransaction: the transaction checked against the head (txpool::Pool::add) and
///   kept; its hash, or -32000 with the pool's reason in geth's words;
/// - txpool_status {pending, queued}, txpool_content and txpool_contentFrom (transactions by
///   sender and nonce, as eth_getTransactionByHash shows a pending one), txpool_inspect (one
///   line a transaction: "0x3535…: 1 wei + 21000 gas × 100 wei").

#include "keel/rpc/methods.hpp"

namespace keel::rpc {

/// What the pool checks a transaction against: the head's child (fork, base fee; a chain merged
/// by total difficulty by the head's stored total difficulty), the head's gas limit and the
/// chain id. Errors: the head not readable.
[[nodiscard]] Result<txpool::Head, std::string> pool_head(const store::ChainStore& store,
                                                          const eth::ChainConfig& config);

/// Registers the methods above on `d` (nothing when `node.pool` is null).
void add_pool_methods(Dispatcher& d, const NodeContext& node);

}  // namespace keel::rpc
