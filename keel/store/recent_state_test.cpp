// keep_recent_state(): views of recent blocks read the kept changes instead of seeking the
// history, and read the same values as without them, through appends, unwinds, replaced
// branches, budgets and concurrent writes.
#include <gtest/gtest.h>

#include <atomic>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "keel/state/memory_state.hpp"
#include "keel/store/state_store.hpp"
#include "keel/store/state_test_helpers.hpp"
#include "test/testutil/temp_dir.hpp"

namespace keel::store {
namespace {

using state_testing::address_of;
using state_testing::block_hash_of;

constexpr std::size_t kMiB = std::size_t{1} << 20;

// Writes blocks first..last of random changes on top of `reference`, keeping each state.
void write_random_blocks(ChainStore& store, std::mt19937_64& rng, std::uint64_t first,
                         std::uint64_t last, std::uint64_t universe, state::MemoryState& reference,
                         std::vector<state::MemoryState>& after) {
    for (std::uint64_t n = first; n <= last; ++n) {
        const auto changes = state_testing::random_changes(rng, reference, universe);
        reference.apply(changes);
        Hash32 root;
        state_testing::put_block(store, n, changes, true, root);
        ASSERT_EQ(root, reference.state_root()) << "block " << n;
        after.push_back(reference);
    }
}

// Takes the state head from `from` back to `to` block by block (a rewind's writes).
void unwind(ChainStore& store, std::uint64_t from, std::uint64_t to,
            const std::vector<state::MemoryState>& after) {
    for (std::uint64_t n = from; n > to; --n) {
        auto u = prepare_state_unwind(store, n, block_hash_of(n - 1), after[n - 1].state_root());
        ASSERT_TRUE(u.has_value()) << u.error().message;
        ASSERT_TRUE(store.put_state(*u).has_value());
    }
}

// Blocks written after keep_recent_state() add themselves; the oldest drop out past the limit.
// Every block reads as it was; the views the kept blocks cover made no seek.
TEST(RecentState, ViewsOfKeptBlocksReadTheSameWithoutSeeking) {
    testutil::TempDir dir("recent-state");
    auto store = ChainStore::create(dir.path() / "db");
    ASSERT_TRUE(store.has_value()) << store.error().message;
    constexpr std::uint64_t kUniverse = 50;
    state::MemoryState reference;
    state_testing::put_genesis(*store, state_testing::funded_accounts(30, 4, 6, 0), reference);
    auto kept = keep_recent_state(*store, 16, 64 * kMiB);
    ASSERT_TRUE(kept.has_value()) << kept.error().message;
    EXPECT_EQ(kept->blocks, 0u);  // the genesis has no history
    std::vector<state::MemoryState> after{reference};
    std::mt19937_64 rng(4444);
    write_random_blocks(*store, rng, 1, 40, kUniverse, reference, after);
    if (HasFatalFailure()) return;

    auto stats = keep_recent_state(*store, 16, 64 * kMiB);  // loaded again: the same blocks
    ASSERT_TRUE(stats.has_value()) << stats.error().message;
    EXPECT_EQ(stats->first, 25u);
    EXPECT_EQ(stats->last, 40u);
    EXPECT_EQ(stats->blocks, 16u);
    EXPECT_GT(stats->keys, 16u);
    for (std::uint64_t n = 0; n <= 40; ++n) {
        auto view = StateView::open(*store, n);
        ASSERT_TRUE(view.has_value()) << view.error().message;
        state_testing::expect_same(*view, after[n], kUniverse, "block " + std::to_string(n));
        const StateView::Counts c = view->counts();
        if (n >= 24 && n < 40) {  // every block of (n, 40] kept
            EXPECT_EQ(c.seeks, 0u) << "block " << n;
            EXPECT_GT(c.recent, 0u) << "block " << n;
        } else if (n < 24) {
            EXPECT_GT(c.seeks, 0u) << "block " << n;
            EXPECT_EQ(c.recent, 0u) << "block " << n;
        }
    }
}

// A view opened on one branch keeps reading it after the blocks it reads through were unwound
// and others written at their numbers; new views read the new branch from memory.
TEST(RecentState, AViewKeepsItsBranchThroughAnUnwindAndAReplacingBranch) {
    testutil::TempDir dir("recent-state-branch");
    auto store = ChainStore::create(dir.path() / "db");
    ASSERT_TRUE(store.has_value()) << store.error().message;
    state::MemoryState reference;
    state_testing::put_genesis(*store, state_testing::funded_accounts(10, 3, 4, 0), reference);
    std::vector<state::MemoryState> after{reference};
    std::mt19937_64 rng(29);
    write_random_blocks(*store, rng, 1, 28, 10, reference, after);
    if (HasFatalFailure()) return;
    const Address x = address_of(5);
    // Blocks 29 and 30 (and 29' and 30' later) set x's balance: 29 to 1001, 29' to 2002, 30 and
    // 30' to 3003. Read at block 29, x is 1001 on the first branch and 2002 on the second.
    const auto set_x = [&](std::uint64_t n, std::uint64_t balance) {
        state::AccountChange c;
        c.address = x;
        c.account = reference.account(x).value_or(state::Account{});
        c.account->balance = Uint256(balance);
        reference.apply(std::span(&c, 1));
        Hash32 root;
        state_testing::put_block(*store, n, std::span(&c, 1), true, root);
        after.push_back(reference);
    };
    set_x(29, 1001);
    set_x(30, 3003);
    if (HasFatalFailure()) return;
    ASSERT_TRUE(keep_recent_state(*store, 8, 64 * kMiB).has_value());

    auto old_view = StateView::open(*store, 29);
    ASSERT_TRUE(old_view.has_value());
    EXPECT_EQ(old_view->account(x)->balance, Uint256(1001));
    EXPECT_EQ(old_view->counts().seeks, 0u);

    unwind(*store, 30, 28, after);
    if (HasFatalFailure()) return;
    after.resize(29);
    reference = after[28];
    set_x(29, 2002);
    set_x(30, 3003);
    if (HasFatalFailure()) return;

    // The kept blocks are now 29' and 30': the old view must not read through them.
    EXPECT_EQ(old_view->account(x)->balance, Uint256(1001));
    EXPECT_GT(old_view->counts().seeks, 0u);
    EXPECT_FALSE(old_view->failure().has_value());
    for (std::uint64_t n : {28u, 29u}) {
        auto view = StateView::open(*store, n);
        ASSERT_TRUE(view.has_value());
        state_testing::expect_same(*view, after[n], 10, "block " + std::to_string(n));
        EXPECT_EQ(view->counts().seeks, 0u) << "block " << n;
    }
    auto now = StateView::open(*store, 29);
    ASSERT_TRUE(now.has_value());
    EXPECT_EQ(now->account(x)->balance, Uint256(2002));
}

// Budgets: one block kept at most, then a byte budget no block fits in. The answers stay
// right; what is not kept is read from the history.
TEST(RecentState, BudgetsBoundWhatIsKeptNotWhatIsRead) {
    testutil::TempDir dir("recent-state-budget");
    auto store = ChainStore::create(dir.path() / "db");
    ASSERT_TRUE(store.has_value()) << store.error().message;
    state::MemoryState reference;
    state_testing::put_genesis(*store, state_testing::funded_accounts(20, 2, 6, 0), reference);
    std::vector<state::MemoryState> after{reference};
    std::mt19937_64 rng(77);
    ASSERT_TRUE(keep_recent_state(*store, 1, 64 * kMiB).has_value());
    write_random_blocks(*store, rng, 1, 12, 30, reference, after);
    if (HasFatalFailure()) return;
    auto one = keep_recent_state(*store, 1, 64 * kMiB);
    ASSERT_TRUE(one.has_value());
    EXPECT_EQ(one->blocks, 1u);
    EXPECT_EQ(one->first, 12u);
    for (std::uint64_t n = 0; n <= 12; ++n) {
        auto view = StateView::open(*store, n);
        ASSERT_TRUE(view.has_value());
        state_testing::expect_same(*view, after[n], 30, "block " + std::to_string(n));
        if (n == 11) {
            EXPECT_EQ(view->counts().seeks, 0u);
        } else if (n < 11) {
            EXPECT_GT(view->counts().seeks, 0u);
        }
    }
    auto none = keep_recent_state(*store, 128, 64);  // 64 bytes: no block fits
    ASSERT_TRUE(none.has_value());
    EXPECT_EQ(none->blocks, 0u);
    write_random_blocks(*store, rng, 13, 16, 30, reference, after);
    if (HasFatalFailure()) return;
    for (std::uint64_t n = 0; n <= 16; ++n) {
        auto view = StateView::open(*store, n);
        ASSERT_TRUE(view.has_value());
        state_testing::expect_same(*view, after[n], 30, "block " + std::to_string(n));
        EXPECT_EQ(view->counts().recent, 0u);
    }
    auto off = keep_recent_state(*store, 0, 64 * kMiB);
    ASSERT_TRUE(off.has_value());
    EXPECT_EQ(off->blocks, 0u);
}

// Readers open views of recent blocks while a writer writes two branches in turn on top of block
// 20, unwinding between them: every view reads the state of its own block on its own branch
// (each branch's blocks mark account `marker` with their branch and number). Run under TSan and
// make stress.
TEST(RecentState, ViewsReadTheirOwnBranchWhileBranchesAreWrittenAndUnwound) {
    testutil::TempDir dir("recent-state-threads");
    auto store = ChainStore::create(dir.path() / "db");
    ASSERT_TRUE(store.has_value()) << store.error().message;
    constexpr std::uint64_t kUniverse = 30;
    constexpr std::uint64_t kBase = 20;
    constexpr std::uint64_t kTop = 30;
    const Address marker = address_of(1000);
    std::mt19937_64 rng(5150);
    state::MemoryState reference;
    state_testing::put_genesis(*store, state_testing::funded_accounts(20, 3, 5, 0), reference);

    // The changes of blocks 1..kBase, then of each branch's kBase+1..kTop, and the states after.
    std::vector<std::vector<state::AccountChange>> common;
    std::vector<state::MemoryState> common_after{reference};
    const auto block_changes = [&](const state::MemoryState& s, std::uint64_t branch,
                                   std::uint64_t n) {
        auto changes = state_testing::random_changes(rng, s, kUniverse);
        state::AccountChange m;
        m.address = marker;
        m.account = state::Account{.balance = Uint256(branch * 1000 + n)};
        changes.push_back(m);
        return changes;
    };
    for (std::uint64_t n = 1; n <= kBase; ++n) {
        common.push_back(block_changes(reference, 0, n));
        reference.apply(common.back());
        common_after.push_back(reference);
    }
    std::vector<std::vector<std::vector<state::AccountChange>>> branch_changes(2);
    std::vector<std::vector<state::MemoryState>> branch_after(2, common_after);
    for (std::uint64_t b = 0; b < 2; ++b) {
        state::MemoryState s = common_after[kBase];
        for (std::uint64_t n = kBase + 1; n <= kTop; ++n) {
            branch_changes[b].push_back(block_changes(s, b + 1, n));
            s.apply(branch_changes[b].back());
            branch_after[b].push_back(s);
        }
    }
    Hash32 root;
    for (std::uint64_t n = 1; n <= kBase; ++n)
        state_testing::put_block(*store, n, common[n - 1], true, root);
    if (HasFatalFailure()) return;
    ASSERT_TRUE(keep_recent_state(*store, 6, 64 * kMiB).has_value());

    std::atomic<bool> done{false};
    std::atomic<std::uint64_t> views{0};
    std::atomic<std::uint64_t> wrong{0};
    std::vector<std::string> first_wrong(2);
    const auto reader = [&](int id) {
        std::mt19937_64 r(static_cast<std::uint64_t>(id) + 1);
        while (!done.load()) {
            auto head = state_head(*store);
            if (!head || !*head || (*head)->number < kBase) continue;
            const std::uint64_t n = kBase + r() % ((*head)->number - kBase + 1);
            auto view = StateView::open(*store, n);
            if (!view) continue;  // the head went below n meanwhile
            const auto m = view->account(marker);
            const std::uint64_t mark = m ? m->balance.as_u64() : 0;
            const std::uint64_t branch = n == kBase ? 0 : mark / 1000;
            const state::MemoryState* want = nullptr;
            if (n == kBase && mark == kBase) want = &common_after[kBase];
            if (n > kBase && (branch == 1 || branch == 2) && mark % 1000 == n)
                want = &branch_after[branch - 1][n];
            bool same = want != nullptr;
            for (std::uint64_t i = 0; same && i < kUniverse; ++i) {
                const Address a = address_of(i);
                same = view->account(a) == want->account(a);
                for (std::uint64_t k = 0; same && k < 12; ++k)
                    same = view->storage(a, Uint256(k)) == want->storage(a, Uint256(k));
            }
            same = same && !view->failure();
            if (!same && wrong.fetch_add(1) == 0) {
                first_wrong[static_cast<std::size_t>(id)] =
                    "block " + std::to_string(n) + " marker " + std::to_string(mark);
            }
            views.fetch_add(1);
        }
    };
    std::vector<std::thread> readers;
    for (int i = 0; i < 2; ++i) readers.emplace_back(reader, i);
    for (int round = 0; round < 6 && !HasFatalFailure(); ++round) {
        const std::uint64_t b = static_cast<std::uint64_t>(round % 2);
        for (std::uint64_t n = kBase + 1; n <= kTop; ++n)
            state_testing::put_block(*store, n, branch_changes[b][n - kBase - 1], true, root);
        if (round == 2) {
            EXPECT_TRUE(keep_recent_state(*store, 6, 64 * kMiB).has_value());
        }
        unwind(*store, kTop, kBase, branch_after[b]);
    }
    // The readers see at least one view each way the scheduler runs them.
    while (views.load() < 4 && !HasFatalFailure()) std::this_thread::yield();
    done.store(true);
    for (auto& t : readers) t.join();
    EXPECT_EQ(wrong.load(), 0u) << first_wrong[0] << first_wrong[1];
}

}  // namespace
}  // namespace keel::store
