#pragma once
/// evm::Tracer: the hooks a tracer implements (DESIGN.md §1, "Execution and tracing").
///
/// The interpreter is compiled twice (template<bool Tracing>); without a tracer none of this is
/// called and the hot loop has no hook code. With one, each hook gets views of the raw values
/// (the stack as Uint256 words bottom to top, memory, return data) valid only during the call:
/// a tracer copies what its output needs and formats it later, when it writes.
///
/// Order within a frame: on_call_start, then for each instruction on_step (before it executes,
/// with its full gas cost) and, if it failed, on_step_error; storage and log hooks come from
/// inside an instruction, after its on_step; on_call_end last. Nested frames nest.

#include <array>
#include <cstdint>
#include <optional>
#include <span>

#include "keel/common/bytes.hpp"
#include "keel/common/uint256.hpp"
#include "keel/eth/fork.hpp"
#include "keel/evm/message.hpp"
#include "keel/state/account.hpp"

namespace keel::eth {
class Transaction;
}
namespace keel::state {
class Overlay;
}

namespace keel::evm {

/// A transaction about to execute: it has passed its validity checks and nothing of it has
/// happened yet (no gas bought, no nonce raised), so `state` holds the state before it.
/// `state` may be read (a prestate tracer looks up what the transaction touches) during this
/// hook and every later one of the transaction, never written.
struct TxStartView {
    const eth::Transaction& tx;
    const Address& sender;
    const BlockEnv& block;
    eth::Fork fork;
    state::Overlay& state;
    std::uint64_t gas_limit = 0;  ///< tx.gas_limit()
    /// From Prague: the authority of each of tx's EIP-7702 authorizations, in order (nullopt
    /// where the signature recovers none), recovered once for the tracer and the execution.
    std::span<const std::optional<Address>> authorities{};
};

/// The transaction ended: its status and output (the top frame's), the gas it used after
/// refunds (the receipt's), and `state` as it is after it (refunds paid, the coinbase paid,
/// self-destructed and EIP-161 empty accounts gone).
struct TxEndView {
    Status status = Status::success;
    std::uint64_t gas_used = 0;
    BytesView output{};
    std::size_t logs = 0;  ///< the logs it left (its receipt's)
    state::Overlay& state;
};

/// One instruction about to execute.
struct StepView {
    std::uint32_t pc = 0;
    std::uint8_t op = 0;
    std::int32_t depth = 0;  ///< 0 for the transaction's own frame (EIP-3155 prints depth + 1)
    std::int64_t gas = 0;    ///< gas left before the instruction
    /// What the instruction costs: constant and dynamic parts (memory expansion, cold access,
    /// ...); for CALL* this includes the gas passed to the callee, as execution-apis' struct logs
    /// and geth report it (for CREATE*, as in geth, it does not: the init code's gas is taken
    /// inside the instruction).
    std::int64_t cost = 0;
    std::int64_t refund = 0;           ///< the transaction's refund counter
    std::span<const Uint256> stack{};  ///< bottom first; the top is stack.back()
    BytesView memory{};
    BytesView return_data{};  ///< of the last call this frame made
};

/// The address an instruction takes from a stack word: its low 20 bytes (tracers reading a
/// CALL's or BALANCE's operand from StepView::stack).
inline Address stack_address(const Uint256& word) noexcept {
    const Bytes32 b = word.to_bytes32();
    Address a;
    for (std::size_t i = 0; i < 20; ++i) a[i] = b[12 + i];
    return a;
}

class Tracer {
  public:
    virtual ~Tracer() = default;
    /// Whether on_step is wanted for every instruction. A tracer that answers false (a call
    /// tracer) gets on_step only for an instruction that fails, right before its
    /// on_step_error; the traced interpreter then builds no step view for the rest. Asked when
    /// a frame starts.
    virtual bool wants_steps() const { return true; }
    /// With wants_steps(): the opcodes whose steps are wanted, a table indexed by opcode (null:
    /// every one). A tracer that looks at a few instructions only (the prestate tracer: the ones
    /// that name an account or a slot) spares the interpreter a step view for the rest. The
    /// step of a failing instruction still comes, whatever its opcode, before on_step_error.
    /// Asked when a frame starts; the table must outlive the frame.
    virtual const std::array<bool, 256>* step_ops() const { return nullptr; }
    /// A valid transaction starts (execute_transaction), before its top frame's on_call_start.
    virtual void on_tx_start(const TxStartView& /*tx*/) {}
    /// It ended, after its top frame's on_call_end. Not called for an invalid transaction
    /// (which changes nothing and had no on_tx_start).
    virtual void on_tx_end(const TxEndView& /*tx*/) {}
    /// A frame starts: every call and create, also one that ends before any code runs (too
    /// deep, value not payable, no code, an address collision) and calls of precompiles. For a
    /// create, msg.recipient is the new address and msg.input the init code.
    virtual void on_call_start(const Message& /*msg*/) {}
    /// The frame ended. For a successful create, result.output is the code it deposited.
    virtual void on_call_end(const Message& /*msg*/, const CallResult& /*result*/) {}
    virtual void on_step(const StepView& /*step*/) {}
    /// The instruction of the last on_step failed with `status` (an exceptional halt).
    virtual void on_step_error(Status /*status*/) {}
    /// An SLOAD's slot and value, after its on_step, also when the SLOAD then runs out of gas.
    virtual void on_storage_read(const Address& /*a*/, const Uint256& /*key*/,
                                 const Uint256& /*value*/) {}
    virtual void on_storage_write(const Address& /*a*/, const Uint256& /*key*/,
                                  const Uint256& /*value*/) {}
    /// A LOG instruction's log, before it is added to the transaction's logs.
    virtual void on_log(const state::Log& /*log*/) {}
    /// A SELFDESTRUCT that will happen (its gas paid, not in a static frame), after its
    /// on_step: the running contract, the beneficiary and the balance it is paid, as read before
    /// the transfer (the whole balance, also when EIP-6780 keeps the contract).
    virtual void on_selfdestruct(const Address& /*contract*/, const Address& /*beneficiary*/,
                                 const Uint256& /*balance*/) {}
};

}  // namespace keel::evm
