#pragma once
/// The arguments of the methods that execute a message (eth_call, eth_estimateGas,
/// eth_createAccessList, debug_traceCall), read as geth reads them:
/// - TransactionArgs: from, to, gas, gasPrice, maxFeePerGas, maxPriorityFeePerGas, value, nonce,
///   input (or data: both must agree), accessList, chainId (must be the node's), type,
///   blobVersionedHashes, maxFeePerBlobGas, authorizationList; unknown members are ignored, as
///   geth's decoder does; gasPrice beside the EIP-1559 fees is refused;
/// - StateOverride: {address: {balance, nonce, code, state | stateDiff,
///   movePrecompileToAddress}} (state and stateDiff together are refused);
/// - BlockOverrides: number, time, gasLimit, feeRecipient, prevRandao, baseFeePerGas,
///   blobBaseFee.
/// Each refusal is -32602 with the argument's index and the member it names.

#include <cstdint>

#include <nlohmann/json.hpp>

#include "keel/blockchain/calls.hpp"
#include "keel/rpc/errors.hpp"

namespace keel::rpc {

/// Argument `index` as TransactionArgs (a missing or null argument is refused).
[[nodiscard]] Result<blockchain::CallRequest, RpcError> call_request_param(
    const nlohmann::json& params, std::size_t index, std::uint64_t chain_id);

/// `value` (argument `index`, or a member of it) as TransactionArgs.
[[nodiscard]] Result<blockchain::CallRequest, RpcError> call_request_of(const nlohmann::json& value,
                                                                        std::size_t index,
                                                                        std::uint64_t chain_id);

/// Argument `index` as a StateOverride (missing or null: none). At most 1,024 accounts and
/// 1,024 slots in all.
[[nodiscard]] Result<blockchain::StateOverrides, RpcError> state_overrides_param(
    const nlohmann::json& params, std::size_t index);

/// `value` (argument `index`, or a member of it) as a StateOverride.
[[nodiscard]] Result<blockchain::StateOverrides, RpcError> state_overrides_of(
    const nlohmann::json& value, std::size_t index);

/// Argument `index` as BlockOverrides (missing or null: none).
[[nodiscard]] Result<blockchain::BlockOverrides, RpcError> block_overrides_param(
    const nlohmann::json& params, std::size_t index);

/// `value` (argument `index`, or a member of it) as BlockOverrides.
[[nodiscard]] Result<blockchain::BlockOverrides, RpcError> block_overrides_of(
    const nlohmann::json& value, std::size_t index);

}  // namespace keel::rpc
