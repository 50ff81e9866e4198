#pragma once
/// trace::CallTracer: geth's `callTracer` (the call tree of one transaction) and, written from
/// the same capture, geth's `flatCallTracer` (the tree as Parity/OpenEthereum's flat list of
/// actions, the shape of `trace_transaction`).
///
/// Capture is raw: each frame's kind, addresses, gas, value and the bytes of its input and
/// output are kept as they come from the hooks (one vector of frames in the order they start,
/// one of logs); nothing is formatted until write_call() or write_flat(), which write once,
/// into the caller's buffer. Frames that end before any code runs (too deep, too poor, a
/// collision) and calls of precompiles are frames too, as in geth; a SELFDESTRUCT is a frame of
/// its own (type SELFDESTRUCT, the balance paid as its value).
///
/// What geth prints, and keel with it:
/// - the top frame's gas is the transaction's gas limit and its gasUsed the receipt's (after
///   refunds); an inner frame's gas is what it was given (a value call's stipend included) and
///   its gasUsed what it did not return;
/// - a failed frame gets `error` (geth's phrase: trace/phrases.hpp), a failed create loses its
///   `to`, a revert keeps its output and, when the output is an ABI Error(string) or
///   Panic(uint256), gets `revertReason`;
/// - `value` is absent for STATICCALL, the caller's value for DELEGATECALL;
/// - with `withLog`, each frame's logs (address, topics, data, the log's index in the block and
///   its position among the frame's calls), none for a frame that reverted or lies inside one.
/// flatCallTracer: calls of precompiles are left out unless `includePrecompiles`; errors in
/// Parity's words with `convertParityErrors`; `result` is absent for a frame that failed other
/// than by reverting.
///
/// One transaction at a time: on_tx_start() starts a new capture. Threading: one thread.

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "keel/common/json_writer.hpp"
#include "keel/eth/fork.hpp"
#include "keel/evm/tracer.hpp"
#include "keel/state/account.hpp"

namespace keel::trace {

/// callTracer's tracerConfig.
struct CallTracerOptions {
    bool only_top_call = false;  ///< onlyTopCall: the transaction's own frame only
    bool with_log = false;       ///< withLog: each frame's logs
};

/// flatCallTracer's tracerConfig.
struct FlatCallTracerOptions {
    bool convert_parity_errors = false;  ///< convertParityErrors
    bool include_precompiles = false;    ///< includePrecompiles
    /// The Parity/OpenEthereum shape of trace_block, trace_transaction and trace_replay* (as
    /// Besu serves it) instead of geth's flatCallTracer: the top frame's gas is what the
    /// transaction's call got (its gas limit less the intrinsic gas) and its gasUsed what the
    /// call used (before refunds, without the intrinsic gas); errors in Parity's words; a
    /// failed frame has no result, a reverted one its output as `revertReason`; a suicide's
    /// result is null. Implies neither option above (precompiles are left out, as Parity does).
    bool parity = false;
    /// With `parity`: leave out blockHash, blockNumber, transactionHash and
    /// transactionPosition (trace_replay*'s `trace` member has none).
    bool without_position = false;
};

/// Where a flat trace sits in its block (the members geth fills from its tracing context);
/// absent members are written as geth writes an empty context (null hashes, zeros).
struct FlatTraceContext {
    const Hash32* block_hash = nullptr;
    std::uint64_t block_number = 0;
    const Hash32* tx_hash = nullptr;
    std::uint64_t tx_index = 0;
};

class CallTracer final : public evm::Tracer {
  public:
    explicit CallTracer(CallTracerOptions options = {}) : options_(options) {}

    /// The index in its block of the transaction's first log (withLog's `index`): the logs of
    /// the block's earlier transactions. Set before the transaction runs.
    void set_first_log_index(std::uint64_t index) noexcept { first_log_index_ = index; }

    void on_tx_start(const evm::TxStartView& tx) override;
    void on_tx_end(const evm::TxEndView& tx) override;
    void on_call_start(const evm::Message& msg) override;
    void on_call_end(const evm::Message& msg, const evm::CallResult& result) override;
    /// Steps only of failing instructions (for the error's words): false.
    bool wants_steps() const override { return false; }
    void on_step(const evm::StepView& step) override;
    void on_step_error(evm::Status status) override;
    void on_log(const state::Log& log) override;
    void on_selfdestruct(const Address& contract, const Address& beneficiary,
                         const Uint256& balance) override;

    /// True once a transaction has ended (on_tx_end) with its frame complete.
    bool complete() const noexcept { return done_ && !frames_.empty() && open_.empty(); }

    /// Writes callTracer's result: the top frame with its calls nested.
    void write_call(json::Writer& w) const { write_call(w, nullptr); }
    /// Members a tracer built on this one adds to each frame object (erc7562Tracer), written
    /// before the frame's `type`: called with the frame's index (in the order frames start,
    /// SELFDESTRUCT frames included) and how it ended.
    using ExtraMembers =
        std::function<void(json::Writer&, std::uint32_t frame, evm::Status status)>;
    void write_call(json::Writer& w, const ExtraMembers* extra) const;

    /// The frame running now (the index ExtraMembers gets), nullopt between frames.
    std::optional<std::uint32_t> current_frame() const noexcept {
        if (open_.empty()) return std::nullopt;
        return open_.back();
    }
    /// Frames captured so far.
    std::uint32_t frames() const noexcept { return static_cast<std::uint32_t>(frames_.size()); }
    /// Writes flatCallTracer's result: an array of actions, the tree in order.
    void write_flat(json::Writer& w, const FlatCallTracerOptions& options,
                    const FlatTraceContext& context = {}) const;

  private:
    struct Frame {
        std::uint8_t op = 0;  // CALL, CALLCODE, DELEGATECALL, STATICCALL, CREATE, CREATE2,
                              // SELFDESTRUCT (opcodes)
        bool has_value = true;
        bool has_to = true;
        bool reverted = false;  // failed, its state changes undone (geth's revertedSnapshot)
        bool precompile = false;
        evm::Status status = evm::Status::success;
        std::uint8_t fail_op = 0;  // the instruction that failed and the stack it had
        std::uint32_t fail_stack = 0;
        bool sentry = false;  // an SSTORE refused at <= 2,300 gas (EIP-2200)
        Address from{};
        Address to{};
        std::uint64_t gas = 0;
        std::uint64_t gas_used = 0;
        Uint256 value{};
        Bytes input;
        Bytes output;
        std::uint32_t end = 0;       // one past the last frame of this one's subtree
        std::uint32_t children = 0;  // direct calls (a log's position counts them)
        std::uint32_t depth = 0;
        std::uint64_t frame_gas = 0;       // the top frame's: what its call got (Parity's gas)
        std::uint64_t frame_gas_used = 0;  // ... and what the call used
    };
    struct CallLog {
        std::uint32_t frame = 0;
        std::uint32_t position = 0;
        std::uint64_t index = 0;
        state::Log log;
    };

    std::string error_of(const Frame& f) const;
    /// The frame's logs are dropped (withLog) when it or a frame around it reverted.
    bool logs_dropped(std::uint32_t frame) const;
    void write_frame(json::Writer& w, std::uint32_t i, const ExtraMembers* extra) const;
    void write_flat_frame(json::Writer& w, std::uint32_t i, const FlatCallTracerOptions& options,
                          const FlatTraceContext& context, std::vector<std::uint32_t>& address,
                          std::uint32_t subtraces) const;
    std::uint32_t flat_children(std::uint32_t i, const FlatCallTracerOptions& options) const;

    CallTracerOptions options_;
    std::uint64_t first_log_index_ = 0;
    eth::Fork fork_ = eth::Fork::frontier;
    state::Overlay* state_ = nullptr;
    std::uint64_t gas_limit_ = 0;
    std::uint64_t tx_gas_used_ = 0;
    bool done_ = false;
    std::vector<Frame> frames_;
    std::vector<std::uint32_t> open_;  // frames started and not ended, outermost first
    std::vector<std::uint32_t> parent_;
    std::vector<CallLog> logs_;
    std::int32_t depth_ = -1;  // the depth of the running frame
    std::uint8_t last_op_ = 0;
    std::uint32_t last_stack_ = 0;
    std::int64_t last_gas_ = 0;
};

}  // namespace keel::trace
