#include "keel/evm/analysis.hpp"

#include <algorithm>
#include <limits>

#include "keel/evm/opcodes.hpp"

namespace keel::evm {

namespace {

/// The instructions after which a new block starts (analysis.hpp): those that jump, halt or
/// read the gas left. An opcode the fork lacks halts.
bool ends_block(std::uint8_t op, const OpTraits& t) noexcept {
    if (!t.defined) return true;
    switch (op) {
        case OP_STOP:
        case OP_JUMP:
        case OP_JUMPI:
        case OP_GAS:
        case OP_SSTORE:
        case OP_CREATE:
        case OP_CALL:
        case OP_CALLCODE:
        case OP_RETURN:
        case OP_DELEGATECALL:
        case OP_CREATE2:
        case OP_STATICCALL:
        case OP_REVERT:
        case OP_INVALID:
        case OP_SELFDESTRUCT:
            return true;
        default:
            return false;
    }
}

std::size_t next_pc(std::size_t pc, std::uint8_t op) noexcept {
    return op >= OP_PUSH1 && op <= OP_PUSH32 ? pc + 2 + (op - OP_PUSH1) : pc + 1;
}

/// What the instructions from one pc to the end of its block take: constant gas, the items they
/// need at entry, the most the stack grows above its height at entry.
struct Suffix {
    std::int64_t gas = 0;
    std::int64_t need = 0;
    std::int64_t grow = 0;

    /// The instruction `t` followed by `rest`.
    static Suffix of(const OpTraits& t, const Suffix& rest) noexcept {
        if (!t.defined) return {};  // it halts, and costs nothing before it does
        return {t.gas + rest.gas, std::max<std::int64_t>(t.stack_in, rest.need - t.stack_change),
                std::max<std::int64_t>(0, t.stack_change + rest.grow)};
    }

    BlockCost cost() const noexcept {
        const std::int64_t limit = static_cast<std::int64_t>(kStackLimit);
        BlockCost c;
        if (gas > std::numeric_limits<std::int32_t>::max() || need > limit - grow) {
            c.min_height = BlockCost::kNoHeight;  // no stack meets it: enter_block_exactly
            return c;
        }
        c.gas = static_cast<std::int32_t>(gas);
        c.min_height = static_cast<std::uint16_t>(32 * need);
        c.height_range = static_cast<std::uint16_t>(32 * (limit - grow - need));
        return c;
    }
};

}  // namespace

CodeAnalysis analyze(BytesView code, Fork fork) {
    const OpTable& t = op_table(fork);
    CodeAnalysis a;
    a.size = code.size();
    a.fork = fork;
    a.padded.reserve(code.size() + CodeAnalysis::kPadding);
    a.padded.insert(a.padded.end(), code.begin(), code.end());
    a.padded.resize(code.size() + CodeAnalysis::kPadding, 0);
    a.jumpdest.assign(code.size(), 0);
    a.blocks.assign(code.size() + 1, BlockCost{});
    // Forward: where the instructions start. Backward: each one's suffix to its block's end.
    std::vector<std::uint32_t> starts;
    starts.reserve(code.size());
    for (std::size_t pc = 0; pc < code.size(); pc = next_pc(pc, code[pc])) {
        starts.push_back(static_cast<std::uint32_t>(pc));
        if (code[pc] == OP_JUMPDEST) a.jumpdest[pc] = 1;
    }
    Suffix rest;  // past the end: the padding's STOP
    for (auto it = starts.rbegin(); it != starts.rend(); ++it) {
        const std::uint8_t op = code[*it];
        rest = Suffix::of(t[op], ends_block(op, t[op]) ? Suffix{} : rest);
        a.blocks[*it] = rest.cost();
    }
    a.blocks[code.size()] = Suffix{}.cost();  // entered after an instruction that ends the code
    return a;
}

BlockEntry enter_block_exactly(const CodeAnalysis& analysis, std::size_t pc, std::ptrdiff_t height,
                               std::int64_t gas) noexcept {
    const OpTable& t = op_table(analysis.fork);
    const std::uint8_t* code = analysis.padded.data();
    std::int64_t left = gas;
    for (std::size_t at = pc; at < analysis.size; at = next_pc(at, code[at])) {
        const std::uint8_t op = code[at];
        const OpTraits& o = t[op];
        if (!o.defined) break;
        if (height < o.stack_in) return {Status::stack_underflow, 0};
        if (o.stack_change > 0 &&
            height + o.stack_change > static_cast<std::ptrdiff_t>(kStackLimit))
            return {Status::stack_overflow, 0};
        if (left < o.gas) return {Status::out_of_gas, 0};
        left -= o.gas;
        height += o.stack_change;
        if (ends_block(op, o)) break;
    }
    return {Status::success, left};
}

std::shared_ptr<const CodeAnalysis> AnalysisCache::get(const Hash32& code_hash, BytesView code,
                                                       Fork fork) {
    auto [it, inserted] = map_.try_emplace(code_hash);
    if (inserted || it->second->fork != fork)
        it->second = std::make_shared<const CodeAnalysis>(analyze(code, fork));
    return it->second;
}

AnalysisCache& AnalysisCache::this_thread() {
    thread_local AnalysisCache cache;
    if (cache.size() > kThreadCacheSize) cache = AnalysisCache();
    return cache;
}

}  // namespace keel::evm
