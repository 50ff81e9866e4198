#pragma once
/// An in-memory block tree: every block imported is executed on its parent's post-state and
/// kept (keyed by hash) with its total difficulty and its own post-state, side chains included;
/// the head is chosen by total difficulty before the Merge (the heavier chain; on a tie the
/// lower block, else the one already head) and is the latest block imported after it (EIP-3675:
/// the consensus layer chooses). What ethereum/tests' blockchain tests need: side chains,
/// reorganisations, ommers from them, and the Merge at a terminal total difficulty.
///
/// Ommers are checked here, against the block's 7 ancestors (yellow paper §11.1, geth's
/// VerifyUncles): at most 2, none included before by the block or a recent ancestor, none an
/// ancestor, each one's parent an ancestor other than the block's parent, and each one's header
/// valid against that parent (validate_header()).
///
/// Memory: one MemoryState per block (tests' chains are short). Not thread-safe.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <unordered_map>
#include <vector>

#include "keel/chain/errors.hpp"
#include "keel/common/result.hpp"
#include "keel/eth/block.hpp"
#include "keel/eth/chain_config.hpp"
#include "keel/state/memory_state.hpp"

namespace keel::chain {

class BlockTree {
  public:
    /// A block that was imported.
    struct Node {
        eth::Header header;
        Hash32 hash;
        Uint256 total_difficulty;
        std::shared_ptr<const state::MemoryState> state;  ///< after the block
        std::vector<Hash32> ommers;                       ///< the ommers it included, by hash
        /// With a terminal total difficulty: the number of the first proof-of-stake block of
        /// this branch, once it has one.
        std::optional<std::uint64_t> merge_block;
    };

    /// A tree holding only `genesis`, whose post-state is `state`.
    BlockTree(eth::ChainConfig config, const eth::Header& genesis,
              std::shared_ptr<const state::MemoryState> state);

    /// Executes `block` on its parent's state and adds it; the head moves when the fork choice
    /// says so. `encoded_size`: the size of the block's RLP (EIP-7934), 0 if not known.
    /// Errors: unknown_parent, the ommer rules, and everything execute_block() refuses; on
    /// failure the tree is unchanged. Returns the block's hash.
    [[nodiscard]] Result<Hash32, BlockError> import(const eth::Block& block,
                                                    std::size_t encoded_size = 0);

    /// The block with this hash, nullptr if none was imported.
    const Node* find(const Hash32& hash) const;
    /// The head: the chosen tip.
    const Node& head() const { return *head_; }
    const eth::ChainConfig& config() const noexcept { return config_; }

  private:
    eth::ChainConfig config_;
    std::unordered_map<Hash32, Node> nodes_;
    const Node* head_ = nullptr;
};

}  // namespace keel::chain
