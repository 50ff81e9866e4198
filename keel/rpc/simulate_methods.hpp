#pragma once
/// eth_simulateV1(opts, block = latest) (execution-apis; blockchain/simulate.hpp says how the
/// blocks are made): opts is {blockStateCalls: [{blockOverrides, stateOverrides, calls}],
/// traceTransfers, validation, returnFullTransactions}. The answer is one object per simulated
/// block: the block as eth_getBlockByNumber shows it (transactions as hashes, or whole with
/// their senders), with "calls": [{returnData, logs, gasUsed, maxUsedGas, status, error?}].
/// Errors: -32602 for malformed options, the spec's -380xx codes, -32000 "header not found"
/// for a block not stored.

#include "keel/rpc/methods.hpp"

namespace keel::rpc {

/// Registers eth_simulateV1 on `d`.
void add_simulate_methods(Dispatcher& d, const NodeContext& node);

}  // namespace keel::rpc
