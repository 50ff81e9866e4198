#pragma once
/// geth's deprecated JavaScript tracers, which geth still ships and tests (its
/// call_tracer_legacy and prestate_tracer_legacy fixtures), as native tracers with the scripts'
/// rules: `callTracerLegacy` and `prestateTracerLegacy`.
///
/// trace::LegacyCallTracer: geth's `callTracerLegacy`, the JavaScript call tracer that the
/// native callTracer replaced, which geth still ships and tests (call_tracer_legacy fixtures). It
/// builds the call tree from the instructions alone, with the rules of its script:
/// - a CALL* or CREATE* step opens a call (its input read from memory, its value from the
///   stack; DELEGATECALL and STATICCALL carry none); calls of precompiles are not listed;
/// - the callee's first step gives the call's `gas`; a call that ran no code has none, and so
///   no `gasUsed`;
/// - the caller's next step closes it: `gasUsed` from the caller's gas before and after, the
///   output from the caller's memory (a create's from the new code); a call that pushed 0
///   without an error of its own is an "internal failure" (an insufficient balance, a create's
///   code deposit that ran out of gas);
/// - REVERT marks its frame "execution reverted"; any other failure closes the frame with geth's
///   error and all its gas used;
/// - SELFDESTRUCT is a call to the beneficiary carrying the contract's balance, without gas.
/// The top call is the transaction: its gas limit and gas used, input, output (left out on an
/// error other than a revert with output).
///
/// An instruction geth does not let run (out of gas, stack bounds, an undefined opcode) reaches
/// the script as a fault only; keel tells those from the others at the step (its gas, its
/// stack, the fork's table), as geth's interpreter does before it logs the step.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "keel/common/json_writer.hpp"
#include "keel/eth/fork.hpp"
#include "keel/evm/opcodes.hpp"
#include "keel/evm/tracer.hpp"

namespace keel::trace {

class LegacyCallTracer final : public evm::Tracer {
  public:
    void on_tx_start(const evm::TxStartView& tx) override;
    void on_tx_end(const evm::TxEndView& tx) override;
    void on_call_start(const evm::Message& msg) override;
    void on_call_end(const evm::Message& msg, const evm::CallResult& result) override;
    void on_step(const evm::StepView& step) override;
    void on_step_error(evm::Status status) override;

    /// The transaction's call object, as the script's result() returns it.
    void write(json::Writer& w) const;

  private:
    struct Call {
        std::uint8_t op = 0;
        Address from{};
        std::optional<Address> to;
        Bytes input;
        std::optional<Bytes> output;
        std::optional<Uint256> value;
        std::int64_t gas_in = 0;
        std::int64_t gas_cost = 0;
        std::optional<std::uint64_t> gas;
        std::optional<std::uint64_t> gas_used;
        std::optional<std::string> error;
        std::uint64_t out_off = 0;
        std::uint64_t out_len = 0;
        std::vector<Call> calls;
    };

    bool fails_before_running(const evm::StepView& step) const;
    void fault(const std::string& error);
    void write_call(json::Writer& w, const Call& c) const;

    eth::Fork fork_ = eth::Fork::frontier;
    const evm::OpTable* table_ = nullptr;
    state::Overlay* state_ = nullptr;
    std::vector<Call> callstack_;
    std::vector<Address> frames_;  // the running contract of each frame
    bool descended_ = false;
    // The last step's opcode and stack height, for the words of the fault that may follow it.
    std::uint8_t fault_op_ = 0;
    std::size_t fault_stack_ = 0;
    // The transaction (the script's ctx).
    bool create_ = false;
    Address from_{}, to_{};
    Uint256 value_{};
    std::uint64_t gas_limit_ = 0, gas_used_ = 0;
    Bytes input_, output_;
    std::optional<std::string> error_;
};

/// trace::LegacyPrestateTracer: geth's `prestateTracerLegacy`. Accounts are read when the script
/// would read them: the running contract at the first step, then every account an instruction
/// names (BALANCE, EXTCODE*, the calls and creates) and every slot of SLOAD and SSTORE, all from
/// the state as it is at that step (not before the transaction); the recipient and the sender at
/// the end if not read before, from the state after it. Then the script's corrections: the
/// value moved back from the recipient to the sender, the sender's fee paid back and its nonce
/// decremented, a created contract removed. Every account is written with all its members.
class LegacyPrestateTracer final : public evm::Tracer {
  public:
    void on_tx_start(const evm::TxStartView& tx) override;
    void on_tx_end(const evm::TxEndView& tx) override;
    void on_call_start(const evm::Message& msg) override;
    void on_call_end(const evm::Message& msg, const evm::CallResult& result) override;
    void on_step(const evm::StepView& step) override;

    void write(json::Writer& w) const;

  private:
    struct Account {
        Uint256 balance{};
        std::uint64_t nonce = 0;  // the script's number (it may go below zero: kept as it wraps)
        Bytes code;
        std::vector<std::pair<Uint256, Uint256>> storage;  // in the order read
    };

    Account& lookup(const Address& a);
    void lookup_storage(const Address& a, const Uint256& slot);

    eth::Fork fork_ = eth::Fork::frontier;
    state::Overlay* state_ = nullptr;
    std::vector<std::pair<Address, Account>> accounts_;  // in the order read
    bool started_ = false;
    std::vector<Address> frames_;
    bool create_ = false;
    Address from_{}, to_{};
    Uint256 value_{}, gas_price_{};
};

}  // namespace keel::trace
