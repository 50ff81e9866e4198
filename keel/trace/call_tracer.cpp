#include "keel/trace/call_tracer.hpp"

#include <algorithm>
#include <limits>
#include <string_view>

#include "keel/evm/opcodes.hpp"
#include "keel/evm/precompiles.hpp"
#include "keel/state/overlay.hpp"
#include "keel/trace/phrases.hpp"

namespace keel::trace {
namespace {

constexpr std::uint32_t kNoParent = std::numeric_limits<std::uint32_t>::max();
constexpr std::uint8_t kCreate = 0xf0, kCall = 0xf1, kCallCode = 0xf2, kDelegateCall = 0xf4,
                       kCreate2 = 0xf5, kStaticCall = 0xfa, kSelfDestruct = 0xff, kSstore = 0x55;

std::uint8_t op_of(evm::CallKind kind) noexcept {
    switch (kind) {
        case evm::CallKind::call:
            return kCall;
        case evm::CallKind::callcode:
            return kCallCode;
        case evm::CallKind::delegatecall:
            return kDelegateCall;
        case evm::CallKind::staticcall:
            return kStaticCall;
        case evm::CallKind::create:
            return kCreate;
        case evm::CallKind::create2:
            return kCreate2;
    }
    return kCall;
}

std::string_view type_name(std::uint8_t op) noexcept {
    switch (op) {
        case kCall:
            return "CALL";
        case kCallCode:
            return "CALLCODE";
        case kDelegateCall:
            return "DELEGATECALL";
        case kStaticCall:
            return "STATICCALL";
        case kCreate:
            return "CREATE";
        case kCreate2:
            return "CREATE2";
        default:
            return "SELFDESTRUCT";
    }
}

std::string_view lower_type_name(std::uint8_t op) noexcept {
    switch (op) {
        case kCall:
            return "call";
        case kCallCode:
            return "callcode";
        case kDelegateCall:
            return "delegatecall";
        case kStaticCall:
            return "staticcall";
        case kCreate:
            return "create";
        case kCreate2:
            return "create2";
        default:
            return "selfdestruct";
    }
}

void address_value(json::Writer& w, const Address& a) {
    w.data(BytesView(a.data(), a.size()));
}

// geth's flatCallTracer with convertParityErrors: Parity's words for geth's errors.
std::string parity_error(const std::string& e) {
    struct Pair {
        std::string_view geth, parity;
    };
    static constexpr Pair kExact[] = {
        {"contract creation code storage out of gas", "Out of gas"},
        {"out of gas", "Out of gas"},
        {"gas uint64 overflow", "Out of gas"},
        {"max code size exceeded", "Out of gas"},
        {"invalid jump destination", "Bad jump destination"},
        {"execution reverted", "Reverted"},
        {"return data out of bounds", "Out of bounds"},
        {"stack limit reached 1024 (1023)", "Out of stack"},
        {"precompiled failed", "Built-in failed"},
        {"invalid input length", "Built-in failed"},
    };
    static constexpr Pair kPrefix[] = {
        {"out of gas:", "Out of gas"},
        {"invalid opcode:", "Bad instruction"},
        {"stack underflow", "Stack underflow"},
    };
    for (const Pair& p : kExact) {
        if (e == p.geth) return std::string(p.parity);
    }
    for (const Pair& p : kPrefix) {
        if (e.starts_with(p.geth)) return std::string(p.parity);
    }
    return e;
}

}  // namespace

void CallTracer::on_tx_start(const evm::TxStartView& tx) {
    fork_ = tx.fork;
    state_ = &tx.state;
    gas_limit_ = tx.gas_limit;
    tx_gas_used_ = 0;
    done_ = false;
    frames_.clear();
    open_.clear();
    parent_.clear();
    logs_.clear();
    depth_ = -1;
}

void CallTracer::on_tx_end(const evm::TxEndView& tx) {
    tx_gas_used_ = tx.gas_used;
    if (!frames_.empty()) frames_.front().gas_used = tx.gas_used;
    done_ = true;
}

void CallTracer::on_call_start(const evm::Message& msg) {
    depth_ = msg.depth;
    if (options_.only_top_call && msg.depth > 0) return;
    Frame f;
    f.op = op_of(msg.kind);
    f.depth = static_cast<std::uint32_t>(msg.depth);
    // DELEGATECALL runs in the caller's context: its frame is from the running contract.
    f.from = msg.kind == evm::CallKind::delegatecall ? msg.recipient : msg.sender;
    f.to = msg.code_address;
    f.frame_gas = static_cast<std::uint64_t>(std::max<std::int64_t>(msg.gas, 0));
    f.gas = msg.depth == 0 ? gas_limit_ : f.frame_gas;
    f.has_value = msg.kind != evm::CallKind::staticcall;
    f.value = msg.value;
    f.input.assign(msg.input.begin(), msg.input.end());
    if (f.op == kCall || f.op == kStaticCall) {
        const auto id = evm::precompile_id(msg.code_address);
        f.precompile = id && evm::precompile_exists(*id, fork_);
    }
    const auto index = static_cast<std::uint32_t>(frames_.size());
    const std::uint32_t parent = open_.empty() ? kNoParent : open_.back();
    if (parent != kNoParent) frames_[parent].children += 1;
    frames_.push_back(std::move(f));
    parent_.push_back(parent);
    open_.push_back(index);
}

void CallTracer::on_call_end(const evm::Message& msg, const evm::CallResult& result) {
    depth_ = msg.depth - 1;
    if (options_.only_top_call && msg.depth > 0) return;
    if (open_.empty()) return;
    const std::uint32_t i = open_.back();
    open_.pop_back();
    Frame& f = frames_[i];
    f.end = static_cast<std::uint32_t>(frames_.size());
    f.status = result.status;
    const std::int64_t left = std::clamp<std::int64_t>(result.gas_left, 0, msg.gas);
    f.frame_gas_used = static_cast<std::uint64_t>(msg.gas - left);
    if (msg.depth > 0) f.gas_used = f.frame_gas_used;
    if (result.status == evm::Status::success || result.status == evm::Status::revert) {
        f.output = result.output;
    }
    if (result.status != evm::Status::success) {
        f.reverted = true;
        if (f.op == kCreate || f.op == kCreate2) f.has_to = false;
    }
}

void CallTracer::on_step(const evm::StepView& step) {
    last_op_ = step.op;
    last_stack_ = static_cast<std::uint32_t>(step.stack.size());
    last_gas_ = step.gas;
}

void CallTracer::on_step_error(evm::Status status) {
    if (open_.empty()) return;
    Frame& f = frames_[open_.back()];
    if (static_cast<std::int32_t>(f.depth) != depth_) return;  // onlyTopCall: an inner frame's
    f.fail_op = last_op_;
    f.fail_stack = last_stack_;
    // EIP-2200: an SSTORE with no more than the call stipend left fails before its cost is
    // counted; geth wraps that reason into its out-of-gas error.
    f.sentry = status == evm::Status::out_of_gas && last_op_ == kSstore &&
               fork_ >= eth::Fork::istanbul && last_gas_ <= 2300;
}

void CallTracer::on_log(const state::Log& log) {
    if (!options_.with_log || open_.empty()) return;
    if (options_.only_top_call && depth_ > 0) return;
    const std::uint32_t frame = open_.back();
    logs_.push_back(
        CallLog{.frame = frame,
                .position = frames_[frame].children,
                .index = first_log_index_ + (state_ != nullptr ? state_->logs().size() : 0),
                .log = log});
}

void CallTracer::on_selfdestruct(const Address& contract, const Address& beneficiary,
                                 const Uint256& balance) {
    if (options_.only_top_call && depth_ > 0) return;
    if (open_.empty()) return;
    Frame f;
    f.op = kSelfDestruct;
    f.depth = static_cast<std::uint32_t>(depth_ + 1);
    f.from = contract;
    f.to = beneficiary;
    f.value = balance;
    const auto index = static_cast<std::uint32_t>(frames_.size());
    f.end = index + 1;
    frames_[open_.back()].children += 1;
    parent_.push_back(open_.back());
    frames_.push_back(std::move(f));
}

std::string CallTracer::error_of(const Frame& f) const {
    switch (f.status) {
        case evm::Status::success:
            return {};
        case evm::Status::precompile_failure: {
            const auto id = evm::precompile_id(f.to);
            return precompile_failure_phrase(id ? *id : 0, f.input);
        }
        case evm::Status::out_of_gas:
            if (f.sentry) return "out of gas: not enough gas for reentrancy sentry";
            return status_phrase(f.status, f.fail_op, f.fail_stack, fork_);
        default:
            return status_phrase(f.status, f.fail_op, f.fail_stack, fork_);
    }
}

bool CallTracer::logs_dropped(std::uint32_t frame) const {
    for (std::uint32_t i = frame; i != kNoParent; i = parent_[i]) {
        if (frames_[i].reverted) return true;
    }
    return false;
}

void CallTracer::write_call(json::Writer& w, const ExtraMembers* extra) const {
    if (frames_.empty()) {
        w.begin_object();
        w.end_object();
        return;
    }
    write_frame(w, 0, extra);
}

void CallTracer::write_frame(json::Writer& w, std::uint32_t i, const ExtraMembers* extra) const {
    const Frame& f = frames_[i];
    w.begin_object();
    w.key("from");
    address_value(w, f.from);
    w.member_quantity("gas", f.gas);
    w.member_quantity("gasUsed", f.gas_used);
    if (f.has_to) {
        w.key("to");
        address_value(w, f.to);
    }
    w.member_data("input", f.input);
    const std::string error = error_of(f);
    if (!f.output.empty()) w.member_data("output", f.output);
    if (!error.empty()) {
        w.key("error");
        w.string(error);
        if (f.status == evm::Status::revert) {
            if (auto reason = revert_reason(f.output)) {
                w.key("revertReason");
                w.string(*reason);
            }
        }
    }
    if (f.children > 0) {
        w.key("calls");
        w.begin_array();
        for (std::uint32_t j = i + 1; j < f.end; j = frames_[j].end) write_frame(w, j, extra);
        w.end_array();
    }
    if (options_.with_log && !logs_dropped(i)) {
        bool any = false;
        for (const CallLog& l : logs_) {
            if (l.frame != i) continue;
            if (!any) {
                w.key("logs");
                w.begin_array();
                any = true;
            }
            w.begin_object();
            w.key("address");
            address_value(w, l.log.address);
            w.key("topics");
            w.begin_array();
            for (const Bytes32& t : l.log.topics) w.data(BytesView(t.data(), t.size()));
            w.end_array();
            w.member_data("data", l.log.data);
            w.member_quantity("index", l.index);
            w.member_quantity("position", l.position);
            w.end_object();
        }
        if (any) w.end_array();
    }
    if (f.has_value) w.member_quantity("value", f.value);
    if (extra != nullptr) (*extra)(w, i, f.status);
    w.key("type");
    w.string(type_name(f.op));
    w.end_object();
}

// The frames of i's calls that the flat list shows: geth drops a CALL or STATICCALL of a
// precompile when its frame ends, unless includePrecompiles.
std::uint32_t CallTracer::flat_children(std::uint32_t i,
                                        const FlatCallTracerOptions& options) const {
    std::uint32_t n = 0;
    const bool include = options.include_precompiles && !options.parity;
    for (std::uint32_t j = i + 1; j < frames_[i].end; j = frames_[j].end) {
        if (include || !frames_[j].precompile) ++n;
    }
    return n;
}

void CallTracer::write_flat(json::Writer& w, const FlatCallTracerOptions& options,
                            const FlatTraceContext& context) const {
    w.begin_array();
    if (!frames_.empty()) {
        std::vector<std::uint32_t> address;
        write_flat_frame(w, 0, options, context, address, flat_children(0, options));
    }
    w.end_array();
}

void CallTracer::write_flat_frame(json::Writer& w, std::uint32_t i,
                                  const FlatCallTracerOptions& options,
                                  const FlatTraceContext& context,
                                  std::vector<std::uint32_t>& address,
                                  std::uint32_t subtraces) const {
    const Frame& f = frames_[i];
    const bool parity = options.parity;
    std::string error = error_of(f);
    const bool reverted = f.status == evm::Status::revert;
    const bool keep_result = error.empty() || (reverted && !parity);
    if ((options.convert_parity_errors || parity) && !error.empty()) error = parity_error(error);
    // The Parity family (OpenEthereum, Reth): any failure of a precompile is "Built-in failed";
    // geth's converted words keep a precompile's own error (only two of them are mapped).
    if (parity && f.status == evm::Status::precompile_failure) error = "Built-in failed";
    const bool create = f.op == kCreate || f.op == kCreate2;
    // Parity's top frame: the call's own gas, not the transaction's.
    const std::uint64_t gas = parity && i == 0 ? f.frame_gas : f.gas;
    const std::uint64_t gas_used = parity && i == 0 ? f.frame_gas_used : f.gas_used;
    const bool position = !(parity && options.without_position);
    w.begin_object();
    w.key("action");
    w.begin_object();
    if (f.op == kSelfDestruct) {
        w.key("address");
        address_value(w, f.from);
        w.member_quantity("balance", f.value);
        w.key("refundAddress");
        address_value(w, f.to);
    } else {
        if (!create) {
            w.key("callType");
            w.string(lower_type_name(f.op));
        } else {
            w.key("creationMethod");
            w.string(lower_type_name(f.op));
        }
        w.key("from");
        address_value(w, f.from);
        w.member_quantity("gas", gas);
        if (create) {
            w.member_data("init", f.input);
        } else {
            w.member_data("input", f.input);
            w.key("to");
            address_value(w, f.to);
        }
        // Inner frames without a value (STATICCALL) show zero; the top frame always has one.
        w.member_quantity("value", f.has_value ? f.value : Uint256{});
    }
    w.end_object();
    if (position) {
        w.key("blockHash");
        if (context.block_hash != nullptr) {
            w.data(BytesView(context.block_hash->data(), context.block_hash->size()));
        } else {
            w.null();
        }
        w.key("blockNumber");
        w.number(context.block_number);
    }
    if (!error.empty()) {
        w.key("error");
        w.string(error);
    }
    if (parity && reverted && !f.output.empty()) w.member_data("revertReason", f.output);
    if (parity && f.op == kSelfDestruct) {
        w.key("result");
        w.null();
    }
    if (f.op != kSelfDestruct && keep_result) {
        w.key("result");
        w.begin_object();
        if (create) {
            if (f.has_to) {
                w.key("address");
                address_value(w, f.to);
            }
            w.member_data("code", f.output);
        }
        w.member_quantity("gasUsed", gas_used);
        if (!create) w.member_data("output", f.output);
        w.end_object();
    }
    w.key("subtraces");
    w.number(subtraces);
    w.key("traceAddress");
    w.begin_array();
    for (std::uint32_t a : address) w.number(a);
    w.end_array();
    if (position) {
        w.key("transactionHash");
        if (context.tx_hash != nullptr) {
            w.data(BytesView(context.tx_hash->data(), context.tx_hash->size()));
        } else {
            w.null();
        }
        w.key("transactionPosition");
        w.number(context.tx_index);
    }
    w.key("type");
    w.string(f.op == kSelfDestruct ? "suicide" : (create ? "create" : "call"));
    w.end_object();

    std::uint32_t k = 0;
    for (std::uint32_t j = i + 1; j < f.end; j = frames_[j].end) {
        if ((parity || !options.include_precompiles) && frames_[j].precompile) continue;
        address.push_back(k++);
        write_flat_frame(w, j, options, context, address, flat_children(j, options));
        address.pop_back();
    }
}

}  // namespace keel::trace
