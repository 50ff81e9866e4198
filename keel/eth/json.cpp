#include "keel/eth/json.hpp"

#include "keel/eth/chain_config.hpp"
#include "keel/eth/contract_address.hpp"
#include "keel/eth/sender.hpp"

namespace keel::eth {

namespace {

// An access list's entries (a decoded view, or fields to encode), as JSON-RPC shows them.
template <typename List>
void write_entries(json::Writer& w, const List& list) {
    w.begin_array();
    for (const auto& entry : list) {
        w.begin_object();
        w.member_data("address", entry.address.view());
        w.key("storageKeys");
        w.begin_array();
        for (const auto& key : entry.storage_keys) w.data(key.view());
        w.end_array();
        w.end_object();
    }
    w.end_array();
}

void write_authorization(json::Writer& w, const Authorization& a) {
    w.begin_object();
    w.member_quantity("chainId", a.chain_id);
    w.member_data("address", a.address.view());
    w.member_quantity("nonce", a.nonce);
    w.member_quantity("yParity", std::uint64_t{a.y_parity});
    w.member_quantity("r", a.r);
    w.member_quantity("s", a.s);
    // No recovered "authority": geth and Reth show the signed tuple only (hive compares).
    w.end_object();
}

void write_access_list(json::Writer& w, const AccessListView& list) {
    write_entries(w, list);
}

}  // namespace

void write_access_list(json::Writer& w, std::span<const TransactionFields::AccessListEntry> list) {
    write_entries(w, list);
}

Uint256 effective_gas_price(const Transaction& tx, const Uint256& base_fee) noexcept {
    // EIP-1559: priority_fee = min(max_priority_fee, max_fee - base_fee); the price is the base
    // fee plus that tip (a transaction below the base fee is not in a valid block: tip 0).
    const Uint256& max_fee = tx.max_fee_per_gas();
    if (max_fee < base_fee) return base_fee;
    const Uint256 tip_cap = max_fee - base_fee;
    const Uint256& priority = tx.max_priority_fee_per_gas();
    return base_fee + (priority < tip_cap ? priority : tip_cap);
}

std::optional<Error> write_transaction(json::Writer& w, const Transaction& tx,
                                       const TxJsonOptions& options) {
    const TxType type = tx.type();
    const bool legacy_fees = type == TxType::legacy || type == TxType::access_list;
    w.begin_object();
    w.member_quantity("type", static_cast<std::uint64_t>(type));
    if (auto id = tx.chain_id()) w.member_quantity("chainId", *id);
    w.member_quantity("nonce", tx.nonce());
    w.member_quantity("gas", tx.gas_limit());
    if (legacy_fees) {
        w.member_quantity("gasPrice", tx.gas_price());
    } else {
        w.member_quantity("maxPriorityFeePerGas", tx.max_priority_fee_per_gas());
        w.member_quantity("maxFeePerGas", tx.max_fee_per_gas());
    }
    if (type == TxType::blob) w.member_quantity("maxFeePerBlobGas", tx.max_fee_per_blob_gas());
    w.key("to");
    if (auto to = tx.to()) {
        w.data(to->view());
    } else {
        w.null();
    }
    w.member_quantity("value", tx.value());
    w.member_data("input", tx.data());
    if (type != TxType::legacy) {
        w.key("accessList");
        write_access_list(w, tx.access_list());
    }
    if (type == TxType::blob) {
        w.key("blobVersionedHashes");
        w.begin_array();
        for (const auto& h : tx.blob_versioned_hashes()) w.data(h.view());
        w.end_array();
    }
    if (type == TxType::set_code) {
        w.key("authorizationList");
        w.begin_array();
        for (const Authorization& a : tx.authorization_list()) write_authorization(w, a);
        w.end_array();
    }
    // Typed transactions print v as the y parity, as JSON-RPC's clients do.
    w.member_quantity("v", type == TxType::legacy ? tx.v() : Uint256(tx.y_parity()));
    if (type != TxType::legacy) w.member_quantity("yParity", std::uint64_t{tx.y_parity()});
    w.member_quantity("r", tx.r());
    w.member_quantity("s", tx.s());
    w.member_data("hash", tx.hash().view());
    std::optional<Error> sender_error;
    if (options.with_sender) {
        w.key("from");
        if (options.sender != nullptr) {
            w.data(options.sender->view());
        } else if (auto from = sender(tx)) {
            w.data(from->view());
        } else {
            w.null();
            sender_error = from.error();
        }
    }
    if (options.pending && options.place == nullptr) {
        for (const char* k : {"blockHash", "blockNumber", "blockTimestamp", "transactionIndex"}) {
            w.key(k);
            w.null();
        }
    }
    if (const TxPlace* p = options.place) {
        w.member_data("blockHash", p->block_hash.view());
        w.member_quantity("blockNumber", p->block_number);
        if (p->block_timestamp) w.member_quantity("blockTimestamp", *p->block_timestamp);
        w.member_quantity("transactionIndex", p->index);
        // Types 2-4 in a block with a base fee: the price actually paid, after the place.
        if (p->base_fee && !legacy_fees) {
            w.member_quantity("gasPrice", effective_gas_price(tx, *p->base_fee));
        }
    }
    w.end_object();
    return sender_error;
}

void write_header_members(json::Writer& w, const Header& h, const Hash32& hash,
                          const std::optional<Uint256>& total_difficulty,
                          std::optional<std::uint64_t> size) {
    w.member_quantity("number", h.number);
    w.member_data("hash", hash.view());
    w.member_data("parentHash", h.parent_hash.view());
    w.member_data("nonce", h.nonce.view());
    w.member_data("sha3Uncles", h.ommers_hash.view());
    w.member_data("logsBloom", h.logs_bloom.view());
    w.member_data("transactionsRoot", h.transactions_root.view());
    w.member_data("stateRoot", h.state_root.view());
    w.member_data("receiptsRoot", h.receipts_root.view());
    w.member_data("miner", h.beneficiary.view());
    w.member_quantity("difficulty", h.difficulty);
    if (total_difficulty) w.member_quantity("totalDifficulty", *total_difficulty);
    w.member_data("extraData", h.extra_data);
    if (size) w.member_quantity("size", *size);
    w.member_quantity("gasLimit", h.gas_limit);
    w.member_quantity("gasUsed", h.gas_used);
    w.member_quantity("timestamp", h.timestamp);
    w.member_data("mixHash", h.mix_hash.view());
    if (h.base_fee_per_gas) w.member_quantity("baseFeePerGas", *h.base_fee_per_gas);
    if (h.withdrawals_root) w.member_data("withdrawalsRoot", h.withdrawals_root->view());
    if (h.blob_gas_used) w.member_quantity("blobGasUsed", *h.blob_gas_used);
    if (h.excess_blob_gas) w.member_quantity("excessBlobGas", *h.excess_blob_gas);
    if (h.parent_beacon_block_root) {
        w.member_data("parentBeaconBlockRoot", h.parent_beacon_block_root->view());
    }
    if (h.requests_hash) w.member_data("requestsHash", h.requests_hash->view());
}

void write_body_members(json::Writer& w, const Header& header, const Hash32& hash,
                        const BlockBody& body, bool full, std::span<const Address> senders) {
    w.key("transactions");
    w.begin_array();
    for (std::size_t i = 0; i < body.transactions.size(); ++i) {
        const Transaction& tx = body.transactions[i];
        if (!full) {
            w.data(tx.hash().view());
            continue;
        }
        const TxPlace place{hash, header.number, i, header.base_fee_per_gas, header.timestamp};
        // A sender that does not recover is written as null; the block is still shown.
        (void)write_transaction(w, tx,
                                {.with_sender = true,
                                 .place = &place,
                                 .pending = false,
                                 .sender = i < senders.size() ? &senders[i] : nullptr});
    }
    w.end_array();
    w.key("uncles");
    w.begin_array();
    for (const Header& u : body.ommers) w.data(u.hash().view());
    w.end_array();
    if (body.withdrawals) {
        w.key("withdrawals");
        w.begin_array();
        for (const Withdrawal& wd : *body.withdrawals) write_withdrawal(w, wd);
        w.end_array();
    }
}

void write_block(json::Writer& w, const Header& header, const Hash32& hash,
                 const std::optional<Uint256>& total_difficulty, std::optional<std::uint64_t> size,
                 const BlockBody* body, bool full) {
    w.begin_object();
    write_header_members(w, header, hash, total_difficulty, size);
    if (body != nullptr) write_body_members(w, header, hash, *body, full);
    w.end_object();
}

void write_withdrawal(json::Writer& w, const Withdrawal& wd) {
    w.begin_object();
    w.member_quantity("index", wd.index);
    w.member_quantity("validatorIndex", wd.validator_index);
    w.member_data("address", wd.address.view());
    w.member_quantity("amount", wd.amount_gwei);
    w.end_object();
}

namespace {

// A log's own members: address, topics, data (the object is the caller's).
void write_log_members(json::Writer& w, const Log& log) {
    w.member_data("address", log.address.view());
    w.key("topics");
    w.begin_array();
    for (const Hash32& t : log.topics) w.data(t.view());
    w.end_array();
    w.member_data("data", log.data);
}

}  // namespace

void write_receipt(json::Writer& w, const Receipt& r, bool close) {
    w.begin_object();
    w.member_quantity("type", static_cast<std::uint64_t>(r.type));
    // EIP-658: a status since Byzantium, the intermediate state root before.
    if (r.post_state) {
        w.member_data("root", r.post_state->view());
    } else {
        w.member_quantity("status", std::uint64_t{r.success ? 1u : 0u});
    }
    w.member_quantity("cumulativeGasUsed", r.cumulative_gas_used);
    w.member_data("logsBloom", r.logs_bloom.view());
    w.key("logs");
    w.begin_array();
    for (const Log& log : r.logs) {
        w.begin_object();
        write_log_members(w, log);
        w.end_object();
    }
    w.end_array();
    if (close) w.end_object();
}

void write_rpc_log(json::Writer& w, const Log& log, const ReceiptPlace& place,
                   const Hash32& tx_hash, std::uint64_t log_index, bool removed) {
    w.begin_object();
    write_log_members(w, log);
    w.member_quantity("blockNumber", place.block_number);
    w.member_data("transactionHash", tx_hash.view());
    w.member_quantity("transactionIndex", place.index);
    w.member_data("blockHash", place.block_hash.view());
    w.member_quantity("blockTimestamp", place.block_timestamp);
    w.member_quantity("logIndex", log_index);
    w.key("removed");
    w.boolean(removed);
    w.end_object();
}

std::optional<Error> write_rpc_receipt(json::Writer& w, const Receipt& r, const Transaction& tx,
                                       const ReceiptPlace& place) {
    auto from = sender(tx);
    if (!from) return from.error();
    w.begin_object();
    const bool blob = tx.type() == TxType::blob;
    if (blob && place.blob_gas_price) w.member_quantity("blobGasPrice", *place.blob_gas_price);
    if (blob) {
        w.member_quantity("blobGasUsed", kGasPerBlob * static_cast<std::uint64_t>(
                                                           tx.blob_versioned_hashes().size()));
    }
    w.member_data("blockHash", place.block_hash.view());
    w.member_quantity("blockNumber", place.block_number);
    w.key("contractAddress");
    if (tx.is_create()) {
        w.data(contract_address(*from, tx.nonce()).view());
    } else {
        w.null();
    }
    w.member_quantity("cumulativeGasUsed", r.cumulative_gas_used);
    w.member_quantity("effectiveGasPrice",
                      effective_gas_price(tx, place.base_fee.value_or(Uint256{})));
    w.member_data("from", from->view());
    w.member_quantity("gasUsed", place.gas_used);
    w.key("logs");
    w.begin_array();
    for (std::size_t i = 0; i < r.logs.size(); ++i) {
        write_rpc_log(w, r.logs[i], place, tx.hash(), place.first_log_index + i);
    }
    w.end_array();
    w.member_data("logsBloom", r.logs_bloom.view());
    // EIP-658: a status since Byzantium, the intermediate state root before.
    if (r.post_state) {
        w.member_data("root", r.post_state->view());
    } else {
        w.member_quantity("status", std::uint64_t{r.success ? 1u : 0u});
    }
    w.key("to");
    if (auto to = tx.to()) {
        w.data(to->view());
    } else {
        w.null();
    }
    w.member_data("transactionHash", tx.hash().view());
    w.member_quantity("transactionIndex", place.index);
    w.member_quantity("type", static_cast<std::uint64_t>(r.type));
    w.end_object();
    return std::nullopt;
}

}  // namespace keel::eth
