#include "keel/trace/eip3155.hpp"

#include <charconv>

#include "keel/common/hex.hpp"
#include "keel/common/json_writer.hpp"
#include "keel/evm/evm.hpp"
#include "keel/evm/opcodes.hpp"

namespace keel::trace {

namespace {

// Whole lines go to the FILE once this much is buffered.
constexpr std::size_t kWriteAt = 1 << 20;

void append_dec(std::string& out, std::uint64_t v) {
    char tmp[20];
    const auto r = std::to_chars(tmp, tmp + sizeof tmp, v);
    out.append(tmp, r.ptr);
}

void append_dec_signed(std::string& out, std::int64_t v) {
    char tmp[21];
    const auto r = std::to_chars(tmp, tmp + sizeof tmp, v);
    out.append(tmp, r.ptr);
}

// A quoted QUANTITY: "0x" and minimal hex digits.
void append_quantity(std::string& out, const Uint256& v) {
    const std::size_t at = out.size();
    out.resize(at + Uint256::kMaxHexChars + 2);
    out[at] = '"';
    const std::size_t n = v.write_hex(out.data() + at + 1);
    out[at + 1 + n] = '"';
    out.resize(at + n + 2);
}

void append_quantity(std::string& out, std::int64_t v) {
    append_quantity(out, Uint256(static_cast<std::uint64_t>(v < 0 ? 0 : v)));
}

// A quoted DATA string, with or without "0x".
void append_hex(std::string& out, BytesView b, bool prefix) {
    out += prefix ? "\"0x" : "\"";
    hex::append(out, b);
    out += '"';
}

}  // namespace

std::string status_phrase(evm::Status status, std::uint8_t op, std::size_t stack_size,
                          eth::Fork fork) {
    using evm::Status;
    const evm::OpTraits& t = evm::op_table(fork)[op];
    switch (status) {
        case Status::success:
            return {};
        case Status::revert:
            return "execution reverted";
        case Status::out_of_gas:
            return "out of gas";
        case Status::invalid_instruction:
            return "invalid opcode: INVALID";
        case Status::undefined_instruction: {
            char tmp[40];
            std::snprintf(tmp, sizeof tmp, "invalid opcode: opcode 0x%x not defined", op);
            return tmp;
        }
        case Status::stack_underflow:
            return "stack underflow (" + std::to_string(stack_size) + " <=> " +
                   std::to_string(t.stack_in) + ")";
        case Status::stack_overflow:
            return "stack limit reached " + std::to_string(stack_size) + " (" +
                   std::to_string(static_cast<int>(evm::kStackLimit) - t.stack_change) + ")";
        case Status::bad_jump_destination:
            return "invalid jump destination";
        case Status::invalid_memory_access:
            return "return data out of bounds";
        case Status::static_mode_violation:
            return "write protection";
        case Status::precompile_failure:
            return "precompile failed";
        case Status::contract_validation_failure:
            return "invalid code: must not begin with 0xef";
        case Status::code_size_exceeded:
            return "max code size exceeded";
        case Status::initcode_size_exceeded:
            return "max initcode size exceeded";
        case Status::create_collision:
            return "contract address collision";
        case Status::call_depth_exceeded:
            return "max call depth exceeded";
        case Status::insufficient_balance:
            return "insufficient balance for transfer";
        case Status::nonce_overflow:
            return "nonce uint64 overflow";
    }
    return std::string(evm::describe(status));
}

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
    append_dec(buf_, s.pc);
    buf_ += ",\"op\":";
    append_dec(buf_, s.op);
    buf_ += ",\"gas\":";
    append_quantity(buf_, s.gas);
    buf_ += ",\"gasCost\":";
    append_quantity(buf_, s.cost);
    if (options_.memory) {
        buf_ += ",\"memory\":";
        append_hex(buf_, s.memory, true);
    }
    buf_ += ",\"memSize\":";
    append_dec(buf_, s.memory.size());
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
    append_dec_signed(buf_, s.refund);
    buf_ += ",\"opName\":\"";
    const std::string_view name = evm::name(s.op, fork_);
    if (name.empty()) {
        char tmp[32];
        const int n = std::snprintf(tmp, sizeof tmp, "opcode 0x%x not defined", s.op);
        buf_.append(tmp, static_cast<std::size_t>(n));
    } else {
        buf_ += name;
    }
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
