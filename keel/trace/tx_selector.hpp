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
///
/// A time limit (set_timeout, geth's TraceConfig.timeout) applies to each traced transaction
/// from its on_tx_start: the clock is read at each call frame's start and every 1,024 hooks
/// besides. Once it has passed, the transaction's tracer sees no more hooks (the transaction
/// runs on untraced, so that the ones after it replay on the right state: its cost is then the
/// replay's, bounded by its gas), and `end` is still called, with timed_out() true: the caller
/// writes geth's "execution timeout" in place of the result.

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>

#include "keel/evm/tracer.hpp"

namespace keel::trace {

class TxSelector final : public evm::Tracer {
  public:
    using Begin = std::function<evm::Tracer*(std::size_t index, std::uint64_t first_log_index)>;
    using End = std::function<void(std::size_t index, const evm::TxEndView& tx)>;

    TxSelector(Begin begin, End end) : begin_(std::move(begin)), end_(std::move(end)) {}

    /// Each traced transaction's time limit; none by default. Zero (or less) times out at the
    /// transaction's first call frame.
    void set_timeout(std::chrono::nanoseconds limit) { timeout_ = limit; }

    void on_tx_start(const evm::TxStartView& tx) override {
        current_ = begin_(index_, logs_);
        traced_ = current_ != nullptr;
        timed_out_ = false;
        if (current_ == nullptr) return;
        if (timeout_) {
            deadline_ = std::chrono::steady_clock::now() + *timeout_;
            countdown_ = kPollPeriod;
        }
        current_->on_tx_start(tx);
    }
    void on_tx_end(const evm::TxEndView& tx) override {
        if (current_ != nullptr) current_->on_tx_end(tx);
        if (traced_) end_(index_, tx);
        current_ = nullptr;
        traced_ = false;
        logs_ += tx.logs;
        ++index_;
    }
    void on_call_start(const evm::Message& msg) override {
        if (current_ != nullptr && !(timeout_ && expired())) current_->on_call_start(msg);
    }
    void on_call_end(const evm::Message& msg, const evm::CallResult& result) override {
        if (current_ != nullptr && !polled_out()) current_->on_call_end(msg, result);
    }
    bool wants_steps() const override { return current_ != nullptr && current_->wants_steps(); }
    const std::array<bool, 256>* step_ops() const override {
        return current_ != nullptr ? current_->step_ops() : nullptr;
    }
    void on_step(const evm::StepView& step) override {
        if (current_ != nullptr && !polled_out()) current_->on_step(step);
    }
    void on_step_error(evm::Status status) override {
        if (current_ != nullptr) current_->on_step_error(status);
    }
    void on_storage_read(const Address& a, const Uint256& key, const Uint256& value) override {
        if (current_ != nullptr && !polled_out()) current_->on_storage_read(a, key, value);
    }
    void on_storage_write(const Address& a, const Uint256& key, const Uint256& value) override {
        if (current_ != nullptr && !polled_out()) current_->on_storage_write(a, key, value);
    }
    void on_log(const state::Log& log) override {
        if (current_ != nullptr && !polled_out()) current_->on_log(log);
    }
    void on_selfdestruct(const Address& contract, const Address& beneficiary,
                         const Uint256& balance) override {
        if (current_ != nullptr) current_->on_selfdestruct(contract, beneficiary, balance);
    }

    /// Transactions seen so far.
    std::size_t transactions() const noexcept { return index_; }
    /// In `end`: whether the transaction's time ran out before it did (its tracer's result is
    /// partial and is not to be written).
    bool timed_out() const noexcept { return timed_out_; }

  private:
    static constexpr std::uint32_t kPollPeriod = 1024;

    // Reads the clock; past the deadline, the tracer is let go for the rest of the transaction.
    bool expired() {
        if (std::chrono::steady_clock::now() < deadline_) return false;
        timed_out_ = true;
        current_ = nullptr;
        return true;
    }
    // Every kPollPeriod-th hook reads the clock (none without a timeout).
    bool polled_out() {
        if (!timeout_ || --countdown_ != 0) return false;
        countdown_ = kPollPeriod;
        return expired();
    }

    Begin begin_;
    End end_;
    evm::Tracer* current_ = nullptr;
    bool traced_ = false;
    bool timed_out_ = false;
    std::optional<std::chrono::nanoseconds> timeout_;
    std::chrono::steady_clock::time_point deadline_{};
    std::uint32_t countdown_ = kPollPeriod;
    std::size_t index_ = 0;
    std::uint64_t logs_ = 0;
};

}  // namespace keel::trace
