// keel trace block B | tx HASH --datadir D [--tracer NAME] [--config JSON]: traces of stored
// blocks and transactions, replayed on their parent's state (keel/blockchain/replay.hpp), in
// the shapes of debug_traceBlockByNumber (an array of {"txHash", "result"}) and
// debug_traceTransaction (the result), streamed to stdout as each transaction ends.
// Tracers (keel/trace/tracer_spec.hpp): structLog (the default: geth's opcode logger),
// callTracer, flatCallTracer, prestateTracer, 4byteTracer, noopTracer, erc7562Tracer, muxTracer.
#include <sys/resource.h>

#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "apps/keel/commands.hpp"
#include "apps/keel/datadir.hpp"
#include "apps/keel/input.hpp"
#include "keel/blockchain/block_traces.hpp"
#include "keel/blockchain/call_traces.hpp"
#include "keel/blockchain/parity_traces.hpp"
#include "keel/blockchain/replay.hpp"
#include "keel/blockchain/trace_export.hpp"
#include "keel/common/hex.hpp"
#include "keel/common/json_writer.hpp"
#include "keel/common/progress.hpp"
#include "keel/trace/duration.hpp"
#include "keel/trace/parity_tracer.hpp"
#include "keel/trace/tracer_spec.hpp"

namespace keel::cli {
namespace {

struct TraceArgs {
    std::string datadir;
    std::string what;  // block or transaction
    std::string tracer = "structLog";
    std::string config;
    std::string trace_types;  // --tracer parity: trace,vmTrace,stateDiff (none: trace_block)
    std::string timeout;      // each transaction's time limit, Go's syntax (geth's timeout)
};

// Writes what the buffer holds to stdout and empties it.
void flush(std::string& out) {
    if (out.empty()) return;
    if (std::fwrite(out.data(), 1, out.size(), stdout) != out.size()) {
        throw Failure{kExitBadData, "trace: cannot write to standard output"};
    }
    out.clear();
}

bool is_parity(const TraceArgs& a) {
    return a.tracer == "parity";
}

// --trace-types: trace_replay*'s types; nullopt when none are given (trace_block's flat list).
std::optional<trace::ParityTraceTypes> trace_types_of(const TraceArgs& a, const std::string& what) {
    if (!a.timeout.empty()) {
        throw Failure{kExitUsage,
                      what + ": --timeout is for geth's tracers (debug_trace*), not parity's"};
    }
    if (a.trace_types.empty()) return std::nullopt;
    auto types = trace::parse_trace_types(a.trace_types);
    if (!types) throw Failure{kExitUsage, what + ": --trace-types: " + types.error()};
    return *types;
}

// Prints a Parity-family answer or the read's error.
void print_parity(const std::string& what, std::string& out,
                  const Result<void, blockchain::ReadError>& r) {
    if (!r) throw Failure{kExitBadData, what + ": " + r.error().message};
    out += '\n';
    flush(out);
}

trace::TracerSpec setup_of(const TraceArgs& args, const std::string& what) {
    auto spec = trace::parse_tracer_spec(args.tracer, args.config);
    if (!spec) throw Failure{kExitUsage, what + ": " + spec.error()};
    if (!args.timeout.empty()) {
        auto limit = trace::parse_duration(args.timeout);
        if (!limit) throw Failure{kExitUsage, what + ": --timeout: " + limit.error()};
        spec->timeout = *limit;
    }
    return std::move(*spec);
}

void trace_block(const TraceArgs& args) {
    const std::string what = "trace block " + args.what;
    if (is_parity(args)) {
        const auto types = trace_types_of(args, what);
        store::ChainStore chain = open_datadir(args.datadir, Access::read);
        const std::uint64_t number = resolve_block(chain, args.what, "trace block");
        const eth::ChainConfig config = chain_rules(chain, what);
        std::string out;
        print_parity(what, out,
                     types ? blockchain::write_replay_block(out, chain, config, number, *types)
                           : blockchain::write_trace_block(out, chain, config, number));
        return;
    }
    if (!args.trace_types.empty())
        throw Failure{kExitUsage, what + ": --trace-types needs --tracer parity"};
    const trace::TracerSpec setup = setup_of(args, what);
    store::ChainStore chain = open_datadir(args.datadir, Access::read);
    const std::uint64_t number = resolve_block(chain, args.what, "trace block");
    const eth::ChainConfig config = chain_rules(chain, what);
    auto b = blockchain::load_for_replay(chain, config, number);
    if (!b) throw Failure{kExitBadData, what + ": " + b.error().message};
    std::string out;
    auto r = blockchain::write_debug_traces(out, chain, *b, setup, std::nullopt, flush);
    if (!r) throw Failure{kExitBadData, what + ": " + r.error().message};
    out += '\n';
    flush(out);
}

void trace_tx(const TraceArgs& args) {
    const std::string what = "trace tx " + args.what;
    if (is_parity(args)) {
        const auto types = trace_types_of(args, what);
        const Hash32 hash = tx_hash_arg(args.what, what);
        store::ChainStore chain = open_datadir(args.datadir, Access::read);
        const eth::ChainConfig config = chain_rules(chain, what);
        std::string out;
        print_parity(what, out,
                     types ? blockchain::write_replay_transaction(out, chain, config, hash, *types)
                           : blockchain::write_trace_transaction(out, chain, config, hash));
        return;
    }
    if (!args.trace_types.empty())
        throw Failure{kExitUsage, what + ": --trace-types needs --tracer parity"};
    const trace::TracerSpec setup = setup_of(args, what);
    const Hash32 hash = tx_hash_arg(args.what, what);
    store::ChainStore chain = open_datadir(args.datadir, Access::read);
    const eth::ChainConfig config = chain_rules(chain, what);
    auto where = chain.tx_lookup(hash);
    if (!where) throw Failure{kExitBadData, what + ": " + where.error().message};
    if (where->status == store::ReadStatus::pruned) {
        throw Failure{kExitBadData, what + ": its block's history is pruned"};
    }
    if (!where->found()) throw Failure{kExitBadData, what + ": transaction not found"};
    const std::size_t index = where->value.index;
    auto b = blockchain::load_for_replay(chain, config, where->value.number);
    if (!b) throw Failure{kExitBadData, what + ": " + b.error().message};
    if (index >= b->block.body.transactions.size() ||
        b->block.body.transactions[index].hash() != hash) {
        throw Failure{kExitBadData, what + ": the transaction index names another transaction"};
    }
    std::string out;
    auto r = blockchain::write_debug_traces(out, chain, *b, setup, index, flush);
    if (!r) throw Failure{kExitBadData, what + ": " + r.error().message};
    out += '\n';
    flush(out);
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
                        "structLog (default), callTracer, flatCallTracer, prestateTracer, "
                        "4byteTracer, noopTracer, erc7562Tracer, muxTracer, or parity (the "
                        "trace_* family: trace_block / trace_transaction, or with --trace-types "
                        "trace_replayBlockTransactions / trace_replayTransaction)");
        cmd->add_option("--trace-types", a.trace_types,
                        "with --tracer parity: trace,vmTrace,stateDiff (any of them)");
        cmd->add_option("--config", a.config,
                        "the tracer's options as JSON (geth's tracerConfig): callTracer "
                        "onlyTopCall, withLog; flatCallTracer convertParityErrors, "
                        "includePrecompiles; prestateTracer diffMode, disableCode, "
                        "disableStorage, includeEmpty; erc7562Tracer stackTopItemsSize, "
                        "ignoredOpcodes, withLog; muxTracer {NAME: CONFIG, ...}; structLog "
                        "disableStack, disableStorage, enableMemory, enableReturnData, limit");
        cmd->add_option("--timeout", a.timeout,
                        "each transaction's time limit, as geth's timeout (\"5s\", \"300ms\"; "
                        "default none): a transaction traced longer shows \"execution "
                        "timeout\" in its result's place");
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

    struct CallArgs {
        TraceArgs trace;
        std::string from = "0x0000000000000000000000000000000000000000";
        std::string to;
        std::string data;
        std::string value = "0";
        std::optional<std::uint64_t> gas;
        std::string gas_price = "0";
    };
    auto call_args = std::make_shared<CallArgs>();
    call_args->trace.what = "latest";
    auto* call = trace->add_subcommand(
        "call",
        "a call nobody signed, executed on the state after a block (debug_traceCall; "
        "with --tracer parity, trace_call)");
    call->add_option("--block", call_args->trace.what,
                     "the block whose state and header the call runs on (default latest)");
    call->add_option("--from", call_args->from, "the sender (default the zero address)");
    call->add_option("--to", call_args->to, "the callee (absent: a creation with --data as code)");
    call->add_option("--data", call_args->data, "call data or init code, hex");
    call->add_option("--value", call_args->value, "wei sent (decimal or 0x-hex)");
    call->add_option("--gas", call_args->gas, "gas (default the block's gas limit, at most 50 M)");
    call->add_option("--gas-price", call_args->gas_price, "wei per gas (default 0: free)");
    common(call, call_args->trace);
    call->callback([call_args] {
        const CallArgs& a = *call_args;
        const std::string what = "trace call";
        blockchain::CallRequest req;
        const auto address = [&](const std::string& text, const char* flag) {
            auto v = hex::decode_fixed<Address>(text);
            if (!v)
                throw Failure{kExitUsage,
                              what + ": " + flag + ": '" + text + "' is not a 20-byte address"};
            return *v;
        };
        const auto number = [&](const std::string& text, const char* flag) {
            auto v = Uint256::from_string(text);
            if (!v)
                throw Failure{kExitUsage,
                              what + ": " + flag + ": '" + text + "' is not a 256-bit number"};
            return *v;
        };
        req.from = address(a.from, "--from");
        if (!a.to.empty()) req.to = address(a.to, "--to");
        if (!a.data.empty()) {
            auto d = hex::decode(a.data.starts_with("0x") ? a.data.substr(2) : a.data);
            if (!d) throw Failure{kExitUsage, what + ": --data: not hex"};
            req.data = std::move(*d);
        }
        req.value = number(a.value, "--value");
        req.gas = a.gas;
        req.gas_price = number(a.gas_price, "--gas-price");
        store::ChainStore chain = open_datadir(a.trace.datadir, Access::read);
        const eth::ChainConfig config = chain_rules(chain, what);
        const std::uint64_t at = resolve_block(chain, a.trace.what, what);
        std::string out;
        if (is_parity(a.trace)) {
            const auto types = trace_types_of(a.trace, what);
            print_parity(what, out,
                         blockchain::write_trace_call(
                             out, chain, config, at, req,
                             types.value_or(trace::ParityTraceTypes{.trace = true})));
            return;
        }
        if (!a.trace.trace_types.empty()) {
            throw Failure{kExitUsage, what + ": --trace-types needs --tracer parity"};
        }
        const trace::TracerSpec spec = setup_of(a.trace, what);
        auto r = blockchain::write_debug_trace_call(out, chain, config, at, req, spec, flush);
        if (!r) throw Failure{kExitBadData, what + ": " + r.error().message};
        out += '\n';
        flush(out);
    });

    struct ExportArgs {
        std::string datadir;
        std::string from = "earliest";
        std::string to = "latest";
        std::string out;
        std::string tracer = "callTracer";
        std::string config;
        std::string timeout;
        std::uint64_t chunk_blocks = 1000;
        unsigned threads = 0;
        std::uint64_t cache_mb = 64;
        bool quiet = false;
    };
    auto export_args = std::make_shared<ExportArgs>();
    auto* exp = trace->add_subcommand(
        "export",
        "the traces of a block range into chunked JSON-lines files (a line per block), over "
        "every core; resumable: a finished chunk is never redone, a killed run picks up");
    exp->add_option("--datadir", export_args->datadir, "the chain store")->required();
    exp->add_option("--from", export_args->from, "the first block (default earliest)");
    exp->add_option("--to", export_args->to, "the last block (default latest)");
    exp->add_option("--out", export_args->out, "the folder for the chunk files")->required();
    exp->add_option("--tracer", export_args->tracer,
                    "as keel trace block (default callTracer); parity: trace_block's traces");
    exp->add_option("--config", export_args->config, "the tracer's options as JSON");
    exp->add_option("--timeout", export_args->timeout,
                    "each transaction's time limit, as keel trace block (default none)");
    exp->add_option("--chunk-blocks", export_args->chunk_blocks, "blocks per file (default 1000)")
        ->check(CLI::Range(std::uint64_t{1}, std::uint64_t{100'000'000}));
    exp->add_option("--threads", export_args->threads, "workers (default: one per core)")
        ->check(CLI::Range(0u, 1024u));
    exp->add_option("--cache-mb", export_args->cache_mb,
                    "the store's block cache in MB (default 64: an export reads each block's "
                    "state once; the cache and one transaction's result per worker are what "
                    "the run holds in memory)")
        ->check(CLI::Range(std::uint64_t{1}, std::uint64_t{1} << 20));
    exp->add_flag("--quiet", export_args->quiet, "no progress line");
    exp->callback([export_args] {
        const std::string what = "trace export";
        const ExportArgs& a = *export_args;
        blockchain::TraceExportOptions o;
        o.parity = a.tracer == "parity";
        TraceArgs t;
        t.tracer = a.tracer;
        t.config = a.config;
        t.timeout = a.timeout;
        if (o.parity)
            (void)trace_types_of(t, what);  // refuses --timeout
        else
            o.spec = setup_of(t, what);
        store::ChainStore chain = open_datadir(a.datadir, Access::read, a.cache_mb << 20);
        const eth::ChainConfig config = chain_rules(chain, what);
        o.from = resolve_block(chain, a.from, what);
        o.to = resolve_block(chain, a.to, what);
        if (o.from > o.to) throw Failure{kExitUsage, what + ": --from is after --to"};
        o.dir = a.out;
        o.chunk_blocks = a.chunk_blocks;
        o.threads = a.threads;
        Progress progress("trace export", o.to - o.from + 1,
                          {.enabled = !a.quiet, .unit = "blocks", .secondary_unit = "gas"});
        o.on_block = [&progress](std::uint64_t gas) { progress.advance(1, gas); };
        auto r = blockchain::export_traces(chain, config, o);
        progress.finish();
        if (!r) throw Failure{kExitBadData, r.error()};
        // The process's peak resident memory: bounded whatever the range (docs/trace.md).
        rusage usage{};
        getrusage(RUSAGE_SELF, &usage);
        std::printf(
            "trace export: %llu chunks of blocks %llu-%llu in %s: %llu written (%llu "
            "blocks, %llu bytes), %llu already complete; peak RSS %.1f MB\n",
            static_cast<unsigned long long>(r->chunks), static_cast<unsigned long long>(o.from),
            static_cast<unsigned long long>(o.to), a.out.c_str(),
            static_cast<unsigned long long>(r->written), static_cast<unsigned long long>(r->blocks),
            static_cast<unsigned long long>(r->bytes), static_cast<unsigned long long>(r->skipped),
            static_cast<double>(usage.ru_maxrss) / 1024.0);
    });

    struct FilterArgs {
        std::string datadir;
        std::string from = "earliest";
        std::string to = "latest";
        std::vector<std::string> from_addresses;
        std::vector<std::string> to_addresses;
        std::uint64_t after = 0;
        std::optional<std::uint64_t> count;
    };
    auto filter_args = std::make_shared<FilterArgs>();
    auto* filter = trace->add_subcommand(
        "filter", "the Parity-style traces of a block range that match, as trace_filter");
    filter->add_option("--datadir", filter_args->datadir, "the chain store")->required();
    filter->add_option("--from", filter_args->from, "the first block (default earliest)");
    filter->add_option("--to", filter_args->to, "the last block (default latest)");
    filter->add_option("--from-address", filter_args->from_addresses,
                       "only actions from one of these (repeatable)");
    filter->add_option("--to-address", filter_args->to_addresses,
                       "only actions to one of these (repeatable)");
    filter->add_option("--after", filter_args->after, "skip this many matches first");
    filter->add_option("--count", filter_args->count, "write at most this many");
    filter->callback([filter_args] {
        const std::string what = "trace filter";
        store::ChainStore chain = open_datadir(filter_args->datadir, Access::read);
        const eth::ChainConfig config = chain_rules(chain, what);
        blockchain::TraceFilter f;
        f.from = resolve_block(chain, filter_args->from, what);
        f.to = resolve_block(chain, filter_args->to, what);
        if (f.from > f.to) throw Failure{kExitUsage, what + ": --from is after --to"};
        const auto addresses = [&](const std::vector<std::string>& in, std::vector<Address>& into) {
            for (const std::string& a : in) {
                auto addr = hex::decode_fixed<Address>(a);
                if (!addr)
                    throw Failure{kExitUsage, what + ": '" + a + "' is not a 20-byte address"};
                into.push_back(*addr);
            }
        };
        addresses(filter_args->from_addresses, f.from_addresses);
        addresses(filter_args->to_addresses, f.to_addresses);
        f.after = filter_args->after;
        f.count = filter_args->count;
        std::string out;
        print_parity(what, out, blockchain::write_trace_filter(out, chain, config, f));
    });
}

}  // namespace keel::cli
