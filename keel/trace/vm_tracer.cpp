#include "keel/trace/vm_tracer.hpp"

#include <algorithm>
#include <charconv>
#include <cstring>

#include "keel/common/hex.hpp"
#include "keel/evm/evm.hpp"
#include "keel/evm/opcodes.hpp"
#include "keel/evm/precompiles.hpp"
#include "keel/state/overlay.hpp"

namespace keel::trace {
namespace {

// The memory range an instruction writes, from its stack before it runs (top last).
struct MemWrite {
    bool writes = false;
    std::uint64_t off = 0;
    std::uint64_t size = 0;
};

MemWrite mem_write(std::uint8_t op, std::span<const Uint256> s) {
    const std::size_t n = s.size();
    const auto at = [&](std::size_t from_top) -> std::optional<std::uint64_t> {
        if (from_top >= n || !s[n - 1 - from_top].fits_u64()) return std::nullopt;
        return s[n - 1 - from_top][0];
    };
    const auto range = [&](std::size_t off, std::size_t size) {
        const auto o = at(off);
        const auto z = at(size);
        if (!o || !z) return MemWrite{};
        return MemWrite{true, *o, *z};
    };
    switch (op) {
        case 0x51:  // MLOAD: the word read (Besu shows reads as memory too)
        case 0x52:  // MSTORE
            return at(0) ? MemWrite{true, *at(0), 32} : MemWrite{};
        case 0x53:  // MSTORE8
            return at(0) ? MemWrite{true, *at(0), 1} : MemWrite{};
        case 0x37:  // CALLDATACOPY
        case 0x39:  // CODECOPY
        case 0x3e:  // RETURNDATACOPY
        case 0x5e:  // MCOPY
            return range(0, 2);
        case 0x3c:  // EXTCODECOPY
            return range(1, 3);
        case 0xf1:  // CALL
        case 0xf2:  // CALLCODE
            return range(5, 6);
        case 0xf4:  // DELEGATECALL
        case 0xfa:  // STATICCALL
            return range(4, 5);
        default:
            return {};
    }
}

bool enters_frame(std::uint8_t op) {
    return op == 0xf0 || op == 0xf1 || op == 0xf2 || op == 0xf4 || op == 0xf5 || op == 0xfa;
}

}  // namespace

std::uint32_t VmTracer::add_bytes(BytesView b) {
    const auto at = static_cast<std::uint32_t>(bytes_.size());
    bytes_.insert(bytes_.end(), b.begin(), b.end());
    return at;
}

void VmTracer::on_tx_start(const evm::TxStartView& tx) {
    fork_ = tx.fork;
    table_ = &evm::op_table(fork_);
    state_ = &tx.state;
    frames_.clear();
    open_.clear();
    words_.clear();
    bytes_.clear();
}

void VmTracer::on_call_start(const evm::Message& msg) {
    Frame f;
    BytesView code;
    state::Code keep;
    if (msg.kind == evm::CallKind::create || msg.kind == evm::CallKind::create2) {
        code = msg.input;
    } else if (state_ != nullptr) {
        const auto id = evm::precompile_id(msg.code_address);
        if (!(id && evm::precompile_exists(*id, fork_))) {
            keep = state_->code(msg.code_address);
            if (fork_ >= eth::Fork::prague) {
                if (const auto target = evm::delegation_target(*keep)) keep = state_->code(*target);
            }
            code = BytesView(keep->data(), keep->size());
        }
    }
    f.code_begin = add_bytes(code);
    f.code_size = static_cast<std::uint32_t>(code.size());
    const auto index = static_cast<std::uint32_t>(frames_.size());
    if (!open_.empty()) {
        Frame& parent = frames_[open_.back()];
        if (parent.pending && !parent.ops.empty() && enters_frame(parent.ops.back().op) &&
            parent.ops.back().sub < 0) {
            Op& o = parent.ops.back();
            o.sub = static_cast<std::int32_t>(index);
            // A CREATE's cost in Parity's trace includes the gas its init code gets, as a
            // CALL's does (StepView::cost already has a call's).
            if (o.op == 0xf0 || o.op == 0xf5) o.cost += msg.gas;
        }
    }
    frames_.push_back(std::move(f));
    open_.push_back(index);
}

void VmTracer::on_call_end(const evm::Message& /*msg*/, const evm::CallResult& /*result*/) {
    if (open_.empty()) return;
    Frame& f = frames_[open_.back()];
    if (f.pending) {
        // The frame's last instruction: the gas left after its own cost, nothing pushed.
        Op& o = f.ops.back();
        o.used = o.gas - o.cost;
        o.push_begin = static_cast<std::uint32_t>(words_.size());
        f.pending = false;
    }
    open_.pop_back();
}

void VmTracer::complete(Frame& f, std::int64_t gas, std::span<const Uint256> stack,
                        BytesView memory) {
    Op& o = f.ops.back();
    o.used = gas;
    const evm::OpTraits& t = (*table_)[o.op];
    std::size_t out = t.defined ? static_cast<std::size_t>(t.stack_in + t.stack_change) : 0;
    out = std::min(out, stack.size());  // at a frame's end: nothing
    o.push_begin = static_cast<std::uint32_t>(words_.size());
    o.push_count = static_cast<std::uint8_t>(std::min<std::size_t>(out, 255));
    words_.insert(words_.end(), stack.end() - static_cast<std::ptrdiff_t>(o.push_count),
                  stack.end());
    if (f.writes_mem) {
        // A call shows its whole output area, whatever the callee returned into it.
        const std::uint64_t size = f.write_size;
        if (size > 0 && f.write_off <= memory.size() && size <= memory.size() - f.write_off) {
            o.has_mem = true;
            o.mem_off = f.write_off;
            o.mem_begin = add_bytes(memory.subspan(f.write_off, size));
            o.mem_size = static_cast<std::uint32_t>(size);
        }
    }
    f.pending = false;
}

void VmTracer::on_step(const evm::StepView& step) {
    if (open_.empty()) return;
    Frame& f = frames_[open_.back()];
    if (f.pending) complete(f, step.gas, step.stack, step.memory);
    if (step.pc >= f.code_size) return;  // the STOP implied at the end of the code
    Op o;
    o.pc = step.pc;
    o.op = step.op;
    o.cost = step.cost;
    o.gas = step.gas;

    if (step.op == 0x55 && step.stack.size() >= 2) {  // SSTORE
        o.has_store = true;
        o.store_at = static_cast<std::uint32_t>(words_.size());
        words_.push_back(step.stack[step.stack.size() - 1]);
        words_.push_back(step.stack[step.stack.size() - 2]);
    }
    const MemWrite m = mem_write(step.op, step.stack);
    f.writes_mem = m.writes;
    f.write_off = m.off;
    f.write_size = m.size;
    f.ops.push_back(o);
    f.pending = true;
}

void VmTracer::on_step_error(evm::Status status) {
    if (open_.empty()) return;
    Frame& f = frames_[open_.back()];
    if (!f.pending || f.ops.empty()) return;
    if (status == evm::Status::out_of_gas) {
        // Listed with no effects and its constant cost (Besu's trace of an out-of-gas
        // SELFDESTRUCT).
        Op& o = f.ops.back();
        o.no_ex = true;
        o.cost = (*table_)[o.op].gas;
        f.pending = false;
    } else if (status == evm::Status::stack_underflow || status == evm::Status::stack_overflow ||
               status == evm::Status::undefined_instruction ||
               status == evm::Status::invalid_instruction) {
        f.ops.pop_back();
        f.pending = false;
    }
}

namespace {

// The vmTrace is the largest trace there is (every instruction of every frame): each
// instruction is written through a raw cursor into room made for it at once (its bound below),
// not by a checked append per piece.
char* put(char* p, std::string_view text) {
    std::memcpy(p, text.data(), text.size());
    return p + text.size();
}

char* put_number(char* p, std::uint64_t v) {
    return std::to_chars(p, p + 20, v).ptr;
}

char* put_quantity(char* p, const Uint256& v) {
    *p++ = '"';
    p += v.write_hex(p);
    *p++ = '"';
    return p;
}

char* put_data(char* p, BytesView b) {
    p = put(p, "\"0x");
    p += hex::encode_to(b, p);
    *p++ = '"';
    return p;
}

// Bytes an instruction's object can take, but for its callee's trace: the fixed members and
// numbers (at most 20 digits each), 68 for each pushed word, a stored key and value, and the
// memory it wrote in hex.
constexpr std::size_t kOpFixed = 320;
constexpr std::size_t kWordBound = 70;

}  // namespace

void VmTracer::write(std::string& out) const {
    if (frames_.empty()) {
        out += "null";
        return;
    }
    write_frame(out, 0);
}

void VmTracer::write_frame(std::string& out, std::uint32_t i) const {
    const Frame& f = frames_[i];
    out += "{\"code\":\"0x";
    hex::append(out, BytesView(bytes_.data() + f.code_begin, f.code_size));
    out += "\",\"ops\":[";
    bool first = true;
    for (const Op& o : f.ops) {
        const std::size_t bound = kOpFixed + kWordBound * o.push_count +
                                  (o.has_mem ? 2 * static_cast<std::size_t>(o.mem_size) : 0);
        const std::size_t at = out.size();
        out.resize_and_overwrite(at + bound, [&](char* buf, std::size_t) {
            char* p = buf + at;
            if (!first) *p++ = ',';
            p = put(p, "{\"cost\":");
            p = put_number(p, static_cast<std::uint64_t>(std::max<std::int64_t>(o.cost, 0)));
            if (o.no_ex) {
                p = put(p, ",\"ex\":null,\"pc\":");
                p = put_number(p, o.pc);
                return static_cast<std::size_t>(put(p, ",\"sub\":null}") - buf);
            }
            p = put(p, ",\"ex\":{\"mem\":");
            if (o.has_mem) {
                p = put(p, "{\"data\":");
                p = put_data(p, BytesView(bytes_.data() + o.mem_begin, o.mem_size));
                p = put(p, ",\"off\":");
                p = put_number(p, o.mem_off);
                *p++ = '}';
            } else {
                p = put(p, "null");
            }
            p = put(p, ",\"push\":[");
            for (std::uint32_t k = 0; k < o.push_count; ++k) {
                if (k > 0) *p++ = ',';
                p = put_quantity(p, words_[o.push_begin + k]);
            }
            p = put(p, "],\"store\":");
            if (o.has_store) {
                p = put(p, "{\"key\":");
                p = put_quantity(p, words_[o.store_at]);
                p = put(p, ",\"val\":");
                p = put_quantity(p, words_[o.store_at + 1]);
                *p++ = '}';
            } else {
                p = put(p, "null");
            }
            p = put(p, ",\"used\":");
            p = put_number(p, static_cast<std::uint64_t>(std::max<std::int64_t>(o.used, 0)));
            p = put(p, "},\"pc\":");
            p = put_number(p, o.pc);
            p = put(p, ",\"sub\":");
            if (o.sub < 0) p = put(p, "null}");
            return static_cast<std::size_t>(p - buf);
        });
        first = false;
        if (o.no_ex || o.sub < 0) continue;
        write_frame(out, static_cast<std::uint32_t>(o.sub));
        out += '}';
    }
    out += "]}";
}

}  // namespace keel::trace
