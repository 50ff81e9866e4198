#include "keel/rpc/simulate_methods.hpp"

#include "keel/blockchain/simulate.hpp"
#include "keel/common/hex.hpp"
#include "keel/eth/json.hpp"
#include "keel/rpc/call_args.hpp"
#include "keel/rpc/params.hpp"

namespace keel::rpc {

using nlohmann::json;

namespace {

struct Request {
    std::vector<blockchain::SimBlock> blocks;
    blockchain::SimOptions options;
    bool full = false;
};

Result<bool, RpcError> flag(const json& o, const char* name) {
    auto it = o.find(name);
    if (it == o.end() || it->is_null()) return false;
    if (!it->is_boolean()) {
        return std::unexpected(invalid_argument(0, std::string(name) + ": json: cannot unmarshal " +
                                                       it->type_name() +
                                                       " into Go value of type bool"));
    }
    return it->get<bool>();
}

Result<Request, RpcError> parse(const json& p, std::uint64_t chain_id) {
    if (p.empty() || p[0].is_null())
        return std::unexpected(
            RpcError{ErrorCode::invalid_params, "missing value for required argument 0"});
    const json& o = p[0];
    if (!o.is_object())
        return std::unexpected(invalid_argument(
            0, "json: cannot unmarshal non-object into Go value of type ethapi.simOpts"));
    Request r;
    for (auto [name, into] : {std::pair{"traceTransfers", &r.options.trace_transfers},
                              std::pair{"validation", &r.options.validation},
                              std::pair{"returnFullTransactions", &r.full}}) {
        auto f = flag(o, name);
        if (!f) return std::unexpected(f.error());
        *into = *f;
    }
    auto calls = o.find("blockStateCalls");
    if (calls == o.end() || calls->is_null()) return r;  // no blocks: "empty input" below
    if (!calls->is_array())
        return std::unexpected(invalid_argument(0, "blockStateCalls: expected an array"));
    // The limits before the work: a request past them is refused whole (simulate() checks
    // them again, with the spec's codes).
    if (calls->size() > blockchain::kMaxSimBlocks)
        return std::unexpected(RpcError{static_cast<ErrorCode>(-38026), "too many blocks"});
    for (const json& b : *calls) {
        if (!b.is_object())
            return std::unexpected(invalid_argument(0, "blockStateCalls: expected objects"));
        blockchain::SimBlock& sb = r.blocks.emplace_back();
        if (auto it = b.find("blockOverrides"); it != b.end() && !it->is_null()) {
            auto bo = block_overrides_of(*it, 0);
            if (!bo) return std::unexpected(bo.error());
            sb.block = std::move(*bo);
        }
        if (auto it = b.find("stateOverrides"); it != b.end() && !it->is_null()) {
            auto so = state_overrides_of(*it, 0);
            if (!so) return std::unexpected(so.error());
            sb.state = std::move(*so);
        }
        if (auto it = b.find("calls"); it != b.end() && !it->is_null()) {
            if (!it->is_array())
                return std::unexpected(invalid_argument(0, "calls: expected an array"));
            if (it->size() > blockchain::kMaxSimCallsPerBlock)
                return std::unexpected(
                    RpcError{static_cast<ErrorCode>(-38026), "too many calls in block"});
            for (const json& c : *it) {
                auto call = call_request_of(c, 0, chain_id);
                if (!call) return std::unexpected(call.error());
                sb.calls.push_back(std::move(*call));
            }
        }
    }
    return r;
}

void write_call(keel::json::Writer& w, const blockchain::SimCall& c,
                const blockchain::SimBlockResult& b, std::size_t index) {
    w.begin_object();
    w.member_data("returnData", c.return_data);
    w.key("logs");
    w.begin_array();
    const eth::ReceiptPlace place{.block_hash = b.hash,
                                  .block_number = b.block.header.number,
                                  .block_timestamp = b.block.header.timestamp,
                                  .base_fee = std::nullopt,
                                  .blob_gas_price = std::nullopt,
                                  .index = index,
                                  .gas_used = 0,
                                  .first_log_index = 0};
    const Hash32& tx_hash = b.block.body.transactions[index].hash();
    for (const blockchain::SimLog& l : c.logs) {
        eth::write_rpc_log(w, eth::Log{l.log.address, l.log.topics, l.log.data}, place, tx_hash,
                           l.index);
    }
    w.end_array();
    w.member_quantity("gasUsed", c.gas_used);
    w.member_quantity("maxUsedGas", c.peak_gas_used);
    w.member_quantity("status", std::uint64_t{c.success ? 1u : 0u});
    if (!c.success) {
        w.key("error");
        w.begin_object();
        w.key("message");
        w.string(c.error_message);
        w.key("code");
        w.raw_value() += std::to_string(c.error_code);
        if (c.error_data) {
            w.key("data");
            w.string(hex::encode_prefixed(*c.error_data));
        }
        w.end_object();
    }
    w.end_object();
}

}  // namespace

void add_simulate_methods(Dispatcher& d, const NodeContext& node) {
    d.add("eth_simulateV1", [node](const json& p, keel::json::Writer& w) -> Result<void, RpcError> {
        if (auto r = at_most(p, 2); !r) return r;
        auto req = parse(p, node.config.chain_id.as_u64());
        if (!req) return std::unexpected(req.error());
        auto number = block_number_param(p, 1, node.store);
        if (!number) return std::unexpected(number.error());
        req->options.timeout = blockchain::CallTimeout::start(node.call_timeout);
        auto blocks = blockchain::simulate(node.store, node.config, *number, std::move(req->blocks),
                                           req->options);
        if (!blocks) {
            return std::unexpected(
                RpcError{static_cast<ErrorCode>(blocks.error().code), blocks.error().message});
        }
        w.begin_array();
        for (const blockchain::SimBlockResult& b : *blocks) {
            w.begin_object();
            eth::write_header_members(w, b.block.header, b.hash, std::nullopt, b.size);
            eth::write_body_members(w, b.block.header, b.hash, b.block.body, req->full, b.senders);
            w.key("calls");
            w.begin_array();
            for (std::size_t i = 0; i < b.calls.size(); ++i) write_call(w, b.calls[i], b, i);
            w.end_array();
            w.end_object();
        }
        w.end_array();
        return {};
    });
}

}  // namespace keel::rpc
