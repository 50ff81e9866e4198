// keel get account|balance|nonce|code|storage ADDR [SLOT] [--block B]: the state after a block
// of a datadir's chain store, in the shapes of eth_getAccount (geth), eth_getBalance,
// eth_getTransactionCount, eth_getCode and eth_getStorageAt. B is latest (the default: the
// state head), earliest, a number or a hash; an older block reads the kept state history.
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
#include "keel/store/state_store.hpp"

namespace keel::cli {
namespace {

enum class What { account, balance, nonce, code, storage, proof };

struct StateGetArgs {
    What what = What::account;
    std::string name;  // the subcommand, for messages
    std::string datadir;
    std::string address;
    std::string slot;
    std::vector<std::string> slots;  // proof
    std::string block = "latest";
};

void run_proof(const StateGetArgs& args, const Address& address) {
    const std::string what = "get proof";
    std::vector<Uint256> slots;
    for (const std::string& text : args.slots) {
        auto s = Uint256::from_string(text);
        if (!s) {
            throw Failure{kExitUsage,
                          fmt::format("{}: slot '{}' is not a 256-bit number", what, text)};
        }
        slots.push_back(*s);
    }
    store::ChainStore chain = open_datadir(args.datadir, Access::read);
    auto proof = store::prove_account(chain, address, slots);
    if (!proof) throw Failure{kExitBadData, what + ": " + proof.error().message};
    if (args.block != "latest") {
        const std::uint64_t n = resolve_block(chain, args.block, what);
        if (n != proof->head.number) {
            throw Failure{kExitBadData,
                          fmt::format("{}: proofs are of the state head (block {}), not block {}: "
                                      "the tries keep the head's state only",
                                      what, proof->head.number, n)};
        }
    }
    std::string out;
    json::Writer w(out, 2);
    blockchain::write_account_proof(w, *proof);
    std::printf("%s\n", out.c_str());
}

void run_state_get(const StateGetArgs& args) {
    const std::string what = "get " + args.name;
    auto address = hex::decode_fixed<Address>(args.address);
    if (!address) {
        throw Failure{kExitUsage, fmt::format("{}: '{}' is not a 20-byte address: {}", what,
                                              args.address, to_string(address.error()))};
    }
    if (args.what == What::proof) {
        run_proof(args, *address);
        return;
    }
    Uint256 slot;
    if (args.what == What::storage) {
        auto s = Uint256::from_string(args.slot);
        if (!s) {
            throw Failure{kExitUsage,
                          fmt::format("{}: slot '{}' is not a 256-bit number", what, args.slot)};
        }
        slot = *s;
    }
    store::ChainStore chain = open_datadir(args.datadir, Access::read);
    std::optional<std::uint64_t> number;
    if (args.block != "latest") number = resolve_block(chain, args.block, what);
    auto view = store::StateView::open(chain, number);
    if (!view) throw Failure{kExitBadData, what + ": " + view.error().message};

    std::string out;
    json::Writer w(out, 2);
    switch (args.what) {
        case What::account: {
            const auto acc = view->account(*address).value_or(state::Account{});
            w.begin_object();
            w.member_quantity("balance", acc.balance);
            w.key("codeHash");
            w.data(acc.code_hash.view());
            w.member_quantity("nonce", acc.nonce);
            w.key("storageRoot");
            w.data(acc.storage_root.view());
            w.end_object();
            break;
        }
        case What::balance:
            w.quantity(view->account(*address).value_or(state::Account{}).balance);
            break;
        case What::nonce:
            w.quantity(view->account(*address).value_or(state::Account{}).nonce);
            break;
        case What::code: {
            const auto acc = view->account(*address).value_or(state::Account{});
            w.data(*view->code(acc.code_hash));
            break;
        }
        case What::storage:
            w.data(view->storage(*address, slot).to_bytes32().view());
            break;
        case What::proof:
            break;
    }
    if (auto f = view->failure()) throw Failure{kExitBadData, what + ": " + *f};
    std::printf("%s\n", out.c_str());
}

void add_one(CLI::App& get, What what, const char* name, const char* help) {
    auto args = std::make_shared<StateGetArgs>();
    args->what = what;
    args->name = name;
    auto* cmd = get.add_subcommand(name, help);
    cmd->add_option("--datadir", args->datadir, "the chain store's directory")->required();
    cmd->add_option("address", args->address, "the account's 20-byte address")->required();
    if (what == What::storage) {
        cmd->add_option("slot", args->slot, "the slot: a number, decimal or 0x-hex")->required();
    }
    if (what == What::proof) {
        cmd->add_option("slots", args->slots, "slots to prove: numbers, decimal or 0x-hex");
    }
    cmd->add_option("--block", args->block,
                    "the block whose post-state to read: latest (default), earliest, a number or "
                    "a hash");
    cmd->callback([args] { run_state_get(*args); });
}

}  // namespace

void add_get_state_commands(CLI::App& get) {
    add_one(get, What::account, "account",
            "An account: balance, code hash, nonce, storage root (geth's eth_getAccount)");
    add_one(get, What::balance, "balance", "An account's balance (eth_getBalance)");
    add_one(get, What::nonce, "nonce", "An account's nonce (eth_getTransactionCount)");
    add_one(get, What::code, "code", "An account's code (eth_getCode)");
    add_one(get, What::storage, "storage", "A storage slot's value (eth_getStorageAt)");
    add_one(get, What::proof, "proof",
            "An account's and its slots' Merkle proofs at the state head (eth_getProof)");
}

}  // namespace keel::cli
