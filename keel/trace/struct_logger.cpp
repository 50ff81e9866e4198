#include "keel/trace/struct_logger.hpp"

#include <cstring>

#include "keel/common/assert.hpp"
#include "keel/common/json_writer.hpp"
#include "keel/evm/opcodes.hpp"
#include "keel/trace/append.hpp"
#include "keel/trace/phrases.hpp"

namespace keel::trace {

StructLogger::StructLogger(std::string& out, eth::Fork fork, StructLoggerOptions options)
    : out_(out), fork_(fork), options_(options) {
    out_ += "{\"structLogs\":[";
    std::string name;
    for (unsigned op = 0; op < 256; ++op) {
        name = ",\"op\":\"";
        append_op_name(name, static_cast<std::uint8_t>(op), fork_);
        name += "\",\"gas\":";
        OpText& t = ops_[op];
        KEEL_ASSERT(name.size() <= sizeof t.text);
        std::memset(t.text, 0, sizeof t.text);
        std::memcpy(t.text, name.data(), name.size());
        t.size = static_cast<std::uint8_t>(name.size());
    }
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
    const bool stack = !options_.disable_stack;
    // `,{"pc":` `,"op":"..","gas":` `,"gasCost":` `,"depth":` `,"refund":` `,"stack":[` `]`
    // and five numbers, then a word and a comma per stack entry.
    constexpr std::size_t kFixed =
        7 + sizeof(OpText::text) + 11 + 9 + 10 + 10 + 1 + 5 * kMaxDecBytes;
    const std::size_t room = kFixed + (stack ? s.stack.size() * (kMaxWordBytes + 1) : 0);
    const bool first = steps_ == 0;
    append_with(out_, room, [&](char* p) {
        if (!first) *p++ = ',';
        std::memcpy(p, "{\"pc\":", 6);
        p = write_dec(p + 6, std::uint64_t{s.pc});
        const OpText& op = ops_[s.op];
        std::memcpy(p, op.text, sizeof op.text);
        p = write_dec(p + op.size, s.gas);
        std::memcpy(p, ",\"gasCost\":", 11);
        p = write_dec(p + 11, s.cost);
        std::memcpy(p, ",\"depth\":", 9);
        p = write_dec(p + 9, static_cast<std::uint64_t>(s.depth) + 1);
        if (!options_.omit_empty || s.refund != 0) {
            std::memcpy(p, ",\"refund\":", 10);
            p = write_dec(p + 10, s.refund);
        }
        if (stack) {
            std::memcpy(p, ",\"stack\":[", 10);
            p += 10;
            for (std::size_t i = 0; i < s.stack.size(); ++i) {
                p = write_quantity(p, s.stack[i]);
                *p++ = ',';
            }
            if (!s.stack.empty()) --p;  // the last comma
            *p++ = ']';
        }
        return p;
    });
    ++steps_;
    if (options_.enable_memory && !(options_.omit_empty && s.memory.empty())) {
        out_ += ",\"memory\":[";
        for (std::size_t at = 0; at < s.memory.size(); at += 32) {
            if (at != 0) out_ += ',';
            append_hex(out_, s.memory.subspan(at, std::min<std::size_t>(32, s.memory.size() - at)),
                       true);
        }
        out_ += ']';
    }
    if (options_.enable_return_data && !(options_.omit_empty && s.return_data.empty())) {
        out_ += ",\"returnData\":";
        append_hex(out_, s.return_data, true);
    }
    step_open_ = true;
    step_op_ = s.op;
    step_stack_ = s.stack.size();
    if (!options_.disable_storage && !frames_.empty()) {
        if (s.op == evm::OP_SSTORE && s.stack.size() >= 2) {
            // The value it writes is on the stack: the snapshot includes it (schema).
            record_slot(frames_.back(), s.stack[s.stack.size() - 1], s.stack[s.stack.size() - 2]);
        } else if (s.op == evm::OP_SLOAD) {
            sload_open_ = true;  // on_storage_read brings the value
        }
    }
}

void StructLogger::on_storage_read(const Address& a, const Uint256& key, const Uint256& value) {
    if (!sload_open_) return;
    sload_open_ = false;
    record_slot(a, key, value);
}

void StructLogger::record_slot(const Address& a, const Uint256& key, const Uint256& value) {
    ContractStorage& c = storage_[a];
    const auto [it, added] = c.slots.try_emplace(key, value);
    if (added) {
        c.stale = true;
    } else if (it->second != value) {
        it->second = value;
        c.stale = true;
    }
    append_storage(c);
}

void StructLogger::on_step_error(evm::Status status) {
    if (!step_open_) return;
    sload_open_ = false;
    out_ += ",\"error\":";
    json::append_string(out_, status_phrase(status, step_op_, step_stack_, fork_));
    close_step();
}

void StructLogger::append_storage(ContractStorage& c) {
    if (c.stale) {
        c.text.clear();
        append_with(c.text, 13 + c.slots.size() * (2 * kMaxWordBytes + 2), [&c](char* p) {
            std::memcpy(p, ",\"storage\":{", 12);
            p += 12;
            for (const auto& [key, value] : c.slots) {
                p = write_word(p, key);
                *p++ = ':';
                p = write_word(p, value);
                *p++ = ',';
            }
            if (!c.slots.empty()) --p;  // the last comma
            *p++ = '}';
            return p;
        });
        c.stale = false;
    }
    out_ += c.text;
}

void StructLogger::close_step() {
    if (!step_open_) return;
    out_ += '}';
    step_open_ = false;
    sload_open_ = false;
}

void StructLogger::finish(std::uint64_t gas_used, bool failed, BytesView return_value,
                          std::string_view error) {
    close_step();
    out_ += "],\"gas\":";
    append_dec(out_, gas_used);
    out_ += failed ? ",\"failed\":true" : ",\"failed\":false";
    out_ += ",\"returnValue\":";
    append_hex(out_, return_value, true);
    if (!error.empty()) {
        out_ += ",\"error\":";
        json::append_string(out_, error);
    }
    out_ += '}';
}

}  // namespace keel::trace
