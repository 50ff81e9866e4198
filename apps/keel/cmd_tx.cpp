// keel tx decode <hex|@file|->: a transaction as JSON, with the field names and encodings of
// the JSON-RPC eth_getTransactionByHash result, plus its hash and recovered sender.
#include <cstdio>
#include <memory>
#include <string>

#include <fmt/format.h>

#include "apps/keel/commands.hpp"
#include "apps/keel/input.hpp"
#include "apps/keel/json_objects.hpp"
#include "keel/eth/transaction.hpp"

namespace keel::cli {

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
        std::string out = transaction_json(*decoded, nullptr, &sender_error);
        std::printf("%s\n", out.c_str());
        if (!sender_error.empty()) {
            throw Failure{kExitBadData, fmt::format("tx decode: sender: {}", sender_error)};
        }
    });
}

}  // namespace keel::cli
