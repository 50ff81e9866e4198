#pragma once
/// Traces of a call nobody signed (debug_traceCall, trace_call, trace_callMany,
/// trace_rawTransaction): the message executed as calls.hpp says (as geth's debug_traceCall and
/// eth_call run it), with a tracer attached. Nothing is written anywhere.
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "keel/blockchain/calls.hpp"
#include "keel/blockchain/reads.hpp"
#include "keel/eth/transaction.hpp"
#include "keel/store/chain_store.hpp"
#include "keel/trace/parity_tracer.hpp"
#include "keel/trace/tracer_spec.hpp"

namespace keel::blockchain {

/// debug_traceCall: the tracer's result for the call, appended to `out` (drained as
/// write_debug_traces does). Errors: the block or its state not kept (not_found), a message the
/// rules refuse ("insufficient funds for gas * price + value"), a read failure.
[[nodiscard]] Result<void, ReadError> write_debug_trace_call(
    std::string& out, const store::ChainStore& store, const eth::ChainConfig& config,
    std::uint64_t number, const CallRequest& call, const trace::TracerSpec& spec,
    const std::function<void(std::string&)>& drain, const CallOptions& options = {});

/// trace_call: {"output", "stateDiff", "trace", "vmTrace"} for the call.
[[nodiscard]] Result<void, ReadError> write_trace_call(
    std::string& out, const store::ChainStore& store, const eth::ChainConfig& config,
    std::uint64_t number, const CallRequest& call, trace::ParityTraceTypes types);

/// trace_callMany: the calls one after the other on the same state (each sees what the ones
/// before it changed), a result each, as a JSON array. `types` has one entry per call.
[[nodiscard]] Result<void, ReadError> write_trace_call_many(
    std::string& out, const store::ChainStore& store, const eth::ChainConfig& config,
    std::uint64_t number, std::span<const CallRequest> calls,
    std::span<const trace::ParityTraceTypes> types);

/// trace_rawTransaction: a signed transaction (its envelope) traced as a call from its signer,
/// with its own fields, on the state after block `number`. Errors: a transaction that does not
/// decode or whose signature does not recover, and those of write_trace_call().
[[nodiscard]] Result<void, ReadError> write_trace_raw_transaction(
    std::string& out, const store::ChainStore& store, const eth::ChainConfig& config,
    std::uint64_t number, BytesView raw, trace::ParityTraceTypes types);

}  // namespace keel::blockchain
