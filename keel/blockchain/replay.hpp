#pragma once
/// Replays of stored blocks, for tracing (debug_traceBlock*, trace_block, trace_transaction,
/// `keel trace`): a canonical block executed again on the state after its parent (a historical
/// store::StateView, within --history.state) with a tracer attached, through
/// chain::replay_block(), the import's own execution path without the state root (which the
/// store can only compute at its head). One transaction is traced by replaying the ones before
/// it with the tracer told to skip them (trace::TxSelector) and stopping after it.
///
/// Threading: any thread; replays of different blocks may run at once (each has its own view).

#include <cstdint>
#include <optional>
#include <vector>

#include "keel/blockchain/reads.hpp"
#include "keel/chain/execute.hpp"
#include "keel/eth/block.hpp"
#include "keel/eth/chain_config.hpp"
#include "keel/evm/tracer.hpp"
#include "keel/store/chain_store.hpp"

namespace keel::blockchain {

/// A canonical block as a replay needs it.
struct StoredBlock {
    Hash32 hash;
    eth::Block block;
    eth::Header parent;
    eth::ChainConfig config;  ///< the rules for this block (the Merge by total difficulty applied)
};

/// Loads canonical block `number` (not the genesis: it has no parent to replay on), its
/// parent's header and its rules. Errors: not stored (not_found), history pruned (pruned), a
/// damaged row.
[[nodiscard]] Result<StoredBlock, ReadError> load_for_replay(const store::ChainStore& store,
                                                             const eth::ChainConfig& config,
                                                             std::uint64_t number);

/// Replays `b` on the state after its parent with `tracer` (null: untraced). Errors: the
/// parent's state not kept ("state at block 5 is not kept: state history starts at block 90",
/// not_found), a state read failure, or the replay refusing the block (a damaged store: the rule
/// is named).
[[nodiscard]] Result<chain::ExecutedBlock, ReadError> replay(const store::ChainStore& store,
                                                             const StoredBlock& b,
                                                             evm::Tracer* tracer,
                                                             chain::ReplayOptions options = {});

}  // namespace keel::blockchain
