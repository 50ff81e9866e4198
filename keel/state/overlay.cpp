#include "keel/state/overlay.hpp"

#include <algorithm>
#include <utility>

#include "keel/common/assert.hpp"
#include "keel/crypto/keccak.hpp"

namespace keel::state {

namespace {

/// The precompile at 0x03 (RIPEMD-160): its touch survives a revert (see the header).
constexpr Address kRipemd{{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 3}};

Uint256 hash_as_word(const Hash32& h) noexcept {
    return Uint256::load_be(h.data());
}

Hash32 word_as_hash(const Uint256& w) noexcept {
    return w.to_bytes32();
}

}  // namespace

const Code& empty_code() {
    static const Code empty = std::make_shared<const Bytes>();
    return empty;
}

// ---- entries ----------------------------------------------------------------------------------

Overlay::Entry& Overlay::entry(const Address& a) {
    // The account of the last access: most accesses in a row are the running contract's
    // (SLOAD, SSTORE, BALANCE of self). Entries are never erased, so the pointer stays valid.
    if (last_entry_ != nullptr && last_address_ == a) return *last_entry_;
    Entry& e = entries_.try_emplace(a).first->second;
    last_address_ = a;
    last_entry_ = &e;
    if (!e.loaded) {  // new, or only warmed so far (access_account)
        e.loaded = true;
        if (auto acc = reader_->account(a)) {
            e.committed = *acc;
            e.committed_exists = true;
            e.account = *acc;
            e.exists = true;
        }
    }
    return e;
}

const Overlay::Entry* Overlay::find_entry(const Address& a) const {
    const auto it = entries_.find(a);
    return it == entries_.end() ? nullptr : &it->second;
}

Overlay::Slot& Overlay::slot(Entry& e, const Address& a, const Uint256& key) {
    auto [it, inserted] = e.storage.try_emplace(key);
    Slot& s = it->second;
    if (inserted && !e.storage_cleared && e.committed_exists) {
        const Uint256 v = reader_->storage(a, key);
        s.committed = s.original = s.current = v;
    }
    return s;
}

const Code& Overlay::load_code(Entry& e) {
    if (!e.code) {
        e.code = e.exists && e.account.code_hash != kEmptyCodeHash
                     ? reader_->code(e.account.code_hash)
                     : empty_code();
    }
    return e.code;
}

void Overlay::make_exist(Entry& e) {
    if (e.exists) return;
    journal_.push_back(Change{.kind = Kind::exists, .entry = &e});
    e.exists = true;
    e.account = Account{};
}

void Overlay::clear_account(Entry& e) {
    e.exists = false;
    e.account = Account{};
    e.code = empty_code();
    e.code_changed = true;
    e.storage_cleared = true;
    e.storage.clear();
}

// ---- accounts ---------------------------------------------------------------------------------

bool Overlay::exists(const Address& a) {
    return entry(a).exists;
}

bool Overlay::is_empty(const Address& a) {
    const Entry& e = entry(a);
    return e.exists && state::is_empty(e.account);
}

bool Overlay::is_dead(const Address& a) {
    const Entry& e = entry(a);
    return !e.exists || state::is_empty(e.account);
}

std::uint64_t Overlay::nonce(const Address& a) {
    return entry(a).account.nonce;
}

Uint256 Overlay::balance(const Address& a) {
    return entry(a).account.balance;
}

Hash32 Overlay::code_hash(const Address& a) {
    return entry(a).account.code_hash;
}

const Code& Overlay::code(const Address& a) {
    return load_code(entry(a));
}

bool Overlay::has_storage(const Address& a) {
    const Entry& e = entry(a);
    if (!e.storage_cleared && e.committed_exists && e.committed.storage_root != trie::kEmptyRoot)
        return true;
    return std::any_of(e.storage.begin(), e.storage.end(),
                       [](const auto& kv) { return !kv.second.current.is_zero(); });
}

void Overlay::set_nonce(const Address& a, std::uint64_t nonce) {
    Entry& e = entry(a);
    make_exist(e);
    journal_.push_back(Change{.kind = Kind::nonce, .entry = &e, .u = e.account.nonce});
    e.account.nonce = nonce;
}

void Overlay::add_balance(const Address& a, const Uint256& v) {
    Entry& e = entry(a);
    make_exist(e);
    if (!e.touched) {
        journal_.push_back(Change{.kind = Kind::touch, .entry = &e, .address = a});
        e.touched = true;
    }
    if (v.is_zero()) return;
    journal_.push_back(Change{.kind = Kind::balance, .entry = &e, .old = e.account.balance});
    e.account.balance += v;
}

void Overlay::sub_balance(const Address& a, const Uint256& v) {
    Entry& e = entry(a);
    KEEL_ASSERT(e.account.balance >= v);
    if (!e.touched) {
        journal_.push_back(Change{.kind = Kind::touch, .entry = &e, .address = a});
        e.touched = true;
    }
    if (v.is_zero()) return;
    journal_.push_back(Change{.kind = Kind::balance, .entry = &e, .old = e.account.balance});
    e.account.balance -= v;
}

void Overlay::set_code(const Address& a, Bytes code) {
    Entry& e = entry(a);
    make_exist(e);
    load_code(e);
    old_code_.push_back(std::move(e.code));
    journal_.push_back(Change{.kind = Kind::code,
                              .entry = &e,
                              .old = hash_as_word(e.account.code_hash),
                              .u = old_code_.size() - 1,
                              .flag = e.code_changed});
    e.account.code_hash = crypto::keccak256(code);
    e.code = std::make_shared<const Bytes>(std::move(code));
    e.code_changed = true;
}

void Overlay::create_contract(const Address& a) {
    Entry& e = entry(a);
    load_code(e);
    auto saved = std::make_unique<Replaced>(Replaced{.account = e.account,
                                                     .exists = e.exists,
                                                     .code = e.code,
                                                     .code_changed = e.code_changed,
                                                     .storage_cleared = e.storage_cleared,
                                                     .created = e.created,
                                                     .storage = std::move(e.storage)});
    e.storage = {};
    // Warm slots stay warm: EIP-2929's sets belong to the transaction, not to the account.
    for (const auto& [key, s] : saved->storage) {
        if (s.warm) e.storage.emplace(key, Slot{.warm = true});
    }
    replaced_.push_back(std::move(saved));
    journal_.push_back(Change{.kind = Kind::create, .entry = &e, .u = replaced_.size() - 1});
    const Uint256 balance = e.exists ? e.account.balance : Uint256{};
    e.account = Account{};
    e.account.balance = balance;
    e.exists = true;
    e.code = empty_code();
    e.code_changed = true;
    e.storage_cleared = true;
    e.created = true;
}

void Overlay::touch(const Address& a) {
    Entry& e = entry(a);
    if (e.touched) return;
    journal_.push_back(Change{.kind = Kind::touch, .entry = &e, .address = a});
    e.touched = true;
}

// ---- storage ----------------------------------------------------------------------------------

Uint256 Overlay::storage(const Address& a, const Uint256& key) {
    return slot(entry(a), a, key).current;
}

Uint256 Overlay::original_storage(const Address& a, const Uint256& key) {
    return slot(entry(a), a, key).original;
}

void Overlay::set_storage(const Address& a, const Uint256& key, const Uint256& value) {
    Entry& e = entry(a);
    Slot& s = slot(e, a, key);
    if (s.current == value) return;
    journal_.push_back(Change{.kind = Kind::storage, .entry = &e, .key = key, .old = s.current});
    s.current = value;
}

Uint256 Overlay::transient_storage(const Address& a, const Uint256& key) const {
    const auto it = transient_.find(TransientKey{a, key});
    return it == transient_.end() ? Uint256{} : it->second;
}

void Overlay::set_transient_storage(const Address& a, const Uint256& key, const Uint256& value) {
    const TransientKey k{a, key};
    const auto it = transient_.find(k);
    const Uint256 old = it == transient_.end() ? Uint256{} : it->second;
    if (old == value) return;
    journal_.push_back(Change{.kind = Kind::transient, .address = a, .key = key, .old = old});
    if (value.is_zero()) {
        transient_.erase(it);
    } else if (it == transient_.end()) {
        transient_.emplace(k, value);
    } else {
        it->second = value;
    }
}

// ---- access sets, refunds, logs, self-destruct ------------------------------------------------

bool Overlay::access_account(const Address& a) {
    // Warming needs the entry, not the account: an address that is only warmed (the
    // precompiles at every transaction's start, an access list's) is never read from the reader.
    Entry& e = last_entry_ != nullptr && last_address_ == a ? *last_entry_
                                                            : entries_.try_emplace(a).first->second;
    if (e.warm) return false;
    journal_.push_back(Change{.kind = Kind::warm_account, .entry = &e});
    e.warm = true;
    return true;
}

bool Overlay::access_storage(const Address& a, const Uint256& key) {
    Entry& e = entry(a);
    Slot& s = slot(e, a, key);
    if (s.warm) return false;
    journal_.push_back(Change{.kind = Kind::warm_slot, .entry = &e, .key = key});
    s.warm = true;
    return true;
}

Overlay::SlotAccess Overlay::access_slot(const Address& a, const Uint256& key, bool warm) {
    Entry& e = entry(a);
    Slot& s = slot(e, a, key);
    SlotAccess r{s.current, s.original, !s.warm};
    if (warm && !s.warm) {
        journal_.push_back(Change{.kind = Kind::warm_slot, .entry = &e, .key = key});
        s.warm = true;
    }
    return r;
}

bool Overlay::is_warm(const Address& a) const {
    const Entry* e = find_entry(a);
    return e != nullptr && e->warm;
}

bool Overlay::is_warm(const Address& a, const Uint256& key) const {
    const Entry* e = find_entry(a);
    if (e == nullptr) return false;
    const auto it = e->storage.find(key);
    return it != e->storage.end() && it->second.warm;
}

void Overlay::add_refund(std::int64_t delta) {
    journal_.push_back(Change{.kind = Kind::refund, .u = static_cast<std::uint64_t>(refund_)});
    refund_ += delta;
}

void Overlay::add_log(Log log) {
    journal_.push_back(Change{.kind = Kind::log, .u = logs_.size()});
    logs_.push_back(std::move(log));
}

bool Overlay::mark_destructed(const Address& a) {
    Entry& e = entry(a);
    if (e.destructed) return false;
    journal_.push_back(Change{.kind = Kind::destruct, .entry = &e});
    e.destructed = true;
    return true;
}

bool Overlay::is_destructed(const Address& a) const {
    const Entry* e = find_entry(a);
    return e != nullptr && e->destructed;
}

bool Overlay::created_in_transaction(const Address& a) const {
    const Entry* e = find_entry(a);
    return e != nullptr && e->created;
}

// ---- journal ----------------------------------------------------------------------------------

void Overlay::revert(Snapshot s) {
    KEEL_ASSERT(s <= journal_.size());
    while (journal_.size() > s) {
        Change& c = journal_.back();
        Entry* e = c.entry;
        switch (c.kind) {
            case Kind::balance:
                e->account.balance = c.old;
                break;
            case Kind::nonce:
                e->account.nonce = c.u;
                break;
            case Kind::code:
                KEEL_ASSERT(c.u + 1 == old_code_.size());
                e->code = std::move(old_code_.back());
                old_code_.pop_back();
                e->account.code_hash = word_as_hash(c.old);
                e->code_changed = c.flag;
                break;
            case Kind::exists:
                e->exists = false;
                e->account = Account{};
                break;
            case Kind::storage:
                e->storage.find(c.key)->second.current = c.old;
                break;
            case Kind::transient:
                if (c.old.is_zero()) {
                    transient_.erase(TransientKey{c.address, c.key});
                } else {
                    transient_[TransientKey{c.address, c.key}] = c.old;
                }
                break;
            case Kind::warm_account:
                e->warm = false;
                break;
            case Kind::warm_slot:
                e->storage.find(c.key)->second.warm = false;
                break;
            case Kind::touch:
                if (c.address != kRipemd) {
                    e->touched = false;
                } else {
                    kept_touch_ = e;  // no longer in the journal: finalize must still see it
                }
                break;
            case Kind::destruct:
                e->destructed = false;
                break;
            case Kind::create: {
                KEEL_ASSERT(c.u + 1 == replaced_.size());
                Replaced& r = *replaced_.back();
                e->account = r.account;
                e->exists = r.exists;
                e->code = std::move(r.code);
                e->code_changed = r.code_changed;
                e->storage_cleared = r.storage_cleared;
                e->created = r.created;
                e->storage = std::move(r.storage);
                replaced_.pop_back();
                break;
            }
            case Kind::refund:
                refund_ = static_cast<std::int64_t>(c.u);
                break;
            case Kind::log:
                logs_.resize(c.u);
                break;
        }
        journal_.pop_back();
    }
}

void Overlay::finalize_transaction(FinalizeRules rules) {
    // Every per-transaction mark was journaled, so the journal names every entry to visit (and
    // kept_touch_ the one whose journal entry a revert took away).
    const auto end_of_life = [&](Entry& e) {
        const bool dead_touched =
            rules.delete_empty && e.touched && e.exists && state::is_empty(e.account);
        if (e.destructed || dead_touched) clear_account(e);
        e.destructed = false;
        e.touched = false;
    };
    if (kept_touch_ != nullptr) end_of_life(*kept_touch_);
    kept_touch_ = nullptr;
    for (const Change& c : journal_) {
        if (c.entry != nullptr) end_of_life(*c.entry);
    }
    for (const Change& c : journal_) {
        Entry* e = c.entry;
        if (e == nullptr) continue;
        e->warm = false;
        e->created = false;
        if (c.kind == Kind::storage || c.kind == Kind::warm_slot) {
            const auto it = e->storage.find(c.key);
            if (it == e->storage.end()) continue;  // the account was cleared above
            it->second.original = it->second.current;
            it->second.warm = false;
        }
    }
    journal_.clear();
    replaced_.clear();
    old_code_.clear();
    transient_.clear();
    logs_.clear();
    refund_ = 0;
}

std::vector<AccountChange> Overlay::changes() const {
    std::vector<AccountChange> out;
    for (const auto& [address, e] : entries_) {
        if (!e.exists) {
            if (e.committed_exists)
                out.push_back(AccountChange{
                    .address = address, .account = std::nullopt, .storage_cleared = true});
            continue;
        }
        AccountChange c{.address = address, .account = e.account};
        c.storage_cleared = e.storage_cleared;
        for (const auto& [key, s] : e.storage) {
            const bool differs =
                e.storage_cleared ? !s.current.is_zero() : s.current != s.committed;
            if (differs) c.storage.emplace_back(key, s.current);
        }
        if (e.code_changed) c.code = e.code;
        const bool same = e.committed_exists && e.account == e.committed && !e.code_changed &&
                          !e.storage_cleared && c.storage.empty();
        if (same) continue;
        std::sort(c.storage.begin(), c.storage.end(),
                  [](const auto& x, const auto& y) { return x.first < y.first; });
        out.push_back(std::move(c));
    }
    std::sort(out.begin(), out.end(),
              [](const AccountChange& x, const AccountChange& y) { return x.address < y.address; });
    return out;
}

}  // namespace keel::state
