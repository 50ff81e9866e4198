// keel trace block B | tx HASH --datadir D [--tracer NAME] [--config JSON]: traces of stored
// blocks and transactions, replayed on their parent's state (keel/blockchain/replay.hpp), in
// the shapes of debug_traceBlockByNumber (an array of {"txHash", "result"}) and
// debug_traceTransaction (the result), streamed to stdout as each transaction ends.
// Tracers: callTracer, flatCallTracer, prestateTracer (keel/trace) and structLog (the default:
// geth's opcode logger).
#include <cstdio>
#include <memory>
#include <optional>
#include <string>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "apps/keel/commands.hpp"
#include "apps/keel/datadir.hpp"
#include "apps/keel/input.hpp"
#include "keel/blockchain/replay.hpp"
#include "keel/common/hex.hpp"
#include "keel/common/json_writer.hpp"
#include "keel/trace/call_tracer.hpp"
#include "keel/trace/prestate_tracer.hpp"
#include "keel/trace/struct_logger.hpp"
#include "keel/trace/tx_selector.hpp"

namespace keel::cli {
namespace {

enum class TracerKind { struct_log, call, flat_call, prestate };

struct TraceArgs {
    std::string datadir;
    std::string what;  // block or transaction
    std::string tracer = "structLog";
    std::string config = "{}";
};

// The tracer's options from --config (geth's tracerConfig; for structLog, TraceConfig's
// members). A member the tracer does not take is refused, not ignored: a misspelt option
// would otherwise trace without it.
struct TracerSetup {
    TracerKind kind = TracerKind::struct_log;
    trace::CallTracerOptions call;
    trace::FlatCallTracerOptions flat;
    trace::PrestateTracerOptions prestate;
    trace::StructLoggerOptions struct_log;
};

TracerSetup setup_of(const TraceArgs& args, const std::string& what) {
    TracerSetup s;
    if (args.tracer == "structLog") {
        s.kind = TracerKind::struct_log;
    } else if (args.tracer == "callTracer") {
        s.kind = TracerKind::call;
    } else if (args.tracer == "flatCallTracer") {
        s.kind = TracerKind::flat_call;
    } else if (args.tracer == "prestateTracer") {
        s.kind = TracerKind::prestate;
    } else {
        throw Failure{kExitUsage, what + ": --tracer: unknown tracer " + args.tracer +
                                      " (callTracer, flatCallTracer, prestateTracer, structLog)"};
    }
    nlohmann::json c;
    try {
        c = nlohmann::json::parse(args.config);
    } catch (const nlohmann::json::exception&) {
        throw Failure{kExitUsage, what + ": --config: not JSON"};
    }
    if (!c.is_object()) throw Failure{kExitUsage, what + ": --config: not a JSON object"};
    for (const auto& [key, value] : c.items()) {
        const auto flag = [&](bool& into) {
            if (!value.is_boolean()) {
                throw Failure{kExitUsage, what + ": --config: " + key + ": not true or false"};
            }
            into = value.get<bool>();
        };
        bool known = true;
        switch (s.kind) {
            case TracerKind::call:
                if (key == "onlyTopCall")
                    flag(s.call.only_top_call);
                else if (key == "withLog")
                    flag(s.call.with_log);
                else
                    known = false;
                break;
            case TracerKind::flat_call:
                if (key == "convertParityErrors")
                    flag(s.flat.convert_parity_errors);
                else if (key == "includePrecompiles")
                    flag(s.flat.include_precompiles);
                else
                    known = false;
                break;
            case TracerKind::prestate:
                if (key == "diffMode")
                    flag(s.prestate.diff_mode);
                else if (key == "disableCode")
                    flag(s.prestate.disable_code);
                else if (key == "disableStorage")
                    flag(s.prestate.disable_storage);
                else if (key == "includeEmpty")
                    flag(s.prestate.include_empty);
                else
                    known = false;
                break;
            case TracerKind::struct_log:
                if (key == "disableStack")
                    flag(s.struct_log.disable_stack);
                else if (key == "disableStorage")
                    flag(s.struct_log.disable_storage);
                else if (key == "enableMemory")
                    flag(s.struct_log.enable_memory);
                else if (key == "enableReturnData")
                    flag(s.struct_log.enable_return_data);
                else if (key == "limit" && value.is_number_unsigned())
                    s.struct_log.limit = value.get<std::uint64_t>();
                else
                    known = false;
                break;
        }
        if (!known) {
            throw Failure{kExitUsage,
                          what + ": --config: " + key + " is not an option of " + args.tracer};
        }
    }
    if (s.prestate.diff_mode && s.prestate.include_empty) {
        throw Failure{kExitUsage, what + ": --config: diffMode cannot be used with includeEmpty"};
    }
    return s;
}

// Writes what the buffer holds to stdout and empties it.
void flush(std::string& out) {
    if (out.empty()) return;
    if (std::fwrite(out.data(), 1, out.size(), stdout) != out.size()) {
        throw Failure{kExitBadData, "trace: cannot write to standard output"};
    }
    out.clear();
}

// Traces the transactions of `b` that `selected` accepts, writing each one's result after
// `prefix(index)` and before `suffix` into stdout as it ends.
void trace_transactions(const store::ChainStore& chain, const blockchain::StoredBlock& b,
                        const TracerSetup& setup, const std::function<bool(std::size_t)>& selected,
                        const std::function<void(std::string&, std::size_t)>& prefix,
                        const char* suffix, chain::ReplayOptions options, const std::string& what) {
    const eth::Fork fork = b.config.fork_at(b.block.header.number, b.block.header.timestamp);
    std::string out;
    trace::CallTracer call(setup.call);
    trace::PrestateTracer prestate(setup.prestate);
    std::optional<trace::StructLogger> logger;
    trace::TxSelector selector(
        [&](std::size_t i, std::uint64_t first_log) -> evm::Tracer* {
            if (!selected(i)) return nullptr;
            prefix(out, i);
            switch (setup.kind) {
                case TracerKind::call:
                case TracerKind::flat_call:
                    call.set_first_log_index(first_log);
                    return &call;
                case TracerKind::prestate:
                    return &prestate;
                case TracerKind::struct_log:
                    logger.emplace(out, fork, setup.struct_log);
                    // A long trace goes out in pieces: memory stays bounded by the buffer.
                    logger->set_drain(1 << 20, [](std::string& o) { flush(o); });
                    return &*logger;
            }
            return nullptr;
        },
        [&](std::size_t i, const evm::TxEndView& tx) {
            json::Writer w(out);
            switch (setup.kind) {
                case TracerKind::call:
                    call.write_call(w);
                    break;
                case TracerKind::flat_call: {
                    const Hash32& tx_hash = b.block.body.transactions[i].hash();
                    call.write_flat(w, setup.flat,
                                    {.block_hash = &b.hash,
                                     .block_number = b.block.header.number,
                                     .tx_hash = &tx_hash,
                                     .tx_index = i});
                    break;
                }
                case TracerKind::prestate:
                    prestate.write(w);
                    break;
                case TracerKind::struct_log:
                    logger->finish(tx.gas_used, tx.status != evm::Status::success, tx.output);
                    break;
            }
            out += suffix;
            flush(out);
        });
    auto r = blockchain::replay(chain, b, &selector, options);
    if (!r) throw Failure{kExitBadData, what + ": " + r.error().message};
}

void trace_block(const TraceArgs& args) {
    const std::string what = "trace block " + args.what;
    const TracerSetup setup = setup_of(args, what);
    store::ChainStore chain = open_datadir(args.datadir, Access::read);
    const std::uint64_t number = resolve_block(chain, args.what, "trace block");
    const eth::ChainConfig config = chain_rules(chain, what);
    auto b = blockchain::load_for_replay(chain, config, number);
    if (!b) throw Failure{kExitBadData, what + ": " + b.error().message};
    std::string head = "[";
    flush(head);
    trace_transactions(
        chain, *b, setup, [](std::size_t) { return true; },
        [&](std::string& out, std::size_t i) {
            if (i > 0) out += ',';
            out += "{\"txHash\":\"";
            out += hex::encode_prefixed(b->block.body.transactions[i].hash().view());
            out += "\",\"result\":";
        },
        "}", {}, what);
    std::string tail = "]\n";
    flush(tail);
}

void trace_tx(const TraceArgs& args) {
    const std::string what = "trace tx " + args.what;
    const TracerSetup setup = setup_of(args, what);
    auto hash = hex::decode_fixed<Hash32>(args.what);
    if (!hash) {
        throw Failure{kExitUsage,
                      fmt::format("{}: not a 32-byte hash: {}", what, to_string(hash.error()))};
    }
    store::ChainStore chain = open_datadir(args.datadir, Access::read);
    const eth::ChainConfig config = chain_rules(chain, what);
    auto where = chain.tx_lookup(*hash);
    if (!where) throw Failure{kExitBadData, what + ": " + where.error().message};
    if (where->status == store::ReadStatus::pruned) {
        throw Failure{kExitBadData, what + ": its block's history is pruned"};
    }
    if (!where->found()) throw Failure{kExitBadData, what + ": transaction not found"};
    const std::size_t index = where->value.index;
    auto b = blockchain::load_for_replay(chain, config, where->value.number);
    if (!b) throw Failure{kExitBadData, what + ": " + b.error().message};
    if (index >= b->block.body.transactions.size() ||
        b->block.body.transactions[index].hash() != *hash) {
        throw Failure{kExitBadData, what + ": the transaction index names another transaction"};
    }
    trace_transactions(
        chain, *b, setup, [index](std::size_t i) { return i == index; },
        [](std::string&, std::size_t) {}, "\n", {.last_tx = index}, what);
}

}  // namespace

void add_trace_command(CLI::App& app) {
    auto* trace = app.add_subcommand(
        "trace", "trace stored blocks and transactions: replayed on their parent's state");
    trace->require_subcommand(1);
    const auto common = [](CLI::App* cmd, TraceArgs& a) {
        cmd->add_option("--datadir", a.datadir, "the chain store (keel init, keel import)")
            ->required();
        cmd->add_option("--tracer", a.tracer,
                        "structLog (default), callTracer, flatCallTracer or prestateTracer");
        cmd->add_option("--config", a.config,
                        "the tracer's options as JSON (geth's tracerConfig): callTracer "
                        "onlyTopCall, withLog; flatCallTracer convertParityErrors, "
                        "includePrecompiles; prestateTracer diffMode, disableCode, "
                        "disableStorage, includeEmpty; structLog disableStack, disableStorage, "
                        "enableMemory, enableReturnData, limit");
    };
    auto block_args = std::make_shared<TraceArgs>();
    auto* block = trace->add_subcommand(
        "block", "every transaction of a block, as debug_traceBlockByNumber returns them");
    block->add_option("block", block_args->what, "latest, earliest, a number or a block hash")
        ->required();
    common(block, *block_args);
    block->callback([block_args] { trace_block(*block_args); });

    auto tx_args = std::make_shared<TraceArgs>();
    auto* tx = trace->add_subcommand(
        "tx",
        "one transaction, as debug_traceTransaction returns it (the ones before it in "
        "its block replayed untraced)");
    tx->add_option("hash", tx_args->what, "the transaction hash")->required();
    common(tx, *tx_args);
    tx->callback([tx_args] { trace_tx(*tx_args); });
}

}  // namespace keel::cli
