#include "keel/blockchain/init.hpp"

#include <vector>

#include "keel/common/hex.hpp"
#include "keel/eth/header.hpp"
#include "keel/state/overlay.hpp"
#include "keel/store/state_store.hpp"

namespace keel::blockchain {

Result<InitReport, std::string> init_store(store::ChainStore& store, const chain::Genesis& genesis,
                                           std::string_view genesis_json) {
    auto fail = [](const store::StoreError& e) { return unexpected(e.message); };
    InitReport report;
    report.genesis_hash = genesis.header.hash();
    report.state_root = genesis.header.state_root;
    const std::string hash_text = hex::encode(report.genesis_hash.view(), {.prefix = true});

    auto head = store.head();
    if (!head) return fail(head.error());
    if (*head) {
        auto stored = store.canonical_hash(genesis.header.number);
        if (!stored) return fail(stored.error());
        if (!stored->found() || stored->value != report.genesis_hash) {
            return unexpected("init: the store holds another chain (its block " +
                              std::to_string(genesis.header.number) + " is not genesis " +
                              hash_text + ")");
        }
        auto state = store::state_head(store);
        if (!state) return fail(state.error());
        if (!*state) {
            return unexpected(std::string(
                "init: the store holds this chain's blocks without state (a history-only "
                "import); init an empty datadir"));
        }
        report.already = true;
        return report;
    }

    // Every allocated account, as changes to the empty state.
    std::vector<state::AccountChange> changes;
    changes.reserve(genesis.alloc.accounts().size());
    for (const auto& [address, stored] : genesis.alloc.accounts()) {
        state::AccountChange c;
        c.address = address;
        c.account = stored.account;
        if (stored.account.code_hash != state::kEmptyCodeHash) {
            c.code = genesis.alloc.code(stored.account.code_hash);
        }
        c.storage.assign(stored.storage.begin(), stored.storage.end());
        report.slots += c.storage.size();
        changes.push_back(std::move(c));
    }
    report.accounts = changes.size();
    auto update = store::prepare_state_update(store, genesis.header.number, report.genesis_hash,
                                              changes, false);
    if (!update) return fail(update.error());
    if (update->state_root != genesis.header.state_root) {
        return unexpected("init: state root " +
                          hex::encode(update->state_root.view(), {.prefix = true}) +
                          " differs from the genesis header's " +
                          hex::encode(genesis.header.state_root.view(), {.prefix = true}));
    }
    if (!genesis_json.empty()) {
        if (auto r = store.set_chain_spec(as_bytes(genesis_json)); !r) return fail(r.error());
    }
    if (auto r = store.set_chain_id(static_cast<std::uint64_t>(genesis.config.chain_id[0])); !r) {
        return fail(r.error());
    }
    if (auto r = store.set_genesis_hash(report.genesis_hash); !r) return fail(r.error());
    const Bytes header_rlp = eth::encode(genesis.header);
    // rlp([transactions, ommers(, withdrawals)]): all empty.
    const Bytes body_rlp =
        genesis.header.withdrawals_root ? Bytes{0xc3, 0xc0, 0xc0, 0xc0} : Bytes{0xc2, 0xc0, 0xc0};
    const Bytes no_receipts{0xc0};  // rlp([]): a genesis has no transactions
    const store::BlockToStore row{.number = genesis.header.number,
                                  .hash = report.genesis_hash,
                                  .header_rlp = header_rlp,
                                  .body_rlp = body_rlp,
                                  .receipts_rlp = no_receipts,
                                  .total_difficulty = genesis.header.difficulty,
                                  .tx_hashes = {}};
    if (auto r = store.put_blocks(std::span(&row, 1), &*update); !r) return fail(r.error());
    return report;
}

}  // namespace keel::blockchain
