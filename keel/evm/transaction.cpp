#include "keel/evm/transaction.hpp"

#include <algorithm>
#include <limits>
#include <optional>
#include <span>
#include <vector>

#include "keel/common/assert.hpp"
#include "keel/eth/chain_config.hpp"
#include "keel/eth/sender.hpp"
#include "keel/eth/tx_validation.hpp"

namespace keel::evm {

namespace {

using eth::Fork;
using eth::kGasPerBlob;

Result<TxResult, TxError> fail(TxErrc c) {
    return std::unexpected(TxError{c, std::nullopt});
}

/// EIP-7702: applies each valid authorization of `tx`; an invalid one is skipped. `authorities`
/// holds each authorization's authority (eth::authorities()).
void apply_authorizations(const eth::Transaction& tx, const BlockEnv& block, state::Overlay& st,
                          std::span<const std::optional<Address>> authorities) {
    KEEL_ASSERT(authorities.size() == tx.authorization_list().size());
    std::size_t i = 0;
    for (const eth::Authorization auth : tx.authorization_list()) {
        const std::optional<Address>& authority = authorities[i++];
        if (!auth.chain_id.is_zero() && auth.chain_id != block.chain_id) continue;
        if (auth.nonce == std::numeric_limits<std::uint64_t>::max()) continue;
        if (!authority) continue;
        st.access_account(*authority);
        const state::Code& code = st.code(*authority);
        if (!code->empty() && !delegation_target(*code)) continue;
        if (st.nonce(*authority) != auth.nonce) continue;
        if (st.exists(*authority))
            st.add_refund(25000 - 12500);  // PER_EMPTY_ACCOUNT - PER_AUTH_BASE
        if (auth.address.is_zero()) {
            st.set_code(*authority, Bytes{});
        } else {
            Bytes designator{0xef, 0x01, 0x00};
            designator.insert(designator.end(), auth.address.begin(), auth.address.end());
            st.set_code(*authority, std::move(designator));
        }
        st.set_nonce(*authority, auth.nonce + 1);
    }
}

/// The execution-spec-tests name of a static check's failure (the part after the dot).
std::string_view static_exception(const eth::Error& e) noexcept {
    using eth::Errc;
    switch (e.code) {
        case Errc::type_not_supported:
            return "TYPE_NOT_SUPPORTED";
        case Errc::nonce_is_max:
            return "NONCE_IS_MAX";
        case Errc::gas_limit_price_overflow:
            return "GASLIMIT_PRICE_PRODUCT_OVERFLOW";
        case Errc::priority_fee_greater_than_max_fee:
            return "PRIORITY_GREATER_THAN_MAX_FEE_PER_GAS";
        case Errc::initcode_size_exceeded:
            return "INITCODE_SIZE_EXCEEDED";
        case Errc::intrinsic_gas_too_low:
            return "INTRINSIC_GAS_TOO_LOW";
        case Errc::gas_below_floor_cost:
            return "INTRINSIC_GAS_BELOW_FLOOR_GAS_COST";
        case Errc::gas_limit_exceeds_maximum:
            return "GAS_LIMIT_EXCEEDS_MAXIMUM";
        case Errc::blob_list_empty:
            return "TYPE_3_TX_ZERO_BLOBS";
        case Errc::blob_count_exceeded:
            return "TYPE_3_TX_BLOB_COUNT_EXCEEDED";
        case Errc::invalid_blob_versioned_hash:
            return "TYPE_3_TX_INVALID_BLOB_VERSIONED_HASH";
        case Errc::authorization_list_empty:
            return "TYPE_4_EMPTY_AUTHORIZATION_LIST";
        case Errc::create_not_allowed:
            return "TYPE_3_TX_CONTRACT_CREATION";
        case Errc::invalid_chain_id:
            return "INVALID_CHAINID";
        case Errc::invalid_signature_values:
            return "INVALID_SIGNATURE_VRS";
        default:
            return "INVALID_TRANSACTION";
    }
}

}  // namespace

std::string to_string(const TxError& e) {
    switch (e.code) {
        case TxErrc::static_check:
            return e.detail ? eth::to_string(*e.detail) : "invalid transaction";
        case TxErrc::gas_allowance_exceeded:
            return "gas limit reached (block gas left is lower)";
        case TxErrc::insufficient_max_fee_per_gas:
            return "max fee per gas below the base fee";
        case TxErrc::insufficient_max_fee_per_blob_gas:
            return "max fee per blob gas below the blob base fee";
        case TxErrc::insufficient_account_funds:
            return "insufficient funds for gas * price + value";
        case TxErrc::nonce_too_low:
            return "nonce too low";
        case TxErrc::nonce_too_high:
            return "nonce too high";
        case TxErrc::sender_not_eoa:
            return "sender is not an EOA (it has code, EIP-3607)";
        case TxErrc::blob_gas_exceeded:
            return "blob gas above the block's limit";
    }
    return "invalid transaction";
}

std::string exception_name(const TxError& e) {
    const std::string prefix = "TransactionException.";
    switch (e.code) {
        case TxErrc::static_check:
            return prefix +
                   std::string(e.detail ? static_exception(*e.detail) : "INVALID_TRANSACTION");
        case TxErrc::gas_allowance_exceeded:
            return prefix + "GAS_ALLOWANCE_EXCEEDED";
        case TxErrc::insufficient_max_fee_per_gas:
            return prefix + "INSUFFICIENT_MAX_FEE_PER_GAS";
        case TxErrc::insufficient_max_fee_per_blob_gas:
            return prefix + "INSUFFICIENT_MAX_FEE_PER_BLOB_GAS";
        case TxErrc::insufficient_account_funds:
            return prefix + "INSUFFICIENT_ACCOUNT_FUNDS";
        case TxErrc::nonce_too_low:
            return prefix + "NONCE_MISMATCH_TOO_LOW";
        case TxErrc::nonce_too_high:
            return prefix + "NONCE_MISMATCH_TOO_HIGH";
        case TxErrc::sender_not_eoa:
            return prefix + "SENDER_NOT_EOA";
        case TxErrc::blob_gas_exceeded:
            return prefix + "TYPE_3_TX_MAX_BLOB_GAS_ALLOWANCE_EXCEEDED";
    }
    return prefix;
}

Result<TxResult, TxError> execute_transaction(const eth::Transaction& tx, const Address& sender,
                                              const BlockEnv& block, state::Overlay& st, Fork fork,
                                              Tracer* tracer, BlockLimits limits,
                                              AnalysisCache* cache, CallRules rules) {
    if (auto v = eth::validate(tx, fork, block.chain_id.as_u64(),
                               {.gas_cap = rules.skip_gas_cap, .nonce_bound = rules.skip_nonce});
        !v)
        return std::unexpected(TxError{TxErrc::static_check, v.error()});
    if (tx.gas_limit() > block.gas_limit - std::min(block.gas_limit, limits.gas_used))
        return fail(TxErrc::gas_allowance_exceeded);

    // The price per gas the sender pays, and the most it may pay.
    const bool dynamic = fork >= Fork::london;
    const Uint256& max_fee = tx.max_fee_per_gas();
    const bool free = rules.free_gas && max_fee.is_zero();
    if (dynamic && !free && max_fee < block.base_fee)
        return fail(TxErrc::insufficient_max_fee_per_gas);
    Uint256 price = max_fee;
    if (dynamic && !free) price = std::min(max_fee, block.base_fee + tx.max_priority_fee_per_gas());

    const std::uint64_t blobs = tx.blob_versioned_hashes().size();
    const std::uint64_t blob_gas = blobs * kGasPerBlob;
    const std::uint64_t max_blob_gas = limits.max_blob_gas != 0
                                           ? limits.max_blob_gas
                                           : eth::default_blob_params(fork).max * kGasPerBlob;
    if (blobs > 0) {
        if (tx.max_fee_per_blob_gas() < block.blob_base_fee)
            return fail(TxErrc::insufficient_max_fee_per_blob_gas);
        if (blob_gas > max_blob_gas) return fail(TxErrc::blob_gas_exceeded);
    }

    // value + gas_limit * max_fee (+ blob gas * max blob fee) must be covered.
    const Uint256 gas_limit(tx.gas_limit());
    const auto [max_gas_cost, o1] = mul_overflow(gas_limit, max_fee);
    const auto [max_blob_cost, o2] = mul_overflow(Uint256(blob_gas), tx.max_fee_per_blob_gas());
    const auto [need1, o3] = add_overflow(max_gas_cost, max_blob_cost);
    const auto [need, o4] = add_overflow(need1, tx.value());
    if (o1 || o2 || o3 || o4 || st.balance(sender) < need)
        return fail(TxErrc::insufficient_account_funds);

    const std::uint64_t nonce = st.nonce(sender);
    if (!rules.skip_nonce && tx.nonce() < nonce) return fail(TxErrc::nonce_too_low);
    if (!rules.skip_nonce && tx.nonce() > nonce) return fail(TxErrc::nonce_too_high);
    if (!rules.skip_sender_code) {
        const state::Code& code = st.code(sender);
        if (!code->empty() && !(fork >= Fork::prague && delegation_target(*code)))
            return fail(TxErrc::sender_not_eoa);
    }

    // The authorities of EIP-7702's authorizations, recovered once per transaction and kept in
    // it (a replayed body recovers none again); a tracer sees them (the prestate tracer looks
    // them up).
    const std::span<const std::optional<Address>> authorities =
        fork >= Fork::prague ? eth::authorities(tx) : std::span<const std::optional<Address>>{};
    if (tracer != nullptr) {
        tracer->on_tx_start(TxStartView{.tx = tx,
                                        .sender = sender,
                                        .block = block,
                                        .fork = fork,
                                        .state = st,
                                        .gas_limit = tx.gas_limit(),
                                        .authorities = authorities});
    }

    // ---- valid: buy the gas, warm the sets ------------------------------------------------------
    st.sub_balance(sender, gas_limit * price + Uint256(blob_gas) * block.blob_base_fee);
    if (!tx.is_create()) st.set_nonce(sender, nonce + 1);  // a create's nonce: Evm::create
    TxEnv env;
    env.origin = sender;
    env.gas_price = price;
    std::vector<Hash32> blob_hashes(tx.blob_versioned_hashes().begin(),
                                    tx.blob_versioned_hashes().end());
    env.blob_hashes = blob_hashes;
    Evm evm(st, block, env, fork, tracer, cache);
    if (fork >= Fork::berlin) {
        st.access_account(sender);
        if (auto to = tx.to()) st.access_account(*to);
        // The fork's precompiles are warm too, without entries: Evm::warm_from_start().
        for (const auto& entry : tx.access_list()) {
            st.access_account(entry.address);
            for (const Hash32 key : entry.storage_keys)
                st.access_storage(entry.address, Uint256::load_be(key.data()));
        }
    }
    if (fork >= Fork::shanghai) st.access_account(block.coinbase);  // EIP-3651
    if (fork >= Fork::prague) apply_authorizations(tx, block, st, authorities);

    // ---- the message
    // ------------------------------------------------------------------------------
    const std::uint64_t intrinsic = eth::intrinsic_gas(tx, fork);
    Message msg;
    msg.depth = 0;
    // A frame holds at most 2^63 - 1 gas (EIP-1985's bound on gas values); what a larger limit
    // leaves above it is withheld from the frame: unused after a success or a revert, gone with
    // the rest after an exceptional halt, as if the frame had held it.
    const std::uint64_t available = tx.gas_limit() - intrinsic;
    constexpr auto kMaxFrameGas =
        static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());
    const std::uint64_t withheld = available > kMaxFrameGas ? available - kMaxFrameGas : 0;
    msg.gas = static_cast<std::int64_t>(available - withheld);
    msg.sender = sender;
    msg.value = tx.value();
    msg.input = tx.data();
    CallResult r;
    if (tx.is_create()) {
        msg.kind = CallKind::create;
        r = evm.create(msg);
    } else {
        msg.kind = CallKind::call;
        msg.recipient = msg.code_address = *tx.to();
        if (fork >= Fork::prague) {
            if (const auto target = delegation_target(*st.code(msg.recipient)))
                st.access_account(*target);
        }
        r = evm.call(msg);
    }

    // ---- refunds, the floor, payments -----------------------------------------------------------
    TxResult out;
    out.status = r.status;
    out.output = std::move(r.output);
    if (r.status == Status::success && tx.is_create()) {
        out.created = r.created;
        // What the init code returned, as geth's result shows it (eth_call of a creation, the
        // struct logger's returnValue): the code now at the new address.
        const state::Code& code = st.code(r.created);
        if (out.output.empty()) out.output.assign(code->begin(), code->end());
    }
    const bool all_gone =
        r.status != Status::success && r.status != Status::revert && r.gas_left == 0;
    std::uint64_t used =
        tx.gas_limit() - static_cast<std::uint64_t>(r.gas_left) - (all_gone ? 0 : withheld);
    const std::uint64_t quotient = fork >= Fork::london ? 5 : 2;  // EIP-3529
    const std::uint64_t refund = std::min<std::uint64_t>(
        static_cast<std::uint64_t>(std::max<std::int64_t>(st.refund(), 0)), used / quotient);
    out.peak_gas_used = used;
    used -= refund;
    if (fork >= Fork::prague) {  // EIP-7623
        const std::uint64_t floor = eth::floor_data_gas(tx);
        used = std::max(used, floor);
        out.peak_gas_used = std::max(out.peak_gas_used, floor);
    }
    out.gas_used = used;
    out.blob_gas_used = blob_gas;
    st.add_balance(sender, Uint256(tx.gas_limit() - used) * price);
    if (!free) {  // a free call pays nobody (geth skips the payment, not even a touch)
        const Uint256 tip = dynamic ? price - block.base_fee : price;
        st.add_balance(block.coinbase, Uint256(used) * tip);
    }
    out.logs.assign(st.logs().begin(), st.logs().end());
    st.finalize_transaction({.delete_empty = fork >= Fork::spurious_dragon});
    if (tracer != nullptr) {
        tracer->on_tx_end(TxEndView{.status = out.status,
                                    .gas_used = out.gas_used,
                                    .output = out.output,
                                    .logs = out.logs.size(),
                                    .state = st});
    }
    return out;
}

}  // namespace keel::evm
