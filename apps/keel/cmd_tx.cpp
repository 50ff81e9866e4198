// keel tx decode <hex|@file|->: a transaction as JSON, with the field names and encodings of
// the JSON-RPC eth_getTransactionByHash result, plus its hash and recovered sender.
#include <cstdio>
#include <memory>
#include <string>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "apps/keel/commands.hpp"
#include "apps/keel/input.hpp"
#include "apps/keel/json_fields.hpp"
#include "keel/common/hex.hpp"
#include "keel/common/uint256.hpp"
#include "keel/eth/sender.hpp"
#include "keel/eth/transaction.hpp"

namespace keel::cli {
namespace {

using Json = nlohmann::ordered_json;

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

std::string transaction_json(const eth::Transaction& tx, bool with_sender, std::string* error) {
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
    return j.dump(2);
}

void add_tx_command(CLI::App& app) {
    auto* tx = app.add_subcommand("tx", "Typed transactions (types 0-4)");
    tx->require_subcommand(1);
    auto* cmd = tx->add_subcommand(
        "decode", "Decode a transaction envelope and print it as JSON (eth_getTransactionByHash)");
    auto input = std::make_shared<std::string>();
    auto network = std::make_shared<bool>(false);
    cmd->add_option("input", *input, "hex bytes, @file (raw bytes) or - (stdin, raw bytes)")
        ->required();
    cmd->add_flag("--network", *network,
                  "the input is in network (pooled) form: blob transactions carry their sidecar");
    cmd->callback([input, network] {
        Bytes raw = read_data_arg(*input, "tx input");
        auto decoded =
            *network ? eth::decode_transaction_network(raw) : eth::decode_transaction(raw);
        if (!decoded) {
            throw Failure{kExitBadData,
                          fmt::format("tx decode: {}", eth::to_string(decoded.error()))};
        }
        std::string sender_error;
        std::string out = transaction_json(*decoded, true, &sender_error);
        std::printf("%s\n", out.c_str());
        if (!sender_error.empty()) {
            throw Failure{kExitBadData, fmt::format("tx decode: sender: {}", sender_error)};
        }
    });
}

}  // namespace keel::cli
