#pragma once
/// Code analysis, once per code and fork: the valid jump destinations (a JUMPDEST byte that is
/// an instruction, not push data), the code padded so that the interpreter never reads past the
/// end (a PUSH cut short reads zeros, as the yellow paper says; the padding's first byte is
/// STOP, so running off the end stops), and the basic blocks with what entering each costs.
///
/// Basic blocks let the untraced interpreter check the stack and charge the constant gas once per
/// block instead of once per instruction (evmone's "advanced" interpreter does the same on its
/// own instruction stream; keel keeps the bytecode and a side table). A block runs from where
/// execution enters straight-line code to the first instruction that ends it: one that jumps
/// (JUMP, JUMPI), halts (STOP, RETURN, REVERT, INVALID, SELFDESTRUCT, an opcode the fork lacks)
/// or reads the gas left (GAS, SSTORE's EIP-2200 sentry, the CALL and CREATE families with
/// EIP-150's 63/64), so that an instruction that reads the gas sees exactly what per-instruction
/// charging would leave. Execution enters at pc 0, after each instruction that ends a block, and
/// at a jump's JUMPDEST; a JUMPDEST reached by falling through is inside the block already
/// paid, so it costs nothing there. The table holds, at each such entry, what the instructions
/// from there to the block's end take.
///
/// Every instruction of a block that is entered runs unless one fails, and a failure reverts the
/// frame and consumes its gas whichever instruction fails, so charging at entry changes no
/// outcome; only the name of the failure can differ when a block fails both a constant check
/// and a dynamic one (memory, cold access): the check at entry names the constant one.
///
/// AnalysisCache keeps analyses by code hash for the contracts an Evm runs again and again.
/// Threading: an analysis is immutable and may be shared; a cache is used by one thread.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <unordered_map>
#include <vector>

#include "keel/common/bytes.hpp"
#include "keel/eth/fork.hpp"
#include "keel/evm/message.hpp"

namespace keel::evm {

using eth::Fork;

/// What entering a basic block takes: the stack at entry must hold, in bytes (32 per item),
/// between min_height and min_height + height_range (so that no instruction of the block
/// underflows or overflows), and `gas` is the sum of its instructions' constant gas. A block
/// whose sums do not fit (more than 2^31 gas, a height no stack can have) gets min_height
/// kNoHeight, which no stack meets: entering it takes the exact walk, enter_block_exactly.
struct BlockCost {
    static constexpr std::uint16_t kNoHeight = 0xffff;

    std::int32_t gas = 0;
    std::uint16_t min_height = 0;    ///< bytes
    std::uint16_t height_range = 0;  ///< bytes
};

struct CodeAnalysis {
    /// Bytes after the end of the code: enough for a PUSH32 at the last byte, plus a STOP.
    static constexpr std::size_t kPadding = 33;

    Bytes padded;                        ///< the code, then kPadding zero bytes
    std::vector<std::uint8_t> jumpdest;  ///< 1 at every valid jump destination
    /// At every instruction's pc, what entering there takes to the end of its block (size() + 1
    /// entries; those inside push data are unused).
    std::vector<BlockCost> blocks;
    std::size_t size = 0;  ///< the code's own length
    Fork fork{};           ///< the fork whose gas and opcodes `blocks` counts

    bool is_jumpdest(std::uint64_t pc) const noexcept { return pc < size && jumpdest[pc] != 0; }
    BytesView code() const noexcept { return {padded.data(), size}; }
};

CodeAnalysis analyze(BytesView code, Fork fork);

/// What entering a block one instruction at a time leaves: the status of the first check that
/// fails, or success and the gas left after the block's constant gas.
struct BlockEntry {
    Status status = Status::success;
    std::int64_t gas_left = 0;
};

/// Enters the block that starts at `pc` one instruction at a time, with the stack `height`
/// and `gas` left, as per-instruction checks would (stack underflow, stack overflow, out of gas,
/// in the order the instructions meet them). The interpreter's path when a block's entry check
/// fails or its sums did not fit. (By value, not through a reference: the interpreter's gas
/// stays in a register.)
BlockEntry enter_block_exactly(const CodeAnalysis& analysis, std::size_t pc, std::ptrdiff_t height,
                               std::int64_t gas) noexcept;

class AnalysisCache {
  public:
    /// The analysis of `code` for `fork`, whose keccak256 is `code_hash`, made on first use
    /// (again if the fork changed).
    std::shared_ptr<const CodeAnalysis> get(const Hash32& code_hash, BytesView code, Fork fork);
    std::size_t size() const noexcept { return map_.size(); }

    /// This thread's cache, kept across the calls and replays a node runs on it (the same
    /// contracts again and again; analysing their code is a tenth of a short call). Keyed by
    /// code hash, so never stale; emptied when it holds more than kThreadCacheSize contracts at
    /// the time of the call, so its memory stays bounded.
    static AnalysisCache& this_thread();
    static constexpr std::size_t kThreadCacheSize = 512;

  private:
    std::unordered_map<Hash32, std::shared_ptr<const CodeAnalysis>> map_;
};

}  // namespace keel::evm
