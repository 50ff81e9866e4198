#pragma once
/// debug_traceBlock* and debug_traceTransaction on stored blocks: a block replayed on its
/// parent's state (replay.hpp) with a tracer made from a spec (trace/tracer_spec.hpp) for each
/// transaction, the results appended to `out` as those methods return them, streamed: `drain`
/// is called after each transaction's result (and by the struct logger in 1 MiB pieces while a
/// transaction runs), to take the bytes and empty the buffer, so memory stays bounded by one
/// transaction's call-level result whatever the block.
#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "keel/blockchain/reads.hpp"
#include "keel/blockchain/replay.hpp"
#include "keel/trace/tracer_spec.hpp"

namespace keel::blockchain {

/// With `only` unset: [{"txHash", "result"}, ...] for every transaction of `b`
/// (debug_traceBlockByNumber); with `only`: that transaction's result alone
/// (debug_traceTransaction; the ones before it replayed untraced, none after).
[[nodiscard]] Result<void, ReadError> write_debug_traces(
    std::string& out, const store::ChainStore& store, const StoredBlock& b,
    const trace::TracerSpec& spec, std::optional<std::size_t> only,
    const std::function<void(std::string&)>& drain);

}  // namespace keel::blockchain
