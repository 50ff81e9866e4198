#pragma once
/// Executing one block on the state of its parent: the header's rules (header_rules.hpp), the
/// body against the header's roots, the system calls, every transaction, the withdrawals, the
/// block and ommer rewards before the Merge, the requests, and the header's results (gas used,
/// blob gas used, receipts root, logs bloom, requests hash and state root). execution-specs,
/// src/ethereum/<fork>/fork.py: state_transition() and apply_body().
///
/// The state comes in through a StateReader and changes go into an Overlay; nothing is written
/// anywhere: the caller commits ExecutedBlock::changes (the store) or throws them away. One
/// code path serves import and replays for tracing (DESIGN.md §1): a tracer, when given, sees
/// every transaction (not the system calls).
///
/// Threading: one block on one thread; the transactions' senders are recovered on the oneTBB
/// pool first (eth::recover_senders).
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <vector>

#include "keel/chain/errors.hpp"
#include "keel/common/result.hpp"
#include "keel/eth/block.hpp"
#include "keel/eth/chain_config.hpp"
#include "keel/eth/receipt.hpp"
#include "keel/evm/analysis.hpp"
#include "keel/evm/tracer.hpp"
#include "keel/state/overlay.hpp"
#include "keel/state/reader.hpp"

namespace keel::chain {

/// The hash of an earlier block by number (BLOCKHASH; asked only for the 256 before the block).
using BlockHashes = std::function<Hash32(std::uint64_t)>;

/// The state root the reader's state would have with `changes` applied: the committer knows
/// how (state::MemoryState, the store's trie). Also asked after each transaction before
/// Byzantium, for the receipts' post-state roots.
using StateRootOf = std::function<Hash32(std::span<const state::AccountChange>)>;

/// EIP-7934 (Osaka): the largest rlp(block), MAX_BLOCK_SIZE - SAFETY_MARGIN.
inline constexpr std::size_t kMaxRlpBlockSize = 10 * 1024 * 1024 - 2 * 1024 * 1024;

/// Block rewards before the Merge (yellow paper §11.3; EIP-649, EIP-1234).
Uint256 block_reward(eth::Fork fork);

/// The EVM's view of block `h` under `fork`: number, time, gas limit, coinbase, difficulty,
/// PREVRANDAO (the mix hash), base fee, chain id, BLOCKHASH through `hashes`, and from Cancun
/// the blob base fee of the header's excess blob gas.
evm::BlockEnv block_env(const eth::Header& h, const eth::ChainConfig& config, eth::Fork fork,
                        BlockHashes hashes);

/// The start of block `h` on `state`, before its transactions: the system calls (EIP-4788 from
/// Cancun with the parent beacon block root, zero when the header has none; EIP-2935 from
/// Prague) and the DAO fork's transfers (EIP-779). `analyses` may be null.
void begin_block(state::Overlay& state, const eth::Header& h, const eth::ChainConfig& config,
                 eth::Fork fork, const evm::BlockEnv& env, evm::AnalysisCache* analyses);

/// The end of `block` on `state`, after its transactions: the block and ommer rewards before the
/// Merge, the withdrawals, and from Prague the requests (EIP-7685): `deposits` (EIP-6110, read
/// from the transactions' logs), then the withdrawal and consolidation requests the system
/// calls dequeue. Returns the data of each request type (empty before Prague). Errors: an ommer
/// that is not a recent ancestor's sibling, a request contract without code (on chains where
/// that is invalid) or that fails.
[[nodiscard]] Result<std::vector<Bytes>, BlockError> end_block(
    state::Overlay& state, const eth::Block& block, const eth::ChainConfig& config, eth::Fork fork,
    const evm::BlockEnv& env, Bytes deposits, evm::AnalysisCache* analyses);

/// What executing a valid block produced.
struct ExecutedBlock {
    std::vector<eth::Receipt> receipts;
    std::vector<state::AccountChange> changes;  ///< every account that differs from the reader
    Hash32 state_root;                          ///< StateRootOf(changes), equal to the header's
    std::uint64_t gas_used = 0;
    std::uint64_t blob_gas_used = 0;
    /// The data of each request type (Prague), deposits first: what requests_hash commits to.
    std::vector<Bytes> requests;
};

/// Executes `block` on `state`, the post-state of `parent` (whose hash the caller matched with
/// block.header.parent_hash). `encoded_size` is the size of the block's RLP (EIP-7934), 0 when
/// not known (then computed). Errors: every Errc (errors.hpp), with the block's number and,
/// for a transaction, its index; on failure nothing is kept.
[[nodiscard]] Result<ExecutedBlock, BlockError> execute_block(
    const eth::Block& block, const eth::Header& parent, const eth::ChainConfig& config,
    const state::StateReader& state, const BlockHashes& hashes, const StateRootOf& state_root_of,
    evm::Tracer* tracer = nullptr, std::size_t encoded_size = 0);

/// How replay_block() runs.
struct ReplayOptions {
    /// Stop after this transaction (by index): a trace of one transaction replays the ones
    /// before it untraced (the caller's tracer skips them) and no more.
    std::optional<std::size_t> last_tx;
    /// Code analyses to use and keep (evm::AnalysisCache::this_thread(): a node replays the
    /// same contracts' blocks again and again); null: the block's own.
    evm::AnalysisCache* analyses = nullptr;
};

/// Replays a stored block, checked when it was imported, on the state of its parent (a
/// historical StateView): execute_block()'s path and rules, with `tracer`, but without the
/// results that need the post-state root (the state root, before Byzantium the receipts' roots
/// and so the receipts root), which the store can only compute at its head, and without the
/// receipts' blooms (the store keeps the imported receipts; a replay is for its tracer). Gas
/// used is still compared with the header (when the whole block ran). ExecutedBlock::state_root
/// is zero, and so is each receipt's logs_bloom.
[[nodiscard]] Result<ExecutedBlock, BlockError> replay_block(
    const eth::Block& block, const eth::Header& parent, const eth::ChainConfig& config,
    const state::StateReader& state, const BlockHashes& hashes, evm::Tracer* tracer,
    ReplayOptions options = {});

/// Builds `block` on `parent`: fills the header's commitments to the body (ommers hash,
/// transactions root, withdrawals root), executes the block as execute_block() does, and writes
/// its results into the header (gas used, state root, receipts root, logs bloom, blob gas used,
/// requests hash) instead of checking them. The caller sets every other field, valid for
/// `parent` (number, parent hash, timestamp, gas limit, base fee, excess blob gas, the Merge's
/// fields, parent beacon block root); the header rules are checked. Errors: as execute_block()
/// (an invalid transaction fails the block: the caller chose the transactions); on failure the
/// header is left half filled and must not be used.
[[nodiscard]] Result<ExecutedBlock, BlockError> seal_block(
    eth::Block& block, const eth::Header& parent, const eth::ChainConfig& config,
    const state::StateReader& state, const BlockHashes& hashes, const StateRootOf& state_root_of);

}  // namespace keel::chain
