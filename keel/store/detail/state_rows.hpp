#pragma once
/// Pieces the state files of the store share (state_store.cpp, state_verify.cpp): a snapshot
/// held for a read, point reads, the state head, trie rows as a trie::NodeSource, and the
/// change set format. Private to the store module.

#include <rocksdb/db.h>
#include <rocksdb/options.h>

#include <cstdint>
#include <optional>
#include <string>

#include "keel/common/bytes.hpp"
#include "keel/common/result.hpp"
#include "keel/crypto/keccak.hpp"
#include "keel/store/detail/db.hpp"
#include "keel/store/detail/trie_cache.hpp"
#include "keel/store/keys.hpp"
#include "keel/store/state_store.hpp"
#include "keel/trie/updater.hpp"

namespace keel::store::detail {

/// A RocksDB snapshot of `d`, released when it goes; `ro` reads through it.
class Snapshot {
  public:
    explicit Snapshot(const Db& d) : d_(&d), snapshot_(d.db->GetSnapshot()) {
        ro.snapshot = snapshot_;
    }
    ~Snapshot() { d_->db->ReleaseSnapshot(snapshot_); }
    Snapshot(const Snapshot&) = delete;
    Snapshot& operator=(const Snapshot&) = delete;

    rocksdb::ReadOptions ro;

  private:
    const Db* d_;
    const rocksdb::Snapshot* snapshot_;
};

/// The value at `key` of family `cf`, nullopt when absent.
[[nodiscard]] Result<std::optional<std::string>, StoreError> get_at(const Db& d,
                                                                    const rocksdb::ReadOptions& ro,
                                                                    Cf cf, BytesView key);

/// meta/state_head, nullopt when the store holds no state.
[[nodiscard]] Result<std::optional<StateHead>, StoreError> read_state_head(
    const Db& d, const rocksdb::ReadOptions& ro);

/// meta/state_floor (the lowest block whose state can be read), nullopt when not set.
[[nodiscard]] Result<std::optional<std::uint64_t>, StoreError> read_state_floor(
    const Db& d, const rocksdb::ReadOptions& ro);

/// The rows of one stored trie: the account trie (empty prefix) or one account's storage trie
/// (its hash as prefix), read through `ro`. The first read failure is kept in `failure`. With
/// `cache` (the head's tries only: trie_cache.hpp), upper nodes are looked up there first and
/// the ones read from the store are remembered in it.
class TrieRows final : public trie::NodeSource {
  public:
    TrieRows(const Db& d, Cf cf, BytesView prefix,
             const rocksdb::ReadOptions& ro = rocksdb::ReadOptions(),
             TrieNodeCache::Session* cache = nullptr);
    std::optional<Bytes> node(BytesView path) const override;
    /// With a cache, the node's hash comes with it: from the cache, or computed here as a node
    /// read from the store is remembered.
    std::optional<Bytes> hashed_node(BytesView path, std::optional<Hash32>& hash) const override;
    mutable std::string failure;

  private:
    const Db* d_;
    Cf cf_;
    rocksdb::ReadOptions ro_;
    Bytes prefix_;
    std::optional<Hash32> account_;  ///< a storage trie's account (the prefix)
    TrieNodeCache::Session* cache_;
};

/// keccak256 of a slot's 32-byte big-endian key: its key in the storage trie and flat state.
inline Hash32 slot_hash(const Uint256& key) {
    const Bytes32 be = key.to_bytes32();
    return crypto::keccak256(be.view());
}

/// `a` followed by `b`.
inline Bytes concat(BytesView a, BytesView b) {
    Bytes out;
    out.reserve(a.size() + b.size());
    out.insert(out.end(), a.begin(), a.end());
    out.insert(out.end(), b.begin(), b.end());
    return out;
}

/// A history key: `key` followed by the block number, big-endian.
inline Bytes with_block(BytesView key, std::uint64_t block) {
    Bytes out(key.begin(), key.end());
    out.resize(key.size() + 8);
    keys::put_be64(out.data() + key.size(), block);
    return out;
}

/// An error of the state families: "store state <path>: <what>".
inline StoreError state_error(const Db& d, std::string_view what) {
    return StoreError{"store state " + d.path.string() + ": " + std::string(what)};
}

/// Change set records: a kind byte, then the account hash (and the slot hash for a slot).
inline constexpr std::uint8_t kChangedAccount = 0;
inline constexpr std::uint8_t kChangedSlot = 1;

/// Calls `visit(is_slot, key)` for each record of a change set, `key` being the account hash
/// (32 bytes) or the account and slot hashes (64 bytes). False when the set is malformed (the
/// records before the damage have been visited).
template <class Visit>
bool for_each_change(BytesView set, Visit&& visit) {
    for (std::size_t i = 0; i < set.size();) {
        const bool is_slot = set[i] == kChangedSlot;
        const std::size_t len = is_slot ? 65 : 33;
        if (set[i] > kChangedSlot || set.size() - i < len) return false;
        visit(is_slot, set.subspan(i + 1, len - 1));
        i += len;
    }
    return true;
}

}  // namespace keel::store::detail
