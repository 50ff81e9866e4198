#pragma once
/// Traces of a call nobody signed (debug_traceCall, trace_call, trace_callMany,
/// trace_rawTransaction): the message executed on the
/// state after block `number` with that block's header as its block context, as geth's
/// debug_traceCall and eth_call run it: the sender's nonce and code are not checked, a gas price
/// of zero (the default) passes the base-fee check and pays nobody, the gas defaults to the
/// block's gas limit, and any gas is capped at 50 M (geth's RPCGasCap; from Osaka at 2^24,
/// EIP-7825's most a transaction may hold). Nothing is written anywhere.
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "keel/blockchain/reads.hpp"
#include "keel/eth/transaction.hpp"
#include "keel/store/chain_store.hpp"
#include "keel/trace/parity_tracer.hpp"
#include "keel/trace/tracer_spec.hpp"

namespace keel::blockchain {

/// The message (TransactionArgs' members a call uses).
struct CallRequest {
    Address from{};
    std::optional<Address> to;  ///< nullopt: a creation
    Bytes data;
    Uint256 value{};
    std::optional<std::uint64_t> gas;
    Uint256 gas_price{};
    /// EIP-2930 (from Berlin): accounts and slots warm from the start, paid for as a
    /// transaction's.
    std::vector<eth::TransactionFields::AccessListEntry> access_list;
};

/// The request a signed transaction makes: its sender, callee, data, value, gas, fee cap and
/// access list (trace_rawTransaction). Errors: a signature that does not recover.
[[nodiscard]] Result<CallRequest, std::string> call_of(const eth::Transaction& tx);

/// geth's default RPCGasCap: the most gas a call gets.
inline constexpr std::uint64_t kCallGasCap = 50'000'000;

/// debug_traceCall: the tracer's result for the call, appended to `out` (drained as
/// write_debug_traces does). Errors: the block or its state not kept (not_found), a message the
/// rules refuse ("insufficient funds for gas * price + value"), a read failure.
[[nodiscard]] Result<void, ReadError> write_debug_trace_call(
    std::string& out, const store::ChainStore& store, const eth::ChainConfig& config,
    std::uint64_t number, const CallRequest& call, const trace::TracerSpec& spec,
    const std::function<void(std::string&)>& drain);

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
