#pragma once
// Ethereum objects as JSON-RPC results, as the commands print them: the library's streaming
// writers (keel/eth/json.hpp on keel/common/json_writer.hpp) into one string, indented two
// spaces per level (the layout `keel tx decode`, `keel block decode` and `keel get` have always
// printed; the CLI tests pin it).

#include <cstdint>
#include <optional>
#include <string>

#include "keel/common/bytes.hpp"
#include "keel/common/json_writer.hpp"
#include "keel/common/uint256.hpp"
#include "keel/eth/block.hpp"
#include "keel/eth/header.hpp"
#include "keel/eth/json.hpp"
#include "keel/eth/transaction.hpp"

namespace keel::cli {

/// Spaces per level of the commands' JSON.
inline constexpr int kJsonIndent = 2;

/// A transaction as eth_getTransactionByHash returns it, with "from" (null when recovery fails,
/// and then `*sender_error` gets the reason) and, with `place`, the block fields.
std::string transaction_json(const eth::Transaction& tx, const eth::TxPlace* place,
                             std::string* sender_error);

/// A block as eth_getBlockByNumber returns it: the header's fields, then (with `body`) the
/// transactions (hashes, or whole objects with `full`), uncles and withdrawals.
std::string block_json(const eth::Header& header, const Hash32& hash,
                       const std::optional<Uint256>& total_difficulty,
                       std::optional<std::uint64_t> size, const eth::BlockBody* body, bool full);

}  // namespace keel::cli
