#include "keel/trace/struct_logger.hpp"

#include "keel/common/json_writer.hpp"
#include "keel/evm/opcodes.hpp"
#include "keel/trace/append.hpp"
#include "keel/trace/phrases.hpp"

namespace keel::trace {

StructLogger::StructLogger(std::string& out, eth::Fork fork, StructLoggerOptions options)
    : out_(out), fork_(fork), options_(options) {
    out_ += "{\"structLogs\":[";
}

void StructLogger::on_call_start(const evm::Message& msg) {
    close_step();
    // DELEGATECALL and CALLCODE run in the caller's storage: msg.recipient is its owner.
    frames_.push_back(msg.recipient);
}

void StructLogger::on_call_end(const evm::Message& /*msg*/, const evm::CallResult& /*result*/) {
    close_step();
    if (!frames_.empty()) frames_.pop_back();
}

void StructLogger::set_drain(std::size_t at, std::function<void(std::string&)> drain) {
    drain_at_ = at;
    drain_ = std::move(drain);
}

void StructLogger::on_step(const evm::StepView& s) {
    close_step();
    if (drain_ && out_.size() >= drain_at_) drain_(out_);
    if (options_.limit != 0 && steps_ >= options_.limit) return;
    if (steps_ != 0) out_ += ',';
    ++steps_;
    out_ += "{\"pc\":";
    append_dec(out_, std::uint64_t{s.pc});
    out_ += ",\"op\":\"";
    append_op_name(out_, s.op, fork_);
    out_ += "\",\"gas\":";
    append_dec(out_, s.gas);
    out_ += ",\"gasCost\":";
    append_dec(out_, s.cost);
    out_ += ",\"depth\":";
    append_dec(out_, static_cast<std::uint64_t>(s.depth) + 1);
    out_ += ",\"refund\":";
    append_dec(out_, s.refund);
    if (!options_.disable_stack) {
        out_ += ",\"stack\":[";
        for (std::size_t i = 0; i < s.stack.size(); ++i) {
            if (i != 0) out_ += ',';
            append_quantity(out_, s.stack[i]);
        }
        out_ += ']';
    }
    if (options_.enable_memory) {
        out_ += ",\"memory\":[";
        for (std::size_t at = 0; at < s.memory.size(); at += 32) {
            if (at != 0) out_ += ',';
            append_hex(out_, s.memory.subspan(at, std::min<std::size_t>(32, s.memory.size() - at)),
                       true);
        }
        out_ += ']';
    }
    if (options_.enable_return_data) {
        out_ += ",\"returnData\":";
        append_hex(out_, s.return_data, true);
    }
    step_open_ = true;
    step_op_ = s.op;
    step_stack_ = s.stack.size();
    if (!options_.disable_storage && !frames_.empty()) {
        if (s.op == evm::OP_SSTORE && s.stack.size() >= 2) {
            // The value it writes is on the stack: the snapshot includes it (schema).
            storage_[frames_.back()][s.stack[s.stack.size() - 1]] = s.stack[s.stack.size() - 2];
            append_storage(frames_.back());
        } else if (s.op == evm::OP_SLOAD) {
            sload_open_ = true;  // on_storage_read brings the value
        }
    }
}

void StructLogger::on_storage_read(const Address& a, const Uint256& key, const Uint256& value) {
    if (!sload_open_) return;
    sload_open_ = false;
    storage_[a][key] = value;
    append_storage(a);
}

void StructLogger::on_step_error(evm::Status status) {
    if (!step_open_) return;
    sload_open_ = false;
    out_ += ",\"error\":";
    json::append_string(out_, status_phrase(status, step_op_, step_stack_, fork_));
    close_step();
}

void StructLogger::append_storage(const Address& a) {
    out_ += ",\"storage\":{";
    bool first = true;
    for (const auto& [key, value] : storage_[a]) {
        if (!first) out_ += ',';
        first = false;
        append_word(out_, key);
        out_ += ':';
        append_word(out_, value);
    }
    out_ += '}';
}

void StructLogger::close_step() {
    if (!step_open_) return;
    out_ += '}';
    step_open_ = false;
    sload_open_ = false;
}

void StructLogger::finish(std::uint64_t gas_used, bool failed, BytesView return_value) {
    close_step();
    out_ += "],\"gas\":";
    append_dec(out_, gas_used);
    out_ += failed ? ",\"failed\":true" : ",\"failed\":false";
    out_ += ",\"returnValue\":";
    append_hex(out_, return_value, true);
    out_ += '}';
}

}  // namespace keel::trace
