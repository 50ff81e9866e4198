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

}  // namespace

Result<void, ReadError> write_debug_trace_call(std::string& out, const store::ChainStore& store,
                                               const eth::ChainConfig& config, std::uint64_t number,
                                               const CallRequest& call,
                                               const trace::TracerSpec& spec,
                                               const std::function<void(std::string&)>& drain,
                                               const CallOptions& options) {
    std::optional<trace::TxTracer> tracer;
    std::optional<trace::TxSelector> selector;
    const std::size_t mark = out.size();
    bool timed_out = false;
    auto r = run_calls(
        store, config, number, std::span(&call, 1), options,
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
        [](std::size_t, const evm::TxResult&) {});
    if (r && timed_out) return failed(std::string(trace::kTimeoutError));
    return r;
}

Result<void, ReadError> write_trace_call(std::string& out, const store::ChainStore& store,
                                         const eth::ChainConfig& config, std::uint64_t number,
                                         const CallRequest& call, trace::ParityTraceTypes types) {
    trace::ParityTracer tracer(types);
    return run_calls(
        store, config, number, std::span(&call, 1), {},
        [&](std::size_t, eth::Fork) { return &tracer; },
        [&](std::size_t, const evm::TxResult&) { tracer.write(out, nullptr); });
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
        store, config, number, calls, {},
        [&](std::size_t i, eth::Fork) {
            tracer.emplace(types[i]);
            return &*tracer;
        },
        [&](std::size_t i, const evm::TxResult&) {
            if (i > 0) out += ',';
            tracer->write(out, nullptr);
        });
    if (!r) return r;
    out += ']';
    return {};
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
