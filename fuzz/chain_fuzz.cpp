// Block execution (keel/chain) on arbitrary blocks. The input is a block's RLP; a block that
// decodes is made to fit a fixed Prague genesis (number, timestamp, gas limit, base fee, excess
// blob gas, the optional fields, and the transactions, ommers and withdrawals commitments
// recomputed), and every transaction's sender gets a balance and its nonce, so that execution
// runs the transactions instead of stopping at the first root. Properties:
//   - no input crashes or reads out of bounds (ASan/UBSan);
//   - a refused block names a rule and its number, and a message can be written for it;
//   - an accepted block's results agree with its header (gas used, state root);
//   - execution is deterministic: a second run gives the same outcome and state changes.
#include <cstddef>
#include <cstdint>
#include <cstdlib>

#include "keel/chain/execute.hpp"
#include "keel/chain/header_rules.hpp"
#include "keel/chain/system.hpp"
#include "keel/eth/sender.hpp"
#include "keel/state/memory_state.hpp"

namespace {

using namespace keel;

void check(bool ok) {
    if (!ok) std::abort();
}

eth::Header genesis_header() {
    eth::Header g;
    g.gas_limit = 30'000'000;
    g.base_fee_per_gas = Uint256(7);
    g.withdrawals_root = trie::kEmptyRoot;
    g.blob_gas_used = 0;
    g.excess_blob_gas = 0;
    g.parent_beacon_block_root = Hash32{};
    g.requests_hash = chain::requests_hash({});
    g.ommers_hash = eth::kEmptyOmmersHash;
    g.transactions_root = trie::kEmptyRoot;
    g.receipts_root = trie::kEmptyRoot;
    return g;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    auto decoded = eth::decode_block(BytesView(data, size));
    if (!decoded) return 0;
    eth::Block block = std::move(*decoded);
    auto& txs = block.body.transactions;
    if (txs.size() > 16) txs.erase(txs.begin() + 16, txs.end());

    static const eth::Header genesis = genesis_header();
    static const Hash32 genesis_hash = genesis.hash();
    eth::ChainConfig config = eth::ChainConfig::from_genesis(eth::Fork::prague);
    config.system_contracts = eth::SystemContracts::devnet6();  // no contracts deployed here

    eth::Header& h = block.header;
    h.parent_hash = genesis_hash;
    h.number = 1;
    h.timestamp = std::max<std::uint64_t>(h.timestamp, 1);
    h.gas_limit = genesis.gas_limit;
    h.gas_used = std::min(h.gas_used, h.gas_limit);
    h.extra_data.resize(std::min<std::size_t>(h.extra_data.size(), 32));
    h.difficulty = 0;
    h.nonce = {};
    h.base_fee_per_gas = chain::expected_base_fee(genesis, eth::Fork::prague, eth::Fork::prague);
    const eth::BlobParams blobs = config.blob_params(eth::Fork::prague, h.timestamp);
    h.excess_blob_gas = chain::expected_excess_blob_gas(genesis, eth::Fork::prague, blobs);
    if (!h.withdrawals_root) h.withdrawals_root = Hash32{};
    if (!h.blob_gas_used) h.blob_gas_used = 0;
    if (!h.parent_beacon_block_root) h.parent_beacon_block_root = Hash32{};
    h.requests_hash = chain::requests_hash({});  // no request contracts here: no requests
    block.body.ommers.clear();
    h.ommers_hash = eth::kEmptyOmmersHash;
    if (!block.body.withdrawals) block.body.withdrawals.emplace();
    if (block.body.withdrawals->size() > 16)
        block.body.withdrawals->resize(16);  // trivially copyable
    h.withdrawals_root = eth::withdrawals_root(*block.body.withdrawals);
    h.transactions_root = eth::transactions_root(block.body.transactions);

    // Every sender that recovers can pay and has the transaction's nonce.
    state::MemoryState pre;
    for (const eth::Transaction& tx : block.body.transactions) {
        if (const auto s = eth::sender(tx)) pre.put(*s, tx.nonce(), Uint256(1) << 200, Bytes{}, {});
    }
    const auto hashes = [](std::uint64_t n) { return n == 0 ? genesis_hash : Hash32{}; };
    const auto root_of = [&pre](std::span<const state::AccountChange> changes) {
        state::MemoryState next = pre;
        next.apply(changes);
        return next.state_root();
    };
    const auto first = chain::execute_block(block, genesis, config, pre, hashes, root_of);
    const auto second = chain::execute_block(block, genesis, config, pre, hashes, root_of);
    check(first.has_value() == second.has_value());
    if (!first) {
        check(first.error().number == 1);
        check(!chain::to_string(first.error()).empty());
        check(!chain::exception_name(first.error()).empty());
        check(second.error().code == first.error().code);
        check(second.error().tx == first.error().tx);
        return 0;
    }
    check(first->gas_used == h.gas_used);
    check(first->state_root == h.state_root);
    check(second->state_root == first->state_root);
    check(first->receipts.size() == block.body.transactions.size());
    return 0;
}
