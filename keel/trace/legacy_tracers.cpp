#include "keel/trace/legacy_tracers.hpp"

#include <algorithm>

#include "keel/eth/json.hpp"
#include "keel/evm/evm.hpp"
#include "keel/evm/precompiles.hpp"
#include "keel/state/overlay.hpp"
#include "keel/trace/phrases.hpp"

namespace keel::trace {
namespace {

constexpr std::uint8_t kCreate = 0xf0, kCall = 0xf1, kCallCode = 0xf2, kDelegateCall = 0xf4,
                       kCreate2 = 0xf5, kStaticCall = 0xfa, kRevert = 0xfd, kInvalid = 0xfe,
                       kSelfDestruct = 0xff, kSstore = 0x55;

// The script reads stack words as JavaScript numbers; offsets and sizes that do not fit are
// absurd either way: saturated.
std::uint64_t small(const Uint256& v) {
    return v.fits_u64() ? v[0] : ~std::uint64_t{0};
}

// How far past the memory the script's memory.slice() pads with zeros (geth's limit).
constexpr std::uint64_t kMemoryPadLimit = 1024 * 1024;

// The scripts' memory.slice(begin, begin + size): zeros past the memory's end, up to geth's pad
// limit (past it the script fails: the slice is left empty here).
Bytes memory_slice(BytesView memory, std::uint64_t begin, std::uint64_t size) {
    const std::uint64_t end = size > ~begin ? ~std::uint64_t{0} : begin + size;
    if (end <= begin) return {};
    if (end > memory.size() && end - memory.size() > kMemoryPadLimit) return {};
    Bytes out(end - begin, 0);
    if (begin < memory.size()) {
        const std::uint64_t n = std::min<std::uint64_t>(end, memory.size()) - begin;
        std::copy_n(memory.data() + begin, n, out.data());
    }
    return out;
}

}  // namespace

void LegacyCallTracer::on_tx_start(const evm::TxStartView& tx) {
    fork_ = tx.fork;
    table_ = &evm::op_table(fork_);
    state_ = &tx.state;
    callstack_.assign(1, Call{});
    frames_.clear();
    descended_ = false;
    create_ = tx.tx.is_create();
    from_ = tx.sender;
    to_ = create_ ? evm::create_address(tx.sender, tx.state.nonce(tx.sender)) : *tx.tx.to();
    value_ = tx.tx.value();
    gas_limit_ = tx.gas_limit;
    gas_used_ = 0;
    input_.assign(tx.tx.data().begin(), tx.tx.data().end());
    output_.clear();
    error_.reset();
}

void LegacyCallTracer::on_tx_end(const evm::TxEndView& tx) {
    gas_used_ = tx.gas_used;
    output_.assign(tx.output.begin(), tx.output.end());
}

void LegacyCallTracer::on_call_start(const evm::Message& msg) {
    frames_.push_back(msg.recipient);
}

void LegacyCallTracer::on_call_end(const evm::Message& msg, const evm::CallResult& result) {
    if (msg.depth == 0 && result.status != evm::Status::success) {
        // The script's ctx.error: the transaction's own frame failed.
        if (result.status == evm::Status::precompile_failure) {
            const auto id = evm::precompile_id(msg.code_address);
            error_ = precompile_failure_phrase(id ? *id : 0, msg.input);
        } else {
            error_ = status_phrase(result.status, fault_op_, fault_stack_, fork_);
        }
    }
    if (!frames_.empty()) frames_.pop_back();
}

bool LegacyCallTracer::fails_before_running(const evm::StepView& step) const {
    const evm::OpTraits& t = (*table_)[step.op];
    if (!t.defined || step.op == kInvalid) return true;
    const auto n = static_cast<std::int64_t>(step.stack.size());
    if (n < t.stack_in || n + t.stack_change > 1024) return true;
    if (step.cost > step.gas) return true;
    // EIP-2200's sentry, a gas check too.
    return step.op == kSstore && fork_ >= eth::Fork::istanbul && step.gas <= 2300;
}

void LegacyCallTracer::fault(const std::string& error) {
    // The script's fault(): a frame that already reverted is left as it is.
    if (callstack_.empty() || callstack_.back().error) return;
    Call call = std::move(callstack_.back());
    callstack_.pop_back();
    call.error = error;
    if (call.gas) call.gas_used = call.gas;
    if (!callstack_.empty()) {
        callstack_.back().calls.push_back(std::move(call));
        return;
    }
    callstack_.push_back(std::move(call));  // the transaction's own frame failed
}

void LegacyCallTracer::on_step(const evm::StepView& step) {
    fault_op_ = step.op;
    fault_stack_ = step.stack.size();
    if (callstack_.empty() || frames_.empty()) return;
    // A step geth would not have let run reaches the script as its fault only (on_step_error).
    if (fails_before_running(step)) return;
    const std::span<const Uint256> s = step.stack;
    const std::size_t n = s.size();
    const auto peek = [&](std::size_t i) -> const Uint256& { return s[n - 1 - i]; };
    const std::uint64_t depth = static_cast<std::uint64_t>(step.depth) + 1;  // geth's
    const std::uint8_t op = step.op;
    if (op == kCreate || op == kCreate2) {
        Call c;
        c.op = op;
        c.from = frames_.back();
        c.input = memory_slice(step.memory, small(peek(1)), small(peek(2)));
        c.gas_in = step.gas;
        c.gas_cost = step.cost;
        c.value = peek(0);
        callstack_.push_back(std::move(c));
        descended_ = true;
        return;
    }
    if (op == kSelfDestruct) {
        Call c;
        c.op = op;
        c.from = frames_.back();
        c.to = evm::stack_address(peek(0));
        c.value = state_->balance(frames_.back());
        callstack_.back().calls.push_back(std::move(c));
        return;
    }
    if (op == kCall || op == kCallCode || op == kDelegateCall || op == kStaticCall) {
        const Address to = evm::stack_address(peek(1));
        // Calls of precompiles are not listed ("just fancy opcodes").
        if (const auto id = evm::precompile_id(to); id && evm::precompile_exists(*id, fork_))
            return;
        const std::size_t off = op == kDelegateCall || op == kStaticCall ? 0 : 1;
        Call c;
        c.op = op;
        c.from = frames_.back();
        c.to = to;
        c.input = memory_slice(step.memory, small(peek(2 + off)), small(peek(3 + off)));
        c.gas_in = step.gas;
        c.gas_cost = step.cost;
        c.out_off = small(peek(4 + off));
        c.out_len = small(peek(5 + off));
        if (off == 1) c.value = peek(2);
        callstack_.push_back(std::move(c));
        descended_ = true;
        return;
    }
    // The callee's first step: the gas it really got (the stipend, the 63/64 rule).
    if (descended_) {
        if (depth >= callstack_.size())
            callstack_.back().gas = static_cast<std::uint64_t>(step.gas);
        descended_ = false;
    }
    if (op == kRevert) {
        callstack_.back().error = "execution reverted";
        return;
    }
    // The caller's next step: the call it made has returned.
    if (depth == callstack_.size() - 1 && callstack_.size() > 1) {
        Call c = std::move(callstack_.back());
        callstack_.pop_back();
        const Uint256& ret = peek(0);
        if (c.op == kCreate || c.op == kCreate2) {
            c.gas_used = static_cast<std::uint64_t>(
                std::max<std::int64_t>(c.gas_in - c.gas_cost - step.gas, 0));
            if (!ret.is_zero()) {
                c.to = evm::stack_address(ret);
                const state::Code& code = state_->code(*c.to);
                c.output = Bytes(code->begin(), code->end());
            } else if (!c.error) {
                c.error = "internal failure";
            }
        } else {
            if (c.gas) {
                c.gas_used = static_cast<std::uint64_t>(std::max<std::int64_t>(
                    c.gas_in - c.gas_cost + static_cast<std::int64_t>(*c.gas) - step.gas, 0));
            }
            if (!ret.is_zero()) {
                c.output = memory_slice(step.memory, c.out_off, c.out_len);
            } else if (!c.error) {
                c.error = "internal failure";
            }
        }
        callstack_.back().calls.push_back(std::move(c));
    }
}

void LegacyCallTracer::on_step_error(evm::Status status) {
    // Either the step geth would not have run (its only hook is the fault) or one that failed
    // while it ran (after the script saw it).
    fault(status_phrase(status, fault_op_, fault_stack_, fork_));
}

void LegacyCallTracer::write_call(json::Writer& w, const Call& c) const {
    w.begin_object();
    w.key("type");
    std::string name;
    append_op_name(name, c.op, fork_);
    w.string(name);
    w.key("from");
    w.data(BytesView(c.from.data(), c.from.size()));
    if (c.to) {
        w.key("to");
        w.data(BytesView(c.to->data(), c.to->size()));
    }
    if (c.value) w.member_quantity("value", *c.value);
    if (c.gas) w.member_quantity("gas", *c.gas);
    if (c.gas_used) w.member_quantity("gasUsed", *c.gas_used);
    if (c.op != kSelfDestruct) w.member_data("input", c.input);
    if (c.output) w.member_data("output", *c.output);
    if (c.error) {
        w.key("error");
        w.string(*c.error);
    }
    if (!c.calls.empty()) {
        w.key("calls");
        w.begin_array();
        for (const Call& child : c.calls) write_call(w, child);
        w.end_array();
    }
    w.end_object();
}

void LegacyCallTracer::write(json::Writer& w) const {
    // The script's result(): the transaction as the top call.
    const Call* top = callstack_.empty() ? nullptr : &callstack_.front();
    std::optional<std::string> error = top != nullptr && top->error ? top->error : error_;
    const bool keep_output = !error || (*error == "execution reverted" && !output_.empty());
    w.begin_object();
    w.key("type");
    w.string(create_ ? "CREATE" : "CALL");
    w.key("from");
    w.data(BytesView(from_.data(), from_.size()));
    w.key("to");
    w.data(BytesView(to_.data(), to_.size()));
    w.member_quantity("value", value_);
    w.member_quantity("gas", gas_limit_);
    w.member_quantity("gasUsed", gas_used_);
    w.member_data("input", input_);
    if (keep_output) w.member_data("output", output_);
    if (error) {
        w.key("error");
        w.string(*error);
    }
    if (top != nullptr && !top->calls.empty()) {
        w.key("calls");
        w.begin_array();
        for (const Call& child : top->calls) write_call(w, child);
        w.end_array();
    }
    w.end_object();
}

}  // namespace keel::trace

namespace keel::trace {

LegacyPrestateTracer::Account& LegacyPrestateTracer::lookup(const Address& a) {
    for (auto& [address, account] : accounts_) {
        if (address == a) return account;
    }
    Account acc;
    acc.balance = state_->balance(a);
    acc.nonce = state_->nonce(a);
    const state::Code& code = state_->code(a);
    acc.code.assign(code->begin(), code->end());
    accounts_.emplace_back(a, std::move(acc));
    return accounts_.back().second;
}

void LegacyPrestateTracer::lookup_storage(const Address& a, const Uint256& slot) {
    Account& acc = lookup(a);
    for (const auto& [key, value] : acc.storage) {
        if (key == slot) return;
    }
    acc.storage.emplace_back(slot, state_->storage(a, slot));
}

void LegacyPrestateTracer::on_tx_start(const evm::TxStartView& tx) {
    fork_ = tx.fork;
    state_ = &tx.state;
    accounts_.clear();
    started_ = false;
    frames_.clear();
    create_ = tx.tx.is_create();
    from_ = tx.sender;
    to_ = create_ ? evm::create_address(tx.sender, tx.state.nonce(tx.sender)) : *tx.tx.to();
    value_ = tx.tx.value();
    gas_price_ = eth::effective_gas_price(tx.tx, tx.block.base_fee);
}

void LegacyPrestateTracer::on_call_start(const evm::Message& msg) {
    frames_.push_back(msg.recipient);
}

void LegacyPrestateTracer::on_call_end(const evm::Message& /*msg*/,
                                       const evm::CallResult& /*result*/) {
    if (!frames_.empty()) frames_.pop_back();
}

void LegacyPrestateTracer::on_step(const evm::StepView& step) {
    if (frames_.empty() || state_ == nullptr) return;
    const Address self = frames_.back();
    if (!started_) {
        started_ = true;
        lookup(self);  // its balance has the value in it already: result() corrects that
    }
    const std::span<const Uint256> s = step.stack;
    const std::size_t n = s.size();
    switch (step.op) {
        case 0x3c:  // EXTCODECOPY
        case 0x3b:  // EXTCODESIZE
        case 0x3f:  // EXTCODEHASH
        case 0x31:  // BALANCE
            if (n >= 1) lookup(evm::stack_address(s[n - 1]));
            break;
        case kCreate:
            lookup(evm::create_address(self, state_->nonce(self)));
            break;
        case kCreate2:
            if (n >= 4) {
                const Bytes init = memory_slice(step.memory, small(s[n - 2]), small(s[n - 3]));
                lookup(evm::create2_address(self, s[n - 4].to_bytes32(), init));
            }
            break;
        case kCall:
        case kCallCode:
        case kDelegateCall:
        case kStaticCall:
            if (n >= 2) lookup(evm::stack_address(s[n - 2]));
            break;
        case kSstore:
        case 0x54:  // SLOAD
            if (n >= 1) lookup_storage(self, s[n - 1]);
            break;
        default:
            break;
    }
}

void LegacyPrestateTracer::on_tx_end(const evm::TxEndView& tx) {
    // The script's result(), on the state after the transaction.
    state_ = &tx.state;
    if (!started_) lookup(to_);  // a plain transfer: nothing ran
    lookup(from_);
    Account& to = lookup(to_);
    to.balance -= value_;
    Account& from = lookup(from_);
    from.balance += value_ + Uint256(tx.gas_used) * gas_price_;
    from.nonce -= 1;
    if (create_) {
        std::erase_if(accounts_, [&](const auto& kv) { return kv.first == to_; });
    }
}

void LegacyPrestateTracer::write(json::Writer& w) const {
    w.begin_object();
    for (const auto& [address, a] : accounts_) {
        w.key_data(address.view());
        w.begin_object();
        w.member_quantity("balance", a.balance);
        w.key("nonce");
        w.number(a.nonce);
        w.member_data("code", a.code);
        w.key("storage");
        w.begin_object();
        for (const auto& [key, value] : a.storage) {
            const Bytes32 k = key.to_bytes32();
            const Bytes32 v = value.to_bytes32();
            w.key_data(k.view());
            w.data(v.view());
        }
        w.end_object();
        w.end_object();
    }
    w.end_object();
}

}  // namespace keel::trace
