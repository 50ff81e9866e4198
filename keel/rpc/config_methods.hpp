#pragma once
/// What the node is configured for and holds:
/// - eth_config (EIP-7910): the configuration in force at the head and the next and last
///   scheduled ones (timestamp forks and blob-parameter-only forks): activation time, blob
///   schedule, chain id, fork hash (EIP-6122), precompiles by EIP-7910's names, system
///   contracts. A head before Shanghai (block-numbered forks, which EIP-7910 does not describe)
///   is refused with -32000.
/// - eth_capabilities: the head, and the oldest block of each kind of data kept (state, blocks,
///   transactions, receipts, logs; proofs: the head's state only).
/// - eth_syncing: false (keel node follows a consensus client, it does not sync by itself yet);
///   eth_accounts: [] (keel holds no keys).

#include "keel/rpc/methods.hpp"

namespace keel::rpc {

/// Registers the methods above on `d`.
void add_config_methods(Dispatcher& d, const NodeContext& node);

}  // namespace keel::rpc
