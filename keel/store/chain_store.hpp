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

#include <array>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>

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
    /// Open for reading only (open() only): no lock is taken, so it works while another process
    /// writes the store (an import), and nothing is written to the directory, not even
    /// RocksDB's LOG file. The reader sees the store as it was when opened. Every write on a
    /// read-only store fails with RocksDB's refusal ("store write <path>: Not implemented: ...").
    bool read_only = false;
    /// Bytes of decompressed table blocks kept in memory, shared by every family.
    std::size_t cache_bytes = std::size_t{256} << 20;
};

/// One block to store. Every view must stay valid during the put_blocks() call only.
struct BlockToStore {
    std::uint64_t number = 0;
    Hash32 hash;           ///< keccak256(header_rlp)
    BytesView header_rlp;  ///< rlp(header)
    BytesView body_rlp;    ///< rlp([transactions, ommers(, withdrawals)])
    /// rlp(list of receipts), typed ones as strings; empty: none stored (an RLP chain file has
    /// no receipts), and receipts() reads not_found.
    BytesView receipts_rlp;
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

/// The store's column families (docs/store.md), for raw iteration and size reports.
enum class Family : std::uint8_t {
    headers,          ///< BE8(number) ‖ hash -> rlp(header)
    header_numbers,   ///< hash -> BE8(number)
    canonical,        ///< BE8(number) -> hash
    td,               ///< BE8(number) ‖ hash -> total difficulty, 32 bytes big-endian
    bodies,           ///< BE8(number) ‖ hash -> rlp(body)
    receipts,         ///< BE8(number) ‖ hash -> rlp(list of receipts)
    tx_lookup,        ///< tx hash -> BE8(number) ‖ BE4(index)
    meta,             ///< name -> value
    accounts,         ///< keccak(address) -> rlp(account) (state_store.hpp)
    storage,          ///< keccak(address) ‖ keccak(slot) -> rlp(value)
    code,             ///< code hash -> code
    account_trie,     ///< packed nibble path -> node rlp
    storage_trie,     ///< keccak(address) ‖ packed path -> node rlp
    account_history,  ///< keccak(address) ‖ BE8(block) -> rlp(account) before the block
    storage_history,  ///< keccak(address) ‖ keccak(slot) ‖ BE8(block) -> rlp(value) before it
    change_sets,      ///< BE8(block) -> the state keys the block changed
};

/// Number of families in Family.
inline constexpr std::size_t kFamilyCount = 16;

/// The family's name in the database and in reports: "headers", "tx_lookup", ...
std::string_view family_name(Family family) noexcept;

/// Space a store takes on disk.
struct DiskUsage {
    /// Every file in the store's directory: tables, WAL, manifest, RocksDB's logs.
    std::uint64_t directory_bytes = 0;
    /// Bytes of the live tables of each family, indexed by Family. Data still in memtables is
    /// not counted: call ChainStore::flush() first for a complete figure.
    std::array<std::uint64_t, kFamilyCount> family_bytes{};
};

/// A forward cursor over the raw entries of one family in key order (formats: keys.hpp and
/// docs/store.md), reading a consistent snapshot taken when it was made. key() and value() are
/// views valid until the cursor moves. Entries below the history floor that pruning has not yet
/// removed are shown as they are: this is raw access for the store's own tools (verify, tests).
/// Must not outlive the ChainStore that made it; one thread at a time.
class StoreCursor {
  public:
    StoreCursor(StoreCursor&&) noexcept;
    StoreCursor& operator=(StoreCursor&&) noexcept;
    StoreCursor(const StoreCursor&) = delete;
    StoreCursor& operator=(const StoreCursor&) = delete;
    ~StoreCursor();

    /// True while the cursor is on an entry (false past the end, or after a read error).
    bool valid() const noexcept;
    /// The current key. Precondition: valid().
    BytesView key() const noexcept;
    /// The current value. Precondition: valid().
    BytesView value() const noexcept;
    /// Moves to the next entry. Precondition: valid().
    void next();
    /// Moves to the first entry whose key is at least `key` (within the cursor's bounds).
    void seek(BytesView key);
    /// Once valid() is false: ok at the end, or the read error that stopped the cursor
    /// ("store read <path>: <status>").
    [[nodiscard]] Result<void, StoreError> status() const;

  private:
    friend class ChainStore;
    struct Impl;
    explicit StoreCursor(std::unique_ptr<Impl> impl) noexcept;
    std::unique_ptr<Impl> impl_;
};

struct StateUpdate;  // state_store.hpp
namespace detail {
struct Access;  // detail/db.hpp: the store's own files reach the database through it
}

/// A RocksDB chain store (schema: docs/store.md).
class ChainStore {
  public:
    /// Opens an existing store at `path`. Errors: the directory holds no store, a RocksDB or
    /// file-system failure (message: "store open <path>: <status>").
    [[nodiscard]] static Result<ChainStore, StoreError> open(const std::filesystem::path& path,
                                                             const StoreOptions& options = {});

    /// Creates a new, empty store at `path`, which must be absent or an empty directory. It is
    /// built in `<path>.creating` and renamed into place when complete, so a crash while
    /// creating leaves no half store at `path`. Creation is exclusive: an flock on `<path>.lock`
    /// is taken before anything is written (and the file removed once the store is in place),
    /// so of two processes creating the same store one succeeds and the other fails with
    /// "store create <path>: another process is creating this store". History floor 0, no head.
    /// Errors: the path exists and is not an empty directory, the lock is held, and those of
    /// open().
    [[nodiscard]] static Result<ChainStore, StoreError> create(const std::filesystem::path& path,
                                                               const StoreOptions& options = {});

    /// Whether another process holds the store at `path` open for writing (RocksDB's lock on its
    /// LOCK file). A read-only open beside such a writer can see the families at different
    /// points when the writer flushes meanwhile (RocksDB reads the manifest, then the logs the
    /// flush may have retired): a reader that finds the store inconsistent then opens it again.
    [[nodiscard]] static bool has_writer(const std::filesystem::path& path);

    ChainStore(ChainStore&&) noexcept;
    ChainStore& operator=(ChainStore&&) noexcept;
    ChainStore(const ChainStore&) = delete;
    ChainStore& operator=(const ChainStore&) = delete;
    /// Closes the database (flushes nothing beyond what the WAL already holds).
    ~ChainStore();

    /// Stores the blocks as canonical, all in one atomic batch: header, hash -> number, canonical
    /// hash, TD, body, receipts, one tx lookup entry per transaction hash, and the head (raised
    /// to the highest number given, never lowered). An empty span writes nothing. With `state`
    /// (state_store.hpp: the state rows of the last block given, prepared on its parent's
    /// state), the state rows and the new state head go into the same batch.
    [[nodiscard]] Result<void, StoreError> put_blocks(std::span<const BlockToStore> blocks,
                                                      const StateUpdate* state = nullptr);

    /// Writes state rows alone (an unwind: state_store.hpp) with the new state head, in one
    /// atomic batch. Errors: a RocksDB write failure.
    [[nodiscard]] Result<void, StoreError> put_state(const StateUpdate& state);

    /// Stores a block that is not canonical (a side block): header, hash -> number, TD, body and
    /// receipts when given, in one batch; no canonical hash, no tx lookups, the head unchanged.
    /// Errors: a RocksDB write failure.
    [[nodiscard]] Result<void, StoreError> put_side_block(const BlockToStore& block);

    /// Takes the head block off the canonical chain, in one atomic batch with `state` (its
    /// unwind: prepare_state_unwind): deletes its canonical hash and the tx lookups of
    /// `tx_hashes` (its transactions), and lowers the head to state.number. Its header, body,
    /// TD and receipts stay, as a side block's. Errors: a RocksDB write failure.
    [[nodiscard]] Result<void, StoreError> unwind_head(const StateUpdate& state,
                                                       std::span<const Hash32> tx_hashes);

    // ---- reads (never pruned: headers, canonical hashes, TD) ---------------------------------

    /// rlp(header) of the canonical block `number`.
    [[nodiscard]] Result<Read<Bytes>, StoreError> header_by_number(std::uint64_t number) const;
    /// rlp(header) of the block with this hash (canonical or not).
    [[nodiscard]] Result<Read<Bytes>, StoreError> header_by_hash(const Hash32& hash) const;
    /// The canonical hash at `number`.
    [[nodiscard]] Result<Read<Hash32>, StoreError> canonical_hash(std::uint64_t number) const;
    /// The number of the block with this hash.
    [[nodiscard]] Result<Read<std::uint64_t>, StoreError> block_number(const Hash32& hash) const;
    /// Total difficulty of the block `number` with this hash (canonical or side).
    [[nodiscard]] Result<Read<Uint256>, StoreError> total_difficulty_at(std::uint64_t number,
                                                                        const Hash32& hash) const;
    /// rlp(body) of the block `number` with this hash (canonical or side); pruned below the floor.
    [[nodiscard]] Result<Read<Bytes>, StoreError> body_at(std::uint64_t number,
                                                          const Hash32& hash) const;
    /// rlp(list of receipts) of the block `number` with this hash (canonical or side); pruned
    /// below the floor.
    [[nodiscard]] Result<Read<Bytes>, StoreError> receipts_at(std::uint64_t number,
                                                              const Hash32& hash) const;
    /// Total difficulty of the canonical block `number`.
    [[nodiscard]] Result<Read<Uint256>, StoreError> total_difficulty(std::uint64_t number) const;

    // ---- reads of history (pruned below the history floor) -----------------------------------

    /// rlp(body) of the canonical block `number`.
    [[nodiscard]] Result<Read<Bytes>, StoreError> body(std::uint64_t number) const;
    /// rlp(list of receipts) of the canonical block `number`.
    [[nodiscard]] Result<Read<Bytes>, StoreError> receipts(std::uint64_t number) const;
    /// Where the transaction is. pruned when its entry names a block below the floor (then, as
    /// an exception to Read, `value` holds that entry's location); once a compaction has dropped
    /// such an entry the hash reads as not_found (a hash alone cannot say which block it
    /// belonged to; history_floor() above 0 tells the caller that it may have been pruned).
    [[nodiscard]] Result<Read<TxLocation>, StoreError> tx_lookup(const Hash32& tx_hash) const;

    // ---- metadata ----------------------------------------------------------------------------

    /// Highest canonical block stored, or nullopt for an empty store (kept in memory from the
    /// open and every write of it: no read).
    [[nodiscard]] Result<std::optional<std::uint64_t>, StoreError> head() const;
    /// How many writes of this store object so far removed or replaced canonical hashes it held
    /// (a reorg's unwind, other blocks stored at or below the head, deleted blocks); extending
    /// the chain, or storing a canonical block again, counts none. A reader that reads the
    /// canonical chain block by block takes it before and after: equal, no canonical hash it could
    /// have read was taken back meanwhile, even by a reorg that went away and came back. Counted
    /// after each write lands.
    [[nodiscard]] std::uint64_t canonical_rewrites() const noexcept;
    /// Lowest canonical block stored, or nullopt for an empty store (a store imported from a
    /// later block than genesis starts there). One seek, no scan.
    [[nodiscard]] Result<std::optional<std::uint64_t>, StoreError> tail() const;
    /// Lowest block whose body, receipts and tx lookups are kept (0 = full history). Cached:
    /// no database read.
    std::uint64_t history_floor() const noexcept;
    /// Raises (or sets) the history floor: from now on history reads below it answer pruned and
    /// compactions drop tx lookup entries below it. Deleting the bodies and receipts is the
    /// pruning command's work (docs/store.md). Errors: a RocksDB write failure.
    [[nodiscard]] Result<void, StoreError> set_history_floor(std::uint64_t floor);

    /// Compacts the tx lookup family now, so its compaction filter drops every entry below the
    /// history floor (otherwise that happens as RocksDB compacts in the background). Errors: a
    /// RocksDB failure.
    [[nodiscard]] Result<void, StoreError> compact_tx_lookup();

    // ---- history pruning primitives (the steps of docs/store.md "Pruning design") ------------

    /// Step 1 of a prune: in one atomic batch records `pending` as the operation in progress and
    /// sets the history floor to `floor`; from then on history reads below it answer pruned.
    /// The floor is published to the compaction filter only after the write succeeded.
    /// Errors: a RocksDB write failure.
    [[nodiscard]] Result<void, StoreError> set_history_floor(std::uint64_t floor,
                                                             const PendingOperation& pending);

    /// Step 2 of a prune: deletes the bodies and receipts of blocks [from, to). Table files
    /// lying wholly in the range are dropped (a metadata change), then one range tombstone per
    /// family is written, both in one batch; nothing is read. Repeating it is harmless; an empty
    /// range does nothing. Call it only with [from, to) below the history floor: if it is
    /// interrupted, rows in the range may show again in raw cursors until it is repeated.
    /// Errors: a RocksDB failure.
    [[nodiscard]] Result<void, StoreError> delete_history(std::uint64_t from, std::uint64_t to);

    /// Step 4 of a prune: compacts the bodies and receipts over blocks [from, to) down to the
    /// last level, so the range tombstones meet (and remove) the rows they cover and the space is
    /// reclaimed. Errors: a RocksDB failure.
    [[nodiscard]] Result<void, StoreError> compact_history(std::uint64_t from, std::uint64_t to);

    /// How many tx lookup entries the compaction filter has dropped (because their block lies
    /// below the history floor) since this store was opened, in any compaction. Thread-safe.
    std::uint64_t tx_lookup_entries_dropped() const noexcept;

    /// Writes every family's memtable to table files, so that disk_usage() counts all data.
    /// Errors: a RocksDB failure.
    [[nodiscard]] Result<void, StoreError> flush();

    /// The store's size on disk now (see DiskUsage). Errors: a file-system or RocksDB failure.
    [[nodiscard]] Result<DiskUsage, StoreError> disk_usage() const;

    // ---- raw iteration ------------------------------------------------------------------------

    /// A cursor over `family` from its first key at least `lower` (empty: from the start) to
    /// before `upper` (empty: to the end). Errors: a RocksDB failure.
    [[nodiscard]] Result<StoreCursor, StoreError> cursor(Family family, BytesView lower = {},
                                                         BytesView upper = {}) const;

    [[nodiscard]] Result<std::optional<std::uint64_t>, StoreError> chain_id() const;
    [[nodiscard]] Result<void, StoreError> set_chain_id(std::uint64_t id);
    [[nodiscard]] Result<std::optional<Hash32>, StoreError> genesis_hash() const;
    [[nodiscard]] Result<void, StoreError> set_genesis_hash(const Hash32& hash);
    /// The genesis file the store was initialised from (`keel init`): its config is the chain's
    /// rules for an executing import. nullopt for a store made by a history-only import.
    [[nodiscard]] Result<std::optional<Bytes>, StoreError> chain_spec() const;
    [[nodiscard]] Result<void, StoreError> set_chain_spec(BytesView genesis_json);
    /// First post-merge block (EIP-3675), when known.
    /// The safe and finalized blocks a consensus client named last (engine_forkchoiceUpdated;
    /// the "safe" and "finalized" block tags), nullopt until one did.
    struct Forkchoice {
        std::optional<std::uint64_t> safe;
        std::optional<std::uint64_t> finalized;
    };
    [[nodiscard]] Result<Forkchoice, StoreError> forkchoice() const;
    /// Records them (both in one write; nullopt leaves that one as it is).
    [[nodiscard]] Result<void, StoreError> set_forkchoice(const Forkchoice& f);
    [[nodiscard]] Result<std::optional<std::uint64_t>, StoreError> merge_block() const;
    [[nodiscard]] Result<void, StoreError> set_merge_block(std::uint64_t number);
    /// The operation in progress, if any.
    [[nodiscard]] Result<std::optional<PendingOperation>, StoreError> pending_operation() const;
    /// Records (or, with nullopt, clears) the operation in progress.
    [[nodiscard]] Result<void, StoreError> set_pending_operation(
        const std::optional<PendingOperation>& op);
    /// Forgets the merge block (a rewind below the block it was derived from). Errors: a RocksDB
    /// write failure.
    [[nodiscard]] Result<void, StoreError> clear_merge_block();

    // ---- rewind primitives (docs/store.md "Rewind") ------------------------------------------

    /// Step 1 of a rewind: in one atomic batch records `pending` as the operation in progress
    /// and sets the head to `head` (lower than the stored one). Rows above the new head stay
    /// until delete_blocks() removes them. Errors: a RocksDB write failure.
    [[nodiscard]] Result<void, StoreError> lower_head(std::uint64_t head,
                                                      const PendingOperation& pending);

    /// Step 2 of a rewind, in one atomic batch: deletes every row of the blocks numbered in
    /// [from, to) in the families keyed by number (headers, canonical, td, bodies, receipts: one
    /// range tombstone each), and the given hash-keyed rows: `header_hashes` from
    /// header_numbers, `tx_hashes` from tx_lookup. The caller reads the hashes first (they are
    /// the keys of the headers and the transactions of the bodies in the range). Repeating it
    /// is harmless. Errors: a RocksDB write failure.
    [[nodiscard]] Result<void, StoreError> delete_blocks(std::uint64_t from, std::uint64_t to,
                                                         std::span<const Hash32> header_hashes,
                                                         std::span<const Hash32> tx_hashes);

  private:
    friend struct detail::Access;
    struct Impl;
    explicit ChainStore(std::unique_ptr<Impl> impl) noexcept;
    std::unique_ptr<Impl> impl_;
};

}  // namespace keel::store
