#pragma once
/// trace::ParityTracer: one transaction's result of Parity/OpenEthereum's
/// trace_replayTransaction and trace_replayBlockTransactions, as Besu, Erigon and Reth serve
/// them: {"output", "stateDiff", "trace", "transactionHash", "vmTrace"}, with the members not
/// asked for null (`trace` an empty list).
/// - trace: the call tree as flat actions (CallTracer, FlatCallTracerOptions::parity), without
///   block positions;
/// - vmTrace: VmTracer's;
/// - stateDiff: every account the transaction changed, by field: "=" unchanged,
///   {"*": {"from", "to"}} changed, {"+": value} for an account it created, {"-": value} for
///   one it destroyed; storage by slot, the slots that changed. The accounts come from
///   PrestateTracer's lookups (everything the transaction can have touched), their values before
///   from its lookups and after from the state at the transaction's end.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "keel/common/json_writer.hpp"
#include "keel/common/result.hpp"
#include "keel/trace/call_tracer.hpp"
#include "keel/trace/prestate_tracer.hpp"
#include "keel/trace/vm_tracer.hpp"

namespace keel::trace {

/// trace_replay*'s trace types.
struct ParityTraceTypes {
    bool trace = false;
    bool vm_trace = false;
    bool state_diff = false;
};

/// Adds the type `name` ("trace", "vmTrace" or "stateDiff") to `types`; false for any other.
[[nodiscard]] bool add_trace_type(ParityTraceTypes& types, std::string_view name);
/// Comma-separated names ("trace,stateDiff"), as keel's --trace-types takes them. Errors name the
/// one not known: "bla is none of trace, vmTrace, stateDiff".
[[nodiscard]] Result<ParityTraceTypes, std::string> parse_trace_types(std::string_view list);

class ParityTracer final : public evm::Tracer {
  public:
    explicit ParityTracer(ParityTraceTypes types);

    void on_tx_start(const evm::TxStartView& tx) override;
    void on_tx_end(const evm::TxEndView& tx) override;
    void on_call_start(const evm::Message& msg) override;
    void on_call_end(const evm::Message& msg, const evm::CallResult& result) override;
    bool wants_steps() const override { return types_.vm_trace || types_.state_diff; }
    /// vmTrace: every step; stateDiff alone: the prestate tracer's.
    const std::array<bool, 256>* step_ops() const override {
        return types_.vm_trace ? nullptr : prestate_.step_ops();
    }
    void on_step(const evm::StepView& step) override;
    void on_step_error(evm::Status status) override;
    void on_selfdestruct(const Address& contract, const Address& beneficiary,
                         const Uint256& balance) override;

    /// Appends the transaction's result object to `out` (one JSON value); without
    /// `transactionHash` when `tx_hash` is null (trace_call's result).
    void write(std::string& out, const Hash32* tx_hash) const;
    /// The call tree alone (trace_transaction, trace_block): flat actions with their block
    /// positions, written as items into the caller's array.
    const CallTracer& calls() const noexcept { return calls_; }

  private:
    struct Field {
        bool changed = false;
        Uint256 from{}, to{};
    };
    struct SlotDiff {
        Uint256 slot, from, to;
    };
    struct AccountDiff {
        Address address;
        char kind = '*';  // '+' created, '-' destroyed, '*' changed
        Uint256 balance_from, balance_to;
        std::uint64_t nonce_from = 0, nonce_to = 0;
        state::Code code_from, code_to;  // shared with the overlay, not copied; null: none
        std::vector<SlotDiff> storage;
    };

    ParityTraceTypes types_;
    CallTracer calls_;
    VmTracer vm_;
    PrestateTracer prestate_;
    Bytes output_;
    bool reverted_ = false;
    std::vector<AccountDiff> diff_;
};

}  // namespace keel::trace
