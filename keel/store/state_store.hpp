#pragma once
/// The world state in the chain store: the current state flat, its history, and the state trie
/// (docs/store.md "State").
///
/// - Flat state: `accounts` (keccak(address) -> rlp(account)), `storage` (keccak(address) ‖
///   keccak(slot) -> rlp(value)) and `code` (hash -> code): a read at the head is one point read.
/// - History: for every account and slot a block changed, one row `key ‖ BE8(block)` holding the
///   value *before* the block (empty: absent or zero), and the block's change set (the keys it
///   changed) under BE8(block). The state after block N is read with one forward seek from
///   `key ‖ BE8(N + 1)`: the first row found is the value the key had after N; when there is none
///   the key has not changed since N and the flat value is the answer (a point read). The change
///   sets unwind state (rewind, reorgs) and prune history block by block.
/// - Tries: the account trie and every account's storage trie, nodes stored by path
///   (trie/updater.hpp). A block's update loads and rehashes only the paths it changed.
///
/// A block's state rows are prepared (prepare_state_update(): read-only, gives the new state
/// root) and then written with the block itself in one atomic batch (ChainStore::put_blocks), so
/// the state head and the chain head never disagree after a crash.
///
/// Threading: prepare_state_update() reads the live state: call it from the one thread that
/// writes blocks. StateView is safe to share between threads.

#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "keel/common/bytes.hpp"
#include "keel/common/result.hpp"
#include "keel/state/overlay.hpp"
#include "keel/state/reader.hpp"
#include "keel/store/chain_store.hpp"

namespace keel::store {

/// The block whose post-state the state families hold.
struct StateHead {
    std::uint64_t number = 0;
    Hash32 hash;
    Hash32 state_root;

    friend bool operator==(const StateHead&, const StateHead&) = default;
};

/// The state rows of one block, ready to be written with it (ChainStore::put_blocks).
struct StateUpdate {
    std::uint64_t number = 0;
    Hash32 block_hash;
    Hash32 state_root;  ///< the state root after the block
    /// One row operation; applied in order (a later put wins over an earlier range erase).
    struct Row {
        enum class Op : std::uint8_t { put, erase, erase_range };
        Family family = Family::meta;
        Op op = Op::put;
        Bytes key;
        Bytes value;  ///< put: the value; erase_range: the end key (exclusive)
    };
    std::vector<Row> rows;
    std::uint64_t accounts = 0;  ///< accounts changed
    std::uint64_t slots = 0;     ///< slots written or cleared
    /// The new state floor, when the update prunes state history (the rows above delete the
    /// history rows and change sets of the blocks below it).
    std::optional<std::uint64_t> floor;
    std::uint64_t pruned_blocks = 0;  ///< change sets the update deletes
};

/// The most blocks of state history one update prunes, so that a lowered --history.state
/// catches up over the following blocks instead of in one huge write.
inline constexpr std::uint64_t kMaxPrunedPerUpdate = 64;

/// The store's state head; nullopt when the store holds no state (made by a history-only
/// import). Errors: a read failure, a damaged meta value.
[[nodiscard]] Result<std::optional<StateHead>, StoreError> state_head(const ChainStore& store);

/// The lowest block whose state can be read; nullopt when the store holds no state.
[[nodiscard]] Result<std::optional<std::uint64_t>, StoreError> state_floor(const ChainStore& store);

/// Flat values of the state head that an execution read (StateView::record_reads), by key:
/// keccak(address) for an account, keccak(address) ‖ keccak(slot) for a slot; the stored RLP, or
/// nullopt where the key was absent. prepare_state_update() takes the values before the block
/// from it instead of reading them again: the execution has read every account it changed and
/// every slot it wrote (SSTORE's gas needs the original value), so the update's point reads of
/// them go. Threading: add() from many threads at once; find() once the adding is over.
class HeadReads {
  public:
    void add(BytesView key, const std::optional<std::string>& value);
    /// The value read at `key` (nullptr: not read).
    [[nodiscard]] const std::optional<std::string>* find(BytesView key) const;
    [[nodiscard]] std::size_t size() const;

  private:
    struct KeyHash {
        using is_transparent = void;
        std::size_t operator()(std::string_view k) const noexcept {
            return std::hash<std::string_view>{}(k);
        }
    };
    mutable std::mutex mutex_;
    std::unordered_map<std::string, std::optional<std::string>, KeyHash, std::equal_to<>> values_;
};

/// Prepares the state rows of block `number` with hash `block_hash`, whose changes against the
/// state the store holds (its parent's post-state, or nothing for a genesis) are `changes`:
/// flat values, history rows with the values before (`history`: false for a genesis, whose
/// "before" is nothing), the change set, the storage tries and the account trie, giving the new
/// state root. With `keep_history` = N > 0 the update also prunes the state history of the
/// blocks that fall out of the last N (at most kMaxPrunedPerUpdate of them) and raises the state
/// floor, in the same atomic write; 0 keeps all of it (an archive). Writes nothing. Errors: a
/// read failure, or a damaged trie ("store state <path>: storage trie of 0x…: trie node at path
/// 0x3a missing (expected hash 0x…)"). `reads` (may be null): the head's values the execution
/// of the block read (HeadReads); the others are read from the store.
[[nodiscard]] Result<StateUpdate, StoreError> prepare_state_update(
    const ChainStore& store, std::uint64_t number, const Hash32& block_hash,
    std::span<const state::AccountChange> changes, bool history = true,
    std::uint64_t keep_history = 0, const HeadReads* reads = nullptr);

/// Prepares the rows that take the store's state from block `number`'s post-state (the state
/// head) back to its parent's: every account and slot the block's change set names gets its value
/// before the block from the history rows, which go, with the change set; the tries are updated
/// the same way, and the roots are checked: each restored account's storage root, and the state
/// root against `parent_state_root`. The new state head is (number - 1, `parent_hash`). Writes
/// nothing (ChainStore::put_state writes it). Errors: the state head is not `number`, the block's
/// change set or a history row is missing (state history pruned, or damage), a root differs,
/// a read failure.
[[nodiscard]] Result<StateUpdate, StoreError> prepare_state_unwind(const ChainStore& store,
                                                                   std::uint64_t number,
                                                                   const Hash32& parent_hash,
                                                                   const Hash32& parent_state_root);

/// The state roots of states the store never held: the state after a block with changes on
/// top (eth_simulateV1's blocks). Computed on the head's tries through one snapshot taken at
/// open(): the accounts and slots that the blocks after `number` changed are put back to their
/// values after `number` from the state history (read once, at open()), then a root()'s
/// changes go on top; a storage trie is rebuilt only where the changes write it. Writes nothing;
/// safe beside an import. Threading: one thread at a time. Must not outlive its ChainStore.
class StateRoots {
  public:
    /// The most blocks below the state head a base may be: each one's change set is read back.
    static constexpr std::uint64_t kMaxDepth = 1024;

    /// Roots over the state after block `number`. Errors: no state, `number` above the state
    /// head or more than kMaxDepth below it, the history of a block after it not kept, a read
    /// failure.
    [[nodiscard]] static Result<StateRoots, StoreError> open(const ChainStore& store,
                                                             std::uint64_t number);
    StateRoots(StateRoots&&) noexcept;
    StateRoots& operator=(StateRoots&&) noexcept;
    ~StateRoots();

    /// The root of the state after the block with `changes` (relative to it, as
    /// Overlay::changes() over a StateView of it gives them) applied. Errors: a damaged trie
    /// row, a read failure.
    [[nodiscard]] Result<Hash32, StoreError> root(
        std::span<const state::AccountChange> changes) const;

  private:
    struct Impl;
    explicit StateRoots(std::unique_ptr<Impl> impl) noexcept;
    std::unique_ptr<Impl> impl_;
};

/// A slot's value and its Merkle proof in its account's storage trie (EIP-1186).
struct StorageProof {
    Uint256 key;
    Uint256 value;
    std::vector<Bytes> proof;  ///< node RLPs, root first
};

/// An account (absent: nullopt) and its Merkle proof in the state trie, with slot proofs.
struct AccountProof {
    StateHead head;  ///< the state the proofs are of
    Address address;
    std::optional<state::Account> account;
    std::vector<Bytes> account_proof;  ///< node RLPs, root first
    std::vector<StorageProof> storage;
};

/// eth_getProof at the state head, from the stored tries, through one snapshot (the head may
/// move meanwhile; the proofs are of `head`). The tries hold the head's state only, as geth's
/// path scheme does: proofs of past blocks are not kept. Errors: no state, a damaged trie
/// row, a read failure.
[[nodiscard]] Result<AccountProof, StoreError> prove_account(const ChainStore& store,
                                                             const Address& address,
                                                             std::span<const Uint256> slots);

/// What keep_recent_state() holds.
struct RecentStateStats {
    std::uint64_t first = 0;  ///< the oldest block whose changes are kept (when blocks > 0)
    std::uint64_t last = 0;   ///< the newest (the state head)
    std::size_t blocks = 0;
    std::size_t keys = 0;   ///< accounts and slots they changed
    std::size_t bytes = 0;  ///< the memory they take, about
};

/// From now on keeps the state changes of the latest `max_blocks` blocks (at most about
/// `max_bytes` of them) in memory, so that a view of a recent block reads what they changed from
/// memory and everything else with one point read, instead of a history seek per read (replays:
/// debug_trace*, trace_*; geth's diff layers do the same). Loads them now from the change sets
/// and history rows at the state head (a point read per key: ~0.1 s for 128 blocks of 300 keys),
/// holding off the store's writes meanwhile; afterwards each block written on top adds itself and
/// any other state write (an unwind, a rewind) starts again empty. 0 blocks keeps none. Only the
/// process that calls it pays the memory. Errors: a read failure, a damaged change set or a
/// missing history row.
[[nodiscard]] Result<RecentStateStats, StoreError> keep_recent_state(const ChainStore& store,
                                                                     std::size_t max_blocks,
                                                                     std::size_t max_bytes);

/// The state after one block, read through a consistent snapshot of the store taken when it was
/// opened: an import writing meanwhile changes nothing a view reads. A StateReader for execution
/// (eth_call, traces, the import itself), safe to use from many threads at once. Must not
/// outlive its ChainStore.
class StateView final : public state::StateReader {
  public:
    /// The state after block `number` (nullopt: the state head). Errors: no state in the store,
    /// a block above the state head or below the state floor ("state at block 5 is not kept:
    /// state history starts at block 90"), a read failure.
    [[nodiscard]] static Result<StateView, StoreError> open(
        const ChainStore& store, std::optional<std::uint64_t> number = std::nullopt);

    StateView(StateView&&) noexcept;
    StateView& operator=(StateView&&) noexcept;
    ~StateView() override;

    /// The block whose post-state this is.
    std::uint64_t number() const noexcept;
    /// Whether the view reads the head's flat state (no history seek).
    bool at_head() const noexcept;

    /// The database operations the view's reads made so far (all threads): history seeks and
    /// point reads of the flat state. A historical read is one seek, plus a point read only when
    /// the key has not changed since the block; a read at the head is one point read. A
    /// historical read that the recent blocks' changes answer (keep_recent_state()) is counted
    /// in `recent` and needs no seek: a point read only when no kept block changed the key.
    struct Counts {
        std::uint64_t seeks = 0;
        std::uint64_t point_reads = 0;
        std::uint64_t recent = 0;
    };
    Counts counts() const noexcept;

    /// From now on, every account and slot read (at the head only: a view of a past block records
    /// nothing) is added to `into`, which must outlive those reads: the executing import gives
    /// them to prepare_state_update().
    void record_reads(HeadReads& into) noexcept;

    std::optional<state::Account> account(const Address& address) const override;
    Uint256 storage(const Address& address, const Uint256& key) const override;
    state::Code code(const Hash32& code_hash) const override;
    std::optional<std::string> failure() const override;

  private:
    struct Impl;
    explicit StateView(std::unique_ptr<Impl> impl) noexcept;
    std::unique_ptr<Impl> impl_;
};

/// rlp(value) of a non-zero storage word as the storage trie and the flat state hold it.
Bytes encode_storage_value(const Uint256& value);
/// The inverse; nullopt when `rlp` is not a canonical encoding of a word.
std::optional<Uint256> decode_storage_value(BytesView rlp);
/// The inverse of state::encode_account; nullopt when malformed.
std::optional<state::Account> decode_account(BytesView rlp);

}  // namespace keel::store
