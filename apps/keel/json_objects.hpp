#pragma once
// Ethereum objects as JSON-RPC results: the shapes of eth_getTransactionByHash and
// eth_getBlockByNumber, shared by `keel tx decode`, `keel block decode` and `keel get`.

#include <cstdint>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "keel/common/bytes.hpp"
#include "keel/common/uint256.hpp"
#include "keel/eth/block.hpp"
#include "keel/eth/header.hpp"
#include "keel/eth/transaction.hpp"

namespace keel::cli {

using Json = nlohmann::ordered_json;

/// A transaction as eth_getTransactionByHash returns it (without the block fields). With
/// `with_sender`, adds "from" (null when recovery fails, and then `*error` gets the reason).
Json transaction_object(const eth::Transaction& tx, bool with_sender, std::string* error);

/// Where a transaction sits, for the block fields of eth_getTransactionByHash.
struct TxPlace {
    Hash32 block_hash;
    std::uint64_t block_number = 0;
    std::uint64_t index = 0;
};

/// Adds blockHash, blockNumber and transactionIndex (and, when the block has a base fee, the
/// effective gasPrice of a dynamic-fee transaction) to a transaction object.
void add_tx_place(Json& tx, const TxPlace& place, const std::optional<Uint256>& base_fee,
                  const eth::Transaction& decoded);

/// The header fields of eth_getBlockByNumber: hash, parentHash, ..., then the optional fork
/// fields present in the header; with `total_difficulty`, totalDifficulty; `size` is the size
/// of rlp(block).
Json header_object(const eth::Header& header, const Hash32& hash,
                   const std::optional<Uint256>& total_difficulty,
                   std::optional<std::uint64_t> size);

/// Adds the body: transactions (hashes, or full objects with `full`), uncles (hashes) and
/// withdrawals (when present) to a block object.
void add_body(Json& block, const eth::Header& header, const Hash32& hash,
              const eth::BlockBody& body, bool full);

}  // namespace keel::cli
