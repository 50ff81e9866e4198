#pragma once
/// trace::TxSelector: the tracer of a block replay that hands each transaction's hooks to a
/// tracer chosen for it, or to none. debug_traceBlock* traces every transaction with a fresh
/// result each; debug_traceTransaction and trace_transaction trace one and skip the ones before
/// it; the system calls, rewards and withdrawals around them are never traced (execute_block
/// gives a tracer transactions only).
///
/// Before each transaction `begin(index, first_log_index)` returns the tracer for it (null:
/// skip it); that tracer then sees every hook of the transaction, on_tx_start to on_tx_end, and
/// after its on_tx_end `end(index, view)` is called, on the tracing thread, where the caller
/// writes the transaction's result. `first_log_index` is the number of logs the block's earlier
/// transactions left: the index in the block of this transaction's first log (callTracer's
/// withLog shows it). A skipped transaction costs one test per hook.

#include <cstddef>
#include <cstdint>
#include <functional>

#include "keel/evm/tracer.hpp"

namespace keel::trace {

class TxSelector final : public evm::Tracer {
  public:
    using Begin = std::function<evm::Tracer*(std::size_t index, std::uint64_t first_log_index)>;
    using End = std::function<void(std::size_t index, const evm::TxEndView& tx)>;

    TxSelector(Begin begin, End end) : begin_(std::move(begin)), end_(std::move(end)) {}

    void on_tx_start(const evm::TxStartView& tx) override {
        current_ = begin_(index_, logs_);
        if (current_ != nullptr) current_->on_tx_start(tx);
    }
    void on_tx_end(const evm::TxEndView& tx) override {
        if (current_ != nullptr) {
            current_->on_tx_end(tx);
            end_(index_, tx);
        }
        current_ = nullptr;
        logs_ += tx.logs;
        ++index_;
    }
    void on_call_start(const evm::Message& msg) override {
        if (current_ != nullptr) current_->on_call_start(msg);
    }
    void on_call_end(const evm::Message& msg, const evm::CallResult& result) override {
        if (current_ != nullptr) current_->on_call_end(msg, result);
    }
    bool wants_steps() const override { return current_ != nullptr && current_->wants_steps(); }
    void on_step(const evm::StepView& step) override {
        if (current_ != nullptr) current_->on_step(step);
    }
    void on_step_error(evm::Status status) override {
        if (current_ != nullptr) current_->on_step_error(status);
    }
    void on_storage_read(const Address& a, const Uint256& key, const Uint256& value) override {
        if (current_ != nullptr) current_->on_storage_read(a, key, value);
    }
    void on_storage_write(const Address& a, const Uint256& key, const Uint256& value) override {
        if (current_ != nullptr) current_->on_storage_write(a, key, value);
    }
    void on_log(const state::Log& log) override {
        if (current_ != nullptr) current_->on_log(log);
    }
    void on_selfdestruct(const Address& contract, const Address& beneficiary,
                         const Uint256& balance) override {
        if (current_ != nullptr) current_->on_selfdestruct(contract, beneficiary, balance);
    }

    /// Transactions seen so far.
    std::size_t transactions() const noexcept { return index_; }

  private:
    Begin begin_;
    End end_;
    evm::Tracer* current_ = nullptr;
    std::size_t index_ = 0;
    std::uint64_t logs_ = 0;
};

}  // namespace keel::trace
