// keel get block <number|hash|latest|earliest> and keel get tx <hash>: reads from a datadir's
// chain store, printed in the shapes of eth_getBlockByNumber and eth_getTransactionByHash.
#include <charconv>
#include <cstdio>
#include <memory>
#include <optional>
#include <string>

#include <fmt/format.h>

#include "apps/keel/commands.hpp"
#include "apps/keel/datadir.hpp"
#include "apps/keel/input.hpp"
#include "apps/keel/json_objects.hpp"
#include "keel/blockchain/reads.hpp"
#include "keel/common/hex.hpp"
#include "keel/eth/block.hpp"
#include "keel/eth/header.hpp"
#include "keel/rlp/decode.hpp"
#include "keel/rlp/encode.hpp"
#include "keel/store/chain_store.hpp"

namespace keel::cli {
namespace {

struct GetArgs {
    std::string datadir;
    std::string what;
    bool full = false;
};

[[noreturn]] void fail(std::string message) {
    throw Failure{kExitBadData, std::move(message)};
}

template <class T>
T must(Result<T, store::StoreError> r) {
    if (!r) fail(r.error().message);
    return std::move(*r);
}

std::string floor_note(const store::ChainStore& chain) {
    const std::uint64_t floor = chain.history_floor();
    return floor == 0 ? std::string() : fmt::format(" (history below block {} is pruned)", floor);
}

void get_block(const GetArgs& args) {
    store::ChainStore chain = open_datadir(args.datadir, Access::read);
    const std::uint64_t number = resolve_block(chain, args.what, "get block");
    auto b = blockchain::stored_block(chain, number);
    if (!b) {
        if (b.error().not_found) {
            auto head = must(chain.head());
            fail(fmt::format("get block {}: not in the store (head {})", number,
                             head ? std::to_string(*head) : std::string("none")));
        }
        fail("get block " + std::to_string(number) + ": " + b.error().message);
    }
    const std::string out = block_json(b->header, b->hash, b->total_difficulty, b->size,
                                       b->body ? &*b->body : nullptr, args.full);
    std::printf("%s\n", out.c_str());
    if (b->body_pruned) {
        std::fprintf(stderr, "keel: get block %llu: header only: the body is pruned%s\n",
                     static_cast<unsigned long long>(number), floor_note(chain).c_str());
    } else if (!b->body) {
        fail(fmt::format("get block {}: the store has the header but no body", number));
    }
}

void get_tx(const GetArgs& args) {
    auto tx_hash = hex::decode_fixed<Hash32>(args.what);
    if (!tx_hash) {
        throw Failure{kExitUsage, fmt::format("get tx: '{}' is not a 32-byte hash: {}", args.what,
                                              to_string(tx_hash.error()))};
    }
    store::ChainStore chain = open_datadir(args.datadir, Access::read);
    auto t = blockchain::stored_transaction(chain, *tx_hash);
    if (!t) {
        if (t.error().pruned) {
            fail(fmt::format("get tx {}: its block's history is pruned{}", args.what,
                             floor_note(chain)));
        }
        if (t.error().not_found)
            fail(fmt::format("get tx {}: not found{}", args.what, floor_note(chain)));
        fail(fmt::format("get tx {}: {}", args.what, t.error().message));
    }
    const eth::Transaction& tx = t->tx;
    const eth::TxPlace& place = t->place;
    std::printf("%s\n", transaction_json(tx, &place, nullptr).c_str());
}

}  // namespace

void add_get_command(CLI::App& app) {
    auto* get = app.add_subcommand(
        "get", "Read blocks, transactions and state from a datadir (JSON-RPC shapes)");
    get->require_subcommand(1);

    auto block_args = std::make_shared<GetArgs>();
    auto* block = get->add_subcommand("block", "A block as eth_getBlockByNumber returns it");
    block->add_option("--datadir", block_args->datadir, "the chain store's directory")->required();
    block
        ->add_option("block", block_args->what,
                     "number (decimal or 0x-hex), 32-byte hash, latest or earliest")
        ->required();
    block->add_flag("--full", block_args->full, "full transaction objects instead of hashes");
    block->callback([block_args] { get_block(*block_args); });

    auto tx_args = std::make_shared<GetArgs>();
    auto* tx = get->add_subcommand("tx", "A transaction as eth_getTransactionByHash returns it");
    tx->add_option("--datadir", tx_args->datadir, "the chain store's directory")->required();
    tx->add_option("hash", tx_args->what, "the transaction hash")->required();
    tx->callback([tx_args] { get_tx(*tx_args); });

    add_get_state_commands(*get);
    add_get_receipt_commands(*get);
}

}  // namespace keel::cli
