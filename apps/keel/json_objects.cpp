#include "apps/keel/json_objects.hpp"

#include "apps/keel/json_fields.hpp"
#include "keel/eth/sender.hpp"
#include "keel/eth/withdrawal.hpp"

namespace keel::cli {
namespace {

Json access_list_json(const eth::AccessListView& list) {
    Json out = Json::array();
    for (const auto& entry : list) {
        Json keys = Json::array();
        for (const auto& key : entry.storage_keys) keys.push_back(json_data(key.view()));
        out.push_back({{"address", json_data(entry.address.view())}, {"storageKeys", keys}});
    }
    return out;
}

}  // namespace

Json transaction_object(const eth::Transaction& tx, bool with_sender, std::string* error) {
    using eth::TxType;
    Json j;
    const TxType type = tx.type();
    j["type"] = json_quantity(static_cast<std::uint64_t>(type));
    if (auto id = tx.chain_id()) j["chainId"] = json_quantity(*id);
    j["nonce"] = json_quantity(tx.nonce());
    j["gas"] = json_quantity(tx.gas_limit());
    if (type == TxType::legacy || type == TxType::access_list) {
        j["gasPrice"] = json_quantity(tx.gas_price());
    } else {
        j["maxPriorityFeePerGas"] = json_quantity(tx.max_priority_fee_per_gas());
        j["maxFeePerGas"] = json_quantity(tx.max_fee_per_gas());
    }
    if (type == TxType::blob) j["maxFeePerBlobGas"] = json_quantity(tx.max_fee_per_blob_gas());
    if (auto to = tx.to()) {
        j["to"] = json_data(to->view());
    } else {
        j["to"] = nullptr;
    }
    j["value"] = json_quantity(tx.value());
    j["input"] = json_data(tx.data());
    if (type != TxType::legacy) j["accessList"] = access_list_json(tx.access_list());
    if (type == TxType::blob) {
        Json hashes = Json::array();
        for (const auto& h : tx.blob_versioned_hashes()) hashes.push_back(json_data(h.view()));
        j["blobVersionedHashes"] = hashes;
    }
    if (type == TxType::set_code) {
        Json auths = Json::array();
        for (const eth::Authorization& a : tx.authorization_list()) {
            Json aj = {{"chainId", json_quantity(a.chain_id)},
                       {"address", json_data(a.address.view())},
                       {"nonce", json_quantity(a.nonce)},
                       {"yParity", json_quantity(std::uint64_t{a.y_parity})},
                       {"r", json_quantity(a.r)},
                       {"s", json_quantity(a.s)}};
            if (auto who = eth::authority(a)) {
                aj["authority"] = json_data(who->view());
            } else {
                aj["authority"] = nullptr;
            }
            auths.push_back(aj);
        }
        j["authorizationList"] = auths;
    }
    j["v"] = json_quantity(type == TxType::legacy ? tx.v() : Uint256(tx.y_parity()));
    if (type != TxType::legacy) j["yParity"] = json_quantity(std::uint64_t{tx.y_parity()});
    j["r"] = json_quantity(tx.r());
    j["s"] = json_quantity(tx.s());
    j["hash"] = json_data(tx.hash().view());
    if (with_sender) {
        if (auto from = eth::sender(tx)) {
            j["from"] = json_data(from->view());
        } else {
            j["from"] = nullptr;
            if (error != nullptr) *error = eth::to_string(from.error());
        }
    }
    return j;
}

void add_tx_place(Json& tx, const TxPlace& place, const std::optional<Uint256>& base_fee,
                  const eth::Transaction& decoded) {
    tx["blockHash"] = json_data(place.block_hash.view());
    tx["blockNumber"] = json_quantity(place.block_number);
    tx["transactionIndex"] = json_quantity(place.index);
    using eth::TxType;
    if (base_fee && decoded.type() != TxType::legacy && decoded.type() != TxType::access_list) {
        // Effective gas price (EIP-1559): base fee plus the tip, capped by the max fee.
        const Uint256 tip_cap = decoded.max_fee_per_gas() - *base_fee;
        const Uint256 tip = decoded.max_fee_per_gas() < *base_fee ? Uint256(0)
                            : decoded.max_priority_fee_per_gas() < tip_cap
                                ? decoded.max_priority_fee_per_gas()
                                : tip_cap;
        tx["gasPrice"] = json_quantity(*base_fee + tip);
    }
}

Json header_object(const eth::Header& h, const Hash32& hash,
                   const std::optional<Uint256>& total_difficulty,
                   std::optional<std::uint64_t> size) {
    Json j;
    j["number"] = json_quantity(h.number);
    j["hash"] = json_data(hash.view());
    j["parentHash"] = json_data(h.parent_hash.view());
    j["nonce"] = json_data(h.nonce.view());
    j["sha3Uncles"] = json_data(h.ommers_hash.view());
    j["logsBloom"] = json_data(h.logs_bloom.view());
    j["transactionsRoot"] = json_data(h.transactions_root.view());
    j["stateRoot"] = json_data(h.state_root.view());
    j["receiptsRoot"] = json_data(h.receipts_root.view());
    j["miner"] = json_data(h.beneficiary.view());
    j["difficulty"] = json_quantity(h.difficulty);
    if (total_difficulty) j["totalDifficulty"] = json_quantity(*total_difficulty);
    j["extraData"] = json_data(h.extra_data);
    if (size) j["size"] = json_quantity(*size);
    j["gasLimit"] = json_quantity(h.gas_limit);
    j["gasUsed"] = json_quantity(h.gas_used);
    j["timestamp"] = json_quantity(h.timestamp);
    j["mixHash"] = json_data(h.mix_hash.view());
    if (h.base_fee_per_gas) j["baseFeePerGas"] = json_quantity(*h.base_fee_per_gas);
    if (h.withdrawals_root) j["withdrawalsRoot"] = json_data(h.withdrawals_root->view());
    if (h.blob_gas_used) j["blobGasUsed"] = json_quantity(*h.blob_gas_used);
    if (h.excess_blob_gas) j["excessBlobGas"] = json_quantity(*h.excess_blob_gas);
    if (h.parent_beacon_block_root) {
        j["parentBeaconBlockRoot"] = json_data(h.parent_beacon_block_root->view());
    }
    if (h.requests_hash) j["requestsHash"] = json_data(h.requests_hash->view());
    return j;
}

void add_body(Json& block, const eth::Header& header, const Hash32& hash,
              const eth::BlockBody& body, bool full) {
    Json txs = Json::array();
    for (std::size_t i = 0; i < body.transactions.size(); ++i) {
        const eth::Transaction& tx = body.transactions[i];
        if (!full) {
            txs.push_back(json_data(tx.hash().view()));
            continue;
        }
        Json t = transaction_object(tx, true, nullptr);
        add_tx_place(t, TxPlace{hash, header.number, i}, header.base_fee_per_gas, tx);
        txs.push_back(std::move(t));
    }
    block["transactions"] = std::move(txs);
    Json uncles = Json::array();
    for (const eth::Header& u : body.ommers) uncles.push_back(json_data(u.hash().view()));
    block["uncles"] = std::move(uncles);
    if (body.withdrawals) {
        Json ws = Json::array();
        for (const eth::Withdrawal& w : *body.withdrawals) {
            ws.push_back({{"index", json_quantity(w.index)},
                          {"validatorIndex", json_quantity(w.validator_index)},
                          {"address", json_data(w.address.view())},
                          {"amount", json_quantity(w.amount_gwei)}});
        }
        block["withdrawals"] = std::move(ws);
    }
}

}  // namespace keel::cli
