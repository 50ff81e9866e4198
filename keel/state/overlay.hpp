#pragma once
/// Overlay: the journaled, in-memory state that execution writes into, on top of a StateReader.
///
/// It holds what the EVM needs within a block: accounts and slots read so far and their new
/// values, the value of each slot at the start of the transaction (EIP-2200's "original"), the
/// warm accounts and slots of EIP-2929, transient storage (EIP-1153), the refund counter, the
/// logs, the accounts created in the transaction (EIP-6780), touched accounts (EIP-161) and
/// self-destructed ones. Every change is journaled: snapshot() marks a point, revert() undoes
/// everything after it (a call frame that fails). finalize_transaction() ends a transaction
/// (destroys self-destructed and, under EIP-161, touched empty accounts, forgets the per-
/// transaction sets); changes() lists what differs from the reader, for the caller to commit
/// (the store) or throw away (eth_call, traces).
///
/// Accounts come into existence through add_balance (a value transfer, even of zero: before
/// EIP-161 that created empty accounts, after it they are touched and deleted when empty),
/// set_nonce, set_code and create_contract.
///
/// The RIPEMD-160 exception (geth, EIP-161 and mainnet block 2,675,119): a touch of the
/// precompile at 0x03 survives the revert of the call that touched it, so the empty account
/// there is still deleted at the end of the transaction. Every client keeps this quirk.
///
/// Threading: one thread at a time. Errors: none; the reader reports its own (reader.hpp).
/// Programming errors (sub_balance below zero, revert to a snapshot not taken) are asserted.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <unordered_map>
#include <vector>

#include "keel/common/bytes.hpp"
#include "keel/common/uint256.hpp"
#include "keel/state/account.hpp"
#include "keel/state/reader.hpp"

namespace keel::state {

/// What one account became, relative to the reader (Overlay::changes()).
struct AccountChange {
    Address address{};
    /// The account now; std::nullopt when it was deleted (or never existed and was created
    /// and deleted again). Its storage_root is the reader's and not meaningful when storage
    /// changed: the committer computes roots.
    std::optional<Account> account{};
    /// Every slot not listed in `storage` is zero (the account was destroyed or re-created).
    bool storage_cleared = false;
    /// The new code when it changed (create_contract, set_code), else null.
    Code code{};
    /// Slots whose value differs from the reader's, sorted by key; a zero value deletes.
    std::vector<std::pair<Uint256, Uint256>> storage{};
};

class Overlay {
  public:
    /// An overlay on `reader`, which must outlive it.
    explicit Overlay(const StateReader& reader) noexcept : reader_(&reader) {}
    Overlay(const Overlay&) = delete;
    Overlay& operator=(const Overlay&) = delete;

    // ---- accounts ---------------------------------------------------------------------------
    /// Whether an account exists at `a` (EIP-161 empty accounts exist until deleted).
    bool exists(const Address& a);
    /// exists and EIP-161 empty (nonce 0, balance 0, no code).
    bool is_empty(const Address& a);
    /// Not existing, or empty: EIP-161's "dead".
    bool is_dead(const Address& a);
    std::uint64_t nonce(const Address& a);
    Uint256 balance(const Address& a);
    Hash32 code_hash(const Address& a);
    /// The code at `a` (empty_code() when there is none).
    const Code& code(const Address& a);
    /// Whether the account has any non-zero storage (EIP-7610's collision rule): the reader's
    /// storage root is not empty, or a slot written here is non-zero.
    bool has_storage(const Address& a);

    void set_nonce(const Address& a, std::uint64_t nonce);
    /// Adds `v` (which may be zero) to the balance; creates the account when absent and
    /// touches it. Wraps modulo 2^256, as geth does (only a crafted pre-state gets there).
    void add_balance(const Address& a, const Uint256& v);
    /// Subtracts `v`; the balance must cover it (asserted). Touches the account.
    void sub_balance(const Address& a, const Uint256& v);
    void set_code(const Address& a, Bytes code);
    /// The account a CREATE/CREATE2 (or a creating transaction) makes at `a`: it keeps its
    /// balance, has nonce 0, no code and no storage (every slot reads zero from now on), and
    /// counts as created in this transaction (EIP-6780).
    void create_contract(const Address& a);
    /// Marks `a` touched (EIP-161): deleted at the end of the transaction if it is then empty.
    void touch(const Address& a);

    // ---- storage ----------------------------------------------------------------------------
    Uint256 storage(const Address& a, const Uint256& key);
    /// The slot's value at the start of the current transaction (EIP-2200's original value).
    Uint256 original_storage(const Address& a, const Uint256& key);
    void set_storage(const Address& a, const Uint256& key, const Uint256& value);
    /// A slot's current and original values, and whether it was cold (EIP-2929), read in one
    /// lookup; with `warm`, the slot is marked warm as access_storage does. SLOAD and SSTORE's
    /// one call where they would make three.
    struct SlotAccess {
        Uint256 current;
        Uint256 original;
        bool was_cold = false;
    };
    SlotAccess access_slot(const Address& a, const Uint256& key, bool warm);
    Uint256 transient_storage(const Address& a, const Uint256& key) const;
    void set_transient_storage(const Address& a, const Uint256& key, const Uint256& value);

    // ---- EIP-2929 access sets, refunds, logs, self-destruct ----------------------------------
    /// Marks `a` warm; returns true when it was cold before (the access costs the cold price).
    bool access_account(const Address& a);
    /// Marks slot `key` of `a` warm; returns true when it was cold before.
    bool access_storage(const Address& a, const Uint256& key);
    bool is_warm(const Address& a) const;
    bool is_warm(const Address& a, const Uint256& key) const;
    void add_refund(std::int64_t delta);
    std::int64_t refund() const noexcept { return refund_; }
    void add_log(Log log);
    std::span<const Log> logs() const noexcept { return logs_; }
    /// Marks `a` self-destructed (destroyed at the end of the transaction); returns true when it
    /// was not marked before in this transaction.
    bool mark_destructed(const Address& a);
    bool is_destructed(const Address& a) const;
    /// Whether create_contract made `a` in the current transaction (EIP-6780).
    bool created_in_transaction(const Address& a) const;

    // ---- journal ----------------------------------------------------------------------------
    using Snapshot = std::size_t;
    Snapshot snapshot() const noexcept { return journal_.size(); }
    /// Undoes every change made since `s` was taken (in this transaction).
    void revert(Snapshot s);

    /// How a transaction ends.
    struct FinalizeRules {
        bool delete_empty = true;  ///< EIP-161 (Spurious Dragon and later)
    };
    /// Ends the transaction: destroys self-destructed accounts (their storage and code too),
    /// deletes touched empty accounts under EIP-161, makes every slot's current value its new
    /// original, and forgets the warm sets, transient storage, refund counter, logs, touched and
    /// created marks and the journal (read logs() and refund() first).
    void finalize_transaction(FinalizeRules rules);

    /// Every account that differs from the reader, sorted by address: what a committer writes.
    std::vector<AccountChange> changes() const;

  private:
    struct Slot {
        Uint256 committed{};  ///< the reader's value (zero once the account was cleared)
        Uint256 original{};   ///< at the start of the transaction
        Uint256 current{};
        bool warm = false;
    };
    struct Entry {
        bool loaded = false;  ///< read from the reader (entry()); false: only warmed so far
        Account committed;
        bool committed_exists = false;
        Account account;
        bool exists = false;
        Code code;  ///< loaded on demand; null until then
        bool code_changed = false;
        bool storage_cleared = false;  ///< slots not in `storage` read as zero
        bool warm = false;
        bool touched = false;
        bool destructed = false;
        bool created = false;
        std::unordered_map<Uint256, Slot, WordHash> storage;
    };
    /// What create_contract replaced, to put back on revert.
    struct Replaced {
        Account account;
        bool exists;
        Code code;
        bool code_changed;
        bool storage_cleared;
        bool created;
        std::unordered_map<Uint256, Slot, WordHash> storage;
    };
    enum class Kind : std::uint8_t {
        balance,
        nonce,
        code,
        exists,
        storage,
        transient,
        warm_account,
        warm_slot,
        touch,
        destruct,
        create,
        refund,
        log,
    };
    struct Change {
        Kind kind;
        Entry* entry = nullptr;
        Address address{};  ///< transient storage, the RIPEMD exception
        Uint256 key{};
        Uint256 old{};        ///< balance, slot value, transient value
        std::uint64_t u = 0;  ///< nonce, refund, index into replaced_ or old_code_
        bool flag = false;    ///< code: whether the code had changed before
    };
    struct TransientKey {
        Address address;
        Uint256 key;
        friend bool operator==(const TransientKey&, const TransientKey&) = default;
    };
    struct TransientHash {
        std::size_t operator()(const TransientKey& k) const noexcept {
            return std::hash<Address>{}(k.address) ^ WordHash {}(k.key);
        }
    };

    /// The entry of `a`, its account read from the reader on first use.
    Entry& entry(const Address& a);
    const Entry* find_entry(const Address& a) const;
    Slot& slot(Entry& e, const Address& a, const Uint256& key);
    const Code& load_code(Entry& e);
    void make_exist(Entry& e);
    void clear_account(Entry& e);

    const StateReader* reader_;
    std::unordered_map<Address, Entry, AddressHash> entries_;
    Address last_address_{};       ///< entry()'s last account ...
    Entry* last_entry_ = nullptr;  ///< ... and its entry (entries are never erased)
    std::unordered_map<TransientKey, Uint256, TransientHash> transient_;
    std::vector<Change> journal_;
    std::vector<std::unique_ptr<Replaced>> replaced_;
    std::vector<Code> old_code_;   ///< the code each journaled set_code replaced
    Entry* kept_touch_ = nullptr;  ///< RIPEMD-160's entry when its touch outlived a revert
    std::vector<Log> logs_;
    std::int64_t refund_ = 0;
};

}  // namespace keel::state
