// keel trace block B | tx HASH --datadir D [--tracer NAME] [--config JSON]: traces of stored
// blocks and transactions, replayed on their parent's state (keel/blockchain/replay.hpp), in
// the shapes of debug_traceBlockByNumber (an array of {"txHash", "result"}) and
// debug_traceTransaction (the result), streamed to stdout as each transaction ends.
// Tracers (keel/trace/tracer_spec.hpp): structLog (the default: geth's opcode logger),
// callTracer, flatCallTracer, prestateTracer, 4byteTracer, noopTracer, erc7562Tracer, muxTracer.
#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "apps/keel/commands.hpp"
#include "apps/keel/datadir.hpp"
#include "apps/keel/input.hpp"
#include "keel/blockchain/parity_traces.hpp"
#include "keel/blockchain/replay.hpp"
#include "keel/common/hex.hpp"
#include "keel/common/json_writer.hpp"
#include "keel/trace/tracer_spec.hpp"
#include "keel/trace/tx_selector.hpp"

namespace keel::cli {
namespace {

struct TraceArgs {
    std::string datadir;
    std::string what;  // block or transaction
    std::string tracer = "structLog";
    std::string config;
    std::string trace_types;  // --tracer parity: trace,vmTrace,stateDiff (none: trace_block)
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
    if (a.trace_types.empty()) return std::nullopt;
    trace::ParityTraceTypes t;
    std::size_t begin = 0;
    while (begin <= a.trace_types.size()) {
        const std::size_t end = std::min(a.trace_types.find(',', begin), a.trace_types.size());
        const std::string one = a.trace_types.substr(begin, end - begin);
        if (one == "trace")
            t.trace = true;
        else if (one == "vmTrace")
            t.vm_trace = true;
        else if (one == "stateDiff")
            t.state_diff = true;
        else
            throw Failure{kExitUsage, what + ": --trace-types: " + one +
                                          " is none of trace, vmTrace, stateDiff"};
        begin = end + 1;
    }
    return t;
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
    return std::move(*spec);
}

// Traces the transactions of `b` that `selected` accepts, writing each one's result after
// `prefix(index)` and before `suffix` into stdout as it ends.
void trace_transactions(const store::ChainStore& chain, const blockchain::StoredBlock& b,
                        const trace::TracerSpec& spec,
                        const std::function<bool(std::size_t)>& selected,
                        const std::function<void(std::string&, std::size_t)>& prefix,
                        const char* suffix, chain::ReplayOptions options, const std::string& what) {
    const eth::Fork fork = b.config.fork_at(b.block.header.number, b.block.header.timestamp);
    std::string out;
    trace::TxTracer tracer(spec, fork);
    // A long struct log goes out in pieces: memory stays bounded by the buffer.
    tracer.set_drain(1 << 20, [](std::string& o) { flush(o); });
    trace::TxSelector selector(
        [&](std::size_t i, std::uint64_t first_log) -> evm::Tracer* {
            if (!selected(i)) return nullptr;
            prefix(out, i);
            return tracer.begin(out, first_log);
        },
        [&](std::size_t i, const evm::TxEndView& tx) {
            const Hash32& tx_hash = b.block.body.transactions[i].hash();
            tracer.end(out, tx,
                       {.block_hash = &b.hash,
                        .block_number = b.block.header.number,
                        .tx_hash = &tx_hash,
                        .tx_index = i});
            out += suffix;
            flush(out);
        });
    auto r = blockchain::replay(chain, b, &selector, options);
    if (!r) throw Failure{kExitBadData, what + ": " + r.error().message};
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
    if (is_parity(args)) {
        const auto types = trace_types_of(args, what);
        auto hash = hex::decode_fixed<Hash32>(args.what);
        if (!hash) throw Failure{kExitUsage, what + ": not a 32-byte hash"};
        store::ChainStore chain = open_datadir(args.datadir, Access::read);
        const eth::ChainConfig config = chain_rules(chain, what);
        std::string out;
        print_parity(what, out,
                     types ? blockchain::write_replay_transaction(out, chain, config, *hash, *types)
                           : blockchain::write_trace_transaction(out, chain, config, *hash));
        return;
    }
    if (!args.trace_types.empty())
        throw Failure{kExitUsage, what + ": --trace-types needs --tracer parity"};
    const trace::TracerSpec setup = setup_of(args, what);
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
