#pragma once
/// Initialising a datadir from a genesis (`keel init`): the genesis block, its state (flat,
/// trie, the state head) and the chain's configuration in one store, the state root checked
/// against the header's.
#include <string>

#include "keel/chain/genesis.hpp"
#include "keel/common/result.hpp"
#include "keel/store/chain_store.hpp"

namespace keel::blockchain {

/// What init did.
struct InitReport {
    Hash32 genesis_hash;
    Hash32 state_root;
    std::uint64_t accounts = 0;
    std::uint64_t slots = 0;
    bool already = false;  ///< the store already held this genesis: nothing was written
};

/// Writes `genesis` (parsed from `genesis_json`, kept as the store's chain spec) into `store`.
/// A store that already holds the same genesis is left as it is (already); one holding another
/// chain, or blocks without state, is refused. Errors: one line ("init: the store holds another
/// chain (genesis 0x…)"), or a store failure.
[[nodiscard]] Result<InitReport, std::string> init_store(store::ChainStore& store,
                                                         const chain::Genesis& genesis,
                                                         std::string_view genesis_json);

}  // namespace keel::blockchain
