#pragma once
/// Tracers by name and configuration, as debug_trace* requests and `keel trace` name them:
/// "structLog" (geth's opcode logger, the default), "callTracer", "flatCallTracer",
/// "prestateTracer", "4byteTracer", "noopTracer", "erc7562Tracer" and "muxTracer" (several at
/// once: its config maps tracer names to their configs; the result maps the names to their
/// results), and geth's JavaScript "callTracerLegacy" and "prestateTracerLegacy" (no options).
/// parse_tracer_spec() reads a name and its config (geth's tracerConfig; for structLog,
/// TraceConfig's disableStack, disableStorage, enableMemory, enableReturnData, limit); a member a
/// tracer does not take is refused, not ignored.
///
/// TxTracer runs a spec over a block's transactions one at a time (with trace::TxSelector):
/// begin() gives the tracer for the next transaction, end() appends its result. The struct
/// logger writes into the buffer while the transaction runs (the caller may drain it); the
/// others write at end().

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "keel/common/result.hpp"
#include "keel/eth/fork.hpp"
#include "keel/trace/call_tracer.hpp"
#include "keel/trace/erc7562_tracer.hpp"
#include "keel/trace/four_byte_tracer.hpp"
#include "keel/trace/legacy_tracers.hpp"
#include "keel/trace/prestate_tracer.hpp"
#include "keel/trace/struct_logger.hpp"

namespace keel::trace {

enum class TracerKind : std::uint8_t {
    struct_log,
    call,
    flat_call,
    prestate,
    four_byte,
    noop,
    erc7562,
    mux,
    call_legacy,     ///< geth's JavaScript callTracerLegacy (legacy_tracers.hpp)
    prestate_legacy  ///< and prestateTracerLegacy
};

struct TracerSpec {
    TracerKind kind = TracerKind::struct_log;
    std::string name = "structLog";
    StructLoggerOptions struct_log;
    CallTracerOptions call;
    FlatCallTracerOptions flat;
    PrestateTracerOptions prestate;
    Erc7562TracerOptions erc7562;
    std::vector<TracerSpec> mux;  ///< muxTracer's tracers, in name order
    /// Each transaction's time limit (geth's TraceConfig.timeout; trace::TxSelector). None:
    /// no limit (keel's commands); a node sets geth's 5 s by default.
    std::optional<std::chrono::nanoseconds> timeout;
};

/// What a trace whose time ran out shows in its result's place (geth's words).
inline constexpr std::string_view kTimeoutError = "execution timeout";

/// A tracer name and its config as JSON text ("" or "{}" for none). Errors, one line naming the
/// member: "callTracer: withLogs is not an option", "prestateTracer: diffMode cannot be used
/// with includeEmpty", "unknown tracer fooTracer", "tracerConfig is not JSON".
[[nodiscard]] Result<TracerSpec, std::string> parse_tracer_spec(std::string_view name,
                                                                std::string_view config_json);

class TxTracer {
  public:
    TxTracer(const TracerSpec& spec, eth::Fork fork);
    ~TxTracer();
    TxTracer(const TxTracer&) = delete;
    TxTracer& operator=(const TxTracer&) = delete;

    /// The tracer for the next transaction; the struct logger writes into `out` from now on
    /// (with `drain`, when set, called whenever `out` holds `drain_at` bytes or more).
    evm::Tracer* begin(std::string& out, std::uint64_t first_log_index);
    /// Appends the transaction's result to `out` (after its on_tx_end). `context` places a
    /// flatCallTracer's actions in the block.
    void end(std::string& out, const evm::TxEndView& tx, const FlatTraceContext& context);

    /// end() for a transaction whose time ran out (TxSelector::timed_out()). When none of its
    /// result has left `out`, cuts `out` back to `mark` (its size before the result, or before
    /// what the caller wrapped it in) and returns false: the caller writes kTimeoutError in the
    /// result's place. When the struct logger drained part of it already, closes the log with
    /// an "error" member (kTimeoutError) and returns true.
    bool end_timed_out(std::string& out, std::size_t mark, const evm::TxEndView& tx);

    /// Set before begin(): how a long struct log leaves the buffer.
    void set_drain(std::size_t at, std::function<void(std::string&)> drain) {
        drain_at_ = at;
        drain_ = std::move(drain);
    }

  private:
    class Fanout;

    TracerSpec spec_;
    eth::Fork fork_;
    CallTracer call_;
    PrestateTracer prestate_;
    Erc7562Tracer erc7562_;
    FourByteTracer four_byte_;
    NoopTracer noop_;
    LegacyCallTracer legacy_call_;
    LegacyPrestateTracer legacy_prestate_;
    std::optional<StructLogger> logger_;
    std::vector<std::unique_ptr<TxTracer>> children_;  // muxTracer's
    std::unique_ptr<Fanout> fanout_;
    std::size_t drain_at_ = 0;
    std::function<void(std::string&)> drain_;
    bool drained_ = false;  // the struct logger drained part of this transaction's log
};

}  // namespace keel::trace
