#pragma once
/// Ethereum objects as JSON-RPC results, streamed into a keel::json::Writer: the shapes of
/// eth_getTransactionByHash, eth_getBlockByNumber / eth_getBlockByHash (header, body,
/// withdrawals) and the consensus part of eth_getTransactionReceipt
/// (https://github.com/ethereum/execution-apis, src/schemas/). Field order is the order keel has
/// always printed (and its CLI tests pin); numbers are QUANTITY, bytes and hashes DATA.
///
/// Nothing is built in between: every value is formatted straight into the writer's buffer, so
/// the RPC server can stream a block of any size into one growing response buffer. The writers
/// only read the objects; the transaction writer recovers the sender (sender.hpp: published
/// once, thread-safe) when asked for "from". No exceptions; the buffer may allocate as it grows.

#include <cstdint>
#include <optional>

#include "keel/common/bytes.hpp"
#include "keel/common/json_writer.hpp"
#include "keel/common/uint256.hpp"
#include "keel/eth/block.hpp"
#include "keel/eth/errors.hpp"
#include "keel/eth/header.hpp"
#include "keel/eth/receipt.hpp"
#include "keel/eth/transaction.hpp"
#include "keel/eth/withdrawal.hpp"

namespace keel::eth {

/// Where a transaction sits, for the block fields of eth_getTransactionByHash.
struct TxPlace {
    Hash32 block_hash;
    std::uint64_t block_number = 0;
    std::uint64_t index = 0;
    /// The block's base fee (EIP-1559), for the effective gasPrice of types 2-4.
    std::optional<Uint256> base_fee;
    /// The block's timestamp: geth's "blockTimestamp" member, when given.
    std::optional<std::uint64_t> block_timestamp;
};

/// What write_transaction() adds to the transaction's own fields.
struct TxJsonOptions {
    /// "from": the recovered sender, or null when the signature recovers none.
    bool with_sender = true;
    /// blockHash, blockNumber, blockTimestamp (when the place has it), transactionIndex (and the
    /// effective gasPrice of types 2-4 when
    /// the block has a base fee), after the transaction's fields; none without a place.
    const TxPlace* place = nullptr;
    /// Without a place: blockHash, blockNumber, blockTimestamp and transactionIndex as null (a
    /// pending transaction, as geth shows the pool's).
    bool pending = false;
    /// The sender, when known without recovering it (a simulated transaction has no
    /// signature); null: recovered.
    const Address* sender = nullptr;
};

/// An access list as JSON-RPC shows it: [{"address", "storageKeys": [...]}, ...].
void write_access_list(json::Writer& w, std::span<const TransactionFields::AccessListEntry> list);

/// The effective gas price of `tx` in a block with `base_fee` (EIP-1559): base fee plus the tip
/// min(max_priority_fee, max_fee - base_fee), none when max_fee < base_fee.
Uint256 effective_gas_price(const Transaction& tx, const Uint256& base_fee) noexcept;

/// Writes `tx` as one object (a value: at the top, in an array or after a key): type, chainId,
/// nonce, gas, the fee fields of its type, to (null for a creation), value, input,
/// accessList, blobVersionedHashes, authorizationList (the signed tuples, no
/// recovered authority: geth's and Reth's shape), v, yParity, r, s, hash, then "from" and the place
/// as `options` say. Returns the sender recovery's error when "from" was written as null (the
/// object is complete either way).
std::optional<Error> write_transaction(json::Writer& w, const Transaction& tx,
                                       const TxJsonOptions& options = {});

/// Writes the header's members into the object the writer has open: number, hash, parentHash,
/// nonce, sha3Uncles, logsBloom, transactionsRoot, stateRoot, receiptsRoot, miner, difficulty,
/// totalDifficulty (when given), extraData, size (when given: the size of rlp(block)),
/// gasLimit, gasUsed, timestamp, mixHash, then the fork fields the header has (baseFeePerGas,
/// withdrawalsRoot, blobGasUsed, excessBlobGas, parentBeaconBlockRoot, requestsHash).
void write_header_members(json::Writer& w, const Header& header, const Hash32& hash,
                          const std::optional<Uint256>& total_difficulty,
                          std::optional<std::uint64_t> size);

/// Writes the body's members into the open block object: transactions (hashes, or with `full`
/// whole objects with sender and place), uncles (hashes) and withdrawals (when the body has
/// them). `senders`, when given, are the transactions' senders (else recovered).
void write_body_members(json::Writer& w, const Header& header, const Hash32& hash,
                        const BlockBody& body, bool full, std::span<const Address> senders = {});

/// A whole eth_getBlockBy* object: the header's members, then the body's when there is one.
void write_block(json::Writer& w, const Header& header, const Hash32& hash,
                 const std::optional<Uint256>& total_difficulty, std::optional<std::uint64_t> size,
                 const BlockBody* body, bool full);

/// One withdrawal (EIP-4895): index, validatorIndex, address, amount (in Gwei).
void write_withdrawal(json::Writer& w, const Withdrawal& withdrawal);

/// The consensus fields of a receipt as eth_getTransactionReceipt names them: type, root
/// (before Byzantium) or status, cumulativeGasUsed, logsBloom, and logs (address, topics,
/// data). The fields that need the block and the transaction (hashes, indices, gasUsed,
/// effectiveGasPrice, from, to, contractAddress) are the caller's, written after these into the
/// still-open object when `close` is false.
void write_receipt(json::Writer& w, const Receipt& receipt, bool close = true);

/// Where a receipt stands, for the shapes of eth_getTransactionReceipt and eth_getBlockReceipts.
struct ReceiptPlace {
    Hash32 block_hash;
    std::uint64_t block_number = 0;
    std::uint64_t block_timestamp = 0;
    std::optional<Uint256> base_fee;        ///< the block's (London on): effectiveGasPrice
    std::optional<Uint256> blob_gas_price;  ///< the block's blob base fee (Cancun on)
    std::uint64_t index = 0;                ///< the transaction's, in the block
    std::uint64_t gas_used = 0;             ///< the transaction's own (not cumulative)
    std::uint64_t first_log_index = 0;      ///< logs of the block's earlier transactions
};

/// A receipt as eth_getTransactionReceipt returns it (go-ethereum's members, in its order:
/// alphabetical), with the block and transaction fields: blockHash, blockNumber,
/// contractAddress (a creation's, else null), cumulativeGasUsed, effectiveGasPrice, from,
/// gasUsed, logs (each with its block, transaction and block-wide index), logsBloom, root or
/// status, to, transactionHash, transactionIndex, type, and for blob transactions blobGasPrice
/// and blobGasUsed. The sender is recovered (cached); returns the error when it cannot be.
std::optional<Error> write_rpc_receipt(json::Writer& w, const Receipt& receipt,
                                       const Transaction& tx, const ReceiptPlace& place);

/// A log as eth_getLogs returns it (with its block, transaction and block-wide index);
/// `removed` for a log of a block a reorg took off the chain (eth_subscribe's logs).
void write_rpc_log(json::Writer& w, const Log& log, const ReceiptPlace& place,
                   const Hash32& tx_hash, std::uint64_t log_index, bool removed = false);

}  // namespace keel::eth
