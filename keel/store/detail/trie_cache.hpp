#pragma once
/// The upper nodes of the state head's tries, kept in memory from one block's state update to
/// the next. Private to the store module.
///
/// Every block rewrites the top of the account trie (its root and the 16 and 256 nodes below
/// touch almost every key) and of each busy contract's storage trie; read from RocksDB, each of
/// those nodes is a point read through every memtable and level, block after block. The cache
/// holds the nodes at most kMaxDepth nibbles deep, of both kinds of trie, for one state root:
/// the nodes an update loads are remembered, the nodes it writes and deletes are staged, and
/// the next update applies them only if the store's state head then has the root they were
/// staged for (the write went through). Any other head root (a failed write, an unwind, a
/// rewind, another writer) empties the cache first.
///
/// Why this is safe: a path-keyed trie's rows are a function of its root, so nodes kept for the
/// head's root are that trie's nodes; and trie::Updater checks every node it loads against the
/// hash its parent names, so even a wrong entry could only fail an update, never change a root.
/// Each entry keeps the Keccak-256 of its own bytes (computed as it was read from the store, or
/// by the updater that encoded it): the updater compares that instead of hashing a hit again.
///
/// Only prepare_state_update() uses it (the head's tries): readers of past states and proofs
/// read RocksDB. Threading: one Session at a time (open() waits for the previous to close).
/// Memory: at most kMaxBytes of node RLP; past it, everything is dropped and filled again.

#include <cstddef>
#include <cstdint>
#include <mutex>
#include <optional>
#include <unordered_map>
#include <vector>

#include "keel/common/bytes.hpp"
#include "keel/trie/updater.hpp"

namespace keel::store::detail {

class TrieNodeCache {
  public:
    /// Nodes with a path of at most this many nibbles are kept: 1 + 16 + 256 + 4,096 + 65,536
    /// account-trie nodes at most (about 35 MB of RLP), and the tops of the storage tries.
    static constexpr std::size_t kMaxDepth = 4;
    static constexpr std::size_t kMaxBytes = std::size_t{256} << 20;
    /// Paths of at most kMaxDepth nibbles, numbered shortest first: 69,905.
    static constexpr std::uint32_t kSlots = (1u << (4 * (kMaxDepth + 1))) / 15;

    class Session;
    /// Starts one update of the state whose root is `head_root` (see the file comment).
    [[nodiscard]] Session open(const Hash32& head_root);

    /// Counters, for tests: lookups answered from memory and nodes kept now.
    struct Stats {
        std::uint64_t hits = 0;
        std::uint64_t entries = 0;
    };
    [[nodiscard]] Stats stats() const;

  private:
    /// A node kept: its RLP (empty: none) and the Keccak-256 of it, computed here or by the
    /// updater that encoded it, so that a hit needs no hashing (trie::NodeSource::hashed_node).
    struct Entry {
        Bytes rlp;
        Hash32 hash{};
    };
    /// One change to apply: a node put (value set) or erased (value empty) at `slot` of the
    /// account trie (account empty) or of `account`'s storage trie; or, with slot kSlots, the
    /// whole storage trie of `account` erased.
    struct Op {
        std::optional<Hash32> account;
        std::uint32_t slot = 0;
        Entry value;
    };
    using Slots = std::unordered_map<std::uint32_t, Entry>;
    void apply(Op&& op);
    void set(Entry& at, Entry&& value);
    void clear();

    mutable std::mutex mutex_;
    Hash32 root_{};
    bool valid_ = false;          ///< root_ names the state the nodes belong to
    std::vector<Entry> account_;  ///< by slot; empty rlp: not kept
    std::unordered_map<Hash32, Slots> storage_;
    std::size_t bytes_ = 0;
    std::uint64_t entries_ = 0;
    std::vector<Op> pending_;  ///< the changes of the last update, for pending_root_
    std::optional<Hash32> pending_root_;
    std::uint64_t hits_ = 0;
};

/// One update's use of the cache; holds it until destroyed. Without close(), the update's
/// changes are dropped (it failed, nothing was written). `account` below: nullptr for the
/// account trie, else the storage trie's account hash; `path`: nibbles.
class TrieNodeCache::Session {
  public:
    Session(Session&&) noexcept = default;
    Session& operator=(Session&&) = delete;
    Session(const Session&) = delete;
    Session& operator=(const Session&) = delete;
    ~Session();

    /// The node at `path` and its hash (in `hash`), if kept.
    [[nodiscard]] std::optional<Bytes> find(const Hash32* account, BytesView path, Hash32& hash);
    /// A node loaded from the store for the head's trie, and the Keccak-256 of its bytes.
    void remember(const Hash32* account, BytesView path, BytesView node, const Hash32& hash);
    /// The update deletes the whole storage trie of `account`.
    void stage_erase(const Hash32& account);
    /// The update's node changes to a trie (with their hashes: NodeChanges::write_hashes).
    void stage(const Hash32* account, const trie::NodeChanges& changes);
    /// The update is complete: its changes apply if the next update finds `new_root` at the head.
    void close(const Hash32& new_root);

  private:
    friend class TrieNodeCache;
    Session(TrieNodeCache& cache, std::unique_lock<std::mutex> lock)
        : cache_(&cache), lock_(std::move(lock)) {}
    TrieNodeCache* cache_;
    std::unique_lock<std::mutex> lock_;
    std::vector<Op> staged_;
};

}  // namespace keel::store::detail
