#include "keel/rpc/call_methods.hpp"

#include <algorithm>

#include "keel/blockchain/calls.hpp"
#include "keel/common/hex.hpp"
#include "keel/crypto/keccak.hpp"
#include "keel/eth/contract_address.hpp"
#include "keel/eth/json.hpp"
#include "keel/evm/precompiles.hpp"
#include "keel/rpc/call_args.hpp"
#include "keel/rpc/params.hpp"
#include "keel/store/state_store.hpp"
#include "keel/trace/access_list_tracer.hpp"
#include "keel/trace/phrases.hpp"

namespace keel::rpc {

using nlohmann::json;

namespace {

constexpr std::uint64_t kTransferGas = 21'000;
constexpr int kMaxAccessListRounds = 16;

// A run that could not happen: the block or its state is not kept, the message is refused, or
// a read failed.
RpcError call_failed(const blockchain::ReadError& e) {
    if (e.not_found || e.pruned || e.invalid || e.timed_out) return server_error(e.message);
    return internal_error(e.message);
}

// A run that happened and failed: a revert (geth's error 3, with the output) or a halt.
RpcError execution_failed(const evm::TxResult& r) {
    if (r.status == evm::Status::revert) {
        std::string message = "execution reverted";
        if (auto reason = trace::revert_reason(r.output)) message += ": " + *reason;
        return RpcError{ErrorCode::execution_reverted, message, hex::encode_prefixed(r.output)};
    }
    return server_error(std::string(evm::describe(r.status)));
}

struct Parsed {
    blockchain::CallRequest call;
    std::uint64_t number = 0;
    blockchain::CallOptions options;
};

Result<Parsed, RpcError> parse(const json& p, const NodeContext& node, bool block_overrides) {
    if (auto r = at_most(p, block_overrides ? 4 : 3); !r) return std::unexpected(r.error());
    Parsed out;
    auto call = call_request_param(p, 0, node.config.chain_id.as_u64());
    if (!call) return std::unexpected(call.error());
    out.call = std::move(*call);
    auto number = block_number_param(p, 1, node.store);
    if (!number) return std::unexpected(number.error());
    out.number = *number;
    auto state = state_overrides_param(p, 2);
    if (!state) return std::unexpected(state.error());
    out.options.state = std::move(*state);
    out.options.timeout = blockchain::CallTimeout::start(node.call_timeout);
    if (block_overrides) {
        auto block = block_overrides_param(p, 3);
        if (!block) return std::unexpected(block.error());
        out.options.block = *block;
    }
    return out;
}

Result<void, RpcError> eth_call(const json& p, keel::json::Writer& w, const NodeContext& node) {
    auto q = parse(p, node, true);
    if (!q) return std::unexpected(q.error());
    auto r = blockchain::execute_call(node.store, node.config, q->number, q->call, q->options);
    if (!r) return std::unexpected(call_failed(r.error()));
    if (r->status != evm::Status::success) return std::unexpected(execution_failed(*r));
    w.data(r->output);
    return {};
}

// The account `a` as the call sees it: the state after the block, with the call's overrides.
Result<state::Account, RpcError> account_for_call(const NodeContext& node, std::uint64_t number,
                                                  const blockchain::StateOverrides& overrides,
                                                  const Address& a) {
    auto view = store::StateView::open(node.store, number);
    if (!view) return std::unexpected(server_error(view.error().message));
    state::Account acc = view->account(a).value_or(state::Account{});
    for (const auto& [address, o] : overrides) {
        if (address != a) continue;
        if (o.balance) acc.balance = *o.balance;
        if (o.nonce) acc.nonce = *o.nonce;
        if (o.code) acc.code_hash = crypto::keccak256(*o.code);
    }
    if (auto f = view->failure()) return std::unexpected(internal_error(*f));
    return acc;
}

// The block's gas limit (the default gas of a call).
Result<std::uint64_t, RpcError> gas_limit_of(const NodeContext& node, std::uint64_t number) {
    auto h = blockchain::canonical_header(node.store, number);
    if (!h) return std::unexpected(server_error(h.error().message));
    return h->header.gas_limit;
}

Result<void, RpcError> estimate_gas(const json& p, keel::json::Writer& w, const NodeContext& node) {
    auto q = parse(p, node, false);
    if (!q) return std::unexpected(q.error());
    blockchain::CallRequest call = q->call;
    auto limit = gas_limit_of(node, q->number);
    if (!limit) return std::unexpected(limit.error());
    std::uint64_t hi = call.gas && *call.gas >= kTransferGas ? *call.gas : *limit;
    hi = std::min(hi, blockchain::kCallGasCap);
    // A fee cap limits the gas to what the sender's balance pays for.
    const Uint256 fee_cap =
        call.gas_price ? *call.gas_price : call.max_fee_per_gas.value_or(Uint256(0));
    auto sender = account_for_call(node, q->number, q->options.state, call.from);
    if (!sender) return std::unexpected(sender.error());
    if (!fee_cap.is_zero()) {
        if (sender->balance < call.value)
            return std::unexpected(server_error("insufficient funds for transfer"));
        const Uint256 allowance = (sender->balance - call.value) / fee_cap;
        if (allowance < Uint256(hi)) hi = allowance.as_u64();
    }
    const auto run = [&](std::uint64_t gas) {
        call.gas = gas;
        return blockchain::execute_call(node.store, node.config, q->number, call, q->options);
    };
    // A plain transfer to an account without code costs 21,000 exactly.
    if (call.data.empty() && call.to && call.authorization_list.empty() &&
        call.blob_versioned_hashes.empty() && call.access_list.empty()) {
        auto to = account_for_call(node, q->number, q->options.state, *call.to);
        if (!to) return std::unexpected(to.error());
        if (to->code_hash == state::kEmptyCodeHash && hi >= kTransferGas) {
            auto r = run(kTransferGas);
            if (!r) return std::unexpected(call_failed(r.error()));
            if (r->status == evm::Status::success) {
                w.quantity(kTransferGas);
                return {};
            }
        }
    }
    auto first = run(hi);
    if (!first) return std::unexpected(call_failed(first.error()));
    if (first->status != evm::Status::success) {
        if (first->status == evm::Status::out_of_gas)
            return std::unexpected(
                server_error("gas required exceeds allowance (" + std::to_string(hi) + ")"));
        return std::unexpected(execution_failed(*first));
    }
    std::uint64_t lo = first->gas_used > 0 ? first->gas_used - 1 : 0;
    // geth's first guess: what was used, plus the 63/64ths a call holds back, plus a stipend.
    const std::uint64_t optimistic = (first->gas_used + 2300) * 64 / 63;
    if (optimistic > lo && optimistic < hi) {
        auto r = run(optimistic);
        if (!r) return std::unexpected(call_failed(r.error()));
        if (r->status == evm::Status::success) {
            hi = optimistic;
        } else {
            lo = optimistic;
        }
    }
    while (lo + 1 < hi) {
        // Close enough: within 1.5% of the answer (geth's estimateGasErrorRatio).
        if (static_cast<double>(hi - lo) / static_cast<double>(hi) < 0.015) break;
        std::uint64_t mid = lo + (hi - lo) / 2;
        if (lo > 0 && mid > lo * 2) mid = lo * 2;  // the answer is usually near the low end
        auto r = run(mid);
        if (!r) return std::unexpected(call_failed(r.error()));
        if (r->status == evm::Status::success) {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    w.quantity(hi);
    return {};
}

std::vector<Address> precompiles_of(eth::Fork fork) {
    std::vector<Address> out;
    for (std::uint16_t id = 1; id <= 0x100; ++id) {
        if (!evm::precompile_exists(id, fork)) continue;
        Address a{};
        a[18] = static_cast<std::uint8_t>(id >> 8);
        a[19] = static_cast<std::uint8_t>(id);
        out.push_back(a);
    }
    return out;
}

Result<void, RpcError> create_access_list(const json& p, keel::json::Writer& w,
                                          const NodeContext& node) {
    auto q = parse(p, node, false);
    if (!q) return std::unexpected(q.error());
    blockchain::CallRequest call = q->call;
    Address target{};
    if (call.to) {
        target = *call.to;
    } else {
        auto sender = account_for_call(node, q->number, q->options.state, call.from);
        if (!sender) return std::unexpected(sender.error());
        target = eth::contract_address(call.from, sender->nonce);
    }
    std::vector<eth::TransactionFields::AccessListEntry> list = call.access_list;
    evm::TxResult last;
    for (int round = 0; round < kMaxAccessListRounds; ++round) {
        call.access_list = list;
        std::optional<trace::AccessListTracer> tracer;
        auto r = blockchain::run_calls(
            node.store, node.config, q->number, std::span(&call, 1), q->options,
            [&](std::size_t, eth::Fork fork) -> evm::Tracer* {
                std::vector<Address> excluded = precompiles_of(fork);
                excluded.push_back(call.from);
                excluded.push_back(target);
                tracer.emplace(list, std::move(excluded));
                return &*tracer;
            },
            [&](std::size_t, const evm::TxResult& result) { last = result; });
        if (!r) return std::unexpected(call_failed(r.error()));
        const bool same = tracer->list() == list;
        list = tracer->list();
        if (same) break;
    }
    w.begin_object();
    w.key("accessList");
    eth::write_access_list(w, list);
    if (last.status != evm::Status::success) {
        w.key("error");
        w.string(last.status == evm::Status::revert ? std::string("execution reverted")
                                                    : std::string(evm::describe(last.status)));
    }
    w.member_quantity("gasUsed", last.gas_used);
    w.end_object();
    return {};
}

}  // namespace

void add_call_methods(Dispatcher& d, const NodeContext& node) {
    d.add("eth_call",
          [node](const json& p, keel::json::Writer& w) { return eth_call(p, w, node); });
    d.add("eth_estimateGas",
          [node](const json& p, keel::json::Writer& w) { return estimate_gas(p, w, node); });
    d.add("eth_createAccessList",
          [node](const json& p, keel::json::Writer& w) { return create_access_list(p, w, node); });
}

}  // namespace keel::rpc
