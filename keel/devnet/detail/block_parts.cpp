#include "keel/devnet/detail/block_parts.hpp"

#include <utility>

#include "keel/crypto/sha256.hpp"
#include "keel/devnet/detail/rng.hpp"
#include "keel/devnet/fee_rules.hpp"
#include "keel/devnet/tx_gen.hpp"
#include "keel/eth/block.hpp"
#include "keel/eth/receipt.hpp"
#include "keel/trie/root.hpp"

namespace keel::devnet::detail {
namespace {

constexpr std::string_view kExtraData = "keel devnet";
constexpr std::string_view kOmmerExtraData = "keel devnet ommer";

Bytes bytes_of(std::string_view s) {
    return Bytes(as_bytes(s).begin(), as_bytes(s).end());
}

// A nonzero proof-of-work nonce.
eth::Nonce8 pow_nonce(Rng& rng) noexcept {
    eth::Nonce8 n = rng.fixed<8>();
    n[7] |= 1;
    return n;
}

std::vector<eth::Withdrawal> make_withdrawals(const ChainSpec& spec, const AccountSet& accounts,
                                              std::uint64_t number) {
    // Indices continue over the chain: the first block with withdrawals starts at 0.
    const std::uint64_t first_block = spec.merge_at == 0 ? 1 : spec.merge_at;
    Rng rng(spec.seed, Domain::withdrawal, number);
    std::vector<eth::Withdrawal> out(kWithdrawalsPerBlock);
    for (std::uint64_t j = 0; j < kWithdrawalsPerBlock; ++j) {
        eth::Withdrawal& w = out[j];
        w.index = (number - first_block) * kWithdrawalsPerBlock + j;
        w.validator_index = rng.below(std::uint64_t{1} << 20);
        w.address = accounts.senders[rng.below(accounts.senders.size())].address;
        w.amount_gwei = rng.between(10'000'000, 50'000'000);  // 0.01-0.05 ether
    }
    return out;
}

// A sibling of `parent` (the same parent and number, no transactions): an uncle of the block
// after `parent`.
eth::Header make_ommer(const ChainSpec& spec, const AccountSet& accounts,
                       const eth::Header& parent) {
    Rng rng(spec.seed, Domain::ommer, parent.number + 1);
    eth::Header o;
    o.parent_hash = parent.parent_hash;
    o.ommers_hash = eth::kEmptyOmmersHash;
    o.beneficiary = accounts.miners[rng.below(accounts.miners.size())];
    o.state_root = rng.fixed<32>();
    o.transactions_root = trie::kEmptyRoot;
    o.receipts_root = trie::kEmptyRoot;
    o.difficulty = parent.difficulty;
    o.number = parent.number;
    o.gas_limit = parent.gas_limit;
    o.gas_used = 0;
    o.timestamp = parent.timestamp + 1;
    o.extra_data = bytes_of(kOmmerExtraData);
    o.mix_hash = rng.fixed<32>();
    o.nonce = pow_nonce(rng);
    o.base_fee_per_gas = parent.base_fee_per_gas;  // same parent, same base fee
    return o;
}

}  // namespace

PreparedBody prepare_body(const ChainSpec& spec, const AccountSet& accounts, std::uint64_t number,
                          std::vector<eth::Transaction> transactions) {
    const eth::Fork fork = fork_at(spec, number);
    PreparedBody b;
    b.number = number;
    b.transactions = std::move(transactions);

    // No EVM: each transaction is charged what it costs before execution, and succeeds.
    std::vector<eth::Receipt> receipts(b.transactions.size());
    for (std::size_t i = 0; i < b.transactions.size(); ++i) {
        const eth::Transaction& tx = b.transactions[i];
        b.gas_used += charged_gas(tx, fork);
        b.blob_gas_used += kGasPerBlob * tx.blob_versioned_hashes().size();
        receipts[i].type = tx.type();
        receipts[i].success = true;
        receipts[i].cumulative_gas_used = b.gas_used;
    }
    trie::RootBuilder builder;
    b.transactions_root = eth::transactions_root(b.transactions, builder);
    b.receipts_root = eth::receipts_root(receipts, builder);
    if (number >= spec.merge_at) {
        b.withdrawals =
            number == 0 ? std::vector<eth::Withdrawal>{} : make_withdrawals(spec, accounts, number);
        b.withdrawals_root = eth::withdrawals_root(*b.withdrawals, builder);
    }
    return b;
}

eth::Header make_header(const HeaderContext& ctx, const PreparedBody& body,
                        std::vector<eth::Header>& ommers) {
    const ChainSpec& spec = ctx.spec;
    const std::uint64_t n = body.number;
    const bool proof_of_stake = n >= spec.merge_at;
    const eth::Header* parent = ctx.parent;
    Rng rng(spec.seed, Domain::header, n);

    eth::Header h;
    if (parent != nullptr) h.parent_hash = ctx.parent_hash;
    h.beneficiary = ctx.accounts.miners[rng.below(ctx.accounts.miners.size())];
    h.state_root = rng.fixed<32>();  // no state: any deterministic value
    h.transactions_root = body.transactions_root;
    h.receipts_root = body.receipts_root;
    h.number = n;
    h.gas_limit = ctx.gas_limit;
    h.gas_used = body.gas_used;
    h.timestamp = kGenesisTimestamp + kBlockTime * n;
    h.extra_data = bytes_of(kExtraData);
    h.base_fee_per_gas = parent == nullptr ? kInitialBaseFee
                                           : next_base_fee(parent->base_fee_per_gas->as_u64(),
                                                           parent->gas_used, parent->gas_limit);
    if (!proof_of_stake) {
        h.difficulty = kBaseDifficulty - 2048 + rng.below(4096);
        h.mix_hash = rng.fixed<32>();
        h.nonce = pow_nonce(rng);
        if (parent != nullptr && n % kOmmerPeriod == kOmmerPhase) {
            ommers.push_back(make_ommer(spec, ctx.accounts, *parent));
        }
    } else {
        // EIP-3675: difficulty, nonce and ommers zero; mix hash is prevRandao (EIP-4399).
        h.mix_hash = rng.fixed<32>();
        h.withdrawals_root = body.withdrawals_root;
        h.blob_gas_used = body.blob_gas_used;
        h.excess_blob_gas = parent == nullptr
                                ? 0
                                : next_excess_blob_gas(parent->excess_blob_gas.value_or(0),
                                                       parent->blob_gas_used.value_or(0));
        h.parent_beacon_block_root = rng.fixed<32>();
        // EIP-7685: sha256 over the sha256 of each non-empty request list; with no requests,
        // sha256 of nothing (0xe3b0c442...b855).
        h.requests_hash = crypto::sha256(BytesView{});
    }
    h.ommers_hash = eth::ommers_hash(ommers);
    return h;
}

}  // namespace keel::devnet::detail
