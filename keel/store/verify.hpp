#pragma once
/// Consistency check of a chain store (docs/store.md, "Verify"): the canonical chain links,
/// headers and their hashes, hash -> number entries, total difficulties, which bodies, receipts
/// and transaction lookup entries are stored (none below the history floor once a prune has
/// completed, all of them at or above it), that they agree with each other, and the metadata.
///
/// Streaming: the families are read with cursors in key order, so memory does not grow with the
/// store, and hashing is spread over keel's thread pool. Bodies and the lookup index are matched
/// without a point read per transaction: each side is folded into an order-independent digest
/// (set_digest.hpp), and only when the digests differ is every transaction looked up, to name the
/// block at fault. It stops at the first inconsistency: the chain, bodies and receipts in block
/// order first, then the lookup index.
///
/// Threading: nothing may write the store while it is verified.

#include <cstdint>
#include <optional>
#include <string>

#include "keel/common/result.hpp"
#include "keel/store/chain_store.hpp"

namespace keel::store {

/// How to verify.
struct VerifyOptions {
    /// Draw progress on stderr (keel::Progress): blocks, then lookup entries.
    bool progress = true;
};

/// What a verify found, when the store is consistent.
struct VerifyReport {
    std::uint64_t blocks = 0;           ///< canonical blocks, tail..head
    std::optional<std::uint64_t> tail;  ///< lowest canonical block (nullopt: empty store)
    std::optional<std::uint64_t> head;  ///< highest canonical block
    std::uint64_t floor = 0;            ///< the history floor
    /// An interrupted operation recorded in meta. For a prune, history below the floor that it
    /// had not removed yet was not checked (nor counted).
    std::optional<PendingOperation> pending;
    std::uint64_t bodies = 0;        ///< bodies stored (at or above the floor)
    std::uint64_t receipts = 0;      ///< blocks with receipts stored
    std::uint64_t no_receipts = 0;   ///< blocks with a body but no receipts (RLP-chain imports)
    std::uint64_t transactions = 0;  ///< transactions in the stored bodies
    std::uint64_t tx_lookups = 0;    ///< tx lookup entries (one per transaction)
    double seconds = 0;              ///< wall time of the verify
};

/// The first inconsistency found, or a read failure.
struct VerifyError {
    /// The block at fault, when the problem is about one block.
    std::optional<std::uint64_t> block;
    /// One line naming the block (or entry) and what is wrong, e.g. "block 12: parent hash
    /// 0x12.. is not the canonical hash of block 11 (0x34..)"; for a read failure the store's
    /// message.
    std::string message;
};

/// The one-line message.
inline const std::string& to_string(const VerifyError& e) noexcept {
    return e.message;
}

/// Checks the whole store; see the top of this file and docs/store.md for the list of checks.
[[nodiscard]] Result<VerifyReport, VerifyError> verify_store(const ChainStore& store,
                                                             const VerifyOptions& options = {});

}  // namespace keel::store
