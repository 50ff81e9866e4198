#pragma once
/// trace::StructLogger: the opcode ("struct") logger of execution-apis, the default tracer of
/// debug_traceTransaction / debug_traceCall / debug_traceBlock* (schema: execution-apis
/// src/schemas/opcode-tracer.yaml; `../shared/vectors/evm/traces/rpc_structlog_execution_apis`).
///
/// It writes the transaction's result object while the transaction runs, into one caller-owned
/// buffer that only grows (an RPC response, or a buffer a stream drains):
///   {"structLogs":[{"pc":0,"op":"PUSH1","gas":23644,"gasCost":3,"depth":1,"refund":0,
///     "stack":["0xd"]}, ...],"gas":66259,"failed":false,"returnValue":"0x"}
/// Members are in that order, structLogs first, so nothing written needs to move when the
/// transaction's gas and outcome are known at its end; JSON objects are unordered, and geth,
/// which prints structLogs last, is read by the same clients.
///
/// Per step: pc, op (name), gas, gasCost (the whole cost, as Eip3155), depth (from 1), refund
/// (always: the schema's SHOULD), error (only on a failing step), stack (bottom first, minimal
/// hex; unless disable_stack), memory (32-byte words, only with enable_memory), returnData (with
/// enable_return_data), and at SLOAD and SSTORE only, storage: every slot of the running
/// contract read or written so far in the transaction, the SSTORE's new value included (unless
/// disable_storage). `limit` steps at most are recorded (0: all); execution goes on.
///
/// Stack words are hex-encoded straight from their limbs into the buffer as each step is
/// written: nothing is padded or copied as a string first. A step is sized once (its fixed
/// fields and its stack's words at their longest) and written field by field at a raw position
/// with no capacity check between them; a contract's storage text is formatted once and copied
/// until a slot is added or changes. What is written is never changed
/// afterwards, so a stream may take the buffer's bytes at any point: with set_drain(), the
/// buffer is handed to a drain whenever it reaches a size, and memory stays bounded by that
/// size whatever the number of steps.

#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <unordered_map>
#include <vector>

#include "keel/eth/fork.hpp"
#include "keel/evm/tracer.hpp"
#include "keel/state/account.hpp"

namespace keel::trace {

/// TraceConfig's opcode-logger fields (execution-apis), with their defaults.
struct StructLoggerOptions {
    bool disable_stack = false;
    bool disable_storage = false;
    bool enable_memory = false;
    bool enable_return_data = false;
    std::uint64_t limit = 0;  ///< most steps recorded; 0: no limit
    /// geth's encoding (its `omitempty`): refund only when not zero, memory and returnData only
    /// when not empty. keel node answers so (hive compares its answers with geth's member by
    /// member); without it every step carries them, as the schema says it SHOULD.
    bool omit_empty = false;
};

class StructLogger final : public evm::Tracer {
  public:
    /// Appends to `out` (which must outlive this logger) from now on: `{"structLogs":[`.
    StructLogger(std::string& out, eth::Fork fork, StructLoggerOptions options = {});
    StructLogger(const StructLogger&) = delete;
    StructLogger& operator=(const StructLogger&) = delete;

    void on_call_start(const evm::Message& msg) override;
    void on_call_end(const evm::Message& msg, const evm::CallResult& result) override;
    void on_step(const evm::StepView& step) override;
    void on_step_error(evm::Status status) override;
    void on_storage_read(const Address& a, const Uint256& key, const Uint256& value) override;

    /// Closes the object: the transaction's gas used (after refunds), whether its frame failed
    /// (reverted or halted) and what it returned; with `error`, an "error" member after them (a
    /// log cut short: TxTracer::end_timed_out). Call once, after execution.
    void finish(std::uint64_t gas_used, bool failed, BytesView return_value,
                std::string_view error = {});

    /// From now on, whenever a step leaves `at` bytes or more in the buffer, calls drain(out)
    /// (on the tracing thread), which must take the bytes and clear the buffer (an RPC response
    /// streamed in chunks, a file). finish() does not drain: the caller takes the rest.
    void set_drain(std::size_t at, std::function<void(std::string&)> drain);

    /// Steps recorded so far.
    std::uint64_t steps() const noexcept { return steps_; }

  private:
    /// `,"op":"NAME","gas":` for one opcode in this logger's fork, written with one fixed-size
    /// copy (the step's reservation covers the whole array).
    struct OpText {
        char text[56];
        std::uint8_t size;
    };
    /// One contract's storage as the steps show it, and its `,"storage":{...}` text, written
    /// again only after a slot was added or changed (an SLOAD of a known slot repeats it).
    struct ContractStorage {
        std::map<Uint256, Uint256> slots;
        std::string text;
        bool stale = true;
    };

    void close_step();
    /// Sets a slot of `a`'s storage as the steps show it, then appends that storage's text.
    void record_slot(const Address& a, const Uint256& key, const Uint256& value);
    void append_storage(ContractStorage& s);

    std::string& out_;
    std::size_t drain_at_ = 0;
    std::function<void(std::string&)> drain_;
    eth::Fork fork_;
    StructLoggerOptions options_;
    std::uint64_t steps_ = 0;
    bool step_open_ = false;   // the last step lacks its closing brace (error, storage may come)
    bool sload_open_ = false;  // ... and is an SLOAD whose value is yet to come
    std::uint8_t step_op_ = 0;
    std::size_t step_stack_ = 0;
    std::vector<Address> frames_;  // the running contract of each depth (storage owner)
    std::unordered_map<Address, ContractStorage, state::AddressHash> storage_;
    std::array<OpText, 256> ops_;
};

}  // namespace keel::trace
