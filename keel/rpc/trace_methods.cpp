#include "keel/rpc/trace_methods.hpp"

#include "keel/common/answer_stream.hpp"

#include "keel/blockchain/block_traces.hpp"
#include "keel/blockchain/call_traces.hpp"
#include "keel/blockchain/parity_traces.hpp"
#include "keel/blockchain/replay.hpp"
#include "keel/rpc/call_args.hpp"
#include "keel/rpc/params.hpp"
#include "keel/trace/duration.hpp"

namespace keel::rpc {

using nlohmann::json;

namespace {

// geth's default limit on one transaction's trace.
constexpr std::chrono::seconds kDefaultTraceTimeout{5};
constexpr std::size_t kMaxCallMany = 1024;

RpcError trace_failed(const blockchain::ReadError& e) {
    if (e.not_found || e.pruned || e.invalid || e.message == trace::kTimeoutError)
        return server_error(e.message);
    return internal_error(e.message);
}

// The traces' drain: when the answer streams (the HTTP server's AnswerStream), what the buffer
// holds leaves once it is long; otherwise the whole answer stays in the buffer.
void keep(std::string& out) {
    keel::json::flush_point(out);
}

// geth's TraceConfig (argument `index`; missing or null: the struct logger, the default limit).
Result<trace::TracerSpec, RpcError> trace_config_param(const json& p, std::size_t index) {
    json config = index < p.size() && !p[index].is_null() ? p[index] : json::object();
    if (!config.is_object())
        return std::unexpected(invalid_argument(
            index, "json: cannot unmarshal non-object into Go value of type tracers.TraceConfig"));
    std::string name = "structLog";
    if (auto it = config.find("tracer"); it != config.end() && !it->is_null()) {
        if (!it->is_string())
            return std::unexpected(invalid_argument(index, "tracer: expected a string"));
        if (!it->get_ref<const std::string&>().empty()) name = it->get<std::string>();
    }
    json options = json::object();
    if (name == "structLog") {
        for (const char* member :
             {"disableStack", "disableStorage", "enableMemory", "enableReturnData", "limit"}) {
            if (auto it = config.find(member); it != config.end() && !it->is_null())
                options[member] = *it;
        }
    } else if (auto it = config.find("tracerConfig"); it != config.end() && !it->is_null()) {
        options = *it;
    }
    auto spec = trace::parse_tracer_spec(name, options.dump());
    if (!spec) return std::unexpected(invalid_argument(index, spec.error()));
    spec->timeout = kDefaultTraceTimeout;
    if (auto it = config.find("timeout"); it != config.end() && !it->is_null()) {
        if (!it->is_string())
            return std::unexpected(invalid_argument(index, "timeout: expected a string"));
        auto limit = trace::parse_duration(it->get_ref<const std::string&>());
        if (!limit) return std::unexpected(invalid_argument(index, "timeout: " + limit.error()));
        spec->timeout = *limit;
    }
    // Answer as geth does: empty struct-log members left out.
    spec->struct_log.omit_empty = true;
    for (trace::TracerSpec& m : spec->mux) m.struct_log.omit_empty = true;
    return std::move(*spec);
}

Result<void, RpcError> trace_block_number(std::uint64_t n, const json& p, std::size_t config_at,
                                          keel::json::Writer& w, const NodeContext& node,
                                          std::optional<std::size_t> only) {
    auto spec = trace_config_param(p, config_at);
    if (!spec) return std::unexpected(spec.error());
    if (n == 0) return std::unexpected(server_error("genesis is not traceable"));
    auto b = blockchain::load_for_replay(node.store, node.config, n);
    if (!b) return std::unexpected(trace_failed(b.error()));
    std::string& out = w.raw_value();
    auto r = blockchain::write_debug_traces(out, node.store, *b, *spec, only, keep);
    if (!r) return std::unexpected(trace_failed(r.error()));
    return {};
}

Result<void, RpcError> debug_trace_transaction(const json& p, keel::json::Writer& w,
                                               const NodeContext& node) {
    if (auto r = at_most(p, 2); !r) return r;
    auto hash = hash_param(p, 0);
    if (!hash) return std::unexpected(hash.error());
    auto where = node.store.tx_lookup(*hash);
    if (!where) return std::unexpected(internal_error(where.error().message));
    if (where->status == store::ReadStatus::pruned)
        return std::unexpected(server_error("transaction's block history is pruned"));
    if (!where->found()) return std::unexpected(server_error("transaction not found"));
    return trace_block_number(where->value.number, p, 1, w, node, where->value.index);
}

// Parity's trace types: ["trace", "vmTrace", "stateDiff"] (argument `index`).
Result<trace::ParityTraceTypes, RpcError> trace_types_param(const json& p, std::size_t index) {
    if (index >= p.size() || p[index].is_null())
        return std::unexpected(
            RpcError{ErrorCode::invalid_params,
                     "missing value for required argument " + std::to_string(index)});
    if (!p[index].is_array())
        return std::unexpected(invalid_argument(index, "expected an array of trace types"));
    trace::ParityTraceTypes types;
    for (const json& t : p[index]) {
        if (!t.is_string() || !trace::add_trace_type(types, t.get_ref<const std::string&>()))
            return std::unexpected(invalid_argument(
                index, "unknown trace type " + t.dump() + " (trace, vmTrace, stateDiff)"));
    }
    return types;
}

// Runs `write` (one of the parity_traces writers) into the response.
Result<void, RpcError> parity(
    keel::json::Writer& w,
    const std::function<Result<void, blockchain::ReadError>(std::string&)>& write) {
    std::string& out = w.raw_value();
    if (auto r = write(out); !r) return std::unexpected(trace_failed(r.error()));
    return {};
}

Result<blockchain::TraceFilter, RpcError> trace_filter_param(const json& p,
                                                             const store::ChainStore& store) {
    if (p.empty() || !p[0].is_object())
        return std::unexpected(invalid_argument(0, "expected a filter object"));
    const json& f = p[0];
    blockchain::TraceFilter out;
    auto head = head_number(store);
    if (!head) return std::unexpected(head.error());
    for (const auto& [member, target] :
         {std::pair{"fromBlock", &out.from}, std::pair{"toBlock", &out.to}}) {
        *target = *head;
        auto it = f.find(member);
        if (it == f.end() || it->is_null()) continue;
        json single = json::array({*it});
        auto n = block_number_param(single, 0, store);
        if (!n)
            return std::unexpected(
                invalid_argument(0, std::string(member) + ": " + n.error().message));
        *target = *n;
    }
    if (out.from > out.to)
        return std::unexpected(invalid_argument(0, "fromBlock is above toBlock"));
    for (const auto& [member, list] : {std::pair{"fromAddress", &out.from_addresses},
                                       std::pair{"toAddress", &out.to_addresses}}) {
        auto it = f.find(member);
        if (it == f.end() || it->is_null()) continue;
        if (!it->is_array())
            return std::unexpected(
                invalid_argument(0, std::string(member) + ": expected an array"));
        for (const json& a : *it) {
            json single = json::array({a});
            auto address = address_param(single, 0);
            if (!address)
                return std::unexpected(
                    invalid_argument(0, std::string(member) + ": invalid address"));
            list->push_back(*address);
        }
    }
    for (const char* member : {"after", "count"}) {
        auto it = f.find(member);
        if (it == f.end() || it->is_null()) continue;
        std::uint64_t v = 0;
        if (it->is_number_unsigned()) {
            v = it->get<std::uint64_t>();
        } else if (it->is_string()) {
            auto q = parse_quantity(it->get_ref<const std::string&>());
            if (!q)
                return std::unexpected(invalid_argument(0, std::string(member) + ": " + q.error()));
            v = *q;
        } else {
            return std::unexpected(
                invalid_argument(0, std::string(member) + ": expected a number"));
        }
        if (std::string(member) == "after")
            out.after = v;
        else
            out.count = v;
    }
    return out;
}

}  // namespace

void add_trace_methods(Dispatcher& d, const NodeContext& node) {
    const store::ChainStore& store = node.store;
    const eth::ChainConfig& config = node.config;
    d.add("debug_traceTransaction", [node](const json& p, keel::json::Writer& w) {
        return debug_trace_transaction(p, w, node);
    });
    d.add("debug_traceBlockByNumber",
          [node](const json& p, keel::json::Writer& w) -> Result<void, RpcError> {
              if (auto r = at_most(p, 2); !r) return r;
              auto n = block_number_param(p, 0, node.store);
              if (!n) return std::unexpected(n.error());
              return trace_block_number(*n, p, 1, w, node, std::nullopt);
          });
    d.add("debug_traceBlockByHash",
          [node](const json& p, keel::json::Writer& w) -> Result<void, RpcError> {
              if (auto r = at_most(p, 2); !r) return r;
              auto text = string_param(p, 0, "common.Hash");
              if (!text) return std::unexpected(text.error());
              auto n = hash_block_number(**text, 0, node.store);
              if (!n) return std::unexpected(n.error());
              if (!*n) return std::unexpected(server_error("block " + **text + " not found"));
              return trace_block_number(**n, p, 1, w, node, std::nullopt);
          });
    d.add("debug_traceCall",
          [node](const json& p, keel::json::Writer& w) -> Result<void, RpcError> {
              if (auto r = at_most(p, 3); !r) return r;
              auto call = call_request_param(p, 0, node.config.chain_id.as_u64());
              if (!call) return std::unexpected(call.error());
              auto n = block_number_param(p, 1, node.store);
              if (!n) return std::unexpected(n.error());
              auto spec = trace_config_param(p, 2);
              if (!spec) return std::unexpected(spec.error());
              blockchain::CallOptions options;
              if (p.size() > 2 && p[2].is_object()) {
                  const json wrapped = json::array(
                      {p[2].value("stateOverrides", json()), p[2].value("blockOverrides", json())});
                  auto state = state_overrides_param(wrapped, 0);
                  if (!state) return std::unexpected(state.error());
                  auto block = block_overrides_param(wrapped, 1);
                  if (!block) return std::unexpected(block.error());
                  options.state = std::move(*state);
                  options.block = *block;
              }
              std::string& out = w.raw_value();
              auto r = blockchain::write_debug_trace_call(out, node.store, node.config, *n, *call,
                                                          *spec, keep, options);
              if (!r) return std::unexpected(trace_failed(r.error()));
              return {};
          });

    d.add("trace_block",
          [&store, &config](const json& p, keel::json::Writer& w) -> Result<void, RpcError> {
              if (auto r = at_most(p, 1); !r) return r;
              auto n = block_number_param(p, 0, store);
              if (!n) return std::unexpected(n.error());
              return parity(w, [&](std::string& out) {
                  return blockchain::write_trace_block(out, store, config, *n);
              });
          });
    d.add("trace_transaction",
          [&store, &config](const json& p, keel::json::Writer& w) -> Result<void, RpcError> {
              if (auto r = at_most(p, 1); !r) return r;
              auto hash = hash_param(p, 0);
              if (!hash) return std::unexpected(hash.error());
              return parity(w, [&](std::string& out) {
                  return blockchain::write_trace_transaction(out, store, config, *hash);
              });
          });
    d.add("trace_get",
          [&store, &config](const json& p, keel::json::Writer& w) -> Result<void, RpcError> {
              if (auto r = at_most(p, 2); !r) return r;
              auto hash = hash_param(p, 0);
              if (!hash) return std::unexpected(hash.error());
              if (p.size() < 2 || !p[1].is_array() || p[1].size() != 1)
                  return std::unexpected(invalid_argument(1, "expected one trace index"));
              std::uint64_t index = 0;
              if (p[1][0].is_number_unsigned()) {
                  index = p[1][0].get<std::uint64_t>();
              } else {
                  json single = json::array({p[1][0]});
                  auto q = quantity_param(single, 0, "hexutil.Uint64");
                  if (!q) return std::unexpected(invalid_argument(1, q.error().message));
                  index = *q;
              }
              return parity(w, [&](std::string& out) {
                  return blockchain::write_trace_get(out, store, config, *hash, index);
              });
          });
    d.add("trace_filter",
          [&store, &config, max = node.max_trace_filter_blocks](
              const json& p, keel::json::Writer& w) -> Result<void, RpcError> {
              if (auto r = at_most(p, 1); !r) return r;
              auto f = trace_filter_param(p, store);
              if (!f) return std::unexpected(f.error());
              if (f->to - f->from >= max) {
                  return std::unexpected(
                      RpcError{ErrorCode::limit_exceeded,
                               "trace_filter spans " + std::to_string(f->to - f->from + 1) +
                                   " blocks, more than the " + std::to_string(max) + " allowed"});
              }
              return parity(w, [&](std::string& out) {
                  return blockchain::write_trace_filter(out, store, config, *f);
              });
          });
    d.add("trace_replayBlockTransactions",
          [&store, &config](const json& p, keel::json::Writer& w) -> Result<void, RpcError> {
              if (auto r = at_most(p, 2); !r) return r;
              auto n = block_number_param(p, 0, store);
              if (!n) return std::unexpected(n.error());
              auto types = trace_types_param(p, 1);
              if (!types) return std::unexpected(types.error());
              return parity(w, [&](std::string& out) {
                  return blockchain::write_replay_block(out, store, config, *n, *types);
              });
          });
    d.add("trace_replayTransaction",
          [&store, &config](const json& p, keel::json::Writer& w) -> Result<void, RpcError> {
              if (auto r = at_most(p, 2); !r) return r;
              auto hash = hash_param(p, 0);
              if (!hash) return std::unexpected(hash.error());
              auto types = trace_types_param(p, 1);
              if (!types) return std::unexpected(types.error());
              return parity(w, [&](std::string& out) {
                  return blockchain::write_replay_transaction(out, store, config, *hash, *types);
              });
          });
    d.add("trace_call", [node](const json& p, keel::json::Writer& w) -> Result<void, RpcError> {
        if (auto r = at_most(p, 3); !r) return r;
        auto call = call_request_param(p, 0, node.config.chain_id.as_u64());
        if (!call) return std::unexpected(call.error());
        auto types = trace_types_param(p, 1);
        if (!types) return std::unexpected(types.error());
        auto n = block_number_param(p, 2, node.store);
        if (!n) return std::unexpected(n.error());
        return parity(w, [&](std::string& out) {
            return blockchain::write_trace_call(out, node.store, node.config, *n, *call, *types);
        });
    });
    d.add("trace_callMany", [node](const json& p, keel::json::Writer& w) -> Result<void, RpcError> {
        if (auto r = at_most(p, 2); !r) return r;
        if (p.empty() || !p[0].is_array())
            return std::unexpected(invalid_argument(0, "expected an array of [call, traceTypes]"));
        if (p[0].size() > kMaxCallMany)
            return std::unexpected(invalid_argument(0, "more than 1024 calls"));
        std::vector<blockchain::CallRequest> calls;
        std::vector<trace::ParityTraceTypes> types;
        for (const json& pair : p[0]) {
            if (!pair.is_array() || pair.size() != 2)
                return std::unexpected(invalid_argument(0, "expected [call, traceTypes] pairs"));
            auto call = call_request_param(pair, 0, node.config.chain_id.as_u64());
            if (!call) return std::unexpected(invalid_argument(0, call.error().message));
            auto t = trace_types_param(pair, 1);
            if (!t) return std::unexpected(invalid_argument(0, t.error().message));
            calls.push_back(std::move(*call));
            types.push_back(*t);
        }
        auto n = block_number_param(p, 1, node.store);
        if (!n) return std::unexpected(n.error());
        return parity(w, [&](std::string& out) {
            return blockchain::write_trace_call_many(out, node.store, node.config, *n, calls,
                                                     types);
        });
    });
    d.add("trace_rawTransaction",
          [node](const json& p, keel::json::Writer& w) -> Result<void, RpcError> {
              if (auto r = at_most(p, 3); !r) return r;
              auto raw = data_param(p, 0);
              if (!raw) return std::unexpected(raw.error());
              auto types = trace_types_param(p, 1);
              if (!types) return std::unexpected(types.error());
              auto n = block_number_param(p, 2, node.store);
              if (!n) return std::unexpected(n.error());
              return parity(w, [&](std::string& out) {
                  return blockchain::write_trace_raw_transaction(out, node.store, node.config, *n,
                                                                 *raw, *types);
              });
          });
}

}  // namespace keel::rpc
