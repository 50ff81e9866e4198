#pragma once
/// Bulk traces of a block range into files (`keel trace export`): the range is cut into chunks
/// of `chunk_blocks` blocks, each written as one JSON-lines file, a line per block:
///   {"block":N,"hash":"0x..","traces":RESULT}
/// where RESULT is what debug_traceBlockByNumber returns with the tracer (an array of
/// {"txHash","result"}), or with `parity` what trace_block returns. The genesis has [] (no
/// transactions). Files are named traces-<first>-<last>.jsonl (numbers zero-padded to 12 digits,
/// so that names sort as blocks do).
///
/// Resumable: a chunk is written to "<name>.part", flushed to disk, then renamed, so a file with
/// its final name is complete and is never written again; a run that was killed leaves at most
/// one .part per worker, which the next run starts over. Chunks go to `threads` workers (every
/// core by default), each replaying its blocks in order; memory per worker is bounded by one
/// transaction's call-level result (each transaction's result goes to the file as it ends).
#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>

#include "keel/common/result.hpp"
#include "keel/eth/chain_config.hpp"
#include "keel/store/chain_store.hpp"
#include "keel/trace/tracer_spec.hpp"

namespace keel::blockchain {

struct TraceExportOptions {
    std::uint64_t from = 0;
    std::uint64_t to = 0;  ///< inclusive
    std::filesystem::path dir;
    std::uint64_t chunk_blocks = 1000;
    unsigned threads = 0;  ///< 0: one per core
    bool parity = false;   ///< trace_block's flat traces instead of `spec`'s
    trace::TracerSpec spec;
    /// Called after each block written, from the worker that wrote it, with the block's gas.
    std::function<void(std::uint64_t gas)> on_block;
};

struct TraceExportReport {
    std::uint64_t chunks = 0;   ///< in the range
    std::uint64_t skipped = 0;  ///< already complete before this run
    std::uint64_t written = 0;  ///< written by this run
    std::uint64_t blocks = 0;   ///< traced by this run
    std::uint64_t bytes = 0;    ///< written by this run
};

/// The chunk file name for blocks [first, last].
std::string trace_chunk_name(std::uint64_t first, std::uint64_t last);

/// Exports the traces of blocks [from, to] of `store` into `dir` (created if missing). Errors,
/// one line naming the block or file: a block not stored, its history pruned or its parent's
/// state not kept, a replay refused, a file that cannot be written; chunks completed before the
/// error are kept.
[[nodiscard]] Result<TraceExportReport, std::string> export_traces(
    const store::ChainStore& store, const eth::ChainConfig& config,
    const TraceExportOptions& options);

}  // namespace keel::blockchain
