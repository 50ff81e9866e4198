#include "apps/keel/tracetest.hpp"

#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "apps/keel/fixture_json.hpp"
#include "apps/keel/input.hpp"
#include "keel/chain/genesis.hpp"
#include "keel/common/json_writer.hpp"
#include "keel/eth/chain_config.hpp"
#include "keel/eth/sender.hpp"
#include "keel/eth/transaction.hpp"
#include "keel/evm/transaction.hpp"
#include "keel/state/overlay.hpp"
#include "keel/trace/call_tracer.hpp"
#include "keel/trace/erc7562_tracer.hpp"
#include "keel/trace/legacy_tracers.hpp"
#include "keel/trace/prestate_tracer.hpp"

namespace keel::cli {
namespace {

using fixture::printable;
using nlohmann::json;

// ---- geth's result types, as its tests read the expected results ------------------------------
// Each normaliser reads a result as geth's test unmarshals it into its Go type and writes what
// json.Marshal would make of that: members with `omitempty` and an empty value left out,
// numbers and bytes in their canonical hex.

std::string hex_number(const json& j) {
    if (j.is_number_unsigned()) return Uint256(j.get<std::uint64_t>()).to_hex();
    if (!j.is_string()) return "0x0";
    auto v = Uint256::from_string(j.get<std::string>());
    return v ? v->to_hex() : j.get<std::string>();
}

bool zero_number(const json& j) {
    return j.is_null() || hex_number(j) == "0x0";
}

std::string hex_bytes(const json& j) {
    if (!j.is_string()) return "0x";
    std::string s = j.get<std::string>();
    if (s.starts_with("0x") || s.starts_with("0X")) s.erase(0, 2);
    for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return "0x" + s;
}

// A common.Address: always written (a Go array is never empty), zero when absent.
std::string hex_address(const json& j) {
    std::string s = j.is_string() ? hex_bytes(j).substr(2) : std::string();
    if (s.size() < 40) s.insert(0, 40 - s.size(), '0');
    return "0x" + s;
}

const json* member(const json& j, const char* key) {
    if (!j.is_object()) return nullptr;
    auto it = j.find(key);
    if (it == j.end() || it->is_null()) return nullptr;
    return &*it;
}

// eth/tracers/internal/tracetest/calltrace_test.go's callTrace (with `erc7562`, its
// erc7562_tracer_test.go's erc7562Trace: the same and the validation members).
json normalize_call(const json& j, bool erc7562 = false) {
    json out = json::object();
    const json* v = nullptr;
    out["from"] = hex_address(j.value("from", json()));
    out["gas"] = (v = member(j, "gas")) ? json(hex_number(*v)) : json();
    out["gasUsed"] = (v = member(j, "gasUsed")) ? json(hex_number(*v)) : json();
    if ((v = member(j, "to"))) out["to"] = hex_address(*v);
    out["input"] = (v = member(j, "input")) ? hex_bytes(*v) : "0x";
    if ((v = member(j, "output")) && hex_bytes(*v) != "0x") out["output"] = hex_bytes(*v);
    if ((v = member(j, "error")) && v->is_string() && !v->get<std::string>().empty())
        out["error"] = *v;
    if ((v = member(j, "revertReason")) && v->is_string() && !v->get<std::string>().empty())
        out["revertReason"] = *v;
    if ((v = member(j, "calls")) && v->is_array() && !v->empty()) {
        json calls = json::array();
        for (const json& c : *v) calls.push_back(normalize_call(c, erc7562));
        out["calls"] = std::move(calls);
    }
    if ((v = member(j, "logs")) && v->is_array() && !v->empty()) {
        json logs = json::array();
        for (const json& l : *v) {
            json n = json::object();
            n["address"] = hex_address(l.value("address", json()));
            const json* t = member(l, "topics");
            if (t != nullptr && t->is_array()) {
                json topics = json::array();
                for (const json& x : *t) topics.push_back(hex_bytes(x));
                n["topics"] = std::move(topics);
            } else {
                n["topics"] = nullptr;
            }
            const json* d = member(l, "data");
            n["data"] = d != nullptr ? hex_bytes(*d) : "0x";
            const json* i = member(l, "index");
            n["index"] = i != nullptr ? hex_number(*i) : "0x0";
            const json* p = member(l, "position");
            n["position"] = p != nullptr ? hex_number(*p) : "0x0";
            logs.push_back(std::move(n));
        }
        out["logs"] = std::move(logs);
    }
    if ((v = member(j, "value"))) out["value"] = hex_number(*v);
    out["type"] = j.value("type", "");
    if (erc7562) {
        for (const char* k : {"accessedSlots", "extCodeAccessInfo", "usedOpcodes", "contractSize"})
            out[k] = j.contains(k) ? j[k] : json();
        out["outOfGas"] = j.value("outOfGas", false);
        if ((v = member(j, "keccak")) && v->is_array() && !v->empty()) out["keccak"] = *v;
    }
    return out;
}

// flat_calltrace_test.go's flatCallTrace: zero values and absent members alike, the block and
// transaction position members ignored.
json normalize_flat(const json& list) {
    json out = json::array();
    if (!list.is_array()) return out;
    for (const json& t : list) {
        json n = json::object();
        const json a = t.value("action", json::object());
        json action = json::object();
        const auto text_member = [](const json& o, const char* k, json& into) {
            const json* v = member(o, k);
            if (v != nullptr && v->is_string() && !v->get<std::string>().empty()) into[k] = *v;
        };
        const auto number_member = [](const json& o, const char* k, json& into) {
            const json* v = member(o, k);
            if (v != nullptr && !zero_number(*v)) into[k] = hex_number(*v);
        };
        const auto bytes_member = [](const json& o, const char* k, json& into) {
            const json* v = member(o, k);
            if (v != nullptr && hex_bytes(*v) != "0x") into[k] = hex_bytes(*v);
        };
        action["author"] = hex_address(a.value("author", json()));
        text_member(a, "rewardType", action);
        action["address"] = hex_address(a.value("address", json()));
        action["balance"] = member(a, "balance") ? hex_number(a["balance"]) : "0x0";
        text_member(a, "callType", action);
        text_member(a, "creationMethod", action);
        action["from"] = hex_address(a.value("from", json()));
        number_member(a, "gas", action);
        bytes_member(a, "init", action);
        bytes_member(a, "input", action);
        action["refundAddress"] = hex_address(a.value("refundAddress", json()));
        action["to"] = hex_address(a.value("to", json()));
        action["value"] = member(a, "value") ? hex_number(a["value"]) : "0x0";
        n["action"] = std::move(action);
        text_member(t, "error", n);
        const json r = t.value("result", json::object());
        json result = json::object();
        result["address"] = hex_address(r.is_object() ? r.value("address", json()) : json());
        if (r.is_object()) {
            bytes_member(r, "code", result);
            number_member(r, "gasUsed", result);
            bytes_member(r, "output", result);
        }
        n["result"] = std::move(result);
        n["subtraces"] = t.value("subtraces", 0);
        n["traceAddress"] = t.contains("traceAddress") ? t["traceAddress"] : json();
        n["type"] = t.value("type", "");
        out.push_back(std::move(n));
    }
    return out;
}

// prestate_test.go's legacy account: balance and code always (strings), nonce a number,
// storage null when absent.
json normalize_prestate_legacy(const json& j) {
    json out = json::object();
    if (!j.is_object()) return out;
    for (const auto& [address, a] : j.items()) {
        json n = json::object();
        n["balance"] = a.is_object() && a.contains("balance") && a["balance"].is_string()
                           ? a["balance"]
                           : json("");
        n["code"] =
            a.is_object() && a.contains("code") && a["code"].is_string() ? a["code"] : json("");
        n["nonce"] = a.is_object() ? a.value("nonce", 0) : 0;
        n["storage"] = a.is_object() && a.contains("storage") ? a["storage"] : json();
        out[address] = std::move(n);
    }
    return out;
}

// The first place two values differ: a JSON pointer and both values, cut for one line.
std::string first_difference(const json& got, const json& want, const std::string& at = "") {
    if (got.type() != want.type()) {
        return (at.empty() ? "/" : at) + ": got " + fixture::one_line(got.dump(), 200) +
               ", expected " + fixture::one_line(want.dump(), 200);
    }
    if (got.is_object()) {
        for (const auto& [k, v] : want.items()) {
            if (!got.contains(k))
                return at + "/" + k + ": missing (expected " + fixture::one_line(v.dump(), 200) +
                       ")";
            if (got[k] != v) return first_difference(got[k], v, at + "/" + k);
        }
        for (const auto& [k, v] : got.items()) {
            if (!want.contains(k))
                return at + "/" + k + ": not expected (got " + fixture::one_line(v.dump(), 200) +
                       ")";
        }
        return {};
    }
    if (got.is_array()) {
        if (got.size() != want.size()) {
            return (at.empty() ? "/" : at) + ": " + std::to_string(got.size()) +
                   " elements, expected " + std::to_string(want.size());
        }
        for (std::size_t i = 0; i < got.size(); ++i) {
            if (got[i] != want[i])
                return first_difference(got[i], want[i], at + "/" + std::to_string(i));
        }
        return {};
    }
    if (got != want) {
        return (at.empty() ? "/" : at) + ": got " + fixture::one_line(got.dump(), 200) +
               ", expected " + fixture::one_line(want.dump(), 200);
    }
    return {};
}

// ---- the run ----------------------------------------------------------------------------------

struct Env {
    evm::BlockEnv block;
    eth::Fork fork = eth::Fork::frontier;
    std::uint64_t max_blob_gas = 0;
};

// util.go's toBlockContext: the block the transaction runs in.
Env block_of(const json& context, const chain::Genesis& genesis, const json& genesis_json,
             const std::string& where) {
    using fixture::field;
    Env env;
    evm::BlockEnv& b = env.block;
    b.number = fixture::u64(field(context, "number", where), where + " context.number");
    b.timestamp = fixture::u64(field(context, "timestamp", where), where + " context.timestamp");
    b.gas_limit = fixture::u64(field(context, "gasLimit", where), where + " context.gasLimit");
    b.coinbase =
        fixture::fixed_of<Address>(field(context, "miner", where), where + " context.miner");
    if (const json* d = member(context, "difficulty"))
        b.difficulty = fixture::number(*d, where + " context.difficulty");
    b.chain_id = genesis.config.chain_id;
    env.fork = genesis.config.fork_at(b.number, b.timestamp);
    if (env.fork >= eth::Fork::london) {
        if (const json* f = member(context, "baseFeePerGas"))
            b.base_fee = fixture::number(*f, where + " context.baseFeePerGas");
    }
    // PREVRANDAO is the genesis mix hash on a chain merged from the start (geth: Random set
    // when the terminal total difficulty is 0).
    b.prev_randao = genesis.header.mix_hash;
    if (env.fork >= eth::Fork::cancun) {
        const eth::BlobParams cancun =
            genesis.config.blob_params(eth::Fork::cancun, genesis.header.timestamp);
        const eth::BlobParams now = genesis.config.blob_params(env.fork, b.timestamp);
        env.max_blob_gas = now.max * 131072;
        // geth's runner: the excess after a parent with the genesis's blob fields, priced
        // with Cancun's fraction.
        if (member(genesis_json, "excessBlobGas") && member(genesis_json, "blobGasUsed")) {
            const std::uint64_t parent_excess = genesis.header.excess_blob_gas.value_or(0);
            const std::uint64_t parent_used = genesis.header.blob_gas_used.value_or(0);
            const eth::BlobParams at_genesis = genesis.config.blob_params(
                genesis.config.fork_at(b.number, genesis.header.timestamp),
                genesis.header.timestamp);
            const std::uint64_t target = at_genesis.target * 131072;
            const std::uint64_t sum = parent_excess + parent_used;
            const std::uint64_t excess = sum < target ? 0 : sum - target;
            b.blob_base_fee = eth::blob_base_fee(excess, cancun.base_fee_update_fraction);
        }
    }
    return env;
}

std::string write_result(const std::function<void(keel::json::Writer&)>& f) {
    std::string out;
    keel::json::Writer w(out);
    f(w);
    return out;
}

// The fixture's chain config as it stands at one block: each fork scheduled by block or time
// active there (from 0) or gone. Only that block runs, so the rules are the same; the form is
// one keel's linear fork order can take, which some of geth's fixtures' configs are not
// (`byzantiumBlock` 0 before `eip158Block` 10). EIP-155 is set with EIP-158 when only that is
// active (keel runs them as one fork): EIP-155 only adds a signature form, and a fixture's
// transaction that used it before its block would be invalid in geth too.
json config_at(const json& config, std::uint64_t number, std::uint64_t timestamp,
               const std::string& where) {
    json out = json::object();
    bool eip158 = false;
    bool eip155 = false;
    for (const auto& [key, value] : config.items()) {
        std::string k = key;
        for (char& c : k) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        const bool by_block = k.ends_with("block");
        const bool by_time = k.ends_with("time");
        if (!by_block && !by_time) {
            out[key] = value;
            continue;
        }
        if (value.is_null()) continue;
        // go-ethereum's config numbers are JSON numbers (or, in some files, number strings).
        std::uint64_t at = 0;
        if (value.is_number_unsigned()) {
            at = value.get<std::uint64_t>();
        } else {
            at = fixture::u64(value, where + " genesis.config." + printable(key));
        }
        if (at > (by_block ? number : timestamp)) continue;
        out[key] = 0;
        if (k == "eip158block") eip158 = true;
        if (k == "eip155block") eip155 = true;
    }
    if (eip158 && !eip155) out["eip155Block"] = 0;
    return out;
}

TraceTestResult run(const json& test, FixtureTracer tracer, const std::string& where) {
    using fixture::field;
    TraceTestResult res;
    json genesis_json = field(test, "genesis", where);
    {
        const json& context = field(test, "context", where);
        const std::uint64_t number =
            fixture::u64(field(context, "number", where), where + " context.number");
        const std::uint64_t timestamp =
            fixture::u64(field(context, "timestamp", where), where + " context.timestamp");
        if (genesis_json.is_object() && genesis_json.contains("config")) {
            genesis_json["config"] = config_at(genesis_json["config"], number, timestamp, where);
        }
    }
    auto genesis = chain::parse_genesis(genesis_json.dump());
    if (!genesis) fixture::bad(where, printable(chain::to_string(genesis.error())));
    const Env env = block_of(field(test, "context", where), *genesis, genesis_json, where);
    const Bytes input = fixture::bytes_of(field(test, "input", where), where + " input");
    auto tx = eth::decode_transaction(input);
    if (!tx) fixture::bad(where, "input: " + eth::to_string(tx.error()));
    auto sender = eth::sender(*tx);
    if (!sender) fixture::bad(where, "input: sender: " + eth::to_string(sender.error()));
    const json config = test.contains("tracerConfig") && test["tracerConfig"].is_object()
                            ? test["tracerConfig"]
                            : json::object();
    const auto flag = [&](const char* k) { return config.value(k, false); };

    state::Overlay overlay(genesis->alloc);
    const evm::BlockLimits limits{.gas_used = 0, .max_blob_gas = env.max_blob_gas};
    std::string got;
    if (tracer == FixtureTracer::erc7562) {
        trace::Erc7562TracerOptions o;
        o.with_log = flag("withLog");
        if (config.contains("stackTopItemsSize"))
            o.stack_top_items = config["stackTopItemsSize"].get<std::uint32_t>();
        if (config.contains("ignoredOpcodes")) {
            o.ignored_opcodes.emplace();
            for (const json& op : config["ignoredOpcodes"])
                o.ignored_opcodes->push_back(static_cast<std::uint8_t>(
                    fixture::u64(op, where + " tracerConfig.ignoredOpcodes")));
        }
        trace::Erc7562Tracer t(o);
        auto r = evm::execute_transaction(*tx, *sender, env.block, overlay, env.fork, &t, limits);
        if (!r) fixture::bad(where, "the transaction is invalid: " + evm::to_string(r.error()));
        got = write_result([&](keel::json::Writer& w) { t.write(w); });
    } else if (tracer == FixtureTracer::call_legacy || tracer == FixtureTracer::prestate_legacy) {
        // geth's JavaScript tracers, as keel's native ports of them (trace/legacy_tracers.hpp).
        trace::LegacyCallTracer call;
        trace::LegacyPrestateTracer prestate;
        evm::Tracer* t =
            tracer == FixtureTracer::call_legacy ? static_cast<evm::Tracer*>(&call) : &prestate;
        auto r = evm::execute_transaction(*tx, *sender, env.block, overlay, env.fork, t, limits);
        if (!r) fixture::bad(where, "the transaction is invalid: " + evm::to_string(r.error()));
        got = write_result([&](keel::json::Writer& w) {
            if (tracer == FixtureTracer::call_legacy)
                call.write(w);
            else
                prestate.write(w);
        });
    } else if (tracer == FixtureTracer::prestate) {
        trace::PrestateTracer t(
            trace::PrestateTracerOptions{.diff_mode = flag("diffMode"),
                                         .disable_code = flag("disableCode"),
                                         .disable_storage = flag("disableStorage"),
                                         .include_empty = flag("includeEmpty")});
        auto r = evm::execute_transaction(*tx, *sender, env.block, overlay, env.fork, &t, limits);
        if (!r) fixture::bad(where, "the transaction is invalid: " + evm::to_string(r.error()));
        got = write_result([&](keel::json::Writer& w) { t.write(w); });
    } else {
        // flatCallTracer takes no callTracer options (geth builds its call tracer with none).
        const bool flat = tracer == FixtureTracer::flat_call;
        trace::CallTracer t(trace::CallTracerOptions{.only_top_call = !flat && flag("onlyTopCall"),
                                                     .with_log = !flat && flag("withLog")});
        auto r = evm::execute_transaction(*tx, *sender, env.block, overlay, env.fork, &t, limits);
        if (!r) fixture::bad(where, "the transaction is invalid: " + evm::to_string(r.error()));
        if (tracer == FixtureTracer::flat_call) {
            const trace::FlatCallTracerOptions o{
                .convert_parity_errors = flag("convertParityErrors"),
                .include_precompiles = flag("includePrecompiles")};
            got = write_result([&](keel::json::Writer& w) { t.write_flat(w, o); });
        } else {
            got = write_result([&](keel::json::Writer& w) { t.write_call(w); });
            // geth's check beside the comparison: the top frame's gasUsed is the transaction's.
            const json top = json::parse(got);
            if (hex_number(top.value("gasUsed", json())) != Uint256(r->gas_used).to_hex()) {
                res.error = "the top call's gasUsed is not the transaction's " +
                            std::to_string(r->gas_used);
            }
        }
    }
    const json& expected_raw = field(test, "result", where);
    json ours = json::parse(got);
    json want;
    switch (tracer) {
        case FixtureTracer::call:
            want = normalize_call(expected_raw);
            break;
        case FixtureTracer::call_legacy:
            want = normalize_call(expected_raw);
            ours = normalize_call(ours);
            break;
        case FixtureTracer::flat_call:
            want = normalize_flat(expected_raw);
            ours = normalize_flat(ours);
            break;
        case FixtureTracer::erc7562:
            want = normalize_call(expected_raw, true);
            break;
        case FixtureTracer::prestate:
            want = expected_raw;
            break;
        case FixtureTracer::prestate_legacy:
            want = expected_raw;
            ours = normalize_prestate_legacy(ours);
            break;
    }
    res.got = ours.dump();
    res.expected = want.dump();
    if (ours != want) {
        res.error = first_difference(ours, want);
    }
    res.pass = res.error.empty();
    return res;
}

}  // namespace

std::optional<FixtureTracer> tracer_of_folder(const std::string& dir) {
    if (dir == "call_tracer" || dir == "call_tracer_withLog") return FixtureTracer::call;
    if (dir == "call_tracer_legacy") return FixtureTracer::call_legacy;
    if (dir == "call_tracer_flat") return FixtureTracer::flat_call;
    if (dir == "prestate_tracer" || dir == "prestate_tracer_with_diff_mode")
        return FixtureTracer::prestate;
    if (dir == "prestate_tracer_legacy") return FixtureTracer::prestate_legacy;
    if (dir == "erc7562_tracer") return FixtureTracer::erc7562;
    return std::nullopt;
}

std::optional<FixtureTracer> tracer_of_name(const std::string& name) {
    if (name == "callTracer") return FixtureTracer::call;
    if (name == "callTracerLegacy") return FixtureTracer::call_legacy;
    if (name == "flatCallTracer") return FixtureTracer::flat_call;
    if (name == "prestateTracer") return FixtureTracer::prestate;
    if (name == "prestateTracerLegacy") return FixtureTracer::prestate_legacy;
    if (name == "erc7562Tracer") return FixtureTracer::erc7562;
    return std::nullopt;
}

TraceTestResult run_trace_test_file(const std::filesystem::path& path,
                                    std::optional<FixtureTracer> tracer) {
    const std::string where = printable(path.string());
    TraceTestResult fail;
    if (!tracer) tracer = tracer_of_folder(path.parent_path().filename().string());
    if (!tracer) {
        fail.error =
            "no tracer: the folder is none of geth's (call_tracer, call_tracer_flat, "
            "prestate_tracer, ...); name one with --tracer";
        return fail;
    }
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        fail.error = "cannot read";
        return fail;
    }
    std::stringstream contents;
    contents << in.rdbuf();
    try {
        const json test = json::parse(contents.str());
        if (!test.is_object()) fixture::bad(where, "not a tracer fixture (an object)");
        return run(test, *tracer, where);
    } catch (const json::exception& e) {
        std::string what = e.what();
        if (const auto p = what.find("] "); p != std::string::npos) what.erase(0, p + 2);
        fail.error = printable(what);
    } catch (const Failure& f) {
        fail.error = f.message;
    }
    return fail;
}

}  // namespace keel::cli
