#include "keel/trace/eip3155.hpp"

#include "keel/common/json_writer.hpp"
#include "keel/evm/evm.hpp"
#include "keel/evm/opcodes.hpp"
#include "keel/trace/append.hpp"
#include "keel/trace/phrases.hpp"

namespace keel::trace {

namespace {

// Whole lines go to the FILE once this much is buffered.
constexpr std::size_t kWriteAt = 1 << 20;

}  // namespace

Eip3155::Eip3155(std::FILE* out, eth::Fork fork, Eip3155Options options)
    : out_(out), fork_(fork), options_(options) {
    buf_.reserve(kWriteAt + (64 << 10));
}

Eip3155::~Eip3155() {
    flush();
}

void Eip3155::on_call_start(const evm::Message& /*msg*/) {
    close_step();
}

void Eip3155::on_call_end(const evm::Message& msg, const evm::CallResult& result) {
    close_step();
    buf_ += "{\"output\":";
    append_hex(buf_, result.output, false);
    buf_ += ",\"gasUsed\":";
    append_quantity(buf_, msg.gas - result.gas_left);
    if (result.status != evm::Status::success) {
        // A frame that failed before running (depth, balance) names no instruction.
        buf_ += ",\"error\":";
        json::append_string(buf_, status_phrase(result.status, 0, 0, fork_));
    }
    buf_ += "}\n";
    maybe_write();
}

void Eip3155::on_step(const evm::StepView& s) {
    close_step();
    buf_ += "{\"pc\":";
    append_dec(buf_, std::uint64_t{s.pc});
    buf_ += ",\"op\":";
    append_dec(buf_, std::uint64_t{s.op});
    buf_ += ",\"gas\":";
    append_quantity(buf_, s.gas);
    buf_ += ",\"gasCost\":";
    append_quantity(buf_, s.cost);
    if (options_.memory) {
        buf_ += ",\"memory\":";
        append_hex(buf_, s.memory, true);
    }
    buf_ += ",\"memSize\":";
    append_dec(buf_, std::uint64_t{s.memory.size()});
    buf_ += ",\"stack\":[";
    for (std::size_t i = 0; i < s.stack.size(); ++i) {
        if (i != 0) buf_ += ',';
        append_quantity(buf_, s.stack[i]);
    }
    buf_ += ']';
    if (options_.return_data) {
        buf_ += ",\"returnData\":";
        append_hex(buf_, s.return_data, true);
    }
    buf_ += ",\"depth\":";
    append_dec(buf_, static_cast<std::uint64_t>(s.depth) + 1);
    buf_ += ",\"refund\":";
    append_dec(buf_, s.refund);
    buf_ += ",\"opName\":\"";
    append_op_name(buf_, s.op, fork_);
    buf_ += '"';
    step_open_ = true;
    step_op_ = s.op;
    step_stack_ = s.stack.size();
}

void Eip3155::on_step_error(evm::Status status) {
    if (!step_open_) return;
    buf_ += ",\"error\":";
    json::append_string(buf_, status_phrase(status, step_op_, step_stack_, fork_));
    close_step();
}

void Eip3155::line(std::string_view text) {
    close_step();
    buf_ += text;
    buf_ += '\n';
    maybe_write();
}

void Eip3155::flush() {
    close_step();
    if (!buf_.empty()) {
        std::fwrite(buf_.data(), 1, buf_.size(), out_);
        buf_.clear();
    }
    std::fflush(out_);
}

void Eip3155::close_step() {
    if (!step_open_) return;
    buf_ += "}\n";
    step_open_ = false;
    maybe_write();
}

void Eip3155::maybe_write() {
    if (buf_.size() < kWriteAt) return;
    std::fwrite(buf_.data(), 1, buf_.size(), out_);
    buf_.clear();
}

}  // namespace keel::trace
