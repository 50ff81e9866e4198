#pragma once
/// The chain on the store: blocks inserted in any order, side chains kept, the head chosen by
/// total difficulty before the Merge and by the caller (set_head) after it, reorganisations done
/// by unwinding the state from its history and executing the other branch. What a node's block
/// processing and ethereum/tests' blockchain tests need on persisted state; chain::BlockTree is
/// the in-memory counterpart the fixtures are also run on.
///
/// Every block is executed when it is inserted, on its parent's state: when the parent is not
/// the head, the store is first reorganised onto the parent (unwound to the common ancestor and
/// the parent's branch executed again), and back afterwards when the new block does not win the
/// fork choice. So a side block is known valid, and the store holds exactly one state: the
/// head's. That costs the length of the side branch per side block, which is rare in practice
/// (era1 history has none; after the Merge the consensus client names the head).
///
/// Crash safety: each step (a block unwound, a block executed) is one atomic write that leaves
/// a consistent store: a chain whose head has its state. A crash in the middle of a reorg leaves
/// the head somewhere on one of the two branches; the blocks of both stay stored.
///
/// Threading: one writer; readers use store::StateView on their own threads.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "keel/blockchain/executor.hpp"
#include "keel/common/result.hpp"
#include "keel/eth/block.hpp"
#include "keel/eth/chain_config.hpp"
#include "keel/store/chain_store.hpp"

namespace keel::blockchain {

/// The head of the chain.
struct Head {
    std::uint64_t number = 0;
    Hash32 hash;
    Uint256 total_difficulty;
};

/// How insert() placed a block.
enum class Placed : std::uint8_t {
    known,      ///< already stored: nothing done
    canonical,  ///< the new head
    side,       ///< stored beside the canonical chain (the head did not move)
};

class Chain {
  public:
    /// The chain of `store` (initialised by keel init: a genesis and its state) with `config`'s
    /// rules; the store must outlive it. `keep_history`: blocks of state history kept (0: all;
    /// a reorganisation deeper than that is refused). Errors: no state in the store, a read
    /// failure.
    [[nodiscard]] static Result<Chain, std::string> open(store::ChainStore& store,
                                                         eth::ChainConfig config,
                                                         std::uint64_t keep_history = 0);

    /// Inserts `block` (its RLP is `encoded_size` bytes, 0 if not known). Errors: a rule the
    /// block breaks (ExecError::block: unknown parent, header, ommers, execution; nothing of the
    /// block is stored and the head is where it was), or a store failure.
    [[nodiscard]] Result<Placed, ExecError> insert(const eth::Block& block,
                                                   std::size_t encoded_size = 0);

    /// Builds a block on the head from `block`'s body and the header fields a producer chooses
    /// (blockchain::build_on_head fills the rest), executes it and stores it as the new head.
    /// Returns its hash; `block` holds the sealed block. Errors: an invalid transaction or
    /// header field (nothing stored), a store failure.
    [[nodiscard]] Result<Hash32, ExecError> build(eth::Block& block);

    /// Makes the stored block `hash` the head (the Engine API's forkchoiceUpdated): unwinds the
    /// canonical chain to the common ancestor and executes the block's branch. Errors: an
    /// unknown block, a block the store cannot unwind to (state history pruned), a store failure.
    [[nodiscard]] Result<void, ExecError> set_head(const Hash32& hash);

    const Head& head() const noexcept { return head_; }
    const eth::ChainConfig& config() const noexcept { return config_; }
    /// Time spent executing, every block (re-executions in reorgs included).
    const ExecutionTimes& times() const noexcept { return times_; }
    /// Blocks unwound and re-executed by reorganisations so far.
    std::uint64_t reorg_blocks() const noexcept { return reorg_blocks_; }

  private:
    Chain(store::ChainStore& store, eth::ChainConfig config, Head head, std::uint64_t keep)
        : store_(&store), config_(std::move(config)), head_(head), keep_history_(keep) {}

    Result<void, ExecError> unwind_one();
    Result<void, ExecError> execute_stored(const Hash32& hash);
    Result<void, ExecError> store_canonical(const eth::Block& block, const Hash32& hash,
                                            const Uint256& td, Executed executed);

    store::ChainStore* store_;
    eth::ChainConfig config_;
    Head head_;
    std::uint64_t keep_history_;
    ExecutionTimes times_;
    std::uint64_t reorg_blocks_ = 0;
};

}  // namespace keel::blockchain
