#pragma once
/// Reads of stored blocks in the JSON-RPC shapes a node serves: a block's receipts
/// (eth_getBlockReceipts), one transaction's receipt (eth_getTransactionReceipt) and logs by
/// filter (eth_getLogs). `keel get` prints them; the RPC server (issue 28) will too.
///
/// Logs are found through the header blooms: a block's receipts are read only when its
/// header's bloom may hold every condition of the filter (an address of the filter, and a topic
/// of each position that names some); a bloom says "maybe", so each log of such a block is then
/// checked exactly, in place in the stored receipts (eth::ReceiptLogReader: nothing decoded or
/// copied but the logs that match). The body is read only for a block with a match, and only the
/// hashes of the matching logs' transactions are computed, off its RLP. No log index is kept:
/// the blooms are in the headers already.
///
/// Threading: any thread; the store's reads are thread-safe.
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "keel/common/bytes.hpp"
#include "keel/common/json_writer.hpp"
#include "keel/common/result.hpp"
#include "keel/eth/block.hpp"
#include "keel/eth/chain_config.hpp"
#include "keel/eth/header.hpp"
#include "keel/eth/json.hpp"
#include "keel/eth/receipt.hpp"
#include "keel/eth/transaction.hpp"
#include "keel/store/chain_store.hpp"
#include "keel/store/state_store.hpp"

namespace keel::blockchain {

/// Why a read has no answer: the block or transaction is not stored (`not_found`), its history
/// is pruned (`pruned`), a caller's limit was reached (`limit_exceeded`), a request the rules
/// refuse (`invalid`: a call that is not a valid message), a call out of time (`timed_out`), or
/// the store failed (none of them).
struct ReadError {
    bool not_found = false;
    bool pruned = false;
    std::string message;
    bool limit_exceeded = false;
    bool invalid = false;
    bool timed_out = false;  ///< a call's time limit was reached (calls.hpp, CallTimeout)
};

/// Canonical block `number`'s hash and header. Errors: not stored (not_found), a damaged row.
struct StoredHeader {
    Hash32 hash;
    eth::Header header;
};
[[nodiscard]] Result<StoredHeader, ReadError> canonical_header(const store::ChainStore& store,
                                                               std::uint64_t number);

/// Canonical block `number` with what eth_getBlockByNumber shows beside the header: its hash,
/// total difficulty (when stored), size (rlp(block)'s length, when the body is stored) and body
/// (nullopt: pruned or not stored: `body_pruned` says which).
struct StoredBlockView {
    Hash32 hash;
    eth::Header header;
    std::optional<Uint256> total_difficulty;
    std::optional<std::uint64_t> size;
    std::optional<eth::BlockBody> body;
    bool body_pruned = false;
};
/// Errors: not stored (not_found), a damaged row ("block 5: stored body: ..."). `senders`:
/// recover every transaction's sender (kept with the body in body_cache.hpp for the next read).
[[nodiscard]] Result<StoredBlockView, ReadError> stored_block(const store::ChainStore& store,
                                                              std::uint64_t number,
                                                              bool senders = false);

/// A stored transaction and where it sits (its block's hash, number, timestamp, base fee and
/// its index), as eth_getTransactionByHash shows it. Errors: not in the lookup index
/// (not_found), its block's history pruned (pruned), a lookup entry that names another
/// transaction or a damaged row.
struct StoredTransaction {
    eth::Transaction tx;
    eth::TxPlace place;
};
[[nodiscard]] Result<StoredTransaction, ReadError> stored_transaction(
    const store::ChainStore& store, const Hash32& tx_hash);
/// Transaction `index` of canonical block `number`: not_found when the block is not stored or
/// has fewer transactions.
[[nodiscard]] Result<StoredTransaction, ReadError> stored_transaction_at(
    const store::ChainStore& store, std::uint64_t number, std::uint64_t index);

/// The stored receipts of canonical block `number` (consensus form: debug_getRawReceipts).
/// Errors: not stored or executed (not_found), pruned, a damaged row.
[[nodiscard]] Result<std::vector<eth::Receipt>, ReadError> stored_receipts(
    const store::ChainStore& store, std::uint64_t number);

/// The receipts of canonical block `number`, as eth_getBlockReceipts returns them, written
/// with `w`. Errors: not stored, pruned, a damaged row.
[[nodiscard]] Result<void, ReadError> write_block_receipts(json::Writer& w,
                                                           const store::ChainStore& store,
                                                           const eth::ChainConfig& config,
                                                           std::uint64_t number);

/// The receipt of the transaction `tx_hash`, as eth_getTransactionReceipt returns it.
[[nodiscard]] Result<void, ReadError> write_transaction_receipt(json::Writer& w,
                                                                const store::ChainStore& store,
                                                                const eth::ChainConfig& config,
                                                                const Hash32& tx_hash);

/// An eth_getLogs filter over canonical blocks [from, to].
struct LogFilter {
    std::uint64_t from = 0;
    std::uint64_t to = 0;
    std::vector<Address> addresses;  ///< any of them; empty: any address
    /// By position: any of the hashes; an empty position matches any topic (null).
    std::vector<std::vector<Hash32>> topics;
    /// The most logs to write (0: no limit); one more is an error (limit_exceeded).
    std::uint64_t max_logs = 0;
};

/// Whether `log` passes `filter`'s addresses and topics (its block range is not looked at).
bool log_matches(const eth::Log& log, const LogFilter& filter);

/// What a log search did.
struct LogStats {
    std::uint64_t blocks = 0;      ///< headers checked
    std::uint64_t bloom_hits = 0;  ///< blocks whose bloom may match: bodies and receipts read
    std::uint64_t logs = 0;        ///< logs written
};

/// Each log of the blocks of `filter` that matches it, in block and log order: the log, its
/// block and transaction (ReceiptPlace::index), the transaction's hash and the log's index in
/// the block. Errors: as write_logs().
using LogVisitor =
    std::function<void(const eth::Log&, const eth::ReceiptPlace&, const Hash32&, std::uint64_t)>;
[[nodiscard]] Result<void, ReadError> for_each_log(const store::ChainStore& store,
                                                   const eth::ChainConfig& config,
                                                   const LogFilter& filter, const LogVisitor& visit,
                                                   LogStats* stats = nullptr);

/// Every log of the stored block `number` with this hash, canonical or not (a block a reorg
/// took off the chain: its logs reported removed), in order. Errors: the block or its receipts
/// not stored (not_found), pruned, a damaged row; each names the block.
[[nodiscard]] Result<void, ReadError> for_each_block_log(const store::ChainStore& store,
                                                         const eth::ChainConfig& config,
                                                         std::uint64_t number, const Hash32& hash,
                                                         const LogVisitor& visit);

/// The logs of the blocks of `filter` that match it, in block and log order, as eth_getLogs
/// returns them (a JSON array). Errors: a block of the range not stored or pruned (with its
/// number), a damaged row.
[[nodiscard]] Result<void, ReadError> write_logs(json::Writer& w, const store::ChainStore& store,
                                                 const eth::ChainConfig& config,
                                                 const LogFilter& filter,
                                                 LogStats* stats = nullptr);

/// An account proof (store::prove_account) as eth_getProof returns it: address, accountProof,
/// balance, codeHash, nonce, storageHash, storageProof [{key, value, proof}] (an absent account
/// reads as the empty one).
void write_account_proof(json::Writer& w, const store::AccountProof& proof);

}  // namespace keel::blockchain
