// keel evm statetest FILE|DIR...: runs state-test fixtures (ethereum/tests GeneralStateTests,
// execution-spec-tests state_tests): one line per test, fork and index, then a summary; exit 1
// when any case fails.
// keel evm run --code HEX|@FILE: runs bytecode as a contract called with --input and --gas on an
// otherwise empty state; prints the status, output, gas used and time.
// Both take --trace: EIP-3155 lines on stderr (keel/trace/eip3155.hpp).
// keel evm blocktest FILE|DIR...: runs blockchain-test fixtures through keel/chain: one line per
// test, then a summary; exit 1 when any test fails.
// keel evm tracetest FILE|DIR...: runs go-ethereum's tracer fixtures (callTracer, flatCallTracer,
// prestateTracer): one line per fixture, then a summary; exit 1 when any result differs.
#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "apps/keel/blocktest.hpp"
#include "apps/keel/commands.hpp"
#include "apps/keel/fixture_json.hpp"
#include "apps/keel/input.hpp"
#include "apps/keel/statetest.hpp"
#include "apps/keel/tracetest.hpp"
#include "keel/common/hex.hpp"
#include "keel/eth/errors.hpp"
#include "keel/eth/transaction.hpp"
#include "keel/eth/tx_validation.hpp"
#include "keel/evm/evm.hpp"
#include "keel/evm/transaction.hpp"
#include "keel/state/memory_state.hpp"
#include "keel/trace/eip3155.hpp"
#include "keel/trace/parity_tracer.hpp"
#include "keel/trace/struct_logger.hpp"
#include "keel/trace/tracer_spec.hpp"
#include "keel/trace/tx_selector.hpp"

namespace keel::cli {

namespace {

namespace fs = std::filesystem;

/// The fixture files named by the arguments, folders walked recursively (a symbolic link to a
/// folder is not followed; one to a file is). A folder or entry that cannot be read is reported
/// on stderr with its path and counted in `unreadable`; the walk goes on with the rest (the
/// library's iterator used to throw "cannot increment recursive directory iterator" naming no
/// path, and end the run).
std::vector<fs::path> fixture_files(const std::vector<std::string>& args, std::size_t& unreadable) {
    const auto report = [&unreadable](const fs::path& p, const std::error_code& ec) {
        std::fprintf(stderr, "keel: %s: cannot read: %s\n", fixture::printable(p.string()).c_str(),
                     ec.message().c_str());
        ++unreadable;
    };
    std::vector<fs::path> out;
    for (const std::string& a : args) {
        std::error_code ec;
        if (fs::is_directory(a, ec)) {
            std::vector<fs::path> found;
            std::vector<fs::path> pending{fs::path(a)};
            while (!pending.empty()) {
                const fs::path dir = std::move(pending.back());
                pending.pop_back();
                fs::directory_iterator it(dir, ec);
                if (ec) {
                    report(dir, ec);
                    continue;
                }
                for (; it != fs::directory_iterator(); it.increment(ec)) {
                    const fs::directory_entry& e = *it;
                    std::error_code eec;
                    if (e.is_symlink(eec) ? false : e.is_directory(eec)) {
                        pending.push_back(e.path());
                        continue;
                    }
                    if (e.path().extension() != ".json") continue;
                    if (e.is_regular_file(eec)) {
                        found.push_back(e.path());
                    } else if (eec) {
                        report(e.path(), eec);
                    }
                }
                if (ec) report(dir, ec);
            }
            std::sort(found.begin(), found.end());
            out.insert(out.end(), found.begin(), found.end());
        } else if (fs::is_regular_file(a, ec)) {
            out.emplace_back(a);
        } else {
            throw Failure{kExitUsage, fixture::printable(a) + ": no such file or directory"};
        }
    }
    return out;
}

/// The end of a fixture run: the summary, then exit 2 when some path could not be read, 1 when
/// a case failed.
void finish_run(std::size_t passed, std::size_t failed, std::size_t files, std::size_t unreadable,
                const char* what) {
    std::fprintf(stderr, "%zu passed, %zu failed in %zu files\n", passed, failed, files);
    if (unreadable != 0)
        throw Failure{kExitUsage, std::to_string(unreadable) + " paths could not be read"};
    if (failed != 0) throw Failure{kExitBadData, std::to_string(failed) + " " + what + " failed"};
}

/// A JSON line with the fixture's strings in it: invalid UTF-8 is replaced, not thrown on.
std::string json_line(const nlohmann::json& j) {
    return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

// --trace and what it may add to each line, for both subcommands.
void add_trace_flags(CLI::App& cmd, bool& trace, trace::Eip3155Options& options) {
    cmd.add_flag("--trace", trace,
                 "write an EIP-3155 trace (JSON lines, as geth's evm --json) to stderr");
    cmd.add_flag("--trace-memory", options.memory, "with --trace: the memory on every line")
        ->needs("--trace");
    cmd.add_flag("--trace-returndata", options.return_data,
                 "with --trace: the last call's return data on every line")
        ->needs("--trace");
}

}  // namespace

void add_evm_command(CLI::App& app) {
    auto* evm = app.add_subcommand("evm", "the EVM: run state tests, blockchain tests, bytecode");
    evm->require_subcommand(1);

    struct Args {
        std::vector<std::string> paths;
        std::string fork;
        std::string run;
        bool json = false;
        bool failures_only = false;
        bool trace = false;
        trace::Eip3155Options trace_options;
    };
    auto args = std::make_shared<Args>();
    auto* st =
        evm->add_subcommand("statetest", "run state-test fixtures; exit 1 if any case fails");
    st->add_option("paths", args->paths, "fixture files or folders of them (*.json, recursively)")
        ->required();
    st->add_option("--fork", args->fork, "only this fork's cases (Frontier .. Osaka)");
    st->add_option("--run", args->run,
                   "only tests whose name matches this regular expression (searched; linear "
                   "time: . [] ^ $ () | * + ? {n,m} \\d \\w \\s, no back-references)");
    st->add_flag("--json", args->json, "one JSON object per case instead of a text line");
    st->add_flag("--failures", args->failures_only, "print only the cases that fail");
    add_trace_flags(*st, args->trace, args->trace_options);
    st->callback([args] {
        StateTestOptions options;
        if (args->trace) {
            options.trace = stderr;
            options.trace_options = args->trace_options;
        }
        if (!args->fork.empty()) {
            options.fork = eth::parse_fork(args->fork);
            if (!options.fork) throw Failure{kExitUsage, "--fork: unknown fork " + args->fork};
        }
        if (!args->run.empty()) options.run.emplace(args->run);
        std::size_t unreadable = 0;
        const auto files = fixture_files(args->paths, unreadable);
        std::size_t passed = 0, failed = 0;
        for (const fs::path& f : files) {
            run_state_test_file(f, options, [&](const StateTestCase& c) {
                (c.pass ? passed : failed)++;
                if (args->failures_only && c.pass) return;
                if (args->json) {
                    nlohmann::json j{{"name", c.name},
                                     {"fork", c.fork},
                                     {"d", c.data},
                                     {"g", c.gas},
                                     {"v", c.value},
                                     {"pass", c.pass},
                                     {"stateRoot", c.state_root},
                                     {"logsHash", c.logs_hash},
                                     {"gasUsed", c.gas_used}};
                    if (!c.error.empty()) j["error"] = c.error;
                    std::printf("%s\n", json_line(j).c_str());
                } else {
                    std::printf("%s %s %s d=%zu g=%zu v=%zu root=%s%s%s\n",
                                c.pass ? "pass" : "FAIL", fixture::printable(c.name).c_str(),
                                fixture::printable(c.fork).c_str(), c.data, c.gas, c.value,
                                c.state_root.c_str(), c.error.empty() ? "" : " ",
                                fixture::one_line(c.error).c_str());
                }
            });
        }
        finish_run(passed, failed, files.size(), unreadable, "state test cases");
    });

    struct BlockArgs {
        std::vector<std::string> paths;
        std::string run;
        std::vector<std::string> skip;
        std::string system_contracts = "mainnet";
        bool json = false;
        bool failures_only = false;
        bool store = false;
    };
    auto block_args = std::make_shared<BlockArgs>();
    auto* bt =
        evm->add_subcommand("blocktest", "run blockchain-test fixtures; exit 1 if any test fails");
    bt->add_option("paths", block_args->paths,
                   "fixture files or folders of them (*.json, recursively)")
        ->required();
    bt->add_option("--run", block_args->run,
                   "only tests whose name matches this regular expression (as statetest's)");
    bt->add_option("--skip", block_args->skip,
                   "leave out the tests whose name matches this regular expression (repeatable; "
                   "the count left out is printed): for fixtures a run knowingly does not take, "
                   "with the reason beside the command that names them");
    bt->add_option("--system-contracts", block_args->system_contracts,
                   "system contract rules: mainnet (default: an EIP-7002/7251 contract "
                   "without code makes the block invalid), or devnet (the Pectra devnets' that "
                   "fixtures filled before March 2025 follow: its call is skipped, and the "
                   "devnet-5 addresses where a test's state has code at them)")
        ->check(CLI::IsMember({"mainnet", "devnet"}));
    bt->add_flag("--json", block_args->json, "one JSON object per test instead of a text line");
    bt->add_flag("--failures", block_args->failures_only, "print only the tests that fail");
    bt->add_flag("--store", block_args->store,
                 "run each test through the chain store: keel init of its genesis into a "
                 "temporary datadir, blocks inserted executing (side chains and reorganisations "
                 "through the state history), head and post-state read back from the store");
    bt->callback([block_args] {
        BlockTestOptions options;
        options.store = block_args->store;
        options.devnet_system_contracts = block_args->system_contracts == "devnet";
        if (!block_args->run.empty()) options.run.emplace(block_args->run);
        std::vector<fixture::NamePattern> skips;
        for (const std::string& s : block_args->skip) skips.emplace_back(s);
        std::size_t unreadable = 0;
        const auto files = fixture_files(block_args->paths, unreadable);
        std::size_t passed = 0, failed = 0, skipped = 0;
        for (const fs::path& f : files) {
            run_block_test_file(f, options, [&](const BlockTestCase& c) {
                for (const fixture::NamePattern& s : skips) {
                    if (s.search(c.name)) {
                        ++skipped;
                        return;
                    }
                }
                (c.pass ? passed : failed)++;
                if (block_args->failures_only && c.pass) return;
                if (block_args->json) {
                    nlohmann::json j{{"name", c.name},       {"network", c.network},
                                     {"pass", c.pass},       {"blocks", c.blocks},
                                     {"refused", c.refused}, {"head", c.head}};
                    if (!c.error.empty()) j["error"] = c.error;
                    std::printf("%s\n", json_line(j).c_str());
                } else {
                    std::printf("%s %s %s blocks=%zu refused=%zu%s%s\n", c.pass ? "pass" : "FAIL",
                                fixture::printable(c.name).c_str(),
                                fixture::printable(c.network).c_str(), c.blocks, c.refused,
                                c.error.empty() ? "" : " ", fixture::one_line(c.error).c_str());
                }
            });
        }
        if (skipped != 0) std::printf("%zu tests left out by --skip\n", skipped);
        finish_run(passed, failed, files.size(), unreadable, "blockchain tests");
    });

    struct TraceArgs {
        std::vector<std::string> paths;
        std::string tracer;
        bool failures_only = false;
        bool verbose = false;
    };
    auto trace_args = std::make_shared<TraceArgs>();
    auto* tt = evm->add_subcommand(
        "tracetest", "run go-ethereum's tracer fixtures; exit 1 if any result differs");
    tt->add_option("paths", trace_args->paths,
                   "fixture files or folders of them (*.json, recursively); the tracer is named "
                   "by each file's folder as in go-ethereum (call_tracer, call_tracer_flat, "
                   "prestate_tracer_with_diff_mode, ...)")
        ->required();
    tt->add_option("--tracer", trace_args->tracer,
                   "the tracer for every file instead: callTracer, flatCallTracer, "
                   "prestateTracer, callTracerLegacy or prestateTracerLegacy");
    tt->add_flag("--failures", trace_args->failures_only, "print only the fixtures that fail");
    tt->add_flag("--verbose", trace_args->verbose,
                 "for a failure, also both results in full (keel's, then the fixture's)");
    tt->callback([trace_args] {
        std::optional<FixtureTracer> tracer;
        if (!trace_args->tracer.empty()) {
            tracer = tracer_of_name(trace_args->tracer);
            if (!tracer)
                throw Failure{kExitUsage, "--tracer: unknown tracer " + trace_args->tracer};
        }
        std::size_t unreadable = 0;
        const auto files = fixture_files(trace_args->paths, unreadable);
        std::size_t passed = 0, failed = 0;
        for (const fs::path& f : files) {
            const TraceTestResult r = run_trace_test_file(f, tracer);
            (r.pass ? passed : failed)++;
            if (trace_args->failures_only && r.pass) continue;
            const std::string name =
                f.parent_path().filename().string() + "/" + f.filename().string();
            std::printf("%s %s%s%s\n", r.pass ? "pass" : "FAIL", fixture::printable(name).c_str(),
                        r.error.empty() ? "" : " ", fixture::one_line(r.error).c_str());
            if (!r.pass && trace_args->verbose) {
                std::printf("  got:      %s\n  expected: %s\n", r.got.c_str(), r.expected.c_str());
            }
        }
        finish_run(passed, failed, files.size(), unreadable, "tracer fixtures");
    });

    struct RunArgs {
        std::string code;
        std::string input;
        std::uint64_t gas = 30'000'000;
        std::string fork = "Osaka";
        std::string address = "0x000000000000000000000000000000000000c0de";
        std::string sender = "0x000000000000000000000000000000000000ca11";
        std::uint64_t sender_nonce = 0;
        std::string sender_balance;
        std::string balance = "0";
        bool as_tx = false;
        bool json = false;
        bool trace = false;
        trace::Eip3155Options trace_options;
        bool struct_log = false;
        trace::StructLoggerOptions struct_log_options;
        std::string tracer;
        std::string tracer_config;
        std::string trace_types = "trace";
    };
    auto run_args = std::make_shared<RunArgs>();
    auto* run = evm->add_subcommand("run", "run bytecode as a contract on an empty state");
    run->add_option("--code", run_args->code, "the bytecode: hex, @file (raw bytes) or -")
        ->required();
    run->add_option("--input", run_args->input, "call data: hex, @file or - (default: none)");
    run->add_option("--gas", run_args->gas,
                    "gas for the call, or with --tx the gas limit (default 30000000; with --tx "
                    "from Osaka on 16777216, EIP-7825's cap)")
        ->check(whole_number("an amount of gas", 0,
                             static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())));
    run->add_option("--fork", run_args->fork, "fork rules (default Osaka)");
    run->add_option("--address", run_args->address, "the contract's address (default 0x..c0de)");
    run->add_option("--balance", run_args->balance, "the contract's balance in wei (default 0)");
    run->add_option("--sender", run_args->sender, "the caller's address (default 0x..ca11)");
    run->add_option("--sender-nonce", run_args->sender_nonce, "the caller's nonce (default 0)")
        ->check(whole_number("a nonce"));
    run->add_option("--sender-balance", run_args->sender_balance,
                    "the caller's balance in wei (default 2^256 - 1)");
    run->add_flag("--tx", run_args->as_tx,
                  "run as a transaction from the sender (gas price 0): intrinsic gas, warm sets, "
                  "refunds; gas used is the transaction's");
    run->add_flag("--json", run_args->json,
                  "print {status, gasUsed, output, logs, changes} as one JSON object (changes: "
                  "every account that differs afterwards, with its new fields)");
    add_trace_flags(*run, run_args->trace, run_args->trace_options);
    auto* struct_log = run->add_flag(
        "--struct-log", run_args->struct_log,
        "print the struct (opcode) logger's result instead, as debug_traceCall returns it: "
        "{structLogs, gas, failed, returnValue}");
    struct_log->excludes("--json")->excludes("--trace");
    run->add_flag("--disable-stack", run_args->struct_log_options.disable_stack,
                  "with --struct-log: no stack on the steps")
        ->needs(struct_log);
    run->add_flag("--disable-storage", run_args->struct_log_options.disable_storage,
                  "with --struct-log: no storage at SLOAD and SSTORE")
        ->needs(struct_log);
    run->add_flag("--enable-memory", run_args->struct_log_options.enable_memory,
                  "with --struct-log: the memory on every step")
        ->needs(struct_log);
    run->add_flag("--enable-return-data", run_args->struct_log_options.enable_return_data,
                  "with --struct-log: the last call's return data on every step")
        ->needs(struct_log);
    auto* tracer_opt =
        run->add_option("--tracer", run_args->tracer,
                        "with --tx: print this tracer's result for the transaction instead, as "
                        "debug_traceCall returns it: callTracer, flatCallTracer, prestateTracer, "
                        "4byteTracer, noopTracer, erc7562Tracer, muxTracer (docs/trace.md); or "
                        "parity, trace_replayTransaction's result (with --trace-types)");
    tracer_opt->needs("--tx")->excludes("--json")->excludes("--trace")->excludes(struct_log);
    run->add_option("--tracer-config", run_args->tracer_config,
                    "with --tracer: its options as JSON (geth's tracerConfig)")
        ->needs(tracer_opt);
    run->add_option("--trace-types", run_args->trace_types,
                    "with --tracer parity: trace,vmTrace,stateDiff (any of them; default trace)")
        ->needs(tracer_opt);
    run->add_option("--limit", run_args->struct_log_options.limit,
                    "with --struct-log: record at most this many steps (default 0: all)")
        ->check(whole_number("a number of steps"))
        ->needs(struct_log);
    run->callback([run_args, run] {
        const auto fork = eth::parse_fork(run_args->fork);
        if (!fork) throw Failure{kExitUsage, "--fork: unknown fork " + run_args->fork};
        const auto address_arg = [](const std::string& text, const char* what) {
            const auto a = hex::decode_fixed<Address>(text);
            if (!a)
                throw Failure{kExitUsage,
                              std::string(what) + ": not a 20-byte hex address: " + text};
            return *a;
        };
        const auto wei_arg = [](const std::string& text, const char* what) {
            const auto v = Uint256::from_string(text);
            if (!v)
                throw Failure{kExitUsage, std::string(what) + ": not a 256-bit number: " + text};
            return *v;
        };
        // Code and call data far beyond anything a chain holds are refused before they are read
        // whole (a device such as /dev/zero has no end).
        constexpr std::size_t kMaxRunBytes = std::size_t{16} << 20;
        Bytes code = read_data_arg(run_args->code, "--code", kMaxRunBytes);
        const Bytes input = run_args->input.empty()
                                ? Bytes{}
                                : read_data_arg(run_args->input, "--input", kMaxRunBytes);
        // A transaction's gas limit is capped from Osaka on (EIP-7825): the default gas stays
        // within the cap, so that `--tx` with its defaults runs.
        std::uint64_t gas = run_args->gas;
        if (run_args->as_tx && run->count("--gas") == 0 && *fork >= eth::Fork::osaka)
            gas = std::min(gas, eth::kMaxTxGasLimit);
        const Address contract = address_arg(run_args->address, "--address");
        const Address caller = address_arg(run_args->sender, "--sender");
        if (contract == caller)
            throw Failure{kExitUsage, "--sender: the same address as --address"};
        state::MemoryState pre;
        pre.put(contract, 1, wei_arg(run_args->balance, "--balance"), std::move(code), {});
        pre.put(caller, run_args->sender_nonce,
                run_args->sender_balance.empty()
                    ? Uint256::max()
                    : wei_arg(run_args->sender_balance, "--sender-balance"),
                Bytes{}, {});
        state::Overlay overlay(pre);
        evm::BlockEnv block;
        block.gas_limit = std::max<std::uint64_t>(gas, 30'000'000);
        std::optional<trace::Eip3155> tracer;
        if (run_args->trace) tracer.emplace(stderr, *fork, run_args->trace_options);
        // The struct log goes to stdout in 1 MiB chunks as it is written: memory stays bounded
        // by the chunk whatever the number of steps. A failed write is reported once execution
        // is over (no exception crosses the interpreter); what follows it is dropped.
        std::string log_text;
        std::optional<trace::StructLogger> logger;
        bool write_failed = false;
        const auto write_out = [&write_failed](std::string& text) {
            if (!write_failed && std::fwrite(text.data(), 1, text.size(), stdout) != text.size())
                write_failed = true;
            text.clear();
        };
        if (run_args->struct_log) {
            log_text.reserve(2u << 20);
            logger.emplace(log_text, *fork, run_args->struct_log_options);
            logger->set_drain(1u << 20, write_out);
        }
        // --tracer: a debug_trace tracer by name, its result written when the transaction ends.
        std::optional<trace::TxTracer> named;
        std::optional<trace::TxSelector> selector;
        std::string named_out;
        std::optional<trace::ParityTracer> parity;
        if (run_args->tracer == "parity") {
            auto types = trace::parse_trace_types(run_args->trace_types);
            if (!types) throw Failure{kExitUsage, "--trace-types: " + types.error()};
            if (!run_args->tracer_config.empty())
                throw Failure{kExitUsage, "--tracer-config: parity takes --trace-types instead"};
            parity.emplace(*types);
        } else if (run_args->trace_types != "trace") {
            throw Failure{kExitUsage, "--trace-types needs --tracer parity"};
        } else if (!run_args->tracer.empty()) {
            auto spec = trace::parse_tracer_spec(run_args->tracer, run_args->tracer_config);
            if (!spec) throw Failure{kExitUsage, "--tracer: " + spec.error()};
            if (spec->kind == trace::TracerKind::struct_log) {
                throw Failure{kExitUsage, "--tracer: use --struct-log for the struct logger"};
            }
            named.emplace(*spec, *fork);
            selector.emplace(
                [&](std::size_t, std::uint64_t) { return named->begin(named_out, 0); },
                [&](std::size_t, const evm::TxEndView& v) { named->end(named_out, v, {}); });
        }
        evm::Tracer* hooks = tracer     ? static_cast<evm::Tracer*>(&*tracer)
                             : logger   ? static_cast<evm::Tracer*>(&*logger)
                             : selector ? static_cast<evm::Tracer*>(&*selector)
                             : parity   ? static_cast<evm::Tracer*>(&*parity)
                                        : nullptr;

        evm::Status status = evm::Status::success;
        Bytes output;
        std::uint64_t gas_used = 0;
        std::vector<state::Log> logs;
        const auto start = std::chrono::steady_clock::now();
        if (run_args->as_tx) {
            eth::TransactionFields f;
            f.nonce = run_args->sender_nonce;
            f.gas_limit = gas;
            f.to = contract;
            f.data = input;
            f.v = 27;  // a placeholder signature: the sender is given, not recovered
            f.r = 1;
            f.s = 1;
            const auto tx = eth::decode_transaction(eth::encode(f));
            if (!tx) throw Failure{kExitUsage, "--tx: " + eth::to_string(tx.error())};
            auto r = evm::execute_transaction(*tx, caller, block, overlay, *fork, hooks);
            if (!r) {
                // The transaction is built here from the options: an offset into its encoding
                // means nothing to the user, the rule and the option do.
                const auto& e = r.error();
                std::string why = e.code == evm::TxErrc::static_check && e.detail
                                      ? std::string(eth::describe(e.detail->code))
                                      : evm::to_string(e);
                if (e.code == evm::TxErrc::static_check && e.detail &&
                    e.detail->code == eth::Errc::gas_limit_exceeds_maximum)
                    why += " (--gas " + std::to_string(gas) + " on " + run_args->fork +
                           "; at most " + std::to_string(eth::kMaxTxGasLimit) + ", EIP-7825)";
                throw Failure{kExitBadData, "--tx: transaction invalid: " + why};
            }
            status = r->status;
            output = std::move(r->output);
            gas_used = r->gas_used;
            logs = std::move(r->logs);
        } else {
            evm::TxEnv tx;
            tx.origin = caller;
            evm::Evm vm(overlay, block, tx, *fork, hooks);
            evm::Message msg;
            msg.gas = static_cast<std::int64_t>(gas);
            msg.recipient = msg.code_address = contract;
            msg.sender = caller;
            msg.input = input;
            evm::CallResult r = vm.call(msg);
            status = r.status;
            output = std::move(r.output);
            gas_used = static_cast<std::uint64_t>(msg.gas - r.gas_left);
            logs.assign(overlay.logs().begin(), overlay.logs().end());
            overlay.finalize_transaction({.delete_empty = *fork >= eth::Fork::spurious_dragon});
        }
        if (tracer) tracer->flush();
        if (parity) parity->write(named_out, nullptr);
        if (named || parity) {
            named_out += '\n';
            write_out(named_out);
            if (write_failed || std::fflush(stdout) != 0)
                throw Failure{kExitUsage, std::string("--tracer: cannot write to standard "
                                                      "output: ") +
                                              std::strerror(errno)};
            return;
        }
        if (logger) {
            logger->finish(gas_used, status != evm::Status::success, output);
            log_text += '\n';
            write_out(log_text);
            if (write_failed || std::fflush(stdout) != 0)
                throw Failure{kExitUsage, std::string("--struct-log: cannot write to standard "
                                                      "output: ") +
                                              std::strerror(errno)};
            return;
        }
        const double us =
            std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start)
                .count();
        if (!run_args->json) {
            std::printf("status: %s\noutput: %s\ngas used: %llu\ntime: %.1f us\n",
                        std::string(evm::describe(status)).c_str(),
                        hex::encode_prefixed(output).c_str(),
                        static_cast<unsigned long long>(gas_used), us);
            return;  // a failed write is reported by main(), which flushes standard output
        }
        nlohmann::json out{{"status", evm::describe(status)},
                           {"gasUsed", Uint256(gas_used).to_hex()},
                           {"output", hex::encode_prefixed(output)},
                           {"logs", nlohmann::json::array()},
                           {"changes", nlohmann::json::object()}};
        for (const state::Log& l : logs) {
            nlohmann::json topics = nlohmann::json::array();
            for (const Hash32& t : l.topics) topics.push_back(hex::encode_prefixed(t.view()));
            out["logs"].push_back({{"address", hex::encode_prefixed(l.address.view())},
                                   {"topics", topics},
                                   {"data", hex::encode_prefixed(l.data)}});
        }
        for (const state::AccountChange& c : overlay.changes()) {
            nlohmann::json& a = out["changes"][hex::encode_prefixed(c.address.view())];
            if (!c.account) {
                a["deleted"] = true;
                continue;
            }
            a["balance"] = c.account->balance.to_hex();
            a["nonce"] = c.account->nonce;
            if (c.code) a["code"] = hex::encode_prefixed(*c.code);
            a["storageCleared"] = c.storage_cleared;
            nlohmann::json slots = nlohmann::json::object();
            for (const auto& [k, v] : c.storage) slots[k.to_hex()] = v.to_hex();
            a["storage"] = slots;
        }
        std::printf("%s\n", out.dump().c_str());
    });
}

}  // namespace keel::cli
