#pragma once
/// trace::VmTracer: the `vmTrace` of Parity/OpenEthereum's trace_replay* (as Besu serves it):
/// for each frame its code and the instructions it ran, each with its pc, its cost, and what it
/// did: the gas left after it (`used`), the stack items it wrote (`push`: for DUPn and SWAPn
/// all n + 1 items they touch, deepest first), the memory it wrote or, for MLOAD, read (`mem`:
/// offset and bytes; a CALL*'s whole output area),
/// the storage slot it wrote (`store`), and for a CALL* or CREATE* the callee's own trace
/// (`sub`).
///
/// Captured raw, formatted late (the seed's lesson): an instruction's effects are read at the
/// next instruction of its frame (its stack, memory and gas), and kept as words and byte ranges
/// in shared buffers; write() formats them once. The last instruction of a frame (RETURN, STOP,
/// REVERT, SELFDESTRUCT, one that fails while it runs) shows the gas left after its own cost and
/// nothing pushed; one that runs out of gas no effects (null) and its constant cost. As in
/// Besu, an instruction that fails before it runs (stack bounds, an undefined opcode) and the
/// STOP implied at the end of the code are not listed.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "keel/common/json_writer.hpp"
#include "keel/eth/fork.hpp"
#include "keel/evm/opcodes.hpp"
#include "keel/evm/tracer.hpp"

namespace keel::trace {

class VmTracer final : public evm::Tracer {
  public:
    void on_tx_start(const evm::TxStartView& tx) override;
    void on_call_start(const evm::Message& msg) override;
    void on_call_end(const evm::Message& msg, const evm::CallResult& result) override;
    void on_step(const evm::StepView& step) override;
    void on_step_error(evm::Status status) override;

    /// Appends the transaction's vmTrace object ({"code", "ops"}) to `out` as one JSON value;
    /// null when nothing ran. Written straight into the buffer (the trace is large: every
    /// instruction of every frame), not through json::Writer.
    void write(std::string& out) const;

  private:
    struct Op {
        std::uint32_t pc = 0;
        std::uint8_t op = 0;
        std::int64_t cost = 0;
        std::int64_t used = 0;
        std::uint32_t push_begin = 0;  // words_[push_begin, push_begin + push_count)
        std::uint8_t push_count = 0;
        bool has_mem = false;
        std::uint64_t mem_off = 0;
        std::uint32_t mem_begin = 0;  // bytes_[mem_begin, mem_begin + mem_size)
        std::uint32_t mem_size = 0;
        bool has_store = false;
        std::uint32_t store_at = 0;  // words_[store_at] key, [store_at + 1] value
        std::int32_t sub = -1;       // frames_ index of the callee's trace
        std::int64_t gas = 0;        // gas before it
        bool no_ex = false;          // SELFDESTRUCT: Parity shows no effects
    };
    struct Frame {
        std::uint32_t code_begin = 0;  // bytes_
        std::uint32_t code_size = 0;
        std::vector<Op> ops;
        bool pending = false;  // the last op's effects are not read yet
        // The memory range the pending op writes (known before it runs).
        bool writes_mem = false;
        std::uint64_t write_off = 0;
        std::uint64_t write_size = 0;
    };

    /// Reads the effects of frame f's pending op from the frame's state at its next
    /// instruction.
    void complete(Frame& f, std::int64_t gas, std::span<const Uint256> stack, BytesView memory);
    void write_frame(std::string& out, std::uint32_t i) const;
    std::uint32_t add_bytes(BytesView b);

    eth::Fork fork_ = eth::Fork::frontier;
    const evm::OpTable* table_ = nullptr;
    state::Overlay* state_ = nullptr;
    std::vector<Frame> frames_;
    std::vector<std::uint32_t> open_;  // frames_ index by depth
    std::vector<Uint256> words_;
    Bytes bytes_;
};

}  // namespace keel::trace
