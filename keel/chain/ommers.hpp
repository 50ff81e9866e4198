#pragma once
/// The ommer rules (yellow paper §11.1, geth's VerifyUncles), checked against a block's 7
/// ancestors wherever they are kept: the in-memory BlockTree or the chain store.
#include <functional>
#include <optional>
#include <vector>

#include "keel/chain/errors.hpp"
#include "keel/common/result.hpp"
#include "keel/eth/block.hpp"
#include "keel/eth/chain_config.hpp"

namespace keel::chain {

/// An ancestor as the ommer rules need it: its header and the ommers it included, by hash.
struct Ancestor {
    eth::Header header;
    Hash32 hash;
    std::vector<Hash32> ommers;
};

/// The block with this hash among the kept blocks; std::nullopt when there is none (the walk
/// stops there, as it does at genesis).
using AncestorByHash = std::function<std::optional<Ancestor>(const Hash32& hash)>;

/// How many ancestors an ommer's parent may be among (yellow paper §11.1: depth up to 6).
inline constexpr int kOmmerGenerations = 7;

/// Checks `block`'s ommers: at most 2, none included before by the block or one of its 7
/// ancestors, none an ancestor, none a sibling, each one's parent an ancestor, and each one's
/// header valid against that parent (validate_header() with `config`). Errors: the rule broken,
/// with the block's number and the ommer's index.
[[nodiscard]] Result<void, BlockError> check_ommers(const eth::Block& block,
                                                    const eth::ChainConfig& config,
                                                    const AncestorByHash& ancestor);

}  // namespace keel::chain
