#pragma once
/// Consistency check of the world state in a chain store (docs/store.md, "State" and "Verify"):
/// the state head names a canonical block whose header carries its state root; the state root
/// recomputed from the flat state (every account's storage root from its slots, every code
/// present and hashing to its code hash) equals it; the account trie and every storage trie are
/// complete and hash-consistent, with no row that no trie reaches; and the latest change sets'
/// history rows are all present.
///
/// Streaming: the flat families are read in key order (hashed keys: the tries' order), so the
/// roots are built in one pass each without holding the state in memory.
/// Threading: nothing may write the store while it is verified.

#include <cstdint>
#include <optional>

#include "keel/common/result.hpp"
#include "keel/store/chain_store.hpp"
#include "keel/store/state_store.hpp"
#include "keel/store/verify.hpp"

namespace keel::store {

/// What verify_state() found in a consistent state.
struct StateVerifyReport {
    StateHead head;
    std::uint64_t accounts = 0;
    std::uint64_t slots = 0;
    std::uint64_t codes = 0;  ///< distinct codes checked
    std::uint64_t account_trie_rows = 0;
    std::uint64_t storage_trie_rows = 0;
    std::uint64_t change_sets_checked = 0;  ///< the latest ones (at most 64)
    std::uint64_t history_rows_checked = 0;
};

/// Checks the store's state; std::nullopt when it holds none. Errors: the first inconsistency,
/// one line naming the account (keccak of its address) or the block, or a read failure.
[[nodiscard]] Result<std::optional<StateVerifyReport>, VerifyError> verify_state(
    const ChainStore& store);

}  // namespace keel::store
