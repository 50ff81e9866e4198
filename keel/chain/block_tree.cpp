#include "keel/chain/block_tree.hpp"

#include "keel/chain/ommers.hpp"

#include <string>
#include <unordered_set>

#include "keel/chain/execute.hpp"
#include "keel/chain/header_rules.hpp"

namespace keel::chain {

namespace {

std::unexpected<BlockError> fail(Errc code, const eth::Header& h, std::string detail = {}) {
    return std::unexpected(
        BlockError{.code = code, .number = h.number, .detail = std::move(detail)});
}

}  // namespace

BlockTree::BlockTree(eth::ChainConfig config, const eth::Header& genesis,
                     std::shared_ptr<const state::MemoryState> state)
    : config_(std::move(config)) {
    Node n{.header = genesis,
           .hash = genesis.hash(),
           .total_difficulty = genesis.difficulty,
           .state = std::move(state),
           .ommers = {},
           .merge_block = std::nullopt};
    const Hash32 hash = n.hash;
    head_ = &nodes_.emplace(hash, std::move(n)).first->second;
}

const BlockTree::Node* BlockTree::find(const Hash32& hash) const {
    const auto it = nodes_.find(hash);
    return it == nodes_.end() ? nullptr : &it->second;
}

Result<Hash32, BlockError> BlockTree::import(const eth::Block& block, std::size_t encoded_size) {
    const eth::Header& h = block.header;
    const Node* parent = find(h.parent_hash);
    if (parent == nullptr) return fail(Errc::unknown_parent, h);

    // The Merge by total difficulty: Paris's rules from the first block whose parent reached
    // the terminal total difficulty, on this branch (EIP-3675).
    const eth::ChainConfig* config = &config_;
    std::optional<eth::ChainConfig> merged;
    std::optional<std::uint64_t> merge_block = parent->merge_block;
    if (config_.terminal_total_difficulty && !config_.activation(eth::Fork::paris)) {
        if (!merge_block && parent->total_difficulty >= *config_.terminal_total_difficulty)
            merge_block = h.number;
        if (merge_block) {
            merged = config_;
            merged->set_fork(eth::Fork::paris, *merge_block);
            config = &*merged;
        }
    }

    if (auto v = validate_header(h, parent->header, *config); !v)
        return std::unexpected(std::move(v.error()));
    const auto ancestor = [this](const Hash32& hash) -> std::optional<Ancestor> {
        const Node* at = find(hash);
        if (at == nullptr) return std::nullopt;
        return Ancestor{.header = at->header, .hash = at->hash, .ommers = at->ommers};
    };
    if (auto v = check_ommers(block, *config, ancestor); !v)
        return std::unexpected(std::move(v.error()));

    // BLOCKHASH reads this block's own branch: up the parent links.
    const auto hashes = [this, parent](std::uint64_t n) {
        const Node* at = parent;
        while (at != nullptr && at->header.number > n) at = find(at->header.parent_hash);
        return at != nullptr && at->header.number == n ? at->hash : Hash32{};
    };
    std::shared_ptr<state::MemoryState> post;
    const auto root_of = [&](std::span<const state::AccountChange> changes) {
        post = std::make_shared<state::MemoryState>(*parent->state);
        post->apply(changes);
        return post->state_root();
    };
    auto r = execute_block(block, parent->header, *config, *parent->state, hashes, root_of, nullptr,
                           encoded_size);
    if (!r) return std::unexpected(std::move(r.error()));

    Node n{.header = h,
           .hash = h.hash(),
           .total_difficulty = parent->total_difficulty + h.difficulty,
           .state = std::move(post),
           .ommers = {},
           .merge_block = merge_block};
    n.ommers.reserve(block.body.ommers.size());
    for (const eth::Header& o : block.body.ommers) n.ommers.push_back(o.hash());
    const bool proof_of_stake = config->fork_at(h.number, h.timestamp) >= eth::Fork::paris;
    const Hash32 hash = n.hash;
    const Node* node = &nodes_.insert_or_assign(hash, std::move(n)).first->second;

    // Fork choice: after the Merge the newest block; before it the greater total difficulty,
    // on a tie the lower block (geth's ForkChoice; its coin toss on an equal height is left
    // out: the head stays).
    if (proof_of_stake || node->total_difficulty > head_->total_difficulty ||
        (node->total_difficulty == head_->total_difficulty &&
         node->header.number < head_->header.number))
        head_ = node;
    return hash;
}

}  // namespace keel::chain
