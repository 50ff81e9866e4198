#include "keel/store/state_store.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <map>
#include <random>
#include <thread>

#include "keel/crypto/keccak.hpp"
#include "keel/eth/header.hpp"
#include "keel/state/memory_state.hpp"
#include "keel/store/detail/db.hpp"
#include "keel/store/keys.hpp"
#include "keel/store/state_test_helpers.hpp"
#include "keel/store/state_verify.hpp"
#include "keel/trie/root.hpp"
#include "test/testutil/temp_dir.hpp"

namespace keel::store {
namespace {

using namespace state_testing;  // NOLINT: the state tests' builders

TEST(StateStore, GenesisThenRandomBlocksMatchMemoryStateAtEveryBlock) {
    testutil::TempDir dir("state-store");
    auto store = ChainStore::create(dir.path() / "db");
    ASSERT_TRUE(store.has_value()) << store.error().message;
    auto none = state_head(*store);
    ASSERT_TRUE(none.has_value());
    EXPECT_FALSE(none->has_value());
    EXPECT_FALSE(StateView::open(*store).has_value());

    std::mt19937_64 rng(2026);
    constexpr std::uint64_t kUniverse = 60;
    state::MemoryState reference;
    std::vector<state::AccountChange> changes;
    // Genesis: accounts with balances, some with code and storage.
    for (std::uint64_t i = 0; i < 30; ++i) {
        state::AccountChange c;
        c.address = address_of(i);
        c.account = state::Account{.nonce = i, .balance = Uint256(1000 + i)};
        if (i % 5 == 0) {
            c.code = std::make_shared<const Bytes>(Bytes{0x60, static_cast<std::uint8_t>(i), 0x00});
            c.account->code_hash = crypto::keccak256(*c.code);
            for (std::uint64_t k = 0; k < 6; ++k)
                c.storage.push_back({Uint256(k), Uint256(k + i + 1)});
        }
        changes.push_back(c);
    }
    put_genesis(*store, changes, reference);
    Hash32 root;
    std::vector<state::MemoryState> after{reference};

    for (std::uint64_t n = 1; n <= 30; ++n) {
        changes = random_changes(rng, reference, kUniverse);
        reference.apply(changes);
        put_block(*store, n, changes, true, root);
        ASSERT_EQ(root, reference.state_root()) << "block " << n;
        after.push_back(reference);
    }

    auto head = state_head(*store);
    ASSERT_TRUE(head.has_value() && head->has_value());
    EXPECT_EQ((*head)->number, 30u);
    EXPECT_EQ((*head)->state_root, reference.state_root());
    // Every kept block reads as it was; the head through the flat state.
    for (std::uint64_t n = 0; n <= 30; ++n) {
        auto view = StateView::open(*store, n);
        ASSERT_TRUE(view.has_value()) << view.error().message;
        EXPECT_EQ(view->at_head(), n == 30);
        expect_same(*view, after[n], kUniverse, "block " + std::to_string(n));
    }
    auto above = StateView::open(*store, 31);
    ASSERT_FALSE(above.has_value());
    EXPECT_NE(above.error().message.find("above the state head"), std::string::npos);

    // Unwinding block by block gives back every earlier state: its root (checked by the unwind
    // itself against the parent's) and every value, read at the head.
    for (std::uint64_t n = 30; n >= 1; --n) {
        auto u = prepare_state_unwind(*store, n, block_hash_of(n - 1), after[n - 1].state_root());
        ASSERT_TRUE(u.has_value()) << "block " << n << ": " << u.error().message;
        ASSERT_TRUE(store->put_state(*u).has_value());
        auto h = state_head(*store);
        ASSERT_TRUE(h.has_value() && h->has_value());
        EXPECT_EQ((*h)->number, n - 1);
        EXPECT_EQ((*h)->hash, block_hash_of(n - 1));
        auto view = StateView::open(*store);
        ASSERT_TRUE(view.has_value());
        expect_same(*view, after[n - 1], kUniverse, "unwound to block " + std::to_string(n - 1));
    }
    // No history row or change set is left, and block 0 has none to unwind.
    for (Family f : {Family::account_history, Family::storage_history, Family::change_sets}) {
        auto c = store->cursor(f);
        ASSERT_TRUE(c.has_value());
        EXPECT_FALSE(c->valid()) << family_name(f);
    }
    EXPECT_FALSE(prepare_state_unwind(*store, 0, Hash32{}, Hash32{}).has_value());
    // A wrong parent root is refused.
    changes.clear();
    state::AccountChange one;
    one.address = address_of(3);
    one.account = state::Account{.balance = Uint256(1)};
    changes.push_back(one);
    put_block(*store, 1, changes, true, root);
    auto wrong = prepare_state_unwind(*store, 1, block_hash_of(0), Hash32{});
    ASSERT_FALSE(wrong.has_value());
    EXPECT_NE(wrong.error().message.find("the state root comes back as"), std::string::npos)
        << wrong.error().message;
}

// The roots of states never stored (eth_simulateV1's blocks): over every kept block, with and
// without random changes on top, against the reference state's own root.
TEST(StateStore, RootsOverPastBlocksWithChangesMatchTheReference) {
    testutil::TempDir dir("state-roots");
    auto store = ChainStore::create(dir.path() / "db");
    ASSERT_TRUE(store.has_value()) << store.error().message;
    EXPECT_FALSE(StateRoots::open(*store, 0).has_value());  // no state yet

    std::mt19937_64 rng(7);
    constexpr std::uint64_t kUniverse = 40;
    state::MemoryState reference;
    put_genesis(*store, funded_accounts(20, 3, 6, 0), reference);
    std::vector<state::MemoryState> after{reference};
    Hash32 root;
    for (std::uint64_t n = 1; n <= 20; ++n) {
        const auto changes = random_changes(rng, reference, kUniverse);
        reference.apply(changes);
        put_block(*store, n, changes, true, root);
        after.push_back(reference);
    }
    for (std::uint64_t n = 0; n <= 20; ++n) {
        auto roots = StateRoots::open(*store, n);
        ASSERT_TRUE(roots.has_value()) << roots.error().message;
        auto same = roots->root({});
        ASSERT_TRUE(same.has_value()) << same.error().message;
        EXPECT_EQ(*same, after[n].state_root()) << "block " << n;
        for (int round = 0; round < 3; ++round) {
            const auto extra = random_changes(rng, after[n], kUniverse);
            state::MemoryState want = after[n];
            want.apply(extra);
            auto got = roots->root(extra);
            ASSERT_TRUE(got.has_value()) << got.error().message;
            EXPECT_EQ(*got, want.state_root()) << "block " << n << " round " << round;
        }
    }
    auto above = StateRoots::open(*store, 21);
    ASSERT_FALSE(above.has_value());
    EXPECT_NE(above.error().message.find("above the state head"), std::string::npos);
}

// A base too far below the head is refused, not read back block by block.
TEST(StateStore, RootsOverABlockTooFarBelowTheHeadAreRefused) {
    testutil::TempDir dir("state-roots-depth");
    auto store = ChainStore::create(dir.path() / "db");
    ASSERT_TRUE(store.has_value()) << store.error().message;
    state::MemoryState reference;
    put_genesis(*store, funded_accounts(4, 2, 2, 0), reference);
    Hash32 root;
    for (std::uint64_t n = 1; n <= StateRoots::kMaxDepth + 1; ++n) {
        state::AccountChange c;
        c.address = address_of(n % 4);
        c.account = state::Account{.balance = Uint256(n)};
        put_block(*store, n, std::span(&c, 1), true, root);
        if (::testing::Test::HasFatalFailure()) return;
    }
    EXPECT_TRUE(StateRoots::open(*store, 1).has_value());
    auto deep = StateRoots::open(*store, 0);
    ASSERT_FALSE(deep.has_value());
    EXPECT_NE(deep.error().message.find("blocks below the state head"), std::string::npos)
        << deep.error().message;
}

TEST(StateStore, ViewKeepsItsSnapshotWhileBlocksAreWritten) {
    testutil::TempDir dir("state-snapshot");
    auto store = ChainStore::create(dir.path() / "db");
    ASSERT_TRUE(store.has_value());
    const Address a = address_of(1);
    std::vector<state::AccountChange> changes(1);
    changes[0].address = a;
    changes[0].account = state::Account{.balance = Uint256(5)};
    Hash32 root;
    put_block(*store, 0, changes, false, root);
    auto view = StateView::open(*store);
    ASSERT_TRUE(view.has_value());
    changes[0].account->balance = Uint256(9);
    put_block(*store, 1, changes, true, root);
    EXPECT_EQ(view->account(a)->balance, Uint256(5));  // the head it opened at
    auto now = StateView::open(*store);
    ASSERT_TRUE(now.has_value());
    EXPECT_EQ(now->account(a)->balance, Uint256(9));
}

// The state head a view opens at (kept in memory between writes: detail/state_tip.hpp) is the
// one of its own snapshot while blocks are written and unwound beside it: block n sets the
// marker account's balance to n, so a view whose head and snapshot disagree reads another n.
TEST(StateStore, ViewsAtTheHeadReadTheirOwnSnapshotsHeadWhileBlocksAreWritten) {
    testutil::TempDir dir("state-tip");
    auto store = ChainStore::create(dir.path() / "db");
    ASSERT_TRUE(store.has_value());
    const Address marker = address_of(7);
    std::vector<state::MemoryState> after;
    state::MemoryState reference;
    const auto block = [&](std::uint64_t n) {
        state::AccountChange c;
        c.address = marker;
        c.account = state::Account{.balance = Uint256(n)};
        reference.apply(std::span(&c, 1));
        after.resize(n + 1);
        after[n] = reference;
        Hash32 root;
        put_block(*store, n, std::span(&c, 1), n > 0, root);
    };
    block(0);
    std::atomic<bool> done{false};
    std::atomic<std::uint64_t> views{0};
    std::atomic<std::uint64_t> wrong{0};
    const auto reader = [&] {
        while (!done.load()) {
            auto view = StateView::open(*store);
            if (!view) {
                wrong.fetch_add(1);
                continue;
            }
            const auto m = view->account(marker);
            if (!m || m->balance != Uint256(view->number()) || !view->at_head()) wrong.fetch_add(1);
            views.fetch_add(1);
        }
    };
    std::vector<std::thread> readers;
    for (int i = 0; i < 2; ++i) readers.emplace_back(reader);
    for (int round = 0; round < 4; ++round) {
        for (std::uint64_t n = 1; n <= 8; ++n) block(n);
        for (std::uint64_t n = 8; n >= 1; --n) {  // back to block 0, block by block
            auto u =
                prepare_state_unwind(*store, n, block_hash_of(n - 1), after[n - 1].state_root());
            if (!u || !store->put_state(*u)) {
                wrong.fetch_add(1000);
                break;
            }
        }
        reference = after[0];
    }
    while (views.load() < 4) std::this_thread::yield();
    done.store(true);
    for (auto& t : readers) t.join();
    EXPECT_EQ(wrong.load(), 0u);
}

TEST(StateStore, DamagedTrieRowIsReportedByTheNextUpdate) {
    testutil::TempDir dir("state-damage");
    auto store = ChainStore::create(dir.path() / "db");
    ASSERT_TRUE(store.has_value());
    std::vector<state::AccountChange> changes;
    for (std::uint64_t i = 0; i < 50; ++i) {
        state::AccountChange c;
        c.address = address_of(i);
        c.account = state::Account{.balance = Uint256(i + 1)};
        changes.push_back(c);
    }
    Hash32 root;
    put_block(*store, 0, changes, false, root);
    // Overwrite the root node's row with other bytes.
    StateUpdate damage;
    damage.number = 0;
    damage.block_hash = block_hash_of(0);
    damage.state_root = root;
    damage.rows.push_back({Family::account_trie, StateUpdate::Row::Op::put, Bytes{0}, Bytes{0xc0}});
    const Bytes header{0xc0};
    BlockToStore b;
    b.hash = block_hash_of(0);
    b.header_rlp = header;
    b.body_rlp = header;
    ASSERT_TRUE(store->put_blocks(std::span(&b, 1), &damage).has_value());
    // Opened again, as after damage on disk: the process that wrote the block keeps the root
    // node in its trie cache (detail/trie_cache.hpp) and would not read the row again.
    {
        const ChainStore closing = std::move(*store);
    }
    store = ChainStore::open(dir.path() / "db");
    ASSERT_TRUE(store.has_value()) << store.error().message;
    changes.resize(1);
    auto u = prepare_state_update(*store, 1, block_hash_of(1), changes);
    ASSERT_FALSE(u.has_value());
    EXPECT_NE(u.error().message.find("account trie: trie node at path 0x has hash"),
              std::string::npos)
        << u.error().message;
}

// The trie cache (detail/trie_cache.hpp) keeps the head's upper nodes from one update to the
// next: updates then read fewer rows, and one whose write never happened (a block refused
// after its state was prepared), an unwind, or a reorg onto a sibling leaves no stale node.
TEST(StateStore, TrieCacheFollowsTheHeadThroughUnwrittenUpdatesAndUnwinds) {
    testutil::TempDir dir("state-trie-cache");
    auto store = ChainStore::create(dir.path() / "db");
    ASSERT_TRUE(store.has_value());
    const detail::Db& d = detail::Access::of(*store);
    state::MemoryState reference;
    std::vector<state::AccountChange> changes = funded_accounts(400, 40, 40, 0);
    put_genesis(*store, changes, reference);
    Hash32 root;
    std::vector<state::MemoryState> after{reference};

    // Block n changes accounts n..n+9 and slots of the storage-heavy accounts; a variant with
    // other values is prepared first and never written.
    auto block_changes = [](std::uint64_t n, std::uint64_t salt) {
        std::vector<state::AccountChange> out;
        for (std::uint64_t i = n; i < n + 10; ++i) {
            state::AccountChange c;
            c.address = address_of(i * 37 % 400);
            c.account = state::Account{.nonce = n, .balance = Uint256(n * 1000 + i + salt)};
            if (i * 37 % 400 % 40 == 0) {
                c.storage.push_back({Uint256(n % 40), Uint256(salt + n)});
                if (salt != 0 || n % 5 == 0) c.storage_cleared = true;
            }
            out.push_back(c);
        }
        return out;
    };
    const std::uint64_t hits_before = d.trie_cache.stats().hits;
    for (std::uint64_t n = 1; n <= 40; ++n) {
        const auto unwritten = block_changes(n, 7);
        auto u = prepare_state_update(*store, n, block_hash_of(n), unwritten);
        ASSERT_TRUE(u.has_value()) << u.error().message;
        changes = block_changes(n, 0);
        reference.apply(changes);
        put_block(*store, n, changes, true, root);
        ASSERT_EQ(root, reference.state_root()) << "block " << n;
        after.push_back(reference);
        if (n % 10 == 0) {  // unwind two blocks, then import them again
            for (std::uint64_t k = n; k > n - 2; --k) {
                auto w = prepare_state_unwind(*store, k, block_hash_of(k - 1),
                                              after[k - 1].state_root());
                ASSERT_TRUE(w.has_value()) << w.error().message;
                ASSERT_TRUE(store->put_state(*w).has_value());
            }
            for (std::uint64_t k = n - 1; k <= n; ++k) {
                put_block(*store, k, block_changes(k, 0), true, root);
                ASSERT_EQ(root, after[k].state_root()) << "block " << k << " again";
            }
        }
    }
    EXPECT_GT(d.trie_cache.stats().hits, hits_before + 40);
    EXPECT_GT(d.trie_cache.stats().entries, 16u);
    auto view = StateView::open(*store);
    ASSERT_TRUE(view.has_value());
    expect_same(*view, reference, 400, "head");
    auto verified = verify_state(*store);
    ASSERT_TRUE(verified.has_value()) << verified.error().message;
}

// The executing import hands the update what execution read at the head (HeadReads): the rows
// are those of an update that reads the store itself, and the values before come from it.
TEST(StateStore, UpdateTakesTheValuesBeforeFromTheExecutionsReads) {
    testutil::TempDir dir("state-head-reads");
    auto store = ChainStore::create(dir.path() / "db");
    ASSERT_TRUE(store.has_value());
    state::MemoryState reference;
    std::vector<state::AccountChange> changes = funded_accounts(10, 1, 3, 6);
    put_genesis(*store, changes, reference);

    // Execution's reads: accounts 1 and 50 (absent), slots 0 and 5 (zero) of account 1.
    auto view = StateView::open(*store);
    ASSERT_TRUE(view.has_value());
    HeadReads reads;
    view->record_reads(reads);
    EXPECT_EQ(view->account(address_of(1))->balance, Uint256(2));
    EXPECT_FALSE(view->account(address_of(50)).has_value());
    EXPECT_EQ(view->storage(address_of(1), Uint256(0)), Uint256(7));
    EXPECT_EQ(view->storage(address_of(1), Uint256(5)), Uint256(0));
    EXPECT_EQ(reads.size(), 4u);

    // The block: account 1 and two of its slots, account 50 created, account 3 (not read).
    changes.assign(3, {});
    changes[0].address = address_of(1);
    changes[0].account = state::Account{.nonce = 1, .balance = Uint256(99)};
    changes[0].storage = {{Uint256(0), Uint256(8)}, {Uint256(5), Uint256(1)}};
    changes[1].address = address_of(50);
    changes[1].account = state::Account{.balance = Uint256(5)};
    changes[2].address = address_of(3);
    changes[2].account = state::Account{.balance = Uint256(1)};
    auto with = prepare_state_update(*store, 1, block_hash_of(1), changes, true, 0, &reads);
    auto without = prepare_state_update(*store, 1, block_hash_of(1), changes, true, 0);
    ASSERT_TRUE(with.has_value() && without.has_value());
    EXPECT_EQ(with->state_root, without->state_root);
    ASSERT_EQ(with->rows.size(), without->rows.size());
    for (std::size_t i = 0; i < with->rows.size(); ++i) {
        EXPECT_EQ(with->rows[i].family, without->rows[i].family) << i;
        EXPECT_EQ(with->rows[i].op, without->rows[i].op) << i;
        EXPECT_EQ(with->rows[i].key, without->rows[i].key) << i;
        EXPECT_EQ(with->rows[i].value, without->rows[i].value) << i;
    }

    // The values before are taken from the reads, not read again: a different one recorded for
    // account 3 is the one its history row carries.
    const Hash32 a3 = crypto::keccak256(address_of(3).view());
    const Bytes recorded = state::encode_account(state::Account{.balance = Uint256(12345)});
    reads.add(a3.view(), std::string(recorded.begin(), recorded.end()));
    auto tampered = prepare_state_update(*store, 1, block_hash_of(1), changes, true, 0, &reads);
    ASSERT_TRUE(tampered.has_value());
    bool found = false;
    for (const StateUpdate::Row& r : tampered->rows) {
        if (r.family == Family::account_history && r.key.size() == 40 &&
            std::equal(a3.begin(), a3.end(), r.key.begin())) {
            found = true;
            EXPECT_EQ(r.value, recorded);
        }
    }
    EXPECT_TRUE(found);
}

TEST(StateStore, StorageValueAndAccountCodecs) {
    EXPECT_EQ(encode_storage_value(Uint256(1)), Bytes{0x01});
    EXPECT_EQ(encode_storage_value(Uint256(0x80)), (Bytes{0x81, 0x80}));
    EXPECT_EQ(decode_storage_value(Bytes{0x81, 0x80}), Uint256(0x80));
    EXPECT_FALSE(decode_storage_value(Bytes{0x82, 0x00, 0x01}).has_value());  // leading zero
    EXPECT_FALSE(decode_storage_value(Bytes{0xc0}).has_value());
    const state::Account acc{.nonce = 3, .balance = Uint256(77)};
    EXPECT_EQ(decode_account(state::encode_account(acc)), acc);
    EXPECT_FALSE(decode_account(Bytes{0xc1, 0x01}).has_value());
}

}  // namespace
}  // namespace keel::store

namespace keel::store {
namespace {

// A small state over three blocks, then one damage at a time: storage verify finds each.
TEST(StateVerify, FindsDamagedValuesStaleRowsAndMissingHistory) {
    testutil::TempDir dir("state-verify");
    auto store = ChainStore::create(dir.path() / "db");
    ASSERT_TRUE(store.has_value());
    auto none = verify_state(*store);
    ASSERT_TRUE(none.has_value());
    EXPECT_FALSE(none->has_value());
    Hash32 root;
    for (std::uint64_t n = 0; n < 3; ++n) {
        std::vector<state::AccountChange> changes;
        for (std::uint64_t i = 0; i < 20; ++i) {
            state::AccountChange c;
            c.address = address_of(i);
            c.account = state::Account{.nonce = n, .balance = Uint256(100 * n + i + 1)};
            if (i % 4 == 0) {
                c.code = std::make_shared<const Bytes>(Bytes{0x60, static_cast<std::uint8_t>(i)});
                c.account->code_hash = crypto::keccak256(*c.code);
                c.storage.push_back({Uint256(n), Uint256(i + 7)});
            }
            changes.push_back(c);
        }
        put_block(*store, n, changes, n > 0, root);
    }
    auto ok = verify_state(*store);
    ASSERT_TRUE(ok.has_value()) << ok.error().message;
    ASSERT_TRUE(ok->has_value());
    EXPECT_EQ((*ok)->accounts, 20u);
    EXPECT_EQ((*ok)->slots, 15u);  // 5 contracts x 3 slots
    EXPECT_EQ((*ok)->change_sets_checked, 2u);
    EXPECT_GT((*ok)->history_rows_checked, 40u);

    auto damage = [&](Family f, StateUpdate::Row::Op op, Bytes key, Bytes value) {
        StateUpdate u;
        u.number = 2;
        u.block_hash = block_hash_of(2);
        u.state_root = root;
        u.rows.push_back({f, op, std::move(key), std::move(value)});
        EXPECT_TRUE(store->put_state(u).has_value());
    };
    auto first_key = [&](Family f) {
        auto c = store->cursor(f);
        EXPECT_TRUE(c.has_value() && c->valid());
        return std::pair<Bytes, Bytes>{Bytes(c->key().begin(), c->key().end()),
                                       Bytes(c->value().begin(), c->value().end())};
    };
    auto expect_found = [&](const std::string& what) {
        auto r = verify_state(*store);
        ASSERT_FALSE(r.has_value()) << "not found: " << what;
        EXPECT_NE(r.error().message.find(what), std::string::npos) << r.error().message;
    };
    using Op = StateUpdate::Row::Op;

    // An account's value changed in place.
    auto [acc_key, acc_value] = first_key(Family::accounts);
    auto changed = decode_account(acc_value);
    ASSERT_TRUE(changed.has_value());
    changed->balance = changed->balance + Uint256(1);
    damage(Family::accounts, Op::put, acc_key, state::encode_account(*changed));
    expect_found("the flat state gives root");
    damage(Family::accounts, Op::put, acc_key, acc_value);

    // A slot's value changed: its account's storage root disagrees.
    auto [slot_key, slot_value] = first_key(Family::storage);
    damage(Family::storage, Op::put, slot_key, encode_storage_value(Uint256(424242)));
    expect_found("its slots give");
    damage(Family::storage, Op::put, slot_key, slot_value);

    // A trie row nothing reaches.
    damage(Family::account_trie, Op::put, Bytes{0x12, 0x34, 3}, Bytes{0xc0});
    expect_found("account trie rows that the trie does not reach");
    damage(Family::account_trie, Op::erase, Bytes{0x12, 0x34, 3}, {});

    // A history row of the latest block gone.
    auto [hist_key, hist_value] = first_key(Family::account_history);
    damage(Family::account_history, Op::erase, hist_key, {});
    expect_found("is missing");
    damage(Family::account_history, Op::put, hist_key, hist_value);

    auto again = verify_state(*store);
    ASSERT_TRUE(again.has_value()) << again.error().message;
}

}  // namespace
}  // namespace keel::store

namespace keel::store {
namespace {

// --history.state 5: each block's update prunes the history that falls out of the last 5 blocks
// in its own write; the kept blocks read as they were, older ones are refused, and no history
// row of a pruned block is left.
TEST(StateStore, HistoryKeptForTheLastNBlocksOnly) {
    testutil::TempDir dir("state-history");
    auto store = ChainStore::create(dir.path() / "db");
    ASSERT_TRUE(store.has_value());
    constexpr std::uint64_t kKeep = 5;
    state::MemoryState reference;
    std::vector<state::MemoryState> after;
    std::mt19937_64 rng(7);
    for (std::uint64_t n = 0; n <= 20; ++n) {
        std::vector<state::AccountChange> changes;
        for (std::uint64_t i = 0; i < 4; ++i) {
            state::AccountChange c;
            c.address = address_of(rng() % 10);
            if (std::any_of(changes.begin(), changes.end(),
                            [&](const auto& x) { return x.address == c.address; }))
                continue;
            c.account = reference.account(c.address).value_or(state::Account{});
            c.account->balance = Uint256(rng() % 1000 + 1);
            c.storage.push_back({Uint256(rng() % 3), Uint256(rng() % 2 == 0 ? 0 : n + 1)});
            changes.push_back(c);
        }
        std::sort(changes.begin(), changes.end(),
                  [](const auto& a, const auto& b) { return a.address < b.address; });
        reference.apply(changes);
        after.push_back(reference);
        Hash32 root;
        put_block(*store, n, changes, n > 0, root, kKeep);
        ASSERT_EQ(root, reference.state_root());
        auto floor = state_floor(*store);
        ASSERT_TRUE(floor.has_value() && floor->has_value());
        EXPECT_EQ(**floor, n > kKeep ? n - kKeep : 0) << "block " << n;
    }
    for (std::uint64_t n = 0; n <= 20; ++n) {
        auto view = StateView::open(*store, n);
        if (n < 20 - kKeep) {
            ASSERT_FALSE(view.has_value()) << "block " << n;
            EXPECT_NE(view.error().message.find("is not kept"), std::string::npos);
            continue;
        }
        ASSERT_TRUE(view.has_value()) << view.error().message;
        expect_same(*view, after[n], 10, "block " + std::to_string(n));
    }
    auto count = [&](Family f) {
        auto c = store->cursor(f);
        std::size_t k = 0;
        for (; c->valid(); c->next()) ++k;
        return k;
    };
    EXPECT_EQ(count(Family::change_sets), kKeep);
    auto v = verify_state(*store);
    ASSERT_TRUE(v.has_value()) << v.error().message;
    // Every history row left belongs to a kept block.
    for (Family f : {Family::account_history, Family::storage_history}) {
        auto c = store->cursor(f);
        for (; c->valid(); c->next()) {
            const BytesView k = c->key();
            EXPECT_GT(keys::get_be64(k.data() + k.size() - 8), 20 - kKeep);
        }
    }
}

}  // namespace
}  // namespace keel::store
