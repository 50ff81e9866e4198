#include "keel/chain/execute.hpp"

#include <algorithm>
#include <string>

#include "keel/chain/dao.hpp"
#include "keel/chain/header_rules.hpp"
#include "keel/chain/system.hpp"
#include "keel/common/hex.hpp"
#include "keel/eth/sender.hpp"
#include "keel/eth/tx_validation.hpp"
#include "keel/evm/transaction.hpp"

namespace keel::chain {

namespace {

using eth::Fork;

std::string hex_of(const Hash32& h) {
    return hex::encode_prefixed(h.view());
}

std::string differs(const Hash32& got, const Hash32& header) {
    return hex_of(got) + " computed, header has " + hex_of(header);
}

std::string differs(std::uint64_t got, std::uint64_t header) {
    return std::to_string(got) + " computed, header has " + std::to_string(header);
}

eth::Log to_eth_log(const state::Log& l) {
    return eth::Log{l.address, l.topics, l.data};
}

/// The rules of a blob transaction's own blobs, which execution-specs' check_transaction()
/// tests after the block's blob gas left (TYPE_3_TX_MAX_BLOB_GAS_ALLOWANCE_EXCEEDED first).
bool is_blob_rule(eth::Errc c) {
    return c == eth::Errc::blob_count_exceeded || c == eth::Errc::blob_list_empty ||
           c == eth::Errc::invalid_blob_versioned_hash;
}

}  // namespace

Uint256 block_reward(Fork fork) {
    const Uint256 ether(1'000'000'000'000'000'000ULL);
    if (fork >= Fork::paris) return 0;                   // EIP-3675
    if (fork >= Fork::constantinople) return ether * 2;  // EIP-1234
    if (fork >= Fork::byzantium) return ether * 3;       // EIP-649
    return ether * 5;                                    // yellow paper §11.3
}

evm::BlockEnv block_env(const eth::Header& h, const eth::ChainConfig& config, eth::Fork fork,
                        BlockHashes hashes) {
    evm::BlockEnv env;
    env.number = h.number;
    env.timestamp = h.timestamp;
    env.gas_limit = h.gas_limit;
    env.coinbase = h.beneficiary;
    env.difficulty = h.difficulty;
    env.prev_randao = h.mix_hash;  // PREVRANDAO from Paris (EIP-4399)
    env.base_fee = h.base_fee_per_gas.value_or(Uint256{});
    env.chain_id = config.chain_id;
    env.block_hash = std::move(hashes);
    if (fork >= Fork::cancun && h.excess_blob_gas) {  // EIP-4844, EIP-7516
        env.blob_base_fee = eth::blob_base_fee(
            *h.excess_blob_gas, config.blob_params(fork, h.timestamp).base_fee_update_fraction);
    }
    return env;
}

void begin_block(state::Overlay& state, const eth::Header& h, const eth::ChainConfig& config,
                 Fork fork, const evm::BlockEnv& env, evm::AnalysisCache* analyses) {
    if (fork >= Fork::cancun)  // EIP-4788
        (void)system_call(state, env, fork, config.system_contracts.beacon_roots,
                          h.parent_beacon_block_root.value_or(Hash32{}).view(), analyses);
    if (fork >= Fork::prague)  // EIP-2935
        (void)system_call(state, env, fork, config.system_contracts.history_storage,
                          h.parent_hash.view(), analyses);
    if (config.dao_fork_block && h.number == *config.dao_fork_block) {  // EIP-779
        apply_dao_fork(state);
        state.finalize_transaction({.delete_empty = fork >= Fork::spurious_dragon});
    }
}

Result<std::vector<Bytes>, BlockError> end_block(state::Overlay& state, const eth::Block& block,
                                                 const eth::ChainConfig& config, Fork fork,
                                                 const evm::BlockEnv& env, Bytes deposits,
                                                 evm::AnalysisCache* analyses) {
    const eth::Header& h = block.header;
    const eth::BlockBody& body = block.body;
    auto fail = [&](Errc code, std::string detail = {}) {
        return std::unexpected(
            BlockError{.code = code, .number = h.number, .detail = std::move(detail)});
    };
    std::vector<Bytes> requests;
    if (fork < Fork::paris) {
        const Uint256 reward = block_reward(fork);
        Uint256 miner = reward + reward / Uint256(32) * Uint256(body.ommers.size());
        state.add_balance(h.beneficiary, miner);
        for (const eth::Header& ommer : body.ommers) {
            if (ommer.number >= h.number || h.number - ommer.number > 6)
                return fail(Errc::ommer_parent_not_ancestor,
                            "ommer " + std::to_string(ommer.number));
            const std::uint64_t share = 8 - (h.number - ommer.number);
            state.add_balance(ommer.beneficiary, reward * Uint256(share) / Uint256(8));
        }
        state.finalize_transaction({.delete_empty = fork >= Fork::spurious_dragon});
    }
    if (body.withdrawals) {
        const Uint256 gwei(1'000'000'000);
        for (const eth::Withdrawal& w : *body.withdrawals)
            state.add_balance(w.address, Uint256(w.amount_gwei) * gwei);
        state.finalize_transaction({.delete_empty = true});  // EIP-4895: empty recipients go
    }

    // ---- requests (EIP-7685) ------------------------------------------------------------------
    if (fork >= Fork::prague) {
        requests.push_back(std::move(deposits));
        for (const Address& contract : {config.system_contracts.withdrawal_requests,
                                        config.system_contracts.consolidation_requests}) {
            if (state.code(contract)->empty()) {
                if (config.system_contracts.empty_is_invalid)
                    return fail(Errc::system_contract_empty, hex::encode_prefixed(contract.view()));
                requests.emplace_back();
                continue;
            }
            evm::CallResult r = system_call(state, env, fork, contract, {}, analyses);
            if (r.status != evm::Status::success)
                return fail(Errc::system_contract_failed, hex::encode_prefixed(contract.view()) +
                                                              ": " +
                                                              std::string(evm::describe(r.status)));
            requests.push_back(std::move(r.output));
        }
    }

    return requests;
}

namespace {

// execute_block() and seal_block(): with `seal` null the header's results are checked, with
// `seal` (the block's own header) they are written into it.
// With `replay` (seal null), the results that need a state root are neither computed nor
// checked, and the block may stop after one transaction.
Result<ExecutedBlock, BlockError> run_block(
    const eth::Block& block, eth::Header* seal, const eth::Header& parent,
    const eth::ChainConfig& config, const state::StateReader& state, const BlockHashes& hashes,
    const StateRootOf& state_root_of, evm::Tracer* tracer, std::size_t encoded_size,
    const ReplayOptions* replay = nullptr) {
    const eth::Header& h = block.header;
    const eth::BlockBody& body = block.body;
    const Fork fork = config.fork_at(h.number, h.timestamp);
    auto fail = [&](Errc code, std::string detail = {}) {
        return std::unexpected(
            BlockError{.code = code, .number = h.number, .detail = std::move(detail)});
    };

    if (auto v = validate_header(h, parent, config); !v) return std::unexpected(v.error());
    if (fork >= Fork::osaka) {
        const std::size_t size = encoded_size != 0 ? encoded_size : eth::encoded_size(block);
        if (size > kMaxRlpBlockSize)
            return fail(Errc::block_too_large, std::to_string(size) + " bytes");
    }

    // ---- the body against the header's commitments ------------------------------------------
    trie::RootBuilder builder;
    if (const Hash32 r = eth::ommers_hash(body.ommers); r != h.ommers_hash)
        return fail(Errc::wrong_ommers_hash, differs(r, h.ommers_hash));
    if (fork < Fork::paris && body.ommers.size() > 2)
        return fail(Errc::too_many_ommers, std::to_string(body.ommers.size()) + " ommers");
    if ((fork >= Fork::shanghai) != body.withdrawals.has_value())
        return fail(Errc::wrong_withdrawals, fork >= Fork::shanghai ? "absent" : "present");

    // ---- the environment ------------------------------------------------------------------
    const evm::BlockEnv env = block_env(h, config, fork, hashes);
    const std::uint64_t max_blob_gas = config.blob_params(fork, h.timestamp).max * eth::kGasPerBlob;

    // One code analysis per contract for the whole block: its transactions and system calls.
    evm::AnalysisCache own_analyses;
    evm::AnalysisCache& analyses =
        replay != nullptr && replay->analyses != nullptr ? *replay->analyses : own_analyses;
    state::Overlay overlay(state);
    begin_block(overlay, h, config, fork, env, &analyses);

    // ---- transactions -----------------------------------------------------------------------
    ExecutedBlock out;
    const auto& txs = body.transactions;
    std::vector<Result<Address, eth::Error>> senders(txs.size(), std::unexpected(eth::Error{}));
    eth::recover_senders(txs, senders);
    out.receipts.reserve(txs.size());
    Bytes deposits;
    for (std::size_t i = 0; i < txs.size(); ++i) {
        const eth::Transaction& tx = txs[i];
        if (!senders[i]) {
            BlockError e{.code = Errc::invalid_sender, .number = h.number, .tx = i};
            e.sender_error = senders[i].error();
            return std::unexpected(std::move(e));
        }
        const std::uint64_t blob_gas = tx.blob_versioned_hashes().size() * eth::kGasPerBlob;
        if (fork >= Fork::cancun && out.blob_gas_used + blob_gas > max_blob_gas) {
            // More blob gas than the block has left: a transaction's reason, after its own
            // rules and the block's gas left (execution-specs: validate_transaction(), then
            // check_transaction()). Before Cancun a blob transaction is refused by its type.
            BlockError e{.code = Errc::invalid_transaction, .number = h.number, .tx = i};
            if (auto v = eth::validate(tx, fork, config.chain_id.as_u64());
                !v && !is_blob_rule(v.error().code))
                e.tx_error = evm::TxError{evm::TxErrc::static_check, v.error()};
            else if (tx.gas_limit() > h.gas_limit - std::min(h.gas_limit, out.gas_used))
                e.tx_error = evm::TxError{evm::TxErrc::gas_allowance_exceeded, std::nullopt};
            else
                e.tx_error = evm::TxError{evm::TxErrc::blob_gas_exceeded, std::nullopt};
            e.detail = "blob gas " + std::to_string(out.blob_gas_used + blob_gas) + " > " +
                       std::to_string(max_blob_gas);
            return std::unexpected(std::move(e));
        }
        auto r = evm::execute_transaction(tx, *senders[i], env, overlay, fork, tracer,
                                          {.gas_used = out.gas_used, .max_blob_gas = max_blob_gas},
                                          &analyses);
        if (!r) {
            BlockError e{.code = Errc::invalid_transaction, .number = h.number, .tx = i};
            e.tx_error = r.error();
            return std::unexpected(std::move(e));
        }
        out.gas_used += r->gas_used;
        out.blob_gas_used += r->blob_gas_used;
        eth::Receipt& receipt = out.receipts.emplace_back();
        receipt.type = tx.type();
        receipt.cumulative_gas_used = out.gas_used;
        receipt.logs.reserve(r->logs.size());
        for (const state::Log& l : r->logs) {
            if (fork >= Fork::prague && l.address == config.deposit_contract &&
                !append_deposit(l, deposits))
                return fail(Errc::invalid_deposit_event, "transaction " + std::to_string(i));
            receipt.logs.push_back(to_eth_log(l));
        }
        if (replay == nullptr) receipt.logs_bloom = eth::logs_bloom(receipt.logs);
        if (fork >= Fork::byzantium)
            receipt.success = r->status == evm::Status::success;  // EIP-658
        else if (replay == nullptr)
            receipt.post_state = state_root_of(overlay.changes());
        if (replay != nullptr && replay->last_tx && i == *replay->last_tx) {
            out.changes = overlay.changes();
            return out;
        }
    }

    auto requests = end_block(overlay, block, config, fork, env, std::move(deposits), &analyses);
    if (!requests) return std::unexpected(requests.error());
    out.requests = std::move(*requests);

    if (replay != nullptr) {
        // A stored block was checked when it was imported; what a replay can see without the
        // state root is checked again, so that a replay that went another way says so.
        if (out.gas_used != h.gas_used)
            return fail(Errc::wrong_gas_used, differs(out.gas_used, h.gas_used));
        out.changes = overlay.changes();
        return out;
    }
    if (seal != nullptr) {
        out.changes = overlay.changes();
        out.state_root = state_root_of(out.changes);
        seal->gas_used = out.gas_used;
        seal->state_root = out.state_root;
        seal->receipts_root = eth::receipts_root(out.receipts, builder);
        seal->logs_bloom = eth::block_bloom(out.receipts);
        if (fork >= Fork::cancun) seal->blob_gas_used = out.blob_gas_used;
        if (fork >= Fork::prague) seal->requests_hash = requests_hash(out.requests);
        return out;
    }

    // ---- the header's results, in execution-specs' order (state_transition()): gas used, the
    // transactions root, the state root, the receipts root, the bloom, the withdrawals root,
    // blob gas used, the requests hash --------------------------------------------------------
    if (out.gas_used != h.gas_used)
        return fail(Errc::wrong_gas_used, differs(out.gas_used, h.gas_used));
    if (const Hash32 r = eth::transactions_root(body.transactions, builder);
        r != h.transactions_root)
        return fail(Errc::wrong_transactions_root, differs(r, h.transactions_root));
    out.changes = overlay.changes();
    out.state_root = state_root_of(out.changes);
    if (out.state_root != h.state_root)
        return fail(Errc::wrong_state_root, differs(out.state_root, h.state_root));
    if (const Hash32 r = eth::receipts_root(out.receipts, builder); r != h.receipts_root)
        return fail(Errc::wrong_receipts_root, differs(r, h.receipts_root));
    if (eth::block_bloom(out.receipts) != h.logs_bloom) return fail(Errc::wrong_logs_bloom);
    if (body.withdrawals) {
        const Hash32 r = eth::withdrawals_root(*body.withdrawals, builder);
        if (r != *h.withdrawals_root)
            return fail(Errc::wrong_withdrawals_root, differs(r, *h.withdrawals_root));
    }
    if (fork >= Fork::cancun && out.blob_gas_used != *h.blob_gas_used)
        return fail(Errc::wrong_blob_gas_used, differs(out.blob_gas_used, *h.blob_gas_used));
    if (fork >= Fork::prague) {
        const Hash32 r = requests_hash(out.requests);
        if (r != *h.requests_hash)
            return fail(Errc::wrong_requests_hash, differs(r, *h.requests_hash));
    }
    return out;
}

}  // namespace

Result<ExecutedBlock, BlockError> execute_block(const eth::Block& block, const eth::Header& parent,
                                                const eth::ChainConfig& config,
                                                const state::StateReader& state,
                                                const BlockHashes& hashes,
                                                const StateRootOf& state_root_of,
                                                evm::Tracer* tracer, std::size_t encoded_size) {
    return run_block(block, nullptr, parent, config, state, hashes, state_root_of, tracer,
                     encoded_size);
}

Result<ExecutedBlock, BlockError> replay_block(const eth::Block& block, const eth::Header& parent,
                                               const eth::ChainConfig& config,
                                               const state::StateReader& state,
                                               const BlockHashes& hashes, evm::Tracer* tracer,
                                               ReplayOptions options) {
    const StateRootOf no_root = [](std::span<const state::AccountChange>) { return Hash32{}; };
    return run_block(block, nullptr, parent, config, state, hashes, no_root, tracer, 0, &options);
}

Result<ExecutedBlock, BlockError> seal_block(eth::Block& block, const eth::Header& parent,
                                             const eth::ChainConfig& config,
                                             const state::StateReader& state,
                                             const BlockHashes& hashes,
                                             const StateRootOf& state_root_of) {
    eth::Header& h = block.header;
    trie::RootBuilder builder;
    h.ommers_hash = eth::ommers_hash(block.body.ommers);
    h.transactions_root = eth::transactions_root(block.body.transactions, builder);
    if (block.body.withdrawals)
        h.withdrawals_root = eth::withdrawals_root(*block.body.withdrawals, builder);
    // What the header rules look at before execution: no gas used yet, no blob gas yet.
    h.gas_used = 0;
    const eth::Fork fork = config.fork_at(h.number, h.timestamp);
    if (fork >= Fork::cancun) h.blob_gas_used = 0;
    if (fork >= Fork::prague) h.requests_hash = Hash32{};
    return run_block(block, &h, parent, config, state, hashes, state_root_of, nullptr, 0);
}

}  // namespace keel::chain
