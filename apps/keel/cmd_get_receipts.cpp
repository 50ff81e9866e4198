// keel get receipts B | receipt TXHASH | logs --from A --to B [--address X]... [--topics ...]:
// receipts and logs of a datadir's chain store in the shapes of eth_getBlockReceipts,
// eth_getTransactionReceipt and eth_getLogs (keel/blockchain/reads.hpp: logs are found through
// the header blooms; a summary of the search goes to stderr with --stats).
#include <chrono>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "apps/keel/commands.hpp"
#include "apps/keel/datadir.hpp"
#include "apps/keel/input.hpp"
#include "keel/blockchain/reads.hpp"
#include "keel/common/hex.hpp"
#include "keel/common/json_writer.hpp"

namespace keel::cli {
namespace {

struct ReceiptArgs {
    std::string datadir;
    std::string what;  // block or tx hash
    std::string from = "earliest";
    std::string to = "latest";
    std::vector<std::string> addresses;
    std::string topics;
    bool stats = false;
};

[[noreturn]] void read_failed(const std::string& what, const blockchain::ReadError& e) {
    throw Failure{kExitBadData, what + ": " + e.message};
}

void get_receipts(const ReceiptArgs& args) {
    const std::string what = "get receipts " + args.what;
    store::ChainStore chain = open_datadir(args.datadir, Access::read);
    const std::uint64_t number = resolve_block(chain, args.what, "get receipts");
    const eth::ChainConfig config = chain_rules(chain, what);
    std::string out;
    json::Writer w(out, 2);
    if (auto r = blockchain::write_block_receipts(w, chain, config, number); !r) {
        read_failed(what, r.error());
    }
    std::printf("%s\n", out.c_str());
}

void get_receipt(const ReceiptArgs& args) {
    const std::string what = "get receipt " + args.what;
    const Hash32 hash = tx_hash_arg(args.what, what);
    store::ChainStore chain = open_datadir(args.datadir, Access::read);
    const eth::ChainConfig config = chain_rules(chain, what);
    std::string out;
    json::Writer w(out, 2);
    if (auto r = blockchain::write_transaction_receipt(w, chain, config, hash); !r) {
        read_failed(what, r.error());
    }
    std::printf("%s\n", out.c_str());
}

template <class Fixed>
Fixed fixed_arg(const std::string& text, const std::string& what) {
    auto v = hex::decode_fixed<Fixed>(text);
    if (!v) {
        throw Failure{kExitUsage,
                      fmt::format("get logs: {} '{}': {}", what, text, to_string(v.error()))};
    }
    return *v;
}

void get_logs(const ReceiptArgs& args) {
    store::ChainStore chain = open_datadir(args.datadir, Access::read);
    blockchain::LogFilter f;
    f.from = resolve_block(chain, args.from, "get logs --from");
    f.to = resolve_block(chain, args.to, "get logs --to");
    if (f.from > f.to) {
        throw Failure{kExitUsage,
                      fmt::format("get logs: --from {} is above --to {}", f.from, f.to)};
    }
    for (const std::string& a : args.addresses)
        f.addresses.push_back(fixed_arg<Address>(a, "--address"));
    // --topics: positions separated by ',', alternatives by '|', an empty position or "null"
    // for any topic.
    if (!args.topics.empty()) {
        std::string_view rest = args.topics;
        while (true) {
            const auto comma = rest.find(',');
            std::string_view pos = rest.substr(0, comma);
            std::vector<Hash32> any;
            while (!pos.empty() && pos != "null") {
                const auto bar = pos.find('|');
                any.push_back(fixed_arg<Hash32>(std::string(pos.substr(0, bar)), "--topics"));
                if (bar == std::string_view::npos) break;
                pos.remove_prefix(bar + 1);
            }
            f.topics.push_back(std::move(any));
            if (comma == std::string_view::npos) break;
            rest.remove_prefix(comma + 1);
        }
    }
    const eth::ChainConfig config = chain_rules(chain, "get logs");
    std::string out;
    json::Writer w(out, 2);
    blockchain::LogStats stats;
    const auto t0 = std::chrono::steady_clock::now();
    if (auto r = blockchain::write_logs(w, chain, config, f, &stats); !r) {
        read_failed("get logs", r.error());
    }
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::printf("%s\n", out.c_str());
    if (args.stats) {
        std::fprintf(
            stderr, "get logs: %llu blocks, %llu whose bloom may match (read), %llu logs, %.3f s\n",
            static_cast<unsigned long long>(stats.blocks),
            static_cast<unsigned long long>(stats.bloom_hits),
            static_cast<unsigned long long>(stats.logs), s);
    }
}

}  // namespace

void add_get_receipt_commands(CLI::App& get) {
    auto receipts_args = std::make_shared<ReceiptArgs>();
    auto* receipts = get.add_subcommand("receipts", "A block's receipts (eth_getBlockReceipts)");
    receipts->add_option("--datadir", receipts_args->datadir, "the chain store's directory")
        ->required();
    receipts->add_option("block", receipts_args->what, "number, hash, latest or earliest")
        ->required();
    receipts->callback([receipts_args] { get_receipts(*receipts_args); });

    auto receipt_args = std::make_shared<ReceiptArgs>();
    auto* receipt =
        get.add_subcommand("receipt", "A transaction's receipt (eth_getTransactionReceipt)");
    receipt->add_option("--datadir", receipt_args->datadir, "the chain store's directory")
        ->required();
    receipt->add_option("hash", receipt_args->what, "the transaction hash")->required();
    receipt->callback([receipt_args] { get_receipt(*receipt_args); });

    auto logs_args = std::make_shared<ReceiptArgs>();
    auto* logs = get.add_subcommand(
        "logs", "Logs of a block range by address and topics (eth_getLogs; header blooms first)");
    logs->add_option("--datadir", logs_args->datadir, "the chain store's directory")->required();
    logs->add_option("--from", logs_args->from, "first block (default earliest)");
    logs->add_option("--to", logs_args->to, "last block (default latest)");
    logs->add_option("--address", logs_args->addresses, "an emitting address (repeatable: any)");
    logs->add_option("--topics", logs_args->topics,
                     "topics by position, ',' between positions, '|' between alternatives, "
                     "empty or null for any: 0xA|0xB,,0xC");
    logs->add_flag("--stats", logs_args->stats, "blocks, bloom hits and time on stderr");
    logs->callback([logs_args] { get_logs(*logs_args); });
}

}  // namespace keel::cli
