#pragma once
/// Every JSON-RPC method keel node serves, registered on one dispatcher: the node's own
/// (web3_methods.hpp), blocks (block_methods.hpp), state and receipts (state_methods.hpp),
/// transactions, raw reads, logs and proofs (chain_methods.hpp), fees (fee_methods.hpp), the
/// node's configuration (config_methods.hpp), calls (call_methods.hpp), traces
/// (trace_methods.hpp) and the pool (pool_methods.hpp). `keel node` and the rpc-compat
/// tests build their dispatcher through add_methods(), so that they serve the same set.

#include <chrono>

#include "keel/eth/chain_config.hpp"
#include "keel/rpc/dispatcher.hpp"
#include "keel/rpc/web3_methods.hpp"
#include "keel/store/chain_store.hpp"
#include "keel/txpool/pool.hpp"

namespace keel::rpc {

/// What the methods read, and the limits they apply. The store and config must outlive the
/// dispatcher.
struct NodeContext {
    const store::ChainStore& store;
    const eth::ChainConfig& config;
    NodeInfo info;
    /// eth_getLogs: the most blocks one query may span and the most logs it may return (geth's
    /// --rpc.logquerylimit is on results; a range limit keeps a bloom scan bounded too).
    std::uint64_t max_log_blocks = 100'000;
    std::uint64_t max_logs = 100'000;
    /// trace_filter: the most blocks one query may replay (each block is executed again).
    std::uint64_t max_trace_filter_blocks = 10'000;
    /// eth_call, eth_estimateGas (all its runs together), eth_createAccessList and
    /// eth_simulateV1: the time one request may execute (geth's --rpc.evmtimeout, 5 s); zero:
    /// none. See blockchain::CallTimeout.
    std::chrono::nanoseconds call_timeout = std::chrono::seconds(5);
    /// The transaction pool (eth_sendRawTransaction, txpool_*; pending transactions by hash);
    /// none: those methods are not served.
    txpool::Pool* pool = nullptr;
};

/// Registers every method on `d`.
void add_methods(Dispatcher& d, const NodeContext& node);

}  // namespace keel::rpc
