#include "keel/trace/erc7562_tracer.hpp"

#include <algorithm>
#include <cstring>
#include <limits>

#include "keel/state/overlay.hpp"

namespace keel::trace {
namespace {

constexpr std::uint8_t kSload = 0x54, kSstore = 0x55, kTload = 0x5c, kTstore = 0x5d, kGas = 0x5a,
                       kKeccak = 0x20, kExtCodeSize = 0x3b, kExtCodeCopy = 0x3c,
                       kExtCodeHash = 0x3f, kIsZero = 0x15, kReturn = 0xf3, kRevert = 0xfd,
                       kCall = 0xf1, kCallCode = 0xf2, kDelegateCall = 0xf4, kStaticCall = 0xfa;
constexpr std::int64_t kMemoryPadLimit = 1024 * 1024;

bool is_ext(std::uint8_t op) {
    return op == kExtCodeHash || op == kExtCodeSize || op == kExtCodeCopy;
}
bool is_call(std::uint8_t op) {
    return op == kCall || op == kCallCode || op == kDelegateCall || op == kStaticCall;
}

}  // namespace

Erc7562Tracer::Erc7562Tracer(Erc7562TracerOptions options)
    : options_(std::move(options)), calls_(CallTracerOptions{.with_log = options_.with_log}) {
    if (options_.ignored_opcodes) {
        for (const std::uint8_t op : *options_.ignored_opcodes) ignored_[op] = true;
    } else {
        for (unsigned op = 0x5f; op <= 0x9f; ++op) ignored_[op] = true;  // PUSH0..SWAP16
        for (const std::uint8_t op : {0x50, 0x01, 0x03, 0x02, 0x04, 0x14, 0x10, 0x11, 0x12, 0x13,
                                      0x1b, 0x1c, 0x16, 0x17, 0x19, 0x15}) {
            ignored_[op] = true;  // POP ADD SUB MUL DIV EQ LT GT SLT SGT SHL SHR AND OR NOT ISZERO
        }
    }
}

Erc7562Tracer::Extras& Erc7562Tracer::extras_of(std::uint32_t frame) {
    if (extras_.size() <= frame) extras_.resize(frame + 1);
    return extras_[frame];
}

void Erc7562Tracer::on_tx_start(const evm::TxStartView& tx) {
    calls_.on_tx_start(tx);
    state_ = &tx.state;
    extras_.clear();
    contracts_.clear();
    keccak_.clear();
    have_last_ = false;
}

void Erc7562Tracer::on_tx_end(const evm::TxEndView& tx) {
    calls_.on_tx_end(tx);
}

void Erc7562Tracer::on_call_start(const evm::Message& msg) {
    calls_.on_call_start(msg);
    contracts_.push_back(msg.recipient);
}

void Erc7562Tracer::on_call_end(const evm::Message& msg, const evm::CallResult& result) {
    calls_.on_call_end(msg, result);
    if (!contracts_.empty()) contracts_.pop_back();
}

void Erc7562Tracer::on_selfdestruct(const Address& contract, const Address& beneficiary,
                                    const Uint256& balance) {
    calls_.on_selfdestruct(contract, beneficiary, balance);
}

void Erc7562Tracer::on_step(const evm::StepView& step) {
    calls_.on_step(step);
    const auto frame = calls_.current_frame();
    if (!frame || contracts_.empty() || state_ == nullptr) return;
    Extras& x = extras_of(*frame);
    const std::uint8_t op = step.op;
    const std::span<const Uint256> s = step.stack;
    const std::size_t n = s.size();
    const auto top = [&](std::size_t i) -> const Uint256* {
        return i < n ? &s[n - 1 - i] : nullptr;
    };

    if (op == kReturn || op == kRevert) have_last_ = false;
    if (have_last_ && is_ext(last_op_) && !last_top_.empty() &&
        !(last_op_ == kExtCodeSize && op == kIsZero)) {
        x.ext_code_access.push_back(evm::stack_address(last_top_[0]));
    }
    if (is_ext(op) || is_call(op)) {
        if (const Uint256* w = top(is_ext(op) ? 0 : 1)) {
            const Address a = evm::stack_address(*w);
            if (!x.contract_size.contains(a)) {
                x.contract_size.emplace(a, Extras::Size{state_->code(a)->size(), op});
            }
        }
    }
    if (have_last_ && last_op_ == kGas && !is_call(op)) x.used_opcodes[kGas] += 1;
    if (op != kGas && !ignored_[op]) x.used_opcodes[op] += 1;
    if (const Uint256* slot = top(0)) {
        switch (op) {
            case kSload:
                if (!x.reads.contains(*slot) && !x.writes.contains(*slot)) {
                    x.reads.emplace(*slot, state_->storage(contracts_.back(), *slot));
                }
                break;
            case kSstore:
                x.writes[*slot] += 1;
                break;
            case kTload:
                x.transient_reads[*slot] += 1;
                break;
            case kTstore:
                x.transient_writes[*slot] += 1;
                break;
            default:
                break;
        }
    }
    if (op == kKeccak && n >= 2) {
        // geth reads the preimage as int64 offset and size, pads what lies past memory with
        // zeros up to 1 MiB, and skips what it cannot read.
        const auto offset = static_cast<std::int64_t>(s[n - 1][0]);
        const auto size = static_cast<std::int64_t>(s[n - 2][0]);
        const auto have = static_cast<std::int64_t>(step.memory.size());
        if (offset >= 0 && size >= 0 && offset <= std::numeric_limits<std::int64_t>::max() - size &&
            (offset + size < have || offset + size - have <= kMemoryPadLimit)) {
            std::string pre(static_cast<std::size_t>(size), '\0');
            if (offset < have) {
                const std::int64_t k = std::min(size, have - offset);
                std::memcpy(pre.data(), step.memory.data() + offset, static_cast<std::size_t>(k));
            }
            keccak_.insert(std::move(pre));
        }
    }
    have_last_ = true;
    last_op_ = op;
    last_top_.clear();
    for (std::size_t i = 0; i < std::min<std::size_t>(n, options_.stack_top_items); ++i) {
        last_top_.push_back(*top(i));
    }
}

void Erc7562Tracer::write(json::Writer& w) const {
    const CallTracer::ExtraMembers extra = [&](json::Writer& jw, std::uint32_t frame,
                                               evm::Status status) {
        static const Extras kNone;
        const Extras& x = frame < extras_.size() ? extras_[frame] : kNone;
        jw.key("accessedSlots");
        jw.begin_object();
        jw.key("reads");
        jw.begin_object();
        for (const auto& [k, v] : x.reads) {
            jw.key_data(k.to_bytes32().view());
            jw.begin_array();
            jw.data(v.to_bytes32().view());
            jw.end_array();
        }
        jw.end_object();
        const auto counts = [&](const char* name, const std::map<Uint256, std::uint64_t>& m) {
            jw.key(name);
            jw.begin_object();
            for (const auto& [k, c] : m) {
                jw.key_data(k.to_bytes32().view());
                jw.number(c);
            }
            jw.end_object();
        };
        counts("writes", x.writes);
        counts("transientReads", x.transient_reads);
        counts("transientWrites", x.transient_writes);
        jw.end_object();
        jw.key("extCodeAccessInfo");
        jw.begin_array();
        for (const Address& a : x.ext_code_access) jw.data(BytesView(a.data(), a.size()));
        jw.end_array();
        jw.key("usedOpcodes");
        jw.begin_object();
        for (const auto& [op, c] : x.used_opcodes) {
            jw.key(Uint256(op).to_hex());
            jw.number(c);
        }
        jw.end_object();
        jw.key("contractSize");
        jw.begin_object();
        for (const auto& [a, size] : x.contract_size) {
            jw.key_data(a.view());
            jw.begin_object();
            jw.key("contractSize");
            jw.number(size.size);
            jw.key("opcode");
            jw.number(size.op);
            jw.end_object();
        }
        jw.end_object();
        jw.key("outOfGas");
        // The top frame's is never set (geth sets it when an inner frame ends).
        jw.boolean(frame != 0 && (status == evm::Status::out_of_gas ||
                                  status == evm::Status::code_store_out_of_gas));
        if (frame == 0 && !keccak_.empty()) {
            jw.key("keccak");
            jw.begin_array();
            for (const std::string& k : keccak_) {
                jw.data(BytesView(reinterpret_cast<const std::uint8_t*>(k.data()), k.size()));
            }
            jw.end_array();
        }
    };
    calls_.write_call(w, &extra);
}

}  // namespace keel::trace
