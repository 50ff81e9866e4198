// keel block decode <hex|@file|->: a block's header (JSON-RPC field names), hash, transaction
// hashes, and whether the roots in the header match the body.
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "apps/keel/commands.hpp"
#include "apps/keel/input.hpp"
#include "apps/keel/json_fields.hpp"
#include "apps/keel/json_objects.hpp"
#include "keel/common/hex.hpp"
#include "keel/common/uint256.hpp"
#include "keel/eth/block.hpp"

namespace keel::cli {
namespace {

// {"header": ..., "computed": ..., "matches": ...}; appends the name to `bad` on a mismatch.
Json root_check(const char* name, const Hash32& in_header, const Hash32& computed,
                std::vector<std::string>& bad) {
    bool ok = in_header == computed;
    if (!ok) bad.emplace_back(name);
    return {{"header", json_data(in_header.view())},
            {"computed", json_data(computed.view())},
            {"matches", ok}};
}

}  // namespace

void add_block_command(CLI::App& app) {
    auto* block = app.add_subcommand("block", "Blocks: header, body and roots");
    block->require_subcommand(1);
    auto* cmd = block->add_subcommand(
        "decode", "Decode a block; print its header, hash, transaction hashes and root checks");
    auto input = std::make_shared<std::string>();
    cmd->add_option("input", *input, "hex bytes, @file (raw bytes) or - (stdin, raw bytes)")
        ->required();
    cmd->callback([input] {
        Bytes raw = read_data_arg(*input, "block input");
        auto decoded = eth::decode_block(raw);
        if (!decoded) {
            throw Failure{kExitBadData,
                          fmt::format("block decode: {}", eth::to_string(decoded.error()))};
        }
        const eth::Block& b = *decoded;
        std::vector<std::string> bad;
        Json j;
        j["hash"] = json_data(b.hash().view());
        j["header"] = header_object(b.header, b.hash(), std::nullopt, std::nullopt);
        Json txs = Json::array();
        for (const auto& tx : b.body.transactions) txs.push_back(json_data(tx.hash().view()));
        j["transactions"] = txs;
        Json ommers = Json::array();
        for (const auto& o : b.body.ommers) ommers.push_back(json_data(o.hash().view()));
        j["uncles"] = ommers;
        if (b.body.withdrawals) j["withdrawalCount"] = b.body.withdrawals->size();
        Json roots;
        roots["transactionsRoot"] = root_check("transactionsRoot", b.header.transactions_root,
                                               eth::transactions_root(b.body.transactions), bad);
        roots["sha3Uncles"] =
            root_check("sha3Uncles", b.header.ommers_hash, eth::ommers_hash(b.body.ommers), bad);
        if (b.header.withdrawals_root || b.body.withdrawals) {
            static const std::vector<eth::Withdrawal> kNone;
            const auto& ws = b.body.withdrawals ? *b.body.withdrawals : kNone;
            Hash32 in_header = b.header.withdrawals_root.value_or(Hash32{});
            roots["withdrawalsRoot"] =
                root_check("withdrawalsRoot", in_header, eth::withdrawals_root(ws), bad);
        }
        j["roots"] = roots;
        std::printf("%s\n", j.dump(2).c_str());
        if (!bad.empty()) {
            throw Failure{kExitBadData, fmt::format("block decode: block {}: {} does not match "
                                                    "the body",
                                                    b.header.number, fmt::join(bad, ", "))};
        }
    });
}

}  // namespace keel::cli
