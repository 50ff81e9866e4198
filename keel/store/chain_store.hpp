#pragma once
/// The chain store: headers, canonical hashes, total difficulties, bodies, receipts and the
/// transaction lookup index in RocksDB, behind a small API with no RocksDB type in it (the schema
/// and the pruning design are in docs/store.md).
///
/// Writes are atomic per put_blocks() call (one RocksDB WriteBatch, written through the WAL):
/// after a crash at any moment the store opens and holds either all of a batch or none of it.
/// Reads answer found, not found, or pruned: pruned when the block lies below the history floor
/// and the kind of data (body, receipts, tx lookup) is one that history pruning removes.
///
/// Threading: every const member may be called from any thread at once; put_blocks() and the
/// setters are serialised internally. A ChainStore owns its database; moving it moves ownership.

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <span>
#include <string>

#include "keel/common/bytes.hpp"
#include "keel/common/result.hpp"
#include "keel/common/uint256.hpp"

namespace keel::store {

/// An environment failure (RocksDB, file system): one line naming the operation, the path and
/// the RocksDB status text, e.g. "store open /data/chain: IO error: ...: Not a directory".
struct StoreError {
    std::string message;
};

/// The one-line message.
inline const std::string& to_string(const StoreError& e) noexcept {
    return e.message;
}

/// How to open a store.
struct StoreOptions {
    /// fsync the WAL on every write (survives power loss, not only a process crash).
    bool sync = false;
};

/// One block to store. Every view must stay valid during the put_blocks() call only.
struct BlockToStore {
    std::uint64_t number = 0;
    Hash32 hash;                        ///< keccak256(header_rlp)
    BytesView header_rlp;               ///< rlp(header)
    BytesView body_rlp;                 ///< rlp([transactions, ommers(, withdrawals)])
    BytesView receipts_rlp;             ///< rlp(list of receipts), typed ones as strings
    Uint256 total_difficulty;           ///< up to and including this block
    std::span<const Hash32> tx_hashes;  ///< in body order: transaction i has index i
};

/// The outcome of a read that did not fail.
enum class ReadStatus : std::uint8_t {
    found,
    not_found,  ///< never stored (or, for a tx hash, see ChainStore::tx_lookup())
    pruned,     ///< below the history floor, and this kind of data is removed by pruning
};

/// A tri-state read: `value` is meaningful only when status is found.
template <class T>
struct Read {
    ReadStatus status = ReadStatus::not_found;
    T value{};

    bool found() const noexcept { return status == ReadStatus::found; }
};

/// Where a transaction is: canonical block number and index in that block's body.
struct TxLocation {
    std::uint64_t number = 0;
    std::uint32_t index = 0;

    friend bool operator==(const TxLocation&, const TxLocation&) = default;
};

/// An operation in progress, recorded in meta so that it resumes after a crash (docs/store.md).
struct PendingOperation {
    std::string kind;  ///< e.g. "prune"
    Bytes argument;    ///< opaque to the store
};

/// A RocksDB chain store (schema: docs/store.md).
class ChainStore {
  public:
    /// Opens an existing store at `path`. Errors: the directory holds no store, a RocksDB or
    /// file-system failure (message: "store open <path>: <status>").
    static Result<ChainStore, StoreError> open(const std::filesystem::path& path,
                                               const StoreOptions& options = {});

    /// Creates a new, empty store at `path` (the directory is created; it must not already hold
    /// a store). History floor 0, no head. Errors as open().
    static Result<ChainStore, StoreError> create(const std::filesystem::path& path,
                                                 const StoreOptions& options = {});

    ChainStore(ChainStore&&) noexcept;
    ChainStore& operator=(ChainStore&&) noexcept;
    ChainStore(const ChainStore&) = delete;
    ChainStore& operator=(const ChainStore&) = delete;
    /// Closes the database (flushes nothing beyond what the WAL already holds).
    ~ChainStore();

    /// Stores the blocks as canonical, all in one atomic batch: header, hash -> number, canonical
    /// hash, TD, body, receipts, one tx lookup entry per transaction hash, and the head (raised
    /// to the highest number given, never lowered). An empty span writes nothing.
    Result<void, StoreError> put_blocks(std::span<const BlockToStore> blocks);

    // ---- reads (never pruned: headers, canonical hashes, TD) ---------------------------------

    /// rlp(header) of the canonical block `number`.
    Result<Read<Bytes>, StoreError> header_by_number(std::uint64_t number) const;
    /// rlp(header) of the block with this hash (canonical or not).
    Result<Read<Bytes>, StoreError> header_by_hash(const Hash32& hash) const;
    /// The canonical hash at `number`.
    Result<Read<Hash32>, StoreError> canonical_hash(std::uint64_t number) const;
    /// The number of the block with this hash.
    Result<Read<std::uint64_t>, StoreError> block_number(const Hash32& hash) const;
    /// Total difficulty of the canonical block `number`.
    Result<Read<Uint256>, StoreError> total_difficulty(std::uint64_t number) const;

    // ---- reads of history (pruned below the history floor) -----------------------------------

    /// rlp(body) of the canonical block `number`.
    Result<Read<Bytes>, StoreError> body(std::uint64_t number) const;
    /// rlp(list of receipts) of the canonical block `number`.
    Result<Read<Bytes>, StoreError> receipts(std::uint64_t number) const;
    /// Where the transaction is. pruned when its entry names a block below the floor; once a
    /// compaction has dropped such an entry the hash reads as not_found (a hash alone cannot say
    /// which block it belonged to).
    Result<Read<TxLocation>, StoreError> tx_lookup(const Hash32& tx_hash) const;

    // ---- metadata ----------------------------------------------------------------------------

    /// Highest canonical block stored, or nullopt for an empty store.
    Result<std::optional<std::uint64_t>, StoreError> head() const;
    /// Lowest block whose body, receipts and tx lookups are kept (0 = full history). Cached:
    /// no database read.
    std::uint64_t history_floor() const noexcept;
    /// Raises (or sets) the history floor: from now on history reads below it answer pruned and
    /// compactions drop tx lookup entries below it. Deleting the bodies and receipts is the
    /// pruning command's work (docs/store.md). Errors: a RocksDB write failure.
    Result<void, StoreError> set_history_floor(std::uint64_t floor);

    /// Compacts the tx lookup family now, so its compaction filter drops every entry below the
    /// history floor (otherwise that happens as RocksDB compacts in the background). Errors: a
    /// RocksDB failure.
    Result<void, StoreError> compact_tx_lookup();

    Result<std::optional<std::uint64_t>, StoreError> chain_id() const;
    Result<void, StoreError> set_chain_id(std::uint64_t id);
    Result<std::optional<Hash32>, StoreError> genesis_hash() const;
    Result<void, StoreError> set_genesis_hash(const Hash32& hash);
    /// First post-merge block (EIP-3675), when known.
    Result<std::optional<std::uint64_t>, StoreError> merge_block() const;
    Result<void, StoreError> set_merge_block(std::uint64_t number);
    /// The operation in progress, if any.
    Result<std::optional<PendingOperation>, StoreError> pending_operation() const;
    /// Records (or, with nullopt, clears) the operation in progress.
    Result<void, StoreError> set_pending_operation(const std::optional<PendingOperation>& op);

  private:
    struct Impl;
    explicit ChainStore(std::unique_ptr<Impl> impl) noexcept;
    std::unique_ptr<Impl> impl_;
};

}  // namespace keel::store
