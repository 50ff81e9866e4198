#include "keel/store/state_store.hpp"

#include <rocksdb/iterator.h>
#include <rocksdb/options.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <compare>
#include <cstring>
#include <map>
#include <mutex>
#include <unordered_set>

#include "keel/common/hex.hpp"
#include "keel/common/lru_cache.hpp"
#include "keel/crypto/keccak.hpp"
#include "keel/rlp/decode.hpp"
#include "keel/rlp/encode.hpp"
#include "keel/state/memory_state.hpp"
#include "keel/store/detail/db.hpp"
#include "keel/store/detail/state_rows.hpp"
#include "keel/trie/root.hpp"
#include "keel/trie/updater.hpp"

namespace keel::store {
namespace {

using detail::concat;
using detail::for_each_change;
using detail::get_at;
using detail::kChangedAccount;
using detail::kChangedSlot;
using detail::read_state_floor;
using detail::read_state_head;
using detail::slot_hash;
using detail::state_error;
using detail::TrieNodeCache;
using detail::TrieRows;
using detail::with_block;

// The key just past every key that starts with `prefix` (a 32-byte hash: never all 0xff in
// practice, and if it were, the range would end at the family's end).
Bytes prefix_end(BytesView prefix) {
    Bytes out(prefix.begin(), prefix.end());
    for (std::size_t i = out.size(); i-- > 0;) {
        if (++out[i] != 0) return out;
    }
    return Bytes(prefix.size() + 1, 0xff);
}

using Row = StateUpdate::Row;

void put_row(StateUpdate& u, Family f, Bytes key, Bytes value) {
    u.rows.push_back(Row{f, Row::Op::put, std::move(key), std::move(value)});
}

void erase_row(StateUpdate& u, Family f, Bytes key) {
    u.rows.push_back(Row{f, Row::Op::erase, std::move(key), {}});
}

void erase_range_row(StateUpdate& u, Family f, Bytes from, Bytes to) {
    u.rows.push_back(Row{f, Row::Op::erase_range, std::move(from), std::move(to)});
}

void add_trie_rows(StateUpdate& u, Family f, BytesView prefix, const trie::NodeChanges& c) {
    for (const Bytes& p : c.deletes) erase_row(u, f, concat(prefix, trie::pack_path(p)));
    for (const auto& [p, rlp] : c.writes) put_row(u, f, concat(prefix, trie::pack_path(p)), rlp);
}

// Rows that delete the state history of the blocks in (floor, target], at most
// kMaxPrunedPerUpdate of them, and the new floor: reads of the state after a block below it are
// refused from then on. Each block's history rows are named by its change set.
Result<void, StoreError> add_history_pruning(const detail::Db& d, const rocksdb::ReadOptions& ro,
                                             std::uint64_t target, StateUpdate& u) {
    auto floor = read_state_floor(d, ro);
    if (!floor) return unexpected(floor.error());
    const std::uint64_t from = floor->value_or(0);
    if (target <= from) return {};
    const std::uint64_t to = std::min(target, from + kMaxPrunedPerUpdate);
    for (std::uint64_t b = from + 1; b <= to; ++b) {
        const NumKey n = num_key(b);
        auto cs = get_at(d, ro, kChangeSets,
                         BytesView(reinterpret_cast<const std::uint8_t*>(n.data()), 8));
        if (!cs) return unexpected(cs.error());
        if (!*cs) continue;  // a block without a change set (genesis, a history-only block)
        const bool whole = for_each_change(as_bytes(**cs), [&](bool is_slot, BytesView key) {
            erase_row(u, is_slot ? Family::storage_history : Family::account_history,
                      with_block(key, b));
        });
        if (!whole) return unexpected(corrupt(d.path, "change set of block " + std::to_string(b)));
        erase_row(u, Family::change_sets, Bytes(n.begin(), n.end()));
        ++u.pruned_blocks;
    }
    u.floor = to;
    return {};
}

}  // namespace

Bytes encode_storage_value(const Uint256& value) {
    Bytes out;
    rlp::Encoder enc(out);
    enc.add_uint256(value);
    enc.trim();
    return out;
}

std::optional<Uint256> decode_storage_value(BytesView rlp_bytes) {
    auto item = rlp::decode_single(rlp_bytes);
    if (!item || item->is_list || item->payload.size() > 32) return std::nullopt;
    if (!item->payload.empty() && item->payload[0] == 0) return std::nullopt;
    return *Uint256::from_be_bytes(item->payload);
}

std::optional<state::Account> decode_account(BytesView rlp_bytes) {
    auto d = rlp::open_list(rlp_bytes);
    if (!d) return std::nullopt;
    state::Account a;
    auto nonce = d->next_uint<std::uint64_t>();
    auto balance = d->next_string();
    auto root = d->next_string();
    auto code = d->next_string();
    if (!nonce || !balance || !root || !code || !d->empty()) return std::nullopt;
    if (balance->size() > 32 || root->size() != 32 || code->size() != 32) return std::nullopt;
    a.nonce = *nonce;
    a.balance = *Uint256::from_be_bytes(*balance);
    std::memcpy(a.storage_root.data(), root->data(), 32);
    std::memcpy(a.code_hash.data(), code->data(), 32);
    return a;
}

Result<std::optional<StateHead>, StoreError> state_head(const ChainStore& store) {
    return read_state_head(detail::Access::of(store), rocksdb::ReadOptions());
}

Result<std::optional<std::uint64_t>, StoreError> state_floor(const ChainStore& store) {
    return read_state_floor(detail::Access::of(store), rocksdb::ReadOptions());
}

Result<StateUpdate, StoreError> prepare_state_update(const ChainStore& store, std::uint64_t number,
                                                     const Hash32& block_hash,
                                                     std::span<const state::AccountChange> changes,
                                                     bool history, std::uint64_t keep_history,
                                                     const HeadReads* reads) {
    const detail::Db& d = detail::Access::of(store);
    const rocksdb::ReadOptions ro;
    auto head = read_state_head(d, ro);
    if (!head) return unexpected(head.error());
    const Hash32 old_state_root = *head ? (*head)->state_root : trie::kEmptyRoot;

    // A flat value before the block: the one the execution read, else the store's.
    const auto read_before = [&](BytesView key,
                                 Cf cf) -> Result<std::optional<std::string>, StoreError> {
        if (reads != nullptr) {
            if (const std::optional<std::string>* seen = reads->find(key)) return *seen;
        }
        return get_at(d, ro, cf, key);
    };

    StateUpdate u;
    u.number = number;
    u.block_hash = block_hash;
    Bytes change_set;
    auto record = [&](std::uint8_t kind, BytesView a, BytesView s) {
        change_set.push_back(kind);
        change_set.insert(change_set.end(), a.begin(), a.end());
        change_set.insert(change_set.end(), s.begin(), s.end());
    };

    // The head's upper trie nodes, kept from the update before (detail/trie_cache.hpp).
    TrieNodeCache::Session cache = d.trie_cache.open(old_state_root);
    const TrieRows account_rows(d, kAccountTrie, {}, ro, &cache);
    trie::Updater accounts(account_rows, old_state_root);
    for (const state::AccountChange& c : changes) {
        const Hash32 a = crypto::keccak256(c.address.view());
        auto old = read_before(a.view(), kAccounts);
        if (!old) return unexpected(old.error());
        std::optional<state::Account> before;
        if (*old) {
            before = decode_account(as_bytes(**old));
            if (!before) {
                return unexpected(corrupt(d.path, "account 0x" + hex::encode(a.view())));
            }
        }
        ++u.accounts;
        if (history) {
            put_row(u, Family::account_history, with_block(a.view(), number),
                    *old ? to_bytes(**old) : Bytes{});
            record(kChangedAccount, a.view(), {});
        }

        // Storage that goes as a whole: the account was deleted, or destroyed and re-created.
        Hash32 storage_root = before ? before->storage_root : trie::kEmptyRoot;
        std::unordered_set<Hash32> cleared;  // slots recorded in history by the clear
        if (before && (!c.account || c.storage_cleared) && storage_root != trie::kEmptyRoot) {
            const Bytes end = prefix_end(a.view());
            if (history) {
                rocksdb::ReadOptions iro;
                const rocksdb::Slice upper = slice(end);
                iro.iterate_upper_bound = &upper;
                std::unique_ptr<rocksdb::Iterator> it(d.db->NewIterator(iro, d.cfs[kStorage]));
                for (it->Seek(slice(a.view())); it->Valid(); it->Next()) {
                    const rocksdb::Slice k = it->key();
                    if (k.size() != 64) return unexpected(corrupt(d.path, "storage key"));
                    const BytesView s(reinterpret_cast<const std::uint8_t*>(k.data()) + 32, 32);
                    put_row(
                        u, Family::storage_history,
                        with_block(BytesView(reinterpret_cast<const std::uint8_t*>(k.data()), 64),
                                   number),
                        Bytes(it->value().data(), it->value().data() + it->value().size()));
                    record(kChangedSlot, a.view(), s);
                    cleared.insert(*Hash32::from(s));
                    ++u.slots;
                }
                if (!it->status().ok()) return unexpected(d.error("read", it->status()));
            }
            erase_range_row(u, Family::storage, Bytes(a.begin(), a.end()), end);
            erase_range_row(u, Family::storage_trie, Bytes(a.begin(), a.end()), end);
            cache.stage_erase(a);
            storage_root = trie::kEmptyRoot;
        }
        if (!c.account) {
            erase_row(u, Family::accounts, Bytes(a.begin(), a.end()));
            accounts.put(a.view(), {});
            continue;
        }

        if (!c.storage.empty()) {
            const TrieRows slot_rows(d, kStorageTrie, a.view(), ro, &cache);
            trie::Updater slots(slot_rows, storage_root);
            for (const auto& [key, value] : c.storage) {
                const Hash32 s = slot_hash(key);
                const Bytes flat_key = concat(a.view(), s.view());
                if (history && !cleared.contains(s)) {
                    Bytes before_value;
                    if (storage_root != trie::kEmptyRoot) {
                        auto v = read_before(flat_key, kStorage);
                        if (!v) return unexpected(v.error());
                        if (*v) before_value = to_bytes(**v);
                    }
                    put_row(u, Family::storage_history, with_block(flat_key, number),
                            std::move(before_value));
                    record(kChangedSlot, a.view(), s.view());
                }
                ++u.slots;
                if (value.is_zero()) {
                    erase_row(u, Family::storage, flat_key);
                    slots.put(s.view(), {});
                } else {
                    Bytes enc = encode_storage_value(value);
                    slots.put(s.view(), enc);
                    put_row(u, Family::storage, flat_key, std::move(enc));
                }
            }
            trie::NodeChanges nodes;
            auto root = slots.commit(nodes);
            if (!root) {
                return unexpected(state_error(
                    d, "storage trie of 0x" + hex::encode(a.view()) + ": " +
                           (slot_rows.failure.empty() ? root.error() : slot_rows.failure)));
            }
            add_trie_rows(u, Family::storage_trie, a.view(), nodes);
            cache.stage(&a, nodes);
            storage_root = *root;
        }
        if (c.code) {
            put_row(u, Family::code,
                    Bytes(c.account->code_hash.begin(), c.account->code_hash.end()),
                    Bytes(c.code->begin(), c.code->end()));
        }
        state::Account now = *c.account;
        now.storage_root = storage_root;
        Bytes enc = state::encode_account(now);
        accounts.put(a.view(), enc);
        put_row(u, Family::accounts, Bytes(a.begin(), a.end()), std::move(enc));
    }
    trie::NodeChanges nodes;
    auto root = accounts.commit(nodes);
    if (!root) {
        return unexpected(state_error(
            d, "account trie: " +
                   (account_rows.failure.empty() ? root.error() : account_rows.failure)));
    }
    add_trie_rows(u, Family::account_trie, {}, nodes);
    cache.stage(nullptr, nodes);
    if (history) {
        const NumKey n = num_key(number);
        put_row(u, Family::change_sets, Bytes(n.begin(), n.end()), std::move(change_set));
    }
    u.state_root = *root;
    if (keep_history > 0 && number > keep_history) {
        if (auto r = add_history_pruning(d, ro, number - keep_history, u); !r) {
            return unexpected(r.error());
        }
    }
    cache.close(u.state_root);
    return u;
}

Result<StateUpdate, StoreError> prepare_state_unwind(const ChainStore& store, std::uint64_t number,
                                                     const Hash32& parent_hash,
                                                     const Hash32& parent_state_root) {
    const detail::Db& d = detail::Access::of(store);
    const rocksdb::ReadOptions ro;
    const std::string where = "unwinding block " + std::to_string(number) + ": ";
    auto head = read_state_head(d, ro);
    if (!head) return unexpected(head.error());
    if (!*head || (*head)->number != number || number == 0) {
        return unexpected(state_error(d, where + "the state head is not this block"));
    }
    const NumKey n = num_key(number);
    auto cs =
        get_at(d, ro, kChangeSets, BytesView(reinterpret_cast<const std::uint8_t*>(n.data()), 8));
    if (!cs) return unexpected(cs.error());
    if (!*cs) {
        return unexpected(state_error(d, where + "no change set (its state history is not kept)"));
    }
    // The change set, grouped by account (accounts in key order: the trie walks fewer nodes).
    std::map<Hash32, std::vector<Hash32>> slots_of;
    const bool whole = for_each_change(as_bytes(**cs), [&](bool is_slot, BytesView key) {
        auto& slots = slots_of[*Hash32::from(key.first(32))];
        if (is_slot) slots.push_back(*Hash32::from(key.subspan(32)));
    });
    if (!whole) return unexpected(corrupt(d.path, "change set of block " + std::to_string(number)));

    StateUpdate u;
    u.number = number - 1;
    u.block_hash = parent_hash;
    const TrieRows account_rows(d, kAccountTrie, {});
    trie::Updater accounts(account_rows, (*head)->state_root);
    for (const auto& [a, slots] : slots_of) {
        auto current_rlp = get_at(d, ro, kAccounts, a.view());
        if (!current_rlp) return unexpected(current_rlp.error());
        std::optional<state::Account> current;
        if (*current_rlp) {
            current = decode_account(as_bytes(**current_rlp));
            if (!current) return unexpected(corrupt(d.path, "account 0x" + hex::encode(a.view())));
        }
        const Bytes history_key = with_block(a.view(), number);
        auto old_rlp = get_at(d, ro, kAccountHistory, history_key);
        if (!old_rlp) return unexpected(old_rlp.error());
        if (!*old_rlp) {
            return unexpected(state_error(
                d, where + "history row of account 0x" + hex::encode(a.view()) + " missing"));
        }
        erase_row(u, Family::account_history, history_key);
        std::optional<state::Account> old;
        if (!(*old_rlp)->empty()) {
            old = decode_account(as_bytes(**old_rlp));
            if (!old)
                return unexpected(corrupt(d.path, "account history 0x" + hex::encode(a.view())));
        }
        ++u.accounts;
        if (!slots.empty()) {
            const TrieRows slot_rows(d, kStorageTrie, a.view());
            trie::Updater trie_slots(slot_rows, current ? current->storage_root : trie::kEmptyRoot);
            for (const Hash32& s : slots) {
                const Bytes flat_key = concat(a.view(), s.view());
                const Bytes slot_key = with_block(flat_key, number);
                auto v = get_at(d, ro, kStorageHistory, slot_key);
                if (!v) return unexpected(v.error());
                if (!*v) {
                    return unexpected(state_error(d, where + "history row of a slot of 0x" +
                                                         hex::encode(a.view()) + " missing"));
                }
                erase_row(u, Family::storage_history, slot_key);
                ++u.slots;
                if ((*v)->empty()) {
                    erase_row(u, Family::storage, flat_key);
                    trie_slots.put(s.view(), {});
                } else {
                    trie_slots.put(s.view(), as_bytes(**v));
                    put_row(u, Family::storage, flat_key, to_bytes(**v));
                }
            }
            trie::NodeChanges nodes;
            auto root = trie_slots.commit(nodes);
            if (!root) {
                return unexpected(state_error(
                    d, where + "storage trie of 0x" + hex::encode(a.view()) + ": " +
                           (slot_rows.failure.empty() ? root.error() : slot_rows.failure)));
            }
            const Hash32 want = old ? old->storage_root : trie::kEmptyRoot;
            if (*root != want) {
                return unexpected(state_error(
                    d, where + "storage root of 0x" + hex::encode(a.view()) + " comes back as 0x" +
                           hex::encode(root->view()) + ", the account before the block had 0x" +
                           hex::encode(want.view())));
            }
            add_trie_rows(u, Family::storage_trie, a.view(), nodes);
        }
        if (old) {
            Bytes enc = state::encode_account(*old);
            accounts.put(a.view(), enc);
            put_row(u, Family::accounts, Bytes(a.begin(), a.end()), std::move(enc));
        } else {
            accounts.put(a.view(), {});
            erase_row(u, Family::accounts, Bytes(a.begin(), a.end()));
        }
    }
    trie::NodeChanges nodes;
    auto root = accounts.commit(nodes);
    if (!root) {
        return unexpected(state_error(
            d, where + "account trie: " +
                   (account_rows.failure.empty() ? root.error() : account_rows.failure)));
    }
    if (*root != parent_state_root) {
        return unexpected(state_error(d, where + "the state root comes back as 0x" +
                                             hex::encode(root->view()) + ", the parent's is 0x" +
                                             hex::encode(parent_state_root.view())));
    }
    add_trie_rows(u, Family::account_trie, {}, nodes);
    erase_row(u, Family::change_sets, Bytes(n.begin(), n.end()));
    u.state_root = *root;
    return u;
}

namespace detail {

Result<std::optional<std::string>, StoreError> get_at(const Db& d, const rocksdb::ReadOptions& ro,
                                                      Cf cf, BytesView key) {
    std::string value;
    const rocksdb::Status s = d.db->Get(ro, d.cfs[cf], slice(key), &value);
    if (s.IsNotFound()) return std::optional<std::string>{};
    if (!s.ok()) return unexpected(d.error("read", s));
    return std::optional<std::string>{std::move(value)};
}

Result<std::optional<StateHead>, StoreError> read_state_head(const Db& d,
                                                             const rocksdb::ReadOptions& ro) {
    auto v = get_at(d, ro, kMeta, as_bytes(kMetaStateHead));
    if (!v) return unexpected(v.error());
    if (!*v) return std::optional<StateHead>{};
    if ((*v)->size() != 72) return unexpected(corrupt(d.path, "state head"));
    StateHead h;
    h.number = get_be64((*v)->data());
    std::memcpy(h.hash.data(), (*v)->data() + 8, 32);
    std::memcpy(h.state_root.data(), (*v)->data() + 40, 32);
    return std::optional<StateHead>{h};
}

TrieRows::TrieRows(const Db& d, Cf cf, BytesView prefix, const rocksdb::ReadOptions& ro,
                   TrieNodeCache::Session* cache)
    : d_(&d), cf_(cf), ro_(ro), prefix_(prefix.begin(), prefix.end()), cache_(cache) {
    if (cf == kStorageTrie) account_ = Hash32::from(prefix);
}

std::optional<Bytes> TrieRows::node(BytesView path) const {
    std::optional<Hash32> unused;
    return hashed_node(path, unused);
}

std::optional<Bytes> TrieRows::hashed_node(BytesView path, std::optional<Hash32>& hash) const {
    hash.reset();
    const Hash32* account = account_ ? &*account_ : nullptr;
    if (cache_ != nullptr) {
        Hash32 h;
        if (auto hit = cache_->find(account, path, h)) {
            hash = h;
            return hit;
        }
    }
    Bytes key = prefix_;
    const Bytes packed = trie::pack_path(path);
    key.insert(key.end(), packed.begin(), packed.end());
    auto v = get_at(*d_, ro_, cf_, key);
    if (!v) {
        if (failure.empty()) failure = v.error().message;
        return std::nullopt;
    }
    if (!*v) return std::nullopt;
    Bytes node = to_bytes(**v);
    if (cache_ != nullptr && path.size() <= TrieNodeCache::kMaxDepth) {
        // Hashed once here, for the cache and for the updater's check.
        hash = crypto::keccak256(node);
        cache_->remember(account, path, node, *hash);
    }
    return node;
}

Result<std::optional<std::uint64_t>, StoreError> read_state_floor(const Db& d,
                                                                  const rocksdb::ReadOptions& ro) {
    auto v = get_at(d, ro, kMeta, as_bytes(kMetaStateFloor));
    if (!v) return unexpected(v.error());
    if (!*v) return std::optional<std::uint64_t>{};
    if ((*v)->size() != 8) return unexpected(corrupt(d.path, "state floor"));
    return std::optional<std::uint64_t>{get_be64((*v)->data())};
}

Result<void, StoreError> add_state_rows(detail::Db& d, const StateUpdate& u,
                                        rocksdb::WriteBatch& batch) {
    // In family and key order: each row then lands next to the one before it in its family's
    // memtable skip list, which RocksDB's insertion starts from (in update order, the trie and
    // history rows of random hashes each searched the list from the top: a fifth of an
    // executing import's time). Rows of equal family and key keep their update order (the ties
    // are broken by position in u.rows, whose elements are contiguous: std::stable_sort would
    // do, but libstdc++ 12's uses an API clang 19 marks deprecated), and an update writes no
    // row inside an erase_range's span before it (the span is one account's storage, wiped
    // before it is written again), so every key keeps its operations in their order.
    std::vector<const Row*> order;
    order.reserve(u.rows.size());
    for (const Row& r : u.rows) order.push_back(&r);
    std::sort(order.begin(), order.end(), [](const Row* a, const Row* b) {
        if (a->family != b->family) return a->family < b->family;
        const auto c = std::lexicographical_compare_three_way(a->key.begin(), a->key.end(),
                                                              b->key.begin(), b->key.end());
        if (c != 0) return c < 0;
        return a < b;
    });
    for (const Row* row : order) {
        const Row& r = *row;
        rocksdb::ColumnFamilyHandle* cf = d.cfs[cf_of(r.family)];
        switch (r.op) {
            case Row::Op::put:
                batch.Put(cf, slice(r.key), slice(r.value));
                break;
            case Row::Op::erase:
                batch.Delete(cf, slice(r.key));
                break;
            case Row::Op::erase_range:
                batch.DeleteRange(cf, slice(r.key), slice(r.value));
                break;
        }
    }
    std::array<char, 72> head{};
    put_be64(head.data(), u.number);
    std::memcpy(head.data() + 8, u.block_hash.data(), 32);
    std::memcpy(head.data() + 40, u.state_root.data(), 32);
    batch.Put(d.cfs[kMeta], slice(kMetaStateHead), slice(head));
    if (u.floor) {
        batch.Put(d.cfs[kMeta], slice(kMetaStateFloor), slice(num_key(*u.floor)));
        return {};
    }
    auto floor = read_state_floor(d, rocksdb::ReadOptions());
    if (!floor) return unexpected(floor.error());
    if (!*floor) batch.Put(d.cfs[kMeta], slice(kMetaStateFloor), slice(num_key(u.number)));
    return {};
}

}  // namespace detail

Result<AccountProof, StoreError> prove_account(const ChainStore& store, const Address& address,
                                               std::span<const Uint256> slots) {
    const detail::Db& d = detail::Access::of(store);
    const detail::Snapshot snapshot(d);
    const rocksdb::ReadOptions& ro = snapshot.ro;
    auto head = read_state_head(d, ro);
    if (!head) return unexpected(head.error());
    if (!*head) return unexpected(state_error(d, "the store holds no state (keel init makes it)"));
    AccountProof out;
    out.head = **head;
    out.address = address;
    const Hash32 a = crypto::keccak256(address.view());
    const TrieRows account_rows(d, kAccountTrie, {}, ro);
    auto proof = trie::prove(account_rows, out.head.state_root, a.view());
    if (!proof) return unexpected(state_error(d, "account trie: " + proof.error()));
    out.account_proof = std::move(*proof);
    auto flat = get_at(d, ro, kAccounts, a.view());
    if (!flat) return unexpected(flat.error());
    if (*flat) {
        out.account = decode_account(as_bytes(**flat));
        if (!out.account) return unexpected(corrupt(d.path, "account 0x" + hex::encode(a.view())));
    }
    const Hash32 storage_root = out.account ? out.account->storage_root : trie::kEmptyRoot;
    const TrieRows slot_rows(d, kStorageTrie, a.view(), ro);
    for (const Uint256& key : slots) {
        StorageProof sp;
        sp.key = key;
        const Hash32 s = slot_hash(key);
        auto p = trie::prove(slot_rows, storage_root, s.view());
        if (!p) {
            return unexpected(
                state_error(d, "storage trie of 0x" + hex::encode(a.view()) + ": " + p.error()));
        }
        sp.proof = std::move(*p);
        auto v = get_at(d, ro, kStorage, concat(a.view(), s.view()));
        if (!v) return unexpected(v.error());
        if (*v) {
            auto word = decode_storage_value(as_bytes(**v));
            if (!word) return unexpected(corrupt(d.path, "storage value"));
            sp.value = *word;
        }
        out.storage.push_back(std::move(sp));
    }
    return out;
}

// ---- StateView -------------------------------------------------------------------------------

namespace {

// keccak256 of an N-byte key (an address, a slot), remembered per thread in a direct-mapped
// table of `Slots` entries: a replay reads the same contracts' accounts and slots again and
// again, block after block (perf, trace_block: hashing them was 12 % of its time). A collision
// only costs a hash.
template <std::size_t N, std::size_t Slots>
class KeccakMemo {
    static_assert(N >= 8 && (Slots & (Slots - 1)) == 0);

  public:
    const Hash32& operator()(const std::uint8_t* key) {
        std::uint64_t tail = 0;
        std::memcpy(&tail, key + N - 8, 8);
        Entry& e = entries_[(tail * 0x9e3779b97f4a7c15ULL) >> (64 - std::countr_zero(Slots))];
        if (!e.used || std::memcmp(e.key.data(), key, N) != 0) {
            std::memcpy(e.key.data(), key, N);
            e.hash = crypto::keccak256(BytesView(key, N));
            e.used = true;
        }
        return e.hash;
    }

  private:
    struct Entry {
        std::array<std::uint8_t, N> key{};
        bool used = false;
        Hash32 hash{};
    };
    std::array<Entry, Slots> entries_{};
};

// The tables are allocated by the threads that read state (57 and 147 KB): a thread_local
// object itself would be part of every thread's static TLS block, RocksDB's and oneTBB's too.
Hash32 address_key(const Address& address) {
    thread_local std::unique_ptr<KeccakMemo<20, 1024>> memo;
    if (!memo) memo = std::make_unique<KeccakMemo<20, 1024>>();
    return (*memo)(address.data());
}

Hash32 slot_key(const Uint256& slot) {
    thread_local std::unique_ptr<KeccakMemo<32, 2048>> memo;
    if (!memo) memo = std::make_unique<KeccakMemo<32, 2048>>();
    const Bytes32 be = slot.to_bytes32();
    return (*memo)(be.data());
}

}  // namespace

struct StateView::Impl {
    const detail::Db* d = nullptr;
    const rocksdb::Snapshot* snapshot = nullptr;
    rocksdb::ReadOptions ro;
    std::uint64_t number = 0;
    std::uint64_t head = 0;  // the snapshot's state head
    bool at_head = false;
    std::uint64_t recent_epoch = 0;  // of d->recent, read before the snapshot was taken
    mutable std::mutex failure_mutex;
    mutable std::optional<std::string> failure;
    mutable std::atomic<std::uint64_t> seeks{0};
    mutable std::atomic<std::uint64_t> point_reads{0};
    mutable std::atomic<std::uint64_t> recent_reads{0};

    void fail(const std::string& what) const {
        const std::lock_guard lock(failure_mutex);
        if (!failure) failure = what;
    }

    // Idle history iterators, reused from read to read (creating one costs about as much as a
    // seek): a thread takes one out for its read and puts it back.
    mutable std::mutex pool_mutex;
    mutable std::vector<std::unique_ptr<rocksdb::Iterator>> pool[2];  // account, storage

    std::unique_ptr<rocksdb::Iterator> take_iterator(Cf history) const {
        const int i = history == kAccountHistory ? 0 : 1;
        {
            const std::lock_guard lock(pool_mutex);
            if (!pool[i].empty()) {
                auto it = std::move(pool[i].back());
                pool[i].pop_back();
                return it;
            }
        }
        rocksdb::ReadOptions iro = ro;
        // Rows of one key per seek: the prefix Bloom filters skip files without it.
        iro.prefix_same_as_start = true;
        return std::unique_ptr<rocksdb::Iterator>(d->db->NewIterator(iro, d->cfs[history]));
    }

    void give_back(Cf history, std::unique_ptr<rocksdb::Iterator> it) const {
        const std::lock_guard lock(pool_mutex);
        pool[history == kAccountHistory ? 0 : 1].push_back(std::move(it));
    }

    ~Impl() {
        for (auto& p : pool) p.clear();  // before the snapshot they read goes
        if (snapshot != nullptr) d->db->ReleaseSnapshot(snapshot);
    }

    // The value of a state key after block `number`: the first history row of the key at or
    // after block number + 1, else the flat value. nullopt: absent (or a failure, recorded).
    std::optional<std::string> read(Cf flat, Cf history, BytesView key) const {
        bool seek = !at_head;
        if (seek) {
            std::optional<std::string> changed;
            switch (d->recent.find(recent_epoch, number, head, key, changed)) {
                case RecentState::Answer::changed:
                    recent_reads.fetch_add(1, std::memory_order_relaxed);
                    return changed;
                case RecentState::Answer::unchanged:
                    recent_reads.fetch_add(1, std::memory_order_relaxed);
                    seek = false;
                    break;
                case RecentState::Answer::unknown:
                    break;
            }
        }
        if (seek) {
            const Bytes from = with_block(key, number + 1);
            std::unique_ptr<rocksdb::Iterator> it = take_iterator(history);
            it->Seek(slice(from));
            seeks.fetch_add(1, std::memory_order_relaxed);
            std::optional<std::string> found;
            bool have = false;
            bool bad = false;
            if (it->Valid()) {
                const rocksdb::Slice k = it->key();
                if (k.size() >= key.size() && std::memcmp(k.data(), key.data(), key.size()) == 0) {
                    have = true;
                    if (k.size() != key.size() + 8) {
                        bad = true;
                    } else if (!it->value().empty()) {
                        found = it->value().ToString();
                    }
                }
            } else if (!it->status().ok()) {
                fail(d->error("read", it->status()).message);
                return std::nullopt;  // the iterator is dropped, not pooled
            }
            give_back(history, std::move(it));
            if (bad) {
                fail(corrupt(d->path, "history key").message);
                return std::nullopt;
            }
            if (have) return found;
        }
        auto v = get_at(*d, ro, flat, key);
        point_reads.fetch_add(1, std::memory_order_relaxed);
        if (!v) {
            fail(v.error().message);
            return std::nullopt;
        }
        if (reads != nullptr && at_head) reads->add(key, *v);
        return std::move(*v);
    }

    HeadReads* reads = nullptr;  // record_reads()
};

void StateView::record_reads(HeadReads& into) noexcept {
    impl_->reads = &into;
}

void HeadReads::add(BytesView key, const std::optional<std::string>& value) {
    const std::lock_guard lock(mutex_);
    values_.try_emplace(std::string(as_chars(key)), value);
}

const std::optional<std::string>* HeadReads::find(BytesView key) const {
    const std::lock_guard lock(mutex_);
    auto it = values_.find(as_chars(key));
    return it == values_.end() ? nullptr : &it->second;
}

std::size_t HeadReads::size() const {
    const std::lock_guard lock(mutex_);
    return values_.size();
}

StateView::StateView(std::unique_ptr<Impl> impl) noexcept : impl_(std::move(impl)) {}
StateView::StateView(StateView&&) noexcept = default;
StateView& StateView::operator=(StateView&&) noexcept = default;
StateView::~StateView() = default;

Result<StateView, StoreError> StateView::open(const ChainStore& store,
                                              std::optional<std::uint64_t> number) {
    const detail::Db& d = detail::Access::of(store);
    auto impl = std::make_unique<Impl>();
    impl->d = &d;
    impl->recent_epoch = d.recent.epoch();  // before the snapshot (recent_state.hpp)
    const StateTip::Opened opened = d.state_tip.open(*d.db);
    impl->snapshot = opened.snapshot;
    impl->ro.snapshot = impl->snapshot;
    StateTip::Value tip;
    if (opened.value) {
        tip = *opened.value;
    } else {
        auto head = read_state_head(d, impl->ro);
        if (!head) return unexpected(head.error());
        auto floor = read_state_floor(d, impl->ro);
        if (!floor) return unexpected(floor.error());
        tip = {*head, *floor};
        d.state_tip.remember(opened, tip);
    }
    if (!tip.head)
        return unexpected(state_error(d, "the store holds no state (keel init makes it)"));
    const StateHead& head = *tip.head;
    const std::uint64_t n = number.value_or(head.number);
    if (n > head.number) {
        return unexpected(state_error(d, "block " + std::to_string(n) +
                                             " is above the state head, block " +
                                             std::to_string(head.number)));
    }
    const std::uint64_t lowest = tip.floor.value_or(head.number);
    if (n < lowest) {
        return unexpected(state_error(d, "state at block " + std::to_string(n) +
                                             " is not kept: state history starts at block " +
                                             std::to_string(lowest)));
    }
    impl->number = n;
    impl->head = head.number;
    impl->at_head = n == head.number;
    return StateView(std::move(impl));
}

std::uint64_t StateView::number() const noexcept {
    return impl_->number;
}

bool StateView::at_head() const noexcept {
    return impl_->at_head;
}

StateView::Counts StateView::counts() const noexcept {
    return Counts{impl_->seeks.load(std::memory_order_relaxed),
                  impl_->point_reads.load(std::memory_order_relaxed),
                  impl_->recent_reads.load(std::memory_order_relaxed)};
}

std::optional<state::Account> StateView::account(const Address& address) const {
    const Hash32 a = address_key(address);
    auto v = impl_->read(kAccounts, kAccountHistory, a.view());
    if (!v) return std::nullopt;
    auto acc = decode_account(as_bytes(*v));
    if (!acc)
        impl_->fail(
            corrupt(impl_->d->path, "account " + hex::encode(address.view(), {.prefix = true}))
                .message);
    return acc;
}

Uint256 StateView::storage(const Address& address, const Uint256& key) const {
    std::array<std::uint8_t, 64> flat_key;  // keccak(address) || keccak(slot)
    const Hash32 a = address_key(address);
    const Hash32 s = slot_key(key);
    std::memcpy(flat_key.data(), a.data(), 32);
    std::memcpy(flat_key.data() + 32, s.data(), 32);
    auto v = impl_->read(kStorage, kStorageHistory, BytesView(flat_key));
    if (!v) return {};
    auto value = decode_storage_value(as_bytes(*v));
    if (!value) {
        impl_->fail(corrupt(impl_->d->path,
                            "storage value of " + hex::encode(address.view(), {.prefix = true}))
                        .message);
        return {};
    }
    return *value;
}

namespace {

// Contract code by hash, kept for every view of the process: blocks and calls run the same
// contracts again and again, and a hash names one code in any store, at any block (never
// stale). Bounded by bytes (geth keeps 64 MiB of code the same way).
constexpr std::size_t kCodeCacheBytes = 32u << 20;

LruCache<Hash32, state::Code>& code_cache() {
    static LruCache<Hash32, state::Code> c(kCodeCacheBytes);
    return c;
}

}  // namespace

state::Code StateView::code(const Hash32& code_hash) const {
    if (code_hash == state::kEmptyCodeHash) return state::empty_code();
    if (auto kept = code_cache().get(code_hash)) return std::move(*kept);
    auto v = get_at(*impl_->d, impl_->ro, kCode, code_hash.view());
    if (!v) {
        impl_->fail(v.error().message);
        return state::empty_code();
    }
    if (!*v) {
        impl_->fail(
            state_error(*impl_->d, "code 0x" + hex::encode(code_hash.view()) + " missing").message);
        return state::empty_code();
    }
    state::Code code = std::make_shared<const Bytes>(to_bytes(**v));
    code_cache().put(code_hash, code, code->size() + 64);  // + the entry's own memory, roughly
    return code;
}

std::optional<std::string> StateView::failure() const {
    const std::lock_guard lock(impl_->failure_mutex);
    return impl_->failure;
}

}  // namespace keel::store
