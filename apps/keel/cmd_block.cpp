// keel block decode <hex|@file|->: a block's header (JSON-RPC field names), hash, transaction
// hashes, and whether the roots in the header match the body.
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "apps/keel/commands.hpp"
#include "apps/keel/input.hpp"
#include "apps/keel/json_objects.hpp"
#include "keel/common/json_writer.hpp"
#include "keel/eth/block.hpp"
#include "keel/eth/json.hpp"

namespace keel::cli {
namespace {

// "name": {"header": ..., "computed": ..., "matches": ...}; appends the name to `bad` on a
// mismatch.
void root_check(json::Writer& w, const char* name, const Hash32& in_header, const Hash32& computed,
                std::vector<std::string>& bad) {
    const bool ok = in_header == computed;
    if (!ok) bad.emplace_back(name);
    w.key(name);
    w.begin_object();
    w.member_data("header", in_header.view());
    w.member_data("computed", computed.view());
    w.key("matches");
    w.boolean(ok);
    w.end_object();
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
        std::string out;
        json::Writer w(out, kJsonIndent);
        w.begin_object();
        w.member_data("hash", b.hash().view());
        w.key("header");
        w.begin_object();
        eth::write_header_members(w, b.header, b.hash(), std::nullopt, std::nullopt);
        w.end_object();
        w.key("transactions");
        w.begin_array();
        for (const auto& tx : b.body.transactions) w.data(tx.hash().view());
        w.end_array();
        w.key("uncles");
        w.begin_array();
        for (const auto& o : b.body.ommers) w.data(o.hash().view());
        w.end_array();
        if (b.body.withdrawals) {
            w.key("withdrawalCount");
            w.number(b.body.withdrawals->size());
        }
        w.key("roots");
        w.begin_object();
        root_check(w, "transactionsRoot", b.header.transactions_root,
                   eth::transactions_root(b.body.transactions), bad);
        root_check(w, "sha3Uncles", b.header.ommers_hash, eth::ommers_hash(b.body.ommers), bad);
        if (b.header.withdrawals_root || b.body.withdrawals) {
            static const std::vector<eth::Withdrawal> kNone;
            const auto& ws = b.body.withdrawals ? *b.body.withdrawals : kNone;
            const Hash32 in_header = b.header.withdrawals_root.value_or(Hash32{});
            root_check(w, "withdrawalsRoot", in_header, eth::withdrawals_root(ws), bad);
        }
        w.end_object();
        w.end_object();
        std::printf("%s\n", out.c_str());
        if (!bad.empty()) {
            throw Failure{kExitBadData, fmt::format("block decode: block {}: {} does not match "
                                                    "the body",
                                                    b.header.number, fmt::join(bad, ", "))};
        }
    });
}

}  // namespace keel::cli
