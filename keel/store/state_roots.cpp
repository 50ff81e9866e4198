// StateRoots: the roots of states the store never held (state_store.hpp).
#include <map>

#include "keel/common/hex.hpp"
#include "keel/state/memory_state.hpp"
#include "keel/store/detail/db.hpp"
#include "keel/store/detail/state_rows.hpp"
#include "keel/store/state_store.hpp"
#include "keel/trie/root.hpp"
#include "keel/trie/updater.hpp"

namespace keel::store {
namespace {

using detail::for_each_change;
using detail::get_at;
using detail::state_error;
using detail::TrieRows;
using detail::with_block;

// Put back from the history: an account changed after the base block, as it was after it.
struct Edit {
    bool rewound = false;  ///< its value is known (false only while the history is read)
    std::optional<state::Account> rewound_account;  ///< nullopt: absent then
    /// Slots changed after the base block: rlp(value) after it (empty: zero), by slot hash.
    std::map<Hash32, Bytes> rewound_slots;
};

Result<std::optional<state::Account>, StoreError> account_of(const detail::Db& d,
                                                             const std::optional<std::string>& rlp,
                                                             const Hash32& a) {
    if (!rlp || rlp->empty()) return std::optional<state::Account>();
    auto acc = decode_account(as_bytes(*rlp));
    if (!acc) return unexpected(corrupt(d.path, "account 0x" + hex::encode(a.view())));
    return acc;
}

Hash32 storage_root_of(const std::optional<state::Account>& a) {
    return a ? a->storage_root : trie::kEmptyRoot;
}

}  // namespace

struct StateRoots::Impl {
    explicit Impl(const detail::Db& db) : d(db), snapshot(db) {}
    const detail::Db& d;
    detail::Snapshot snapshot;
    Hash32 head_root;
    std::map<Hash32, Edit> rewound;  ///< what the blocks after the base changed, put back
};

StateRoots::StateRoots(std::unique_ptr<Impl> impl) noexcept : impl_(std::move(impl)) {}
StateRoots::StateRoots(StateRoots&&) noexcept = default;
StateRoots& StateRoots::operator=(StateRoots&&) noexcept = default;
StateRoots::~StateRoots() = default;

Result<StateRoots, StoreError> StateRoots::open(const ChainStore& store, std::uint64_t number) {
    const detail::Db& d = detail::Access::of(store);
    auto impl = std::make_unique<Impl>(d);
    const rocksdb::ReadOptions& ro = impl->snapshot.ro;
    auto head = detail::read_state_head(d, ro);
    if (!head) return unexpected(head.error());
    if (!*head) return unexpected(state_error(d, "the store holds no state"));
    const std::uint64_t top = (*head)->number;
    if (number > top) {
        return unexpected(state_error(d, "block " + std::to_string(number) +
                                             " is above the state head " + std::to_string(top)));
    }
    if (top - number > kMaxDepth) {
        return unexpected(state_error(
            d, "state roots over block " + std::to_string(number) + " are not computed: it is " +
                   std::to_string(top - number) + " blocks below the state head (at most " +
                   std::to_string(kMaxDepth) + ")"));
    }
    impl->head_root = (*head)->state_root;

    // ---- the accounts and slots changed since `number`, put back from the history ----------
    std::map<Hash32, Edit>& edits = impl->rewound;
    for (std::uint64_t b = number + 1; b <= top; ++b) {
        const NumKey n = num_key(b);
        auto cs = get_at(d, ro, kChangeSets,
                         BytesView(reinterpret_cast<const std::uint8_t*>(n.data()), 8));
        if (!cs) return unexpected(cs.error());
        if (!*cs) {
            return unexpected(state_error(d, "the state after block " + std::to_string(number) +
                                                 " is not kept (no change set for block " +
                                                 std::to_string(b) + ")"));
        }
        std::optional<StoreError> failed;
        const auto row = [&](Cf cf, BytesView key) -> std::optional<std::string> {
            auto v = get_at(d, ro, cf, with_block(key, b));
            if (!v) {
                failed = v.error();
                return std::nullopt;
            }
            if (!*v) {
                failed = state_error(d, "history row of 0x" + hex::encode(key) + " at block " +
                                            std::to_string(b) + " missing");
            }
            return std::move(*v);
        };
        const bool whole = for_each_change(as_bytes(**cs), [&](bool is_slot, BytesView key) {
            if (failed) return;
            const Hash32 a = *Hash32::from(key.first(32));
            Edit& e = edits[a];
            if (!is_slot) {
                // The first block after `number` that changed it holds its value after `number`.
                if (e.rewound) return;
                auto v = row(kAccountHistory, key);
                if (failed) return;
                auto acc = account_of(d, v, a);
                if (!acc) {
                    failed = acc.error();
                    return;
                }
                e.rewound = true;
                e.rewound_account = *acc;
                return;
            }
            const Hash32 s = *Hash32::from(key.subspan(32));
            if (e.rewound_slots.contains(s)) return;
            auto v = row(kStorageHistory, key);
            if (failed) return;
            e.rewound_slots.emplace(s, to_bytes(*v));
        });
        if (failed) return unexpected(*failed);
        if (!whole) return unexpected(corrupt(d.path, "change set of block " + std::to_string(b)));
    }
    return StateRoots(std::move(impl));
}

Result<Hash32, StoreError> StateRoots::root(std::span<const state::AccountChange> changes) const {
    const detail::Db& d = impl_->d;
    const rocksdb::ReadOptions& ro = impl_->snapshot.ro;
    std::map<Hash32, const state::AccountChange*> changed;
    for (const state::AccountChange& c : changes) changed[crypto::keccak256(c.address.view())] = &c;

    const TrieRows account_rows(d, kAccountTrie, {}, ro);
    trie::Updater accounts(account_rows, impl_->head_root);
    // Account `a`: put back to `e` (when rewound), with `c` on top (when changed).
    const auto put = [&](const Hash32& a, const Edit* e,
                         const state::AccountChange* c) -> Result<void, StoreError> {
        if (c == nullptr) {
            accounts.put(a.view(),
                         e->rewound_account ? state::encode_account(*e->rewound_account) : Bytes{});
            return {};
        }
        if (!c->account) {
            accounts.put(a.view(), {});
            return {};
        }
        auto head_rlp = get_at(d, ro, kAccounts, a.view());
        if (!head_rlp) return unexpected(head_rlp.error());
        auto at_head = account_of(d, *head_rlp, a);
        if (!at_head) return unexpected(at_head.error());
        Hash32 storage_root = storage_root_of(e != nullptr ? e->rewound_account : *at_head);
        if (c->storage_cleared || !c->storage.empty()) {
            // From nothing when cleared; else from the head's trie with the slots changed since
            // the base put back (which gives the base's storage root), then the change's slots.
            const TrieRows slot_rows(d, kStorageTrie, a.view(), ro);
            trie::Updater slots(slot_rows,
                                c->storage_cleared ? trie::kEmptyRoot : storage_root_of(*at_head));
            if (!c->storage_cleared && e != nullptr) {
                for (const auto& [s, v] : e->rewound_slots) slots.put(s.view(), v);
            }
            for (const auto& [key, value] : c->storage) {
                const Hash32 s = detail::slot_hash(key);
                slots.put(s.view(), value.is_zero() ? Bytes{} : encode_storage_value(value));
            }
            trie::NodeChanges ignored;
            auto root = slots.commit(ignored);
            if (!root) {
                return unexpected(state_error(
                    d, "storage trie of 0x" + hex::encode(a.view()) + ": " +
                           (slot_rows.failure.empty() ? root.error() : slot_rows.failure)));
            }
            storage_root = *root;
        }
        state::Account now = *c->account;
        now.storage_root = storage_root;
        accounts.put(a.view(), state::encode_account(now));
        return {};
    };
    for (const auto& [a, e] : impl_->rewound) {
        auto it = changed.find(a);
        if (auto r = put(a, &e, it == changed.end() ? nullptr : it->second); !r)
            return unexpected(r.error());
    }
    for (const auto& [a, c] : changed) {
        if (impl_->rewound.contains(a)) continue;
        if (auto r = put(a, nullptr, c); !r) return unexpected(r.error());
    }
    trie::NodeChanges ignored;
    auto root = accounts.commit(ignored);
    if (!root) {
        return unexpected(state_error(
            d, "account trie: " +
                   (account_rows.failure.empty() ? root.error() : account_rows.failure)));
    }
    return *root;
}

}  // namespace keel::store
