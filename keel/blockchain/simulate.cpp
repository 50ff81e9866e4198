#include "keel/blockchain/simulate.hpp"

#include <algorithm>
#include <limits>

#include "keel/blockchain/executor.hpp"
#include "keel/chain/execute.hpp"
#include "keel/chain/header_rules.hpp"
#include "keel/chain/system.hpp"
#include "keel/crypto/keccak.hpp"
#include "keel/eth/tx_validation.hpp"
#include "keel/evm/evm.hpp"
#include "keel/evm/transaction.hpp"
#include "keel/state/overlay.hpp"
#include "keel/store/state_store.hpp"
#include "keel/trace/phrases.hpp"
#include "keel/trie/root.hpp"

namespace keel::blockchain {
namespace {

using eth::Fork;

// The codes of execution-apis' eth_simulateV1, and JSON-RPC's.
constexpr int kServerError = -32000;
constexpr int kInvalidParams = -32602;
constexpr int kInternalError = -32603;
constexpr int kVmError = -32015;
constexpr int kReverted = 3;
constexpr int kNonceTooLow = -38010;
constexpr int kNonceTooHigh = -38011;
constexpr int kBaseFeeTooLow = -38012;
constexpr int kIntrinsicGas = -38013;
constexpr int kInsufficientFunds = -38014;
constexpr int kBlockGasLimitReached = -38015;
constexpr int kBlockNumberInvalid = -38020;
constexpr int kBlockTimestampInvalid = -38021;
constexpr int kSenderNotEoa = -38024;
constexpr int kMaxInitCodeSize = -38025;
constexpr int kClientLimitExceeded = -38026;

// Blocks are 12 s apart unless a timestamp is given.
constexpr std::uint64_t kTimestampIncrement = 12;

std::unexpected<SimError> fail(int code, std::string message) {
    return std::unexpected(SimError{code, std::move(message)});
}

// ERC-7528's address for ether, and the topic of ERC-20's Transfer(address,address,uint256).
constexpr Address kEtherAddress{{0xee, 0xee, 0xee, 0xee, 0xee, 0xee, 0xee, 0xee, 0xee, 0xee,
                                 0xee, 0xee, 0xee, 0xee, 0xee, 0xee, 0xee, 0xee, 0xee, 0xee}};
const Hash32& transfer_topic() {
    static const Hash32 topic = [] {
        const std::string_view sig = "Transfer(address,address,uint256)";
        return crypto::keccak256(
            BytesView(reinterpret_cast<const std::uint8_t*>(sig.data()), sig.size()));
    }();
    return topic;
}

Hash32 word_of(const Address& a) {
    Hash32 h{};
    std::copy(a.begin(), a.end(), h.begin() + 12);
    return h;
}

// The logs of one call as geth's simulator collects them: per frame, dropped with a frame that
// fails, numbered across the block (a dropped log keeps its number used); with transfers,
// every ether transfer as a Transfer log of ERC-7528's address (a call's or a create's value,
// a self-destruct's balance; not DELEGATECALL's or CALLCODE's).
class LogCollector final : public evm::Tracer {
  public:
    explicit LogCollector(bool transfers) : transfers_(transfers) {}

    bool wants_steps() const override { return false; }

    void start_transaction() { frames_.clear(); }
    std::vector<SimLog> take() {
        return frames_.empty() ? std::vector<SimLog>{} : std::move(frames_.front());
    }

    void on_call_start(const evm::Message& msg) override {
        frames_.emplace_back();
        if (transfers_ && msg.kind != evm::CallKind::delegatecall &&
            msg.kind != evm::CallKind::callcode && !msg.value.is_zero())
            add_transfer(msg.sender, msg.recipient, msg.value);
    }
    void on_call_end(const evm::Message& /*msg*/, const evm::CallResult& r) override {
        const bool failed = r.status != evm::Status::success;
        if (frames_.size() == 1) {
            if (failed) frames_.front().clear();
            return;
        }
        std::vector<SimLog> frame = std::move(frames_.back());
        frames_.pop_back();
        if (!failed) {
            auto& parent = frames_.back();
            std::move(frame.begin(), frame.end(), std::back_inserter(parent));
        }
    }
    void on_log(const state::Log& log) override { add(log); }
    void on_selfdestruct(const Address& contract, const Address& beneficiary,
                         const Uint256& balance) override {
        if (transfers_ && !balance.is_zero()) add_transfer(contract, beneficiary, balance);
    }

  private:
    void add(state::Log log) {
        if (frames_.empty()) frames_.emplace_back();
        frames_.back().push_back(SimLog{std::move(log), count_++});
    }
    void add_transfer(const Address& from, const Address& to, const Uint256& value) {
        const Bytes32 amount = value.to_bytes32();
        add(state::Log{kEtherAddress,
                       {transfer_topic(), word_of(from), word_of(to)},
                       Bytes(amount.begin(), amount.end())});
    }

    bool transfers_;
    std::uint64_t count_ = 0;
    std::vector<std::vector<SimLog>> frames_;
};

// The transaction geth's TransactionArgs.ToTransaction makes of a call (its type, defaults and
// a zero signature), or, with `placeholder`, the same with a signature that passes the static
// checks (the sender is given, nothing recovers it).
Result<eth::Transaction, std::string> transaction_of(const CallRequest& call, bool london,
                                                     std::uint64_t nonce, std::uint64_t gas,
                                                     std::uint64_t chain_id, bool placeholder) {
    eth::TransactionFields f;
    if (!london || call.gas_price) {
        f.type = eth::TxType::legacy;
    } else if (!call.authorization_list.empty()) {
        f.type = eth::TxType::set_code;
    } else if (!call.blob_versioned_hashes.empty()) {
        f.type = eth::TxType::blob;
    } else {
        f.type = eth::TxType::dynamic_fee;
    }
    if (f.type == eth::TxType::legacy) {
        f.max_fee_per_gas = f.max_priority_fee_per_gas = call.gas_price.value_or(Uint256(0));
    } else {
        f.chain_id = chain_id;
        f.max_fee_per_gas = call.max_fee_per_gas.value_or(Uint256(0));
        f.max_priority_fee_per_gas = call.max_priority_fee_per_gas.value_or(Uint256(0));
        f.access_list = call.access_list;
    }
    f.nonce = nonce;
    f.gas_limit = gas;
    f.to = call.to;
    f.value = call.value;
    f.data = call.data;
    if (f.type == eth::TxType::blob) {
        f.blob_versioned_hashes = call.blob_versioned_hashes;
        f.max_fee_per_blob_gas = call.max_fee_per_blob_gas.value_or(Uint256(0));
    }
    if (f.type == eth::TxType::set_code) f.authorization_list = call.authorization_list;
    if ((f.type == eth::TxType::blob || f.type == eth::TxType::set_code) && !f.to) {
        return unexpected(std::string(f.type == eth::TxType::blob
                                          ? "a blob transaction cannot create a contract"
                                          : "a set-code transaction cannot create a contract"));
    }
    if (placeholder) {
        f.v = Uint256(f.type == eth::TxType::legacy ? 27 : 0);
        f.r = Uint256(1);
        f.s = Uint256(1);
    }
    auto tx = eth::decode_transaction(eth::encode(f));
    if (!tx) return unexpected(eth::to_string(tx.error()));
    return std::move(*tx);
}

// The code eth_simulateV1 gives a transaction its rules refuse (geth's txValidationError).
int code_of(const evm::TxError& e) {
    switch (e.code) {
        case evm::TxErrc::nonce_too_low:
            return kNonceTooLow;
        case evm::TxErrc::nonce_too_high:
            return kNonceTooHigh;
        case evm::TxErrc::insufficient_max_fee_per_gas:
            return kBaseFeeTooLow;
        case evm::TxErrc::insufficient_account_funds:
            return kInsufficientFunds;
        case evm::TxErrc::sender_not_eoa:
            return kSenderNotEoa;
        case evm::TxErrc::gas_allowance_exceeded:
            return kBlockGasLimitReached;
        case evm::TxErrc::static_check:
            if (!e.detail) return kInternalError;
            switch (e.detail->code) {
                case eth::Errc::intrinsic_gas_too_low:
                    return kIntrinsicGas;
                case eth::Errc::initcode_size_exceeded:
                    return kMaxInitCodeSize;
                case eth::Errc::priority_fee_greater_than_max_fee:
                case eth::Errc::gas_limit_price_overflow:
                    return kInvalidParams;
                default:
                    return kInternalError;
            }
        case evm::TxErrc::insufficient_max_fee_per_blob_gas:
        case evm::TxErrc::blob_gas_exceeded:
            return kInternalError;
    }
    return kInternalError;
}

// Where each simulated block goes: the caller's (or a gap's) with its number and timestamp.
struct Planned {
    const SimBlock* input = nullptr;  ///< null: an empty block filling a gap
    std::uint64_t number = 0;
    std::uint64_t timestamp = 0;
};

// geth's sanitizeChain: numbers and timestamps strictly increasing, gaps filled.
Result<std::vector<Planned>, SimError> plan(const std::vector<SimBlock>& blocks,
                                            const eth::Header& base) {
    std::vector<Planned> out;
    std::uint64_t number = base.number;
    std::uint64_t time = base.timestamp;
    const auto next_time = [&time]() -> Result<std::uint64_t, SimError> {
        if (time > std::numeric_limits<std::uint64_t>::max() - kTimestampIncrement)
            return fail(kBlockTimestampInvalid, "block timestamp above 2^64 - 1");
        return time + kTimestampIncrement;
    };
    for (const SimBlock& b : blocks) {
        if (number == std::numeric_limits<std::uint64_t>::max() && !b.block.number)
            return fail(kBlockNumberInvalid, "block number above 2^64 - 1");
        const std::uint64_t n = b.block.number.value_or(number + 1);
        if (n <= number) {
            return fail(kBlockNumberInvalid,
                        "block numbers must be in order: " + std::to_string(n) +
                            " <= " + std::to_string(number));
        }
        if (n - base.number > kMaxSimBlocks) return fail(kClientLimitExceeded, "too many blocks");
        for (std::uint64_t gap = number + 1; gap < n; ++gap) {
            auto t = next_time();
            if (!t) return std::unexpected(t.error());
            time = *t;
            out.push_back(Planned{nullptr, gap, time});
        }
        number = n;
        if (b.block.time) {
            if (*b.block.time <= time) {
                return fail(kBlockTimestampInvalid,
                            "block timestamps must be in order: " + std::to_string(*b.block.time) +
                                " <= " + std::to_string(time));
            }
            time = *b.block.time;
        } else {
            auto t = next_time();
            if (!t) return std::unexpected(t.error());
            time = *t;
        }
        out.push_back(Planned{&b, n, time});
    }
    return out;
}

// Applies one block's state overrides to the simulation's state, as geth's StateOverride.Apply
// does to its StateDB (then Finalise without deleting empty accounts).
void apply_overrides(state::Overlay& st, const StateOverrides& overrides) {
    for (const auto& [a, o] : overrides) {
        if (o.nonce) st.set_nonce(a, *o.nonce);
        if (o.code) st.set_code(a, *o.code);
        if (o.balance) {
            st.sub_balance(a, st.balance(a));
            st.add_balance(a, *o.balance);
        }
        if (o.state) {
            // Every slot goes: the account is made afresh with what it had.
            const std::uint64_t nonce = st.nonce(a);
            const Bytes code(st.code(a)->begin(), st.code(a)->end());
            st.create_contract(a);
            st.set_nonce(a, nonce);
            if (!code.empty()) st.set_code(a, code);
            for (const auto& [k, v] : *o.state) st.set_storage(a, k, v);
        }
        for (const auto& [k, v] : o.state_diff) st.set_storage(a, k, v);
    }
    st.finalize_transaction({.delete_empty = false});
}

eth::Log to_eth_log(const state::Log& l) {
    return eth::Log{l.address, l.topics, l.data};
}

}  // namespace

Result<std::vector<SimBlockResult>, SimError> simulate(const store::ChainStore& store,
                                                       const eth::ChainConfig& config_in,
                                                       std::uint64_t base,
                                                       std::vector<SimBlock> blocks,
                                                       const SimOptions& options) {
    if (blocks.empty()) return fail(kInvalidParams, "empty input");
    if (blocks.size() > kMaxSimBlocks) return fail(kClientLimitExceeded, "too many blocks");
    std::size_t total_calls = 0;
    for (const SimBlock& b : blocks) {
        if (b.calls.size() > kMaxSimCallsPerBlock) {
            return fail(kClientLimitExceeded,
                        "too many calls in block: " + std::to_string(b.calls.size()) + " > " +
                            std::to_string(kMaxSimCallsPerBlock));
        }
        total_calls += b.calls.size();
        if (total_calls > kMaxSimCalls) {
            return fail(kClientLimitExceeded, "too many calls: " + std::to_string(total_calls) +
                                                  " > " + std::to_string(kMaxSimCalls));
        }
    }

    // ---- the base block, its state and the rules -----------------------------------------
    auto base_rlp = store.header_by_number(base);
    if (!base_rlp) return fail(kInternalError, base_rlp.error().message);
    if (!base_rlp->found()) return fail(kServerError, "header not found");
    auto base_header = eth::decode_header(base_rlp->value);
    if (!base_header) {
        return fail(kInternalError, "block " + std::to_string(base) +
                                        ": stored header: " + eth::to_string(base_header.error()));
    }
    const Hash32 base_hash = base_header->hash();
    eth::ChainConfig config = config_in;
    {
        auto merged = merge_rules(store, config_in, base + 1, base, base_hash);
        if (!merged) return fail(kInternalError, merged.error());
        if (*merged) config = std::move(**merged);
    }
    auto view = store::StateView::open(store, base);
    if (!view) return fail(kServerError, view.error().message);
    auto roots = store::StateRoots::open(store, base);
    if (!roots) return fail(kServerError, roots.error().message);
    auto planned = plan(blocks, *base_header);
    if (!planned) return std::unexpected(planned.error());

    // BLOCKHASH: stored blocks up to the base, then the simulated ones already made.
    std::string read_error;
    const chain::BlockHashes stored = stored_hashes(store, read_error);
    std::vector<SimBlockResult> out;
    out.reserve(planned->size());
    const chain::BlockHashes hashes = [&](std::uint64_t n) -> Hash32 {
        if (n == base) return base_hash;
        if (n < base) return stored(n);
        for (const SimBlockResult& r : out)
            if (r.block.header.number == n) return r.hash;
        return Hash32{};
    };

    state::Overlay overlay(*view);
    evm::AnalysisCache analyses;
    std::uint64_t budget =
        options.gas_cap == 0 ? std::numeric_limits<std::uint64_t>::max() : options.gas_cap;
    const SimBlock empty_block;
    eth::Header carry = *base_header;  // what each header takes from the one before
    trie::RootBuilder builder;
    for (const Planned& p : *planned) {
        if (options.timeout.expired()) return fail(kServerError, options.timeout.message());
        const SimBlock& in = p.input != nullptr ? *p.input : empty_block;
        const eth::Header& parent = out.empty() ? *base_header : out.back().block.header;
        const Fork fork = config.fork_at(p.number, p.timestamp);
        const Fork parent_fork = config.fork_at(parent.number, parent.timestamp);

        // ---- the header (geth's makeHeaders, then processBlock's parent fields) ------------
        eth::Header h;
        h.parent_hash = out.empty() ? base_hash : out.back().hash;
        h.ommers_hash = eth::kEmptyOmmersHash;
        h.transactions_root = trie::kEmptyRoot;
        h.receipts_root = trie::kEmptyRoot;
        h.beneficiary = carry.beneficiary;
        h.difficulty = fork >= Fork::paris ? Uint256(0) : carry.difficulty;
        h.gas_limit = carry.gas_limit;
        h.number = p.number;
        h.timestamp = p.timestamp;
        if (in.block.difficulty) h.difficulty = *in.block.difficulty;
        if (in.block.gas_limit) h.gas_limit = *in.block.gas_limit;
        if (in.block.fee_recipient) h.beneficiary = *in.block.fee_recipient;
        if (in.block.prev_randao) h.mix_hash = *in.block.prev_randao;
        if (fork >= Fork::london) {
            if (in.block.base_fee)
                h.base_fee_per_gas = *in.block.base_fee;
            else if (options.validation)
                h.base_fee_per_gas = chain::expected_base_fee(parent, parent_fork, fork);
            else
                h.base_fee_per_gas = Uint256(0);
        }
        if (fork >= Fork::shanghai) h.withdrawals_root = trie::kEmptyRoot;
        if (fork >= Fork::cancun) {
            h.blob_gas_used = 0;
            h.excess_blob_gas = parent_fork >= Fork::cancun
                                    ? chain::expected_excess_blob_gas(
                                          parent, fork, config.blob_params(fork, h.timestamp))
                                    : 0;
            h.parent_beacon_block_root = in.block.beacon_root.value_or(Hash32{});
        }
        if (fork >= Fork::prague) h.requests_hash = Hash32{};
        carry = h;

        evm::BlockEnv env = chain::block_env(h, config, fork, hashes);
        env.deadline = options.timeout.evm_deadline();
        if (in.block.blob_base_fee) env.blob_base_fee = *in.block.blob_base_fee;
        auto precompiles = precompiles_after(in.state, fork);
        if (!precompiles) return fail(kServerError, precompiles.error());
        if (*precompiles) env.precompiles = &**precompiles;

        // ---- the state overrides and the system calls --------------------------------------
        apply_overrides(overlay, in.state);
        chain::begin_block(overlay, h, config, fork, env, &analyses);

        // ---- the calls ---------------------------------------------------------------------
        SimBlockResult result;
        eth::Block& block = result.block;
        std::vector<eth::Receipt> receipts;
        Bytes deposits;
        LogCollector collector(options.trace_transfers);
        std::uint64_t gas_used = 0;
        std::uint64_t blob_gas_used = 0;
        const std::uint64_t max_blob_gas =
            config.blob_params(fork, h.timestamp).max * eth::kGasPerBlob;
        for (std::size_t i = 0; i < in.calls.size(); ++i) {
            const CallRequest& call = in.calls[i];
            const std::uint64_t nonce = call.nonce.value_or(overlay.nonce(call.from));
            const std::uint64_t remaining = h.gas_limit - gas_used;
            std::uint64_t gas = call.gas.value_or(remaining);
            if (gas > remaining) {
                return fail(kBlockGasLimitReached,
                            "block gas limit reached: remaining: " + std::to_string(remaining) +
                                ", required: " + std::to_string(gas));
            }
            const bool capped = gas > budget;
            gas = std::min(gas, budget);
            const bool london = fork >= Fork::london;
            auto tx = transaction_of(call, london, nonce, gas, config.chain_id.as_u64(), false);
            auto run = transaction_of(call, london, nonce, gas, config.chain_id.as_u64(), true);
            if (!tx || !run) return fail(kInvalidParams, tx ? run.error() : tx.error());
            collector.start_transaction();
            auto r = evm::execute_transaction(*run, call.from, env, overlay, fork, &collector,
                                              {.gas_used = gas_used, .max_blob_gas = max_blob_gas},
                                              &analyses,
                                              {.skip_nonce = !options.validation,
                                               .skip_sender_code = true,
                                               .free_gas = !options.validation,
                                               .skip_gas_cap = true});
            if (auto f = view->failure()) return fail(kInternalError, "state read: " + *f);
            if (options.timeout.expired()) return fail(kServerError, options.timeout.message());
            if (!r) {
                return fail(code_of(r.error()), "block " + std::to_string(h.number) + " call " +
                                                    std::to_string(i) + ": " +
                                                    evm::to_string(r.error()) + " (supplied gas " +
                                                    std::to_string(gas) + ")");
            }
            if (r->gas_used > budget)
                return fail(kServerError, "RPC gas cap exhausted: need " +
                                              std::to_string(r->gas_used) + ", remaining " +
                                              std::to_string(budget));
            budget -= r->gas_used;
            gas_used += r->gas_used;
            blob_gas_used += r->blob_gas_used;

            eth::Receipt& receipt = receipts.emplace_back();
            receipt.type = tx->type();
            receipt.cumulative_gas_used = gas_used;
            for (const state::Log& l : r->logs) {
                if (fork >= Fork::prague && l.address == config.deposit_contract &&
                    !chain::append_deposit(l, deposits))
                    return fail(kInternalError, "call " + std::to_string(i) +
                                                    ": a deposit log of the wrong layout");
                receipt.logs.push_back(to_eth_log(l));
            }
            receipt.logs_bloom = eth::logs_bloom(receipt.logs);
            if (fork >= Fork::byzantium) {
                receipt.success = r->status == evm::Status::success;
            } else {
                auto root = roots->root(overlay.changes());
                if (!root) return fail(kInternalError, root.error().message);
                receipt.post_state = *root;
            }

            SimCall& c = result.calls.emplace_back();
            c.gas_used = r->gas_used;
            c.peak_gas_used = r->peak_gas_used;
            c.success = r->status == evm::Status::success;
            if (c.success) {
                c.return_data = std::move(r->output);
                c.logs = collector.take();
            } else if (r->status == evm::Status::revert) {
                // geth's revert error: the reason in the message, the output as its data.
                c.error_code = kReverted;
                c.error_message = "execution reverted";
                if (auto reason = trace::revert_reason(r->output))
                    c.error_message += ": " + *reason;
                c.error_data = std::move(r->output);
            } else {
                c.error_code = kVmError;
                c.error_message = std::string(evm::describe(r->status));
                if (capped)
                    c.error_message += " (gas limit was capped by the RPC server's global gas cap)";
            }
            block.body.transactions.push_back(std::move(*tx));
            result.senders.push_back(call.from);
        }
        if (!read_error.empty()) return fail(kInternalError, read_error);

        // ---- the end of the block and its header ---------------------------------------------
        if (fork >= Fork::shanghai)
            block.body.withdrawals = in.block.withdrawals.value_or(std::vector<eth::Withdrawal>{});
        block.header = h;
        auto requests =
            chain::end_block(overlay, block, config, fork, env, std::move(deposits), &analyses);
        if (!requests) return fail(kInternalError, chain::to_string(requests.error()));
        if (auto f = view->failure()) return fail(kInternalError, "state read: " + *f);
        eth::Header& done = block.header;
        done.gas_used = gas_used;
        if (fork >= Fork::cancun) done.blob_gas_used = blob_gas_used;
        if (fork >= Fork::prague) done.requests_hash = chain::requests_hash(*requests);
        done.transactions_root = eth::transactions_root(block.body.transactions, builder);
        done.receipts_root = eth::receipts_root(receipts, builder);
        done.logs_bloom = eth::block_bloom(receipts);
        if (block.body.withdrawals)
            done.withdrawals_root = eth::withdrawals_root(*block.body.withdrawals, builder);
        auto root = roots->root(overlay.changes());
        if (!root) return fail(kInternalError, root.error().message);
        done.state_root = *root;
        result.hash = done.hash();
        result.size = eth::encoded_size(block);
        out.push_back(std::move(result));
    }
    return out;
}

}  // namespace keel::blockchain
