#include "keel/blockchain/call_traces.hpp"

#include <algorithm>
#include <span>

#include "keel/blockchain/executor.hpp"
#include "keel/eth/sender.hpp"
#include "keel/eth/transaction.hpp"
#include "keel/evm/transaction.hpp"
#include "keel/state/overlay.hpp"
#include "keel/store/state_store.hpp"
#include "keel/trace/tx_selector.hpp"

namespace keel::blockchain {
namespace {

std::unexpected<ReadError> failed(std::string m) {
    return std::unexpected(ReadError{false, false, std::move(m)});
}

// Runs `calls` one after the other on the state after block `number` (each sees what the ones
// before it changed), call i with the tracer `make_tracer(i, fork)` gives, then `done(i)`.
Result<void, ReadError> run_calls(
    const store::ChainStore& store, const eth::ChainConfig& config_in, std::uint64_t number,
    std::span<const CallRequest> calls,
    const std::function<evm::Tracer*(std::size_t, eth::Fork)>& make_tracer,
    const std::function<void(std::size_t)>& done) {
    const std::string where = "block " + std::to_string(number);
    auto header_rlp = store.header_by_number(number);
    if (!header_rlp) return failed(header_rlp.error().message);
    if (!header_rlp->found())
        return std::unexpected(ReadError{true, false, where + " is not stored"});
    auto header = eth::decode_header(header_rlp->value);
    if (!header) return failed(where + ": stored header: " + eth::to_string(header.error()));
    const eth::Header& h = *header;
    eth::ChainConfig config = config_in;
    if (number > 0) {
        auto merged = merge_rules(store, config_in, number, number - 1, h.parent_hash);
        if (!merged) return failed(where + ": " + merged.error());
        if (*merged) config = std::move(**merged);
    }
    const eth::Fork fork = config.fork_at(h.number, h.timestamp);
    auto view = store::StateView::open(store, number);
    if (!view) return std::unexpected(ReadError{true, false, where + ": " + view.error().message});

    std::string read_error;
    const evm::BlockEnv env = chain::block_env(h, config, fork, stored_hashes(store, read_error));
    const eth::BlobParams blob = config.blob_params(fork, h.timestamp);

    state::Overlay overlay(*view);
    // From Osaka a transaction holds at most 2^24 gas (EIP-7825): so does a call by default.
    const std::uint64_t cap = fork >= eth::Fork::osaka
                                  ? std::min<std::uint64_t>(kCallGasCap, std::uint64_t{1} << 24)
                                  : kCallGasCap;
    for (std::size_t i = 0; i < calls.size(); ++i) {
        const CallRequest& call = calls[i];
        const std::string which = calls.size() > 1 ? "call " + std::to_string(i) : "the call";
        eth::TransactionFields f;
        f.type = fork >= eth::Fork::london ? eth::TxType::dynamic_fee : eth::TxType::legacy;
        f.chain_id = config.chain_id.as_u64();
        f.nonce = overlay.nonce(call.from);
        f.max_fee_per_gas = call.gas_price;
        f.max_priority_fee_per_gas = call.gas_price;
        f.gas_limit = call.gas ? std::min(*call.gas, cap) : std::min(h.gas_limit, cap);
        f.to = call.to;
        f.value = call.value;
        f.data = call.data;
        if (fork >= eth::Fork::berlin) {
            f.access_list = call.access_list;
            if (f.type == eth::TxType::legacy && !f.access_list.empty()) {
                f.type = eth::TxType::access_list;
            }
        }
        f.v = Uint256(f.type == eth::TxType::legacy ? 27 : 0);  // a placeholder signature
        f.r = Uint256(1);
        f.s = Uint256(1);
        auto tx = eth::decode_transaction(eth::encode(f));
        if (!tx) return failed(which + ": " + eth::to_string(tx.error()));
        auto r = evm::execute_transaction(
            *tx, call.from, env, overlay, fork, make_tracer(i, fork),
            {.gas_used = 0, .max_blob_gas = blob.max * eth::kGasPerBlob}, nullptr,
            {.skip_nonce = true, .skip_sender_code = true, .free_gas = true});
        if (auto fail = view->failure()) return failed(where + ": state read: " + *fail);
        if (!read_error.empty()) return failed(where + ": " + read_error);
        if (!r) return failed(which + ": " + evm::to_string(r.error()));
        done(i);
    }
    return {};
}

}  // namespace

Result<void, ReadError> write_debug_trace_call(std::string& out, const store::ChainStore& store,
                                               const eth::ChainConfig& config, std::uint64_t number,
                                               const CallRequest& call,
                                               const trace::TracerSpec& spec,
                                               const std::function<void(std::string&)>& drain) {
    std::optional<trace::TxTracer> tracer;
    std::optional<trace::TxSelector> selector;
    const std::size_t mark = out.size();
    bool timed_out = false;
    auto r = run_calls(
        store, config, number, std::span(&call, 1),
        [&](std::size_t, eth::Fork fork) -> evm::Tracer* {
            tracer.emplace(spec, fork);
            tracer->set_drain(1 << 20, drain);
            selector.emplace(
                [&](std::size_t, std::uint64_t first_log) { return tracer->begin(out, first_log); },
                [&](std::size_t, const evm::TxEndView& tx) {
                    if (!selector->timed_out())
                        tracer->end(out, tx, {});
                    else
                        timed_out = !tracer->end_timed_out(out, mark, tx);
                    drain(out);
                });
            if (spec.timeout) selector->set_timeout(*spec.timeout);
            return &*selector;
        },
        [](std::size_t) {});
    if (r && timed_out) return failed(std::string(trace::kTimeoutError));
    return r;
}

Result<void, ReadError> write_trace_call(std::string& out, const store::ChainStore& store,
                                         const eth::ChainConfig& config, std::uint64_t number,
                                         const CallRequest& call, trace::ParityTraceTypes types) {
    trace::ParityTracer tracer(types);
    return run_calls(
        store, config, number, std::span(&call, 1), [&](std::size_t, eth::Fork) { return &tracer; },
        [&](std::size_t) { tracer.write(out, nullptr); });
}

Result<void, ReadError> write_trace_call_many(std::string& out, const store::ChainStore& store,
                                              const eth::ChainConfig& config, std::uint64_t number,
                                              std::span<const CallRequest> calls,
                                              std::span<const trace::ParityTraceTypes> types) {
    if (calls.size() != types.size()) {
        return failed("trace_callMany: " + std::to_string(calls.size()) + " calls and " +
                      std::to_string(types.size()) + " lists of trace types");
    }
    std::optional<trace::ParityTracer> tracer;
    out += '[';
    auto r = run_calls(
        store, config, number, calls,
        [&](std::size_t i, eth::Fork) {
            tracer.emplace(types[i]);
            return &*tracer;
        },
        [&](std::size_t i) {
            if (i > 0) out += ',';
            tracer->write(out, nullptr);
        });
    if (!r) return r;
    out += ']';
    return {};
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
    call.gas_price = tx.max_fee_per_gas();
    for (const auto& entry : tx.access_list()) {
        eth::TransactionFields::AccessListEntry e{.address = entry.address, .storage_keys = {}};
        for (const Hash32 key : entry.storage_keys) e.storage_keys.push_back(key);
        call.access_list.push_back(std::move(e));
    }
    return call;
}

Result<void, ReadError> write_trace_raw_transaction(std::string& out,
                                                    const store::ChainStore& store,
                                                    const eth::ChainConfig& config,
                                                    std::uint64_t number, BytesView raw,
                                                    trace::ParityTraceTypes types) {
    auto tx = eth::decode_transaction(raw);
    if (!tx) return failed("the transaction: " + eth::to_string(tx.error()));
    auto call = call_of(*tx);
    if (!call) return failed(call.error());
    return write_trace_call(out, store, config, number, *call, types);
}

}  // namespace keel::blockchain
