#include "keel/blockchain/calls.hpp"

#include <algorithm>

#include "keel/blockchain/executor.hpp"
#include "keel/chain/execute.hpp"
#include "keel/common/hex.hpp"
#include "keel/crypto/keccak.hpp"
#include "keel/eth/sender.hpp"
#include "keel/evm/analysis.hpp"
#include "keel/state/overlay.hpp"
#include "keel/store/state_store.hpp"
#include "keel/trace/duration.hpp"

namespace keel::blockchain {
namespace {

std::unexpected<ReadError> failed(std::string m) {
    return std::unexpected(ReadError{false, false, std::move(m)});
}

// The stored state with a call's StateOverrides on top (geth applies them to its StateDB before
// the call; a reader in front of the overlay has the same effect and copies nothing).
class OverrideReader final : public state::StateReader {
  public:
    OverrideReader(const state::StateReader& base, const StateOverrides& overrides)
        : base_(base), overrides_(overrides) {
        for (const auto& [address, o] : overrides_) {
            if (o.code)
                codes_.emplace_back(crypto::keccak256(*o.code), std::make_shared<Bytes>(*o.code));
        }
    }

    std::optional<state::Account> account(const Address& a) const override {
        std::optional<state::Account> acc = base_.account(a);
        const AccountOverride* o = find(a);
        if (o == nullptr) return acc;
        state::Account out = acc.value_or(state::Account{});
        if (o->balance) out.balance = *o->balance;
        if (o->nonce) out.nonce = *o->nonce;
        if (o->code) out.code_hash = crypto::keccak256(*o->code);
        if (o->state) {
            // Whether the account has storage decides a create's collision (EIP-7610): any
            // non-zero slot of the replacement counts.
            const bool any = std::any_of(o->state->begin(), o->state->end(),
                                         [](const auto& kv) { return !kv.second.is_zero(); });
            out.storage_root = any ? Hash32{{1}} : trie::kEmptyRoot;
        }
        return out;
    }

    Uint256 storage(const Address& a, const Uint256& key) const override {
        if (const AccountOverride* o = find(a)) {
            if (o->state) {
                for (const auto& [k, v] : *o->state)
                    if (k == key) return v;
                return Uint256(0);
            }
            for (const auto& [k, v] : o->state_diff)
                if (k == key) return v;
        }
        return base_.storage(a, key);
    }

    state::Code code(const Hash32& code_hash) const override {
        for (const auto& [hash, code] : codes_)
            if (hash == code_hash) return code;
        return base_.code(code_hash);
    }

    std::optional<std::string> failure() const override { return base_.failure(); }

  private:
    const AccountOverride* find(const Address& a) const {
        for (const auto& [address, o] : overrides_)
            if (address == a) return &o;
        return nullptr;
    }

    const state::StateReader& base_;
    const StateOverrides& overrides_;
    std::vector<std::pair<Hash32, state::Code>> codes_;
};

bool is_free(const CallRequest& c) {
    const auto zero = [](const std::optional<Uint256>& v) { return !v || v->is_zero(); };
    return zero(c.gas_price) && zero(c.max_fee_per_gas) && zero(c.max_priority_fee_per_gas);
}

// The transaction a call stands for, with a placeholder signature (the sender is given).
Result<eth::Transaction, std::string> message_of(const CallRequest& call, eth::Fork fork,
                                                 std::uint64_t nonce, std::uint64_t gas,
                                                 const eth::ChainConfig& config) {
    eth::TransactionFields f;
    const bool eip1559 = call.max_fee_per_gas || call.max_priority_fee_per_gas;
    if (!call.authorization_list.empty()) {
        f.type = eth::TxType::set_code;
    } else if (!call.blob_versioned_hashes.empty()) {
        f.type = eth::TxType::blob;
    } else if (eip1559 || (fork >= eth::Fork::london && !call.gas_price)) {
        f.type = eth::TxType::dynamic_fee;
    } else if (!call.access_list.empty() && fork >= eth::Fork::berlin) {
        f.type = eth::TxType::access_list;
    } else {
        f.type = eth::TxType::legacy;
    }
    if (f.type != eth::TxType::legacy && fork < eth::Fork::berlin) {
        return unexpected(std::string("typed transactions need Berlin or later"));
    }
    f.chain_id = config.chain_id.as_u64();
    f.nonce = nonce;
    if (eip1559) {
        f.max_priority_fee_per_gas = call.max_priority_fee_per_gas.value_or(Uint256(0));
        f.max_fee_per_gas = call.max_fee_per_gas.value_or(f.max_priority_fee_per_gas);
        if (f.max_priority_fee_per_gas > f.max_fee_per_gas) {
            return unexpected(std::string("max priority fee per gas higher than max fee per gas"));
        }
    } else {
        f.max_fee_per_gas = call.gas_price.value_or(Uint256(0));
        f.max_priority_fee_per_gas = f.max_fee_per_gas;
    }
    f.gas_limit = gas;
    f.to = call.to;
    f.value = call.value;
    f.data = call.data;
    if (f.type != eth::TxType::legacy) f.access_list = call.access_list;
    f.blob_versioned_hashes = call.blob_versioned_hashes;
    f.max_fee_per_blob_gas = call.max_fee_per_blob_gas.value_or(Uint256(0));
    f.authorization_list = call.authorization_list;
    if ((f.type == eth::TxType::blob || f.type == eth::TxType::set_code) && !f.to) {
        return unexpected(std::string(f.type == eth::TxType::blob
                                          ? "a blob transaction cannot create a contract"
                                          : "a set-code transaction cannot create a contract"));
    }
    f.v = Uint256(f.type == eth::TxType::legacy ? 27 : 0);  // a placeholder signature
    f.r = Uint256(1);
    f.s = Uint256(1);
    auto tx = eth::decode_transaction(eth::encode(f));
    if (!tx) return unexpected(eth::to_string(tx.error()));
    return std::move(*tx);
}

}  // namespace

Result<void, ReadError> run_calls(
    const store::ChainStore& store, const eth::ChainConfig& config_in, std::uint64_t number,
    std::span<const CallRequest> calls, const CallOptions& options,
    const std::function<evm::Tracer*(std::size_t, eth::Fork)>& make_tracer,
    const std::function<void(std::size_t, const evm::TxResult&)>& done) {
    const std::string where = "block " + std::to_string(number);
    auto header_rlp = store.header_by_number(number);
    if (!header_rlp) return failed(header_rlp.error().message);
    if (!header_rlp->found())
        return std::unexpected(ReadError{true, false, where + " is not stored"});
    auto header = eth::decode_header(header_rlp->value);
    if (!header) return failed(where + ": stored header: " + eth::to_string(header.error()));
    eth::Header h = *header;
    eth::ChainConfig config = config_in;
    if (number > 0) {
        auto merged = merge_rules(store, config_in, number, number - 1, h.parent_hash);
        if (!merged) return failed(where + ": " + merged.error());
        if (*merged) config = std::move(**merged);
    }
    const BlockOverrides& bo = options.block;
    if (bo.number) h.number = *bo.number;
    if (bo.time) h.timestamp = *bo.time;
    if (bo.gas_limit) h.gas_limit = *bo.gas_limit;
    if (bo.fee_recipient) h.beneficiary = *bo.fee_recipient;
    if (bo.prev_randao) h.mix_hash = *bo.prev_randao;
    if (bo.base_fee) h.base_fee_per_gas = *bo.base_fee;
    const eth::Fork fork = config.fork_at(h.number, h.timestamp);
    auto view = store::StateView::open(store, number);
    if (!view) return std::unexpected(ReadError{true, false, where + ": " + view.error().message});
    const OverrideReader reader(*view, options.state);

    std::string read_error;
    evm::BlockEnv block_env = chain::block_env(h, config, fork, stored_hashes(store, read_error));
    auto precompiles = precompiles_after(options.state, fork);
    if (!precompiles)
        return std::unexpected(ReadError{.message = precompiles.error(), .invalid = true});
    if (*precompiles) block_env.precompiles = &**precompiles;
    const eth::BlobParams blob = config.blob_params(fork, h.timestamp);

    state::Overlay overlay(reader);
    // From Osaka a transaction holds at most 2^24 gas (EIP-7825): so does a call by default.
    const std::uint64_t cap = fork >= eth::Fork::osaka
                                  ? std::min<std::uint64_t>(kCallGasCap, std::uint64_t{1} << 24)
                                  : kCallGasCap;
    const auto out_of_time = [&options] {
        return std::unexpected(ReadError{.message = options.timeout.message(), .timed_out = true});
    };
    block_env.deadline = options.timeout.evm_deadline();
    for (std::size_t i = 0; i < calls.size(); ++i) {
        if (options.timeout.expired()) return out_of_time();
        const CallRequest& call = calls[i];
        const std::string which =
            (calls.size() > 1 ? "call " + std::to_string(i) : std::string("the call")) + ": ";
        const std::uint64_t gas = call.gas ? std::min(*call.gas, cap) : std::min(h.gas_limit, cap);
        auto tx = message_of(call, fork, overlay.nonce(call.from), gas, config);
        if (!tx) return std::unexpected(ReadError{.message = which + tx.error(), .invalid = true});
        // geth's NoBaseFee: a call that pays nothing sees a base fee (and, without a blob fee
        // cap, a blob base fee) of zero.
        evm::BlockEnv env = block_env;
        if (is_free(call)) env.base_fee = Uint256(0);
        if (!call.max_fee_per_blob_gas || call.max_fee_per_blob_gas->is_zero())
            env.blob_base_fee = Uint256(0);
        if (bo.blob_base_fee) env.blob_base_fee = *bo.blob_base_fee;
        auto r = evm::execute_transaction(
            *tx, call.from, env, overlay, fork, make_tracer ? make_tracer(i, fork) : nullptr,
            {.gas_used = 0, .max_blob_gas = blob.max * eth::kGasPerBlob},
            &evm::AnalysisCache::this_thread(),
            {.skip_nonce = true, .skip_sender_code = true, .free_gas = true});
        if (auto fail = reader.failure()) return failed(where + ": state read: " + *fail);
        if (!read_error.empty()) return failed(where + ": " + read_error);
        if (!r) {
            return std::unexpected(
                ReadError{.message = which + evm::to_string(r.error()), .invalid = true});
        }
        if (options.timeout.expired()) return out_of_time();
        done(i, *r);
    }
    return {};
}

std::string CallTimeout::message() const {
    return "execution aborted (timeout = " + trace::format_duration(limit) + ")";
}

Result<evm::TxResult, ReadError> execute_call(const store::ChainStore& store,
                                              const eth::ChainConfig& config, std::uint64_t number,
                                              const CallRequest& call, const CallOptions& options) {
    evm::TxResult out;
    auto r = run_calls(store, config, number, std::span(&call, 1), options, nullptr,
                       [&out](std::size_t, const evm::TxResult& result) { out = result; });
    if (!r) return std::unexpected(r.error());
    return out;
}

Result<std::optional<std::vector<evm::PrecompileAt>>, std::string> precompiles_after(
    const StateOverrides& overrides, eth::Fork fork) {
    std::vector<evm::PrecompileAt> set = evm::fork_precompiles(fork);
    const auto at = [&set](const Address& a) {
        return std::find_if(set.begin(), set.end(),
                            [&a](const evm::PrecompileAt& p) { return p.address == a; });
    };
    const auto overridden = [&overrides](const Address& a) {
        return std::any_of(overrides.begin(), overrides.end(),
                           [&a](const auto& o) { return o.first == a; });
    };
    const auto name = [](const Address& a) { return "account " + hex::encode_prefixed(a.view()); };
    // In address order, as geth applies them: its errors name the first offender.
    std::vector<const std::pair<Address, AccountOverride>*> sorted;
    for (const auto& o : overrides) sorted.push_back(&o);
    std::sort(sorted.begin(), sorted.end(),
              [](const auto* x, const auto* y) { return x->first < y->first; });
    std::vector<Address> moved_to;
    bool changed = false;
    for (const auto* o : sorted) {
        const Address& a = o->first;
        if (std::find(moved_to.begin(), moved_to.end(), a) != moved_to.end())
            return unexpected(name(a) + " has already been overridden by a precompile");
        auto it = at(a);
        const bool precompile = it != set.end();
        if (const auto& to = o->second.move_precompile_to) {
            if (!precompile) return unexpected(name(a) + " is not a precompile");
            if (overridden(*to)) return unexpected(name(*to) + " is already overridden");
            const std::uint16_t id = it->id;
            if (auto target = at(*to); target != set.end())
                target->id = id;
            else
                set.push_back(evm::PrecompileAt{*to, id});
            moved_to.push_back(*to);
        }
        if (precompile) {
            set.erase(at(a));
            changed = true;
        }
    }
    if (!changed) return std::optional<std::vector<evm::PrecompileAt>>();
    return std::optional<std::vector<evm::PrecompileAt>>(std::move(set));
}

Result<CallRequest, std::string> call_of(const eth::Transaction& tx) {
    auto sender = eth::sender(tx);
    if (!sender)
        return unexpected("the transaction's signature: " + eth::to_string(sender.error()));
    CallRequest call;
    call.from = *sender;
    call.to = tx.to();
    call.data.assign(tx.data().begin(), tx.data().end());
    call.value = tx.value();
    call.gas = tx.gas_limit();
    if (tx.type() == eth::TxType::legacy || tx.type() == eth::TxType::access_list) {
        call.gas_price = tx.gas_price();
    } else {
        call.max_fee_per_gas = tx.max_fee_per_gas();
        call.max_priority_fee_per_gas = tx.max_priority_fee_per_gas();
    }
    for (const auto& entry : tx.access_list()) {
        eth::TransactionFields::AccessListEntry e{.address = entry.address, .storage_keys = {}};
        for (const Hash32 key : entry.storage_keys) e.storage_keys.push_back(key);
        call.access_list.push_back(std::move(e));
    }
    for (const Hash32& h : tx.blob_versioned_hashes()) call.blob_versioned_hashes.push_back(h);
    if (tx.type() == eth::TxType::blob) call.max_fee_per_blob_gas = tx.max_fee_per_blob_gas();
    for (const eth::Authorization& a : tx.authorization_list())
        call.authorization_list.push_back(a);
    return call;
}

}  // namespace keel::blockchain
