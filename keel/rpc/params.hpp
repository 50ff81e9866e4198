#pragma once
/// Readers of JSON-RPC parameters, as geth reads them, refusing with geth's words (hive's
/// rpc-compat suite compares the codes, users read the words): "missing value for required
/// argument 0", "invalid argument 1: hex string without 0x prefix", "too many arguments, want
/// at most 2". Each takes the params array and the argument's index.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "keel/common/bytes.hpp"
#include "keel/common/result.hpp"
#include "keel/common/uint256.hpp"
#include "keel/rpc/errors.hpp"
#include "keel/store/chain_store.hpp"

namespace keel::rpc {

/// Checks that `params` holds at most `max` arguments.
[[nodiscard]] Result<void, RpcError> at_most(const nlohmann::json& params, std::size_t max);

/// A required string argument: "missing value for required argument N", or "json: cannot
/// unmarshal non-string into Go value of type GO_TYPE".
[[nodiscard]] Result<const std::string*, RpcError> string_param(const nlohmann::json& params,
                                                                std::size_t index,
                                                                std::string_view go_type);

/// A DATA parameter (hexutil.Bytes): "0x" and an even number of hex digits.
[[nodiscard]] Result<Bytes, RpcError> data_param(const nlohmann::json& params, std::size_t index);

/// A hex QUANTITY string (hexutil.Uint64): "0x" and 1-16 digits, no leading zero. The error is
/// geth's reason alone ("hex string without 0x prefix"), for the caller to place.
[[nodiscard]] Result<std::uint64_t, std::string> parse_quantity(std::string_view text);

/// A 256-bit hex QUANTITY (hexutil.Big): "0x" and 1-64 digits, no leading zero.
[[nodiscard]] Result<Uint256, std::string> parse_big(std::string_view text);

/// A required QUANTITY argument (hexutil.Uint64 / hexutil.Uint).
[[nodiscard]] Result<std::uint64_t, RpcError> quantity_param(const nlohmann::json& params,
                                                             std::size_t index,
                                                             std::string_view go_type);

/// A 256-bit value written as hex (a storage key: "0x" and 1-64 digits, leading zeros allowed).
[[nodiscard]] std::optional<Uint256> parse_word(std::string_view text);

/// An address argument (common.Address).
[[nodiscard]] Result<Address, RpcError> address_param(const nlohmann::json& params,
                                                      std::size_t index);
/// A 32-byte hash argument (common.Hash).
[[nodiscard]] Result<Hash32, RpcError> hash_param(const nlohmann::json& params, std::size_t index);

/// A block parameter (a tag, a number, a hash, or EIP-1898's {blockNumber} / {blockHash}) as a
/// canonical number (nullopt: the head; a missing argument is the head). Tags: "latest" and
/// "pending" name the head, "safe" and "finalized" the blocks the consensus client named last
/// (-32000 "safe block not found" before it named one), "earliest" the lowest stored block. A
/// number past the head is -32000 "header not found", an unknown hash -32000 "header for hash not
/// found".
[[nodiscard]] Result<std::optional<std::uint64_t>, RpcError> block_param(
    const nlohmann::json& params, std::size_t index, const store::ChainStore& store);

/// block_param(), with the head's number in place of nullopt.
[[nodiscard]] Result<std::uint64_t, RpcError> block_number_param(const nlohmann::json& params,
                                                                 std::size_t index,
                                                                 const store::ChainStore& store);

/// The block a method that answers null for a block not stored names with argument 0 (geth's
/// eth_getBlockBy*, eth_getTransactionByBlock*AndIndex, eth_getUncle*): by number or tag
/// (block_number_param(); past the head: nullopt), or by hash (nullopt: not stored).
using StoredBlockParam = Result<std::optional<std::uint64_t>, RpcError> (*)(
    const nlohmann::json& params, const store::ChainStore& store);
[[nodiscard]] Result<std::optional<std::uint64_t>, RpcError> stored_block_by_number(
    const nlohmann::json& params, const store::ChainStore& store);
[[nodiscard]] Result<std::optional<std::uint64_t>, RpcError> stored_block_by_hash(
    const nlohmann::json& params, const store::ChainStore& store);

/// The number of the block whose hash is `text` (argument `index`); nullopt when the store does
/// not have it.
[[nodiscard]] Result<std::optional<std::uint64_t>, RpcError> hash_block_number(
    const std::string& text, std::size_t index, const store::ChainStore& store);

/// The store's head (0 for an empty store); a read failure is -32603.
[[nodiscard]] Result<std::uint64_t, RpcError> head_number(const store::ChainStore& store);

}  // namespace keel::rpc
