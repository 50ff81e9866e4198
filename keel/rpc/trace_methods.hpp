#pragma once
/// The trace namespaces over stored blocks (blockchain/block_traces.hpp, parity_traces.hpp,
/// call_traces.hpp), with geth's TraceConfig and Parity's trace types:
/// - debug_traceTransaction(hash, config), debug_traceBlockByNumber(block, config),
///   debug_traceBlockByHash(hash, config), debug_traceCall(args, block, config with
///   stateOverrides and blockOverrides). config: tracer (default the struct logger, written as
///   geth writes it: empty members left out), tracerConfig, timeout (Go duration, default 5s
///   a transaction, as geth), and the struct logger's disableStack, disableStorage,
///   enableMemory, enableReturnData, limit. The genesis is "genesis is not traceable".
/// - trace_block, trace_transaction, trace_get, trace_filter, trace_replayBlockTransactions,
///   trace_replayTransaction, trace_call, trace_callMany, trace_rawTransaction, with trace
///   types "trace", "vmTrace", "stateDiff".
/// Failures are -32000 with the reason ("transaction not found", "execution timeout", "state at
/// block 5 is not kept: ..."); a store failure is -32603.

#include "keel/rpc/methods.hpp"

namespace keel::rpc {

/// Registers the methods above on `d`.
void add_trace_methods(Dispatcher& d, const NodeContext& node);

}  // namespace keel::rpc
