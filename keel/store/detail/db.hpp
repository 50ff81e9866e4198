#pragma once
/// The chain store's database internals, shared by the files of the store that write or read
/// RocksDB directly (chain_store.cpp, state_db.cpp, state_view.cpp): the column families, the
/// meta keys, key helpers and ChainStore::Impl. Private to the store module.

#include <rocksdb/db.h>
#include <rocksdb/slice.h>
#include <rocksdb/status.h>
#include <rocksdb/write_batch.h>

#include <array>
#include <atomic>
#include <cstring>
#include <filesystem>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "keel/store/chain_store.hpp"
#include "keel/store/detail/recent_state.hpp"
#include "keel/store/detail/state_tip.hpp"
#include "keel/store/detail/trie_cache.hpp"
#include "keel/store/keys.hpp"

namespace keel::store {
namespace detail {

// Column families, in the order of the handles vector (docs/store.md).
enum Cf : std::size_t {
    kDefault,        // unused; RocksDB requires it
    kHeaders,        // number BE8 || hash -> rlp(header)
    kHeaderNumbers,  // hash -> number BE8
    kCanonical,      // number BE8 -> hash
    kTd,             // number BE8 || hash -> TD as 32 bytes BE
    kBodies,         // number BE8 || hash -> rlp(body)
    kReceipts,       // number BE8 || hash -> rlp(receipts)
    kTxLookup,       // tx hash -> number BE8 || index BE4
    kMeta,           // name -> value
    // State (docs/store.md "State"): keys are Keccak-256 hashes of addresses (A) and slots (S).
    kAccounts,        // A -> rlp(account) as the state trie holds it
    kStorage,         // A || S -> rlp(value), non-zero values only
    kCode,            // code hash -> code
    kAccountTrie,     // packed path -> node rlp
    kStorageTrie,     // A || packed path -> node rlp
    kAccountHistory,  // A || BE8(block) -> rlp(account) before the block; empty: none
    kStorageHistory,  // A || S || BE8(block) -> rlp(value) before the block; empty: zero
    kChangeSets,      // BE8(block) -> the keys the block changed (state_db.cpp)
    kCfCount,
};

constexpr std::array<std::string_view, kCfCount> kCfNames = {
    "default",         "headers",     "header_numbers", "canonical",    "td",
    "bodies",          "receipts",    "tx_lookup",      "meta",         "accounts",
    "storage",         "code",        "account_trie",   "storage_trie", "account_history",
    "storage_history", "change_sets",
};

// Meta keys.
constexpr std::string_view kMetaChainId = "chain_id";            // BE8
constexpr std::string_view kMetaGenesis = "genesis_hash";        // 32 bytes
constexpr std::string_view kMetaMergeBlock = "merge_block";      // BE8
constexpr std::string_view kMetaHistoryFloor = "history_floor";  // BE8
constexpr std::string_view kMetaHead = "head";                   // BE8
constexpr std::string_view kMetaPending = "pending_operation";   // BE4 len || kind || argument
constexpr std::string_view kMetaSchema = "schema_version";       // BE8
// The block whose post-state the state families hold: BE8(number) || hash || state root.
constexpr std::string_view kMetaStateHead = "state_head";
// The lowest block whose state can still be read (history below it is pruned): BE8.
constexpr std::string_view kMetaStateFloor = "state_floor";
// The consensus client's safe and finalized blocks (engine_forkchoiceUpdated): BE8 each.
constexpr std::string_view kMetaSafe = "safe_block";
constexpr std::string_view kMetaFinalized = "finalized_block";
// The genesis file (JSON) `keel init` was given.
constexpr std::string_view kMetaChainSpec = "chain_spec";
constexpr std::uint64_t kSchemaVersion = 1;

using NumKey = std::array<char, 8>;
using NumHashKey = std::array<char, 40>;

inline void put_be64(char* out, std::uint64_t v) noexcept {
    keys::put_be64(reinterpret_cast<std::uint8_t*>(out), v);
}

inline std::uint64_t get_be64(const char* in) noexcept {
    return keys::get_be64(reinterpret_cast<const std::uint8_t*>(in));
}

// The handle index of a public Family: the handles start with "default".
constexpr Cf cf_of(Family f) noexcept {
    return static_cast<Cf>(static_cast<std::size_t>(f) + 1);
}
static_assert(kCfCount == kFamilyCount + 1);
static_assert(cf_of(Family::tx_lookup) == kTxLookup && cf_of(Family::meta) == kMeta);

inline NumKey num_key(std::uint64_t n) noexcept {
    NumKey k{};
    put_be64(k.data(), n);
    return k;
}

inline NumHashKey num_hash_key(std::uint64_t n, const Hash32& h) noexcept {
    NumHashKey k{};
    put_be64(k.data(), n);
    std::memcpy(k.data() + 8, h.data(), 32);
    return k;
}

template <std::size_t N>
inline rocksdb::Slice slice(const std::array<char, N>& a) noexcept {
    return {a.data(), N};
}

inline rocksdb::Slice slice(BytesView b) noexcept {
    return {reinterpret_cast<const char*>(b.data()), b.size()};
}

inline rocksdb::Slice slice(const Hash32& h) noexcept {
    return slice(h.view());
}

inline rocksdb::Slice slice(std::string_view s) noexcept {
    return {s.data(), s.size()};
}

inline Bytes to_bytes(const std::string& s) {
    return Bytes(s.begin(), s.end());
}

// RocksDB's status text, once: ToString() is "<code>: <state>", and some states (a missing
// table file) already start with the same "<code>: ", which would print "Corruption:
// Corruption: ...". A held LOCK file is said in words.
inline std::string status_text(const rocksdb::Status& s) {
    std::string text = s.ToString();
    const std::size_t colon = text.find(": ");
    if (colon != std::string::npos) {
        const std::string prefix = text.substr(0, colon + 2);
        while (text.compare(colon + 2, prefix.size(), prefix) == 0) {
            text.erase(colon + 2, prefix.size());
        }
    }
    if (s.IsIOError() && text.find("/LOCK") != std::string::npos &&
        (text.find("lock") != std::string::npos || text.find("Resource") != std::string::npos)) {
        return "in use by another process (its RocksDB LOCK file is held; " + text + ")";
    }
    return text;
}

inline StoreError make_error(std::string_view op, const std::filesystem::path& path,
                             const rocksdb::Status& s) {
    std::string msg = "store ";
    msg += op;
    msg += ' ';
    msg += path.string();
    msg += ": ";
    msg += status_text(s);
    for (char& c : msg) {
        if (c == '\n' || c == '\r') c = ' ';  // one line, whatever RocksDB says
    }
    return StoreError{std::move(msg)};
}

inline StoreError corrupt(const std::filesystem::path& path, std::string_view what) {
    std::string msg = "store read ";
    msg += path.string();
    msg += ": corrupt ";
    msg += what;
    return StoreError{std::move(msg)};
}

using Counter = std::atomic<std::uint64_t>;

}  // namespace detail

using namespace detail;  // NOLINT: the store's own files

struct ChainStore::Impl {
    std::filesystem::path path;
    rocksdb::DB* db = nullptr;
    std::vector<rocksdb::ColumnFamilyHandle*> cfs;
    rocksdb::WriteOptions write_options;
    std::shared_ptr<Counter> floor = std::make_shared<Counter>(0);
    std::shared_ptr<Counter> dropped = std::make_shared<Counter>(0);  // by TxLookupFilter
    std::mutex write_mutex;  // serialises read-modify-write of meta (head)
    // meta/head as the last write left it, for head() without a read: 0 unknown (read it), 1
    // none, n + 2 block n. Set at open and by each write of the head after it went through
    // (under write_mutex).
    std::atomic<std::uint64_t> head_cache{0};
    void remember_head(std::optional<std::uint64_t> head) {
        std::uint64_t kept = 0;  // a number too large to keep: read it
        if (!head) {
            kept = 1;
        } else if (*head < ~std::uint64_t{0} - 1) {
            kept = *head + 2;
        }
        head_cache.store(kept, std::memory_order_release);
        forget_header();
    }

    // The last canonical header read by number (the head's, for every "latest"), so that
    // header_by_number() of it needs no canonical-hash and header reads. Filled by readers when
    // no write of the canonical chain began since they read it (a generation counts those
    // writes), emptied after each such write went through: remember_head(), delete_blocks.
    struct KeptHeader {
        std::uint64_t number = 0;
        Bytes rlp;
    };
    mutable std::mutex header_mutex;
    mutable std::optional<KeptHeader> kept_header;
    std::uint64_t header_generation = 0;
    void forget_header() {
        const std::lock_guard lock(header_mutex);
        ++header_generation;
        kept_header.reset();
    }
    // Writes so far that removed or replaced stored canonical hashes (canonical_rewrites()).
    std::atomic<std::uint64_t> canonical_rewrites{0};
    // The state head's upper trie nodes between state updates (trie_cache.hpp).
    mutable TrieNodeCache trie_cache;
    // The latest blocks' state changes, once keep_recent_state() asked for them
    // (recent_state.hpp); every state write below tells it what it wrote.
    mutable RecentState recent;
    // The state head and floor between state writes (state_tip.hpp); every state write below
    // empties it before and after.
    mutable StateTip state_tip;

    ~Impl() {
        for (auto* h : cfs) {
            if (h != nullptr) db->DestroyColumnFamilyHandle(h);
        }
        if (db != nullptr) {
            db->Close().PermitUncheckedError();
            delete db;
        }
    }

    // Opens (or creates) the database at `path` into `impl`.
    static Result<void, StoreError> init(Impl* impl, const std::filesystem::path& path,
                                         const StoreOptions& options, bool create);

    StoreError error(std::string_view op, const rocksdb::Status& s) const {
        return make_error(op, path, s);
    }

    // The value at `key`, nullopt when absent.
    Result<std::optional<std::string>, StoreError> get(Cf cf, const rocksdb::Slice& key) const {
        std::string value;
        const rocksdb::Status s = db->Get(rocksdb::ReadOptions(), cfs[cf], key, &value);
        if (s.IsNotFound()) return std::optional<std::string>{};
        if (!s.ok()) return unexpected(error("read", s));
        return std::optional<std::string>{std::move(value)};
    }

    // get() straight into Bytes: the value pinned in RocksDB's block cache and copied once
    // (a std::string and then Bytes would copy it twice: bodies and receipts are ~10-30 KB).
    Result<std::optional<Bytes>, StoreError> get_bytes(Cf cf, const rocksdb::Slice& key) const {
        rocksdb::PinnableSlice value;
        const rocksdb::Status s = db->Get(rocksdb::ReadOptions(), cfs[cf], key, &value);
        if (s.IsNotFound()) return std::optional<Bytes>{};
        if (!s.ok()) return unexpected(error("read", s));
        const auto* p = reinterpret_cast<const std::uint8_t*>(value.data());
        return std::optional<Bytes>{Bytes(p, p + value.size())};
    }

    Result<std::optional<std::uint64_t>, StoreError> get_u64(Cf cf,
                                                             const rocksdb::Slice& key) const {
        auto v = get(cf, key);
        if (!v) return unexpected(v.error());
        if (!*v) return std::optional<std::uint64_t>{};
        if ((*v)->size() != 8) return unexpected(corrupt(path, "8-byte number"));
        return std::optional<std::uint64_t>{get_be64((*v)->data())};
    }

    Result<void, StoreError> put_meta(std::string_view key, const rocksdb::Slice& value) {
        const rocksdb::Status s = db->Put(write_options, cfs[kMeta], slice(key), value);
        if (!s.ok()) return unexpected(error("write", s));
        return {};
    }

    Result<void, StoreError> put_meta_u64(std::string_view key, std::uint64_t v) {
        return put_meta(key, slice(num_key(v)));
    }

    // Canonical hash at `number`, nullopt when none.
    Result<std::optional<Hash32>, StoreError> canonical(std::uint64_t number) const {
        auto v = get(kCanonical, slice(num_key(number)));
        if (!v) return unexpected(v.error());
        if (!*v) return std::optional<Hash32>{};
        auto h = Hash32::from(as_bytes(**v));
        if (!h) return unexpected(corrupt(path, "canonical hash"));
        return std::optional<Hash32>{*h};
    }

    // rlp stored under number || canonical hash in `cf`; pruned below the floor when `history`.
    Result<Read<Bytes>, StoreError> by_number(Cf cf, std::uint64_t number, bool history) const {
        if (history && number < floor->load(std::memory_order_acquire)) {
            return Read<Bytes>{ReadStatus::pruned, {}};
        }
        std::uint64_t generation = 0;
        if (cf == kHeaders) {
            const std::lock_guard lock(header_mutex);
            if (kept_header && kept_header->number == number)
                return Read<Bytes>{ReadStatus::found, kept_header->rlp};
            generation = header_generation;
        }
        auto h = canonical(number);
        if (!h) return unexpected(h.error());
        if (!*h) return Read<Bytes>{};
        auto r = at(cf, number, **h, false);
        if (cf == kHeaders && r && r->found()) {
            const std::lock_guard lock(header_mutex);
            if (generation == header_generation) kept_header = KeptHeader{number, r->value};
        }
        return r;
    }

    // rlp stored under number || hash in `cf` (any branch); pruned below the floor when
    // `history`.
    Result<Read<Bytes>, StoreError> at(Cf cf, std::uint64_t number, const Hash32& hash,
                                       bool history) const {
        if (history && number < floor->load(std::memory_order_acquire)) {
            return Read<Bytes>{ReadStatus::pruned, {}};
        }
        auto v = get_bytes(cf, slice(num_hash_key(number, hash)));
        if (!v) return unexpected(v.error());
        if (!*v) return Read<Bytes>{};
        return Read<Bytes>{ReadStatus::found, std::move(**v)};
    }
};

namespace detail {

/// The database of a store, for the store's own files.
struct Access {
    using Db = ChainStore::Impl;
    static Db& of(const ChainStore& store) noexcept { return *store.impl_; }
};

/// ChainStore::Impl under a name the store's own files can use.
using Db = Access::Db;

/// Adds a block's state rows, the new state head and (for the first state) the state floor to
/// `batch` (state_store.cpp). Errors: a read failure of the state floor.
[[nodiscard]] Result<void, StoreError> add_state_rows(Db& d, const StateUpdate& u,
                                                      rocksdb::WriteBatch& batch);

}  // namespace detail

}  // namespace keel::store
