#include "keel/eth/json.hpp"

#include <gtest/gtest.h>

#include <optional>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "keel/common/hex.hpp"
#include "keel/crypto/signature.hpp"
#include "keel/eth/sender.hpp"
#include "test/testutil/hex.hpp"
#include "test/testutil/signature.hpp"

namespace keel::eth {
namespace {

using testutil::fixed_from_hex;

// ---- the old output: apps/keel's nlohmann trees, as they were before the streaming writers ---
// (json_objects.cpp up to this change, kept here verbatim in substance as the reference the
// writers must reproduce byte for byte.)
namespace old {

using Json = nlohmann::ordered_json;

std::string q(const Uint256& v) {
    return v.to_hex();
}
std::string q(std::uint64_t v) {
    return Uint256(v).to_hex();
}
std::string d(BytesView b) {
    return hex::encode_prefixed(b);
}

Json access_list_json(const AccessListView& list) {
    Json out = Json::array();
    for (const auto& entry : list) {
        Json keys = Json::array();
        for (const auto& key : entry.storage_keys) keys.push_back(d(key.view()));
        out.push_back({{"address", d(entry.address.view())}, {"storageKeys", keys}});
    }
    return out;
}

Json transaction_object(const Transaction& tx, bool with_sender) {
    Json j;
    const TxType type = tx.type();
    j["type"] = q(static_cast<std::uint64_t>(type));
    if (auto id = tx.chain_id()) j["chainId"] = q(*id);
    j["nonce"] = q(tx.nonce());
    j["gas"] = q(tx.gas_limit());
    if (type == TxType::legacy || type == TxType::access_list) {
        j["gasPrice"] = q(tx.gas_price());
    } else {
        j["maxPriorityFeePerGas"] = q(tx.max_priority_fee_per_gas());
        j["maxFeePerGas"] = q(tx.max_fee_per_gas());
    }
    if (type == TxType::blob) j["maxFeePerBlobGas"] = q(tx.max_fee_per_blob_gas());
    if (auto to = tx.to()) {
        j["to"] = d(to->view());
    } else {
        j["to"] = nullptr;
    }
    j["value"] = q(tx.value());
    j["input"] = d(tx.data());
    if (type != TxType::legacy) j["accessList"] = access_list_json(tx.access_list());
    if (type == TxType::blob) {
        Json hashes = Json::array();
        for (const auto& h : tx.blob_versioned_hashes()) hashes.push_back(d(h.view()));
        j["blobVersionedHashes"] = hashes;
    }
    if (type == TxType::set_code) {
        Json auths = Json::array();
        for (const Authorization& a : tx.authorization_list()) {
            Json aj = {{"chainId", q(a.chain_id)},
                       {"address", d(a.address.view())},
                       {"nonce", q(a.nonce)},
                       {"yParity", q(std::uint64_t{a.y_parity})},
                       {"r", q(a.r)},
                       {"s", q(a.s)}};
            auths.push_back(aj);
        }
        j["authorizationList"] = auths;
    }
    j["v"] = q(type == TxType::legacy ? tx.v() : Uint256(tx.y_parity()));
    if (type != TxType::legacy) j["yParity"] = q(std::uint64_t{tx.y_parity()});
    j["r"] = q(tx.r());
    j["s"] = q(tx.s());
    j["hash"] = d(tx.hash().view());
    if (with_sender) {
        if (auto from = sender(tx)) {
            j["from"] = d(from->view());
        } else {
            j["from"] = nullptr;
        }
    }
    return j;
}

void add_tx_place(Json& tx, const Hash32& block_hash, std::uint64_t number, std::uint64_t index,
                  const std::optional<Uint256>& base_fee, const Transaction& decoded,
                  std::optional<std::uint64_t> timestamp = std::nullopt) {
    tx["blockHash"] = d(block_hash.view());
    tx["blockNumber"] = q(number);
    if (timestamp) tx["blockTimestamp"] = q(*timestamp);
    tx["transactionIndex"] = q(index);
    if (base_fee && decoded.type() != TxType::legacy && decoded.type() != TxType::access_list) {
        const Uint256 tip_cap = decoded.max_fee_per_gas() - *base_fee;
        const Uint256 tip = decoded.max_fee_per_gas() < *base_fee ? Uint256(0)
                            : decoded.max_priority_fee_per_gas() < tip_cap
                                ? decoded.max_priority_fee_per_gas()
                                : tip_cap;
        tx["gasPrice"] = q(*base_fee + tip);
    }
}

Json header_object(const Header& h, const Hash32& hash,
                   const std::optional<Uint256>& total_difficulty,
                   std::optional<std::uint64_t> size) {
    Json j;
    j["number"] = q(h.number);
    j["hash"] = d(hash.view());
    j["parentHash"] = d(h.parent_hash.view());
    j["nonce"] = d(h.nonce.view());
    j["sha3Uncles"] = d(h.ommers_hash.view());
    j["logsBloom"] = d(h.logs_bloom.view());
    j["transactionsRoot"] = d(h.transactions_root.view());
    j["stateRoot"] = d(h.state_root.view());
    j["receiptsRoot"] = d(h.receipts_root.view());
    j["miner"] = d(h.beneficiary.view());
    j["difficulty"] = q(h.difficulty);
    if (total_difficulty) j["totalDifficulty"] = q(*total_difficulty);
    j["extraData"] = d(h.extra_data);
    if (size) j["size"] = q(*size);
    j["gasLimit"] = q(h.gas_limit);
    j["gasUsed"] = q(h.gas_used);
    j["timestamp"] = q(h.timestamp);
    j["mixHash"] = d(h.mix_hash.view());
    if (h.base_fee_per_gas) j["baseFeePerGas"] = q(*h.base_fee_per_gas);
    if (h.withdrawals_root) j["withdrawalsRoot"] = d(h.withdrawals_root->view());
    if (h.blob_gas_used) j["blobGasUsed"] = q(*h.blob_gas_used);
    if (h.excess_blob_gas) j["excessBlobGas"] = q(*h.excess_blob_gas);
    if (h.parent_beacon_block_root) {
        j["parentBeaconBlockRoot"] = d(h.parent_beacon_block_root->view());
    }
    if (h.requests_hash) j["requestsHash"] = d(h.requests_hash->view());
    return j;
}

void add_body(Json& block, const Header& header, const Hash32& hash, const BlockBody& body,
              bool full) {
    Json txs = Json::array();
    for (std::size_t i = 0; i < body.transactions.size(); ++i) {
        const Transaction& tx = body.transactions[i];
        if (!full) {
            txs.push_back(d(tx.hash().view()));
            continue;
        }
        Json t = transaction_object(tx, true);
        add_tx_place(t, hash, header.number, i, header.base_fee_per_gas, tx, header.timestamp);
        txs.push_back(std::move(t));
    }
    block["transactions"] = std::move(txs);
    Json uncles = Json::array();
    for (const Header& u : body.ommers) uncles.push_back(d(u.hash().view()));
    block["uncles"] = std::move(uncles);
    if (body.withdrawals) {
        Json ws = Json::array();
        for (const Withdrawal& w : *body.withdrawals) {
            ws.push_back({{"index", q(w.index)},
                          {"validatorIndex", q(w.validator_index)},
                          {"address", d(w.address.view())},
                          {"amount", q(w.amount_gwei)}});
        }
        block["withdrawals"] = std::move(ws);
    }
}

}  // namespace old

// ---- a block with every transaction type ---------------------------------------------------

const crypto::SignatureScheme& k1() {
    return crypto::signature_scheme(crypto::SignatureAlgorithm::secp256k1);
}

Transaction decode(const TransactionFields& f) {
    auto tx = decode_transaction(encode(f));
    if (!tx) throw std::runtime_error(to_string(tx.error()));
    return *tx;
}

Transaction sign(TransactionFields f, const Bytes32& secret) {
    const bool legacy = f.type == TxType::legacy;
    const Uint256 v_base = legacy ? Uint256(f.chain_id * 2 + 35) : Uint256(0);
    f.v = v_base;
    f.r = 1;
    f.s = 1;
    auto sig = k1().sign_recoverable(decode(f).signing_hash(), secret);
    if (!sig) throw std::runtime_error("sign");
    f.v = v_base + sig->recovery_id;
    f.r = sig->r;
    f.s = sig->s;
    return decode(f);
}

const Address kTo = fixed_from_hex<Address>("0x3535353535353535353535353535353535353535");

TransactionFields fields_of(TxType type, std::uint64_t nonce) {
    TransactionFields f;
    f.type = type;
    f.chain_id = 1;
    f.nonce = nonce;
    f.max_fee_per_gas = 30'000'000'000ull + nonce;
    f.max_priority_fee_per_gas = 1'000'000'000ull + nonce * 7'000'000'000ull;
    f.gas_limit = 100'000;
    f.to = kTo;
    f.value = nonce * 1000;
    f.data = Bytes(nonce % 50, 0xab);
    if (type != TxType::legacy) {
        f.access_list.push_back({kTo, {Hash32{}, Hash32{}}});
        f.access_list.push_back({Address{}, {}});
    }
    if (type == TxType::blob) {
        f.max_fee_per_blob_gas = 7;
        Hash32 h{};
        h[0] = 0x01;
        f.blob_versioned_hashes.push_back(h);
        h[31] = 0x02;
        f.blob_versioned_hashes.push_back(h);
    }
    if (type == TxType::set_code) {
        Authorization a;
        a.chain_id = 1;
        a.address = kTo;
        a.nonce = nonce;
        a.r = 1;
        a.s = 1;  // recovers no one: shown all the same
        f.authorization_list.push_back(a);
        auto sig = k1().sign_recoverable(a.signing_hash(), Bytes32{0x11});
        if (sig) {
            a.y_parity = sig->recovery_id;
            a.r = sig->r;
            a.s = sig->s;
            f.authorization_list.push_back(a);
        }
    }
    return f;
}

std::vector<Transaction> every_type() {
    std::mt19937_64 rng(1559);
    std::vector<Transaction> txs;
    const TxType types[] = {TxType::legacy, TxType::access_list, TxType::dynamic_fee, TxType::blob,
                            TxType::set_code};
    std::uint64_t nonce = 0;
    for (TxType t : types) {
        Bytes32 secret{};
        for (std::size_t i = 0; i < secret.size(); ++i) {
            secret[i] = static_cast<std::uint8_t>(rng() % 255 + 1);
        }
        secret[0] = 0x01;
        txs.push_back(sign(fields_of(t, nonce++), secret));
    }
    // Creations (no "to") of the types that allow them, a pre-EIP-155 legacy one (no chainId),
    // and one whose signature recovers no one ("from": null).
    for (TxType t : {TxType::legacy, TxType::access_list, TxType::dynamic_fee}) {
        TransactionFields f = fields_of(t, nonce++);
        f.to.reset();
        txs.push_back(sign(f, Bytes32{0x22}));
    }
    TransactionFields pre155 = fields_of(TxType::legacy, nonce++);
    pre155.v = 27;
    pre155.r = 1;
    pre155.s = 1;
    txs.push_back(decode(pre155));
    TransactionFields spoiled = fields_of(TxType::dynamic_fee, nonce++);
    spoiled.v = 0;
    spoiled.r = 5;
    spoiled.s = 1;
    txs.push_back(decode(spoiled));
    return txs;
}

Header full_header(std::optional<Uint256> base_fee) {
    Header h;
    h.parent_hash[0] = 0xaa;
    h.beneficiary[19] = 0x01;
    h.state_root[1] = 0x02;
    h.logs_bloom[255] = 0x80;
    h.difficulty = 131072;
    h.number = 21'000'000;
    h.gas_limit = 30'000'000;
    h.gas_used = 1'234'567;
    h.timestamp = 1'700'000'000;
    h.extra_data = Bytes{'k', 'e', 'e', 'l', 0x00, '"', '\\'};
    h.nonce[7] = 0x42;
    h.base_fee_per_gas = base_fee;
    if (base_fee) {
        h.withdrawals_root = Hash32{};
        (*h.withdrawals_root)[5] = 5;
        h.blob_gas_used = 131072;
        h.excess_blob_gas = 0;
        h.parent_beacon_block_root = Hash32{};
        h.requests_hash = Hash32{};
        (*h.requests_hash)[31] = 0xff;
    }
    return h;
}

std::string written_block(const Header& h, const Hash32& hash, const std::optional<Uint256>& td,
                          std::optional<std::uint64_t> size, const BlockBody* body, bool full,
                          int indent) {
    std::string out;
    json::Writer w(out, indent);
    write_block(w, h, hash, td, size, body, full);
    EXPECT_TRUE(w.complete());
    return out;
}

std::string old_block(const Header& h, const Hash32& hash, const std::optional<Uint256>& td,
                      std::optional<std::uint64_t> size, const BlockBody* body, bool full,
                      int indent) {
    old::Json j = old::header_object(h, hash, td, size);
    if (body) old::add_body(j, h, hash, *body, full);
    return j.dump(indent);
}

TEST(EthJson, BlockWithEveryTransactionTypeMatchesTheOldOutput) {
    const std::vector<Transaction> txs = every_type();
    // Base fees: none (pre-London), below every max fee, and above some (gasPrice = base fee).
    for (std::optional<Uint256> base_fee :
         {std::optional<Uint256>{}, std::optional<Uint256>{Uint256(7)},
          std::optional<Uint256>{Uint256(30'000'000'004ull)}}) {
        const Header h = full_header(base_fee);
        BlockBody body;
        body.transactions = txs;
        body.ommers.push_back(full_header(std::nullopt));
        if (base_fee) {
            body.withdrawals = std::vector<Withdrawal>{{0, 1, kTo, 32'000'000'000ull},
                                                       {~std::uint64_t{0}, 0, Address{}, 0}};
        }
        const Hash32 hash = h.hash();
        for (bool full : {false, true}) {
            for (int indent : {2, json::Writer::kCompact}) {
                for (auto td :
                     {std::optional<Uint256>{}, std::optional<Uint256>{Uint256(1) << 80}}) {
                    for (auto size :
                         {std::optional<std::uint64_t>{}, std::optional<std::uint64_t>{0}}) {
                        ASSERT_EQ(written_block(h, hash, td, size, &body, full, indent),
                                  old_block(h, hash, td, size, &body, full, indent))
                            << "full " << full << " indent " << indent;
                    }
                }
            }
        }
        // A header whose body is unknown (pruned), and an empty body.
        EXPECT_EQ(written_block(h, hash, std::nullopt, std::nullopt, nullptr, true, 2),
                  old_block(h, hash, std::nullopt, std::nullopt, nullptr, true, 2));
        const BlockBody empty;
        EXPECT_EQ(written_block(h, hash, std::nullopt, 600, &empty, true, 2),
                  old_block(h, hash, std::nullopt, 600, &empty, true, 2));
    }
}

TEST(EthJson, TransactionMatchesTheOldOutput) {
    const std::vector<Transaction> txs = every_type();
    const Hash32 block_hash = fixed_from_hex<Hash32>(
        "0x00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff");
    std::size_t null_senders = 0;
    for (std::size_t i = 0; i < txs.size(); ++i) {
        const Transaction fresh = Transaction(txs[i]);
        for (bool with_sender : {true, false}) {
            std::string out;
            json::Writer w(out, 2);
            auto err = write_transaction(w, fresh, {.with_sender = with_sender});
            EXPECT_EQ(out, old::transaction_object(fresh, with_sender).dump(2)) << i;
            if (with_sender) null_senders += err ? 1 : 0;
            if (!with_sender) {
                EXPECT_FALSE(err.has_value());
            }
        }
        for (auto base_fee : {std::optional<Uint256>{}, std::optional<Uint256>{Uint256(9)}}) {
            const TxPlace place{block_hash, 17, i, base_fee, std::nullopt};
            std::string out;
            json::Writer w(out, 2);
            (void)write_transaction(w, fresh, {.place = &place});
            old::Json j = old::transaction_object(fresh, true);
            old::add_tx_place(j, block_hash, 17, i, base_fee, fresh);
            EXPECT_EQ(out, j.dump(2)) << i;
        }
    }
    EXPECT_EQ(null_senders, 1u) << "exactly the spoiled transaction recovers no sender";
}

TEST(EthJson, SenderErrorIsReturnedAndFromIsNull) {
    const std::vector<Transaction> txs = every_type();
    const Transaction& spoiled = txs.back();
    std::string out;
    json::Writer w(out);
    auto err = write_transaction(w, spoiled);
    ASSERT_TRUE(err.has_value());
    EXPECT_EQ(err->code, Errc::invalid_signature);
    EXPECT_NE(out.find("\"from\":null"), std::string::npos);
    EXPECT_TRUE(w.complete());
}

TEST(EthJson, EffectiveGasPrice) {
    TransactionFields f = fields_of(TxType::dynamic_fee, 0);
    f.max_fee_per_gas = 100;
    f.max_priority_fee_per_gas = 10;
    const Transaction tx = decode(f);
    EXPECT_EQ(effective_gas_price(tx, 50), Uint256(60));   // the whole tip fits
    EXPECT_EQ(effective_gas_price(tx, 95), Uint256(100));  // capped by the max fee
    EXPECT_EQ(effective_gas_price(tx, 100), Uint256(100));
    EXPECT_EQ(effective_gas_price(tx, 120), Uint256(120));  // below the base fee: no tip
}

TEST(EthJson, Receipt) {
    Receipt r;
    r.type = TxType::dynamic_fee;
    r.success = true;
    r.cumulative_gas_used = 21000;
    r.logs.push_back(Log{kTo, {Hash32{}}, Bytes{0x01, 0x02}});
    std::string out;
    json::Writer w(out);
    write_receipt(w, r);
    EXPECT_EQ(out,
              "{\"type\":\"0x2\",\"status\":\"0x1\",\"cumulativeGasUsed\":\"0x5208\","
              "\"logsBloom\":\"0x" +
                  std::string(512, '0') +
                  "\",\"logs\":[{\"address\":\"0x3535353535353535353535353535353535353535\","
                  "\"topics\":[\"0x" +
                  std::string(64, '0') + "\"],\"data\":\"0x0102\"}]}");
    // Before Byzantium: the state root instead of the status; the caller may add fields.
    Receipt pre;
    pre.post_state = Hash32{};
    out.clear();
    json::Writer w2(out);
    write_receipt(w2, pre, false);
    w2.key("transactionIndex");
    w2.quantity(std::uint64_t{3});
    w2.end_object();
    EXPECT_EQ(out, "{\"type\":\"0x0\",\"root\":\"0x" + std::string(64, '0') +
                       "\",\"cumulativeGasUsed\":\"0x0\",\"logsBloom\":\"0x" +
                       std::string(512, '0') + "\",\"logs\":[],\"transactionIndex\":\"0x3\"}");
}

}  // namespace
}  // namespace keel::eth
