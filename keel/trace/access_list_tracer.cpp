#include "keel/trace/access_list_tracer.hpp"

#include <algorithm>

#include "keel/evm/opcodes.hpp"

namespace keel::trace {
namespace {

constexpr auto kWanted = [] {
    std::array<bool, 256> t{};
    for (const std::uint8_t op :
         {evm::OP_SLOAD, evm::OP_SSTORE, evm::OP_BALANCE, evm::OP_EXTCODESIZE, evm::OP_EXTCODECOPY,
          evm::OP_EXTCODEHASH, evm::OP_SELFDESTRUCT, evm::OP_CALL, evm::OP_CALLCODE,
          evm::OP_DELEGATECALL, evm::OP_STATICCALL}) {
        t[op] = true;
    }
    return t;
}();

}  // namespace

AccessListTracer::AccessListTracer(std::vector<Entry> start, std::vector<Address> excluded)
    : list_(std::move(start)), excluded_(std::move(excluded)) {}

const std::array<bool, 256>* AccessListTracer::step_ops() const {
    return &kWanted;
}

void AccessListTracer::on_call_start(const evm::Message& msg) {
    frames_.push_back(msg.recipient);
}

void AccessListTracer::on_call_end(const evm::Message&, const evm::CallResult&) {
    if (!frames_.empty()) frames_.pop_back();
}

AccessListTracer::Entry& AccessListTracer::account(const Address& a) {
    for (Entry& e : list_)
        if (e.address == a) return e;
    return list_.emplace_back(Entry{.address = a, .storage_keys = {}});
}

void AccessListTracer::add_account(const Address& a) {
    if (std::find(excluded_.begin(), excluded_.end(), a) != excluded_.end()) return;
    (void)account(a);
}

void AccessListTracer::on_step(const evm::StepView& step) {
    if (!kWanted[step.op] || step.stack.empty() || frames_.empty()) return;
    const std::span<const Uint256> s = step.stack;
    switch (step.op) {
        case evm::OP_SLOAD:
        case evm::OP_SSTORE: {
            const Hash32 slot{s.back().to_bytes32()};
            Entry& e = account(frames_.back());
            if (std::find(e.storage_keys.begin(), e.storage_keys.end(), slot) ==
                e.storage_keys.end()) {
                e.storage_keys.push_back(slot);
            }
            break;
        }
        case evm::OP_BALANCE:
        case evm::OP_EXTCODESIZE:
        case evm::OP_EXTCODECOPY:
        case evm::OP_EXTCODEHASH:
        case evm::OP_SELFDESTRUCT:
            add_account(evm::stack_address(s.back()));
            break;
        default:  // the CALL family: the callee is the second word
            if (s.size() >= 2) add_account(evm::stack_address(s[s.size() - 2]));
            break;
    }
}

}  // namespace keel::trace
