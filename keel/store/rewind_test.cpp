// Rewinding the chain store on synthetic chains: the store after a rewind equals one that never
// held the removed blocks, a new chain imports on top, refusals write nothing, and kill -9 at
// every hook call of a rewind (children that SIGKILL themselves) is finished by a re-run that
// ends with the store an uninterrupted rewind makes.
#include "keel/store/rewind.hpp"

#include <gtest/gtest.h>

#include <signal.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>
#include <system_error>
#include <vector>

#include "keel/store/prune.hpp"
#include "keel/store/store_test_helpers.hpp"
#include "keel/store/synthetic_chain.hpp"
#include "keel/store/verify.hpp"
#include "test/testutil/temp_dir.hpp"

namespace keel::store {
namespace {

namespace fs = std::filesystem;
using test_helpers::digest_store;
using test_helpers::StoreDigest;
using testutil::TempDir;

// 300 blocks of 4 transactions (every 7th block has none); difficulty ends at block 200.
constexpr synthetic::ChainOptions kRewindChain{
    .count = 300, .txs_per_block = 4, .merge_block = 200};

const std::vector<synthetic::Block>& rewind_chain() {
    static const std::vector<synthetic::Block> blocks = synthetic::make_chain(kRewindChain);
    return blocks;
}

// A store holding blocks [0, count) of rewind_chain(), with the merge block in meta when the chain
// reaches it.
ChainStore make_rewind_store(const fs::path& path, std::size_t count = 300) {
    auto store = ChainStore::create(path);
    if (!store) throw std::runtime_error(store.error().message);
    const std::vector<synthetic::Block> blocks(rewind_chain().begin(),
                                               rewind_chain().begin() + count);
    if (auto r = synthetic::put_chain(*store, blocks, 64); !r) {
        throw std::runtime_error(r.error().message);
    }
    if (count > kRewindChain.merge_block) {
        if (auto r = store->set_merge_block(kRewindChain.merge_block); !r) {
            throw std::runtime_error(r.error().message);
        }
    }
    return std::move(*store);
}

StoreDigest digest(const ChainStore& store) {
    auto d = digest_store(store);
    if (!d) throw std::runtime_error(d.error().message);
    return *d;
}

void expect_same(const StoreDigest& got, const StoreDigest& want) {
    for (std::size_t f = 0; f < kFamilyCount; ++f) {
        EXPECT_EQ(got[f], want[f]) << family_name(static_cast<Family>(f));
    }
}

void expect_rewind_verifies(const ChainStore& store) {
    auto v = verify_store(store, VerifyOptions{.progress = false});
    EXPECT_TRUE(v) << v.error().message;
}

RewindOptions rewind_to(std::uint64_t to, std::size_t chunk = 4096) {
    RewindOptions o;
    o.to = to;
    o.chunk_blocks = chunk;
    return o;
}

TEST(RewindChain, EqualsAStoreThatNeverHeldTheBlocks) {
    TempDir dir("rewind-test");
    const StoreDigest want = digest(make_rewind_store(dir.path() / "short", 151));
    for (const std::size_t chunk : {std::size_t{4096}, std::size_t{7}, std::size_t{1}}) {
        ChainStore store = make_rewind_store(dir.path() / ("db" + std::to_string(chunk)));
        auto r = rewind_chain(store, rewind_to(150, chunk));
        ASSERT_TRUE(r) << r.error().message;
        EXPECT_TRUE(r->rewound);
        EXPECT_EQ(r->previous_head, 299u);
        EXPECT_EQ(r->head, 150u);
        EXPECT_FALSE(r->resumed);
        EXPECT_EQ(r->blocks_removed, 149u);
        std::uint64_t txs = 0;
        for (const auto& b : rewind_chain()) {
            if (b.number > 150) txs += b.tx_hashes.size();
        }
        EXPECT_EQ(r->transactions_removed, txs);
        // The merge block (200) was found in the removed blocks: forgotten.
        EXPECT_TRUE(r->merge_block_cleared);
        EXPECT_FALSE(store.merge_block().value());
        EXPECT_EQ(store.head().value(), std::optional<std::uint64_t>(150));
        EXPECT_FALSE(store.canonical_hash(151).value().found());
        EXPECT_FALSE(store.header_by_hash(rewind_chain()[151].hash).value().found());
        EXPECT_FALSE(store.tx_lookup(rewind_chain()[161].tx_hashes[0]).value().found());
        EXPECT_TRUE(store.tx_lookup(rewind_chain()[150].tx_hashes[0]).value().found());
        expect_same(digest(store), want);
        expect_rewind_verifies(store);
    }
}

TEST(RewindChain, KeepsAMergeBlockAtOrBelowTheNewHead) {
    TempDir dir("rewind-test");
    ChainStore store = make_rewind_store(dir.path() / "db");
    auto r = rewind_chain(store, rewind_to(250));
    ASSERT_TRUE(r) << r.error().message;
    EXPECT_FALSE(r->merge_block_cleared);
    EXPECT_EQ(store.merge_block().value(), std::optional<std::uint64_t>(200));
    expect_rewind_verifies(store);
}

TEST(RewindChain, AnotherChainGoesOnTop) {
    TempDir dir("rewind-test");
    ChainStore store = make_rewind_store(dir.path() / "db");
    ASSERT_TRUE(rewind_chain(store, rewind_to(100)));
    // Blocks 101.. of another chain (2 transactions a block) on the kept block 100.
    synthetic::ChainOptions other = kRewindChain;
    other.txs_per_block = 2;
    std::vector<synthetic::Block> blocks;
    for (std::uint64_t n = 101; n < 180; ++n) {
        blocks.push_back(
            synthetic::make_block(n, n == 101 ? &rewind_chain()[100] : &blocks.back(), other));
    }
    ASSERT_TRUE(synthetic::put_chain(store, blocks, 32));
    EXPECT_EQ(store.head().value(), std::optional<std::uint64_t>(179));
    EXPECT_EQ(store.canonical_hash(150).value().value, blocks[49].hash);
    expect_rewind_verifies(store);
}

TEST(RewindChain, NothingToDoAtTheHead) {
    TempDir dir("rewind-test");
    ChainStore store = make_rewind_store(dir.path() / "db");
    const StoreDigest before = digest(store);
    auto r = rewind_chain(store, rewind_to(299));
    ASSERT_TRUE(r) << r.error().message;
    EXPECT_FALSE(r->rewound);
    EXPECT_EQ(r->head, 299u);
    expect_same(digest(store), before);
}

TEST(RewindChain, RefusesWithoutWritingAnything) {
    TempDir dir("rewind-test");
    {
        ChainStore empty = ChainStore::create(dir.path() / "empty").value();
        auto r = rewind_chain(empty, rewind_to(0));
        ASSERT_FALSE(r);
        EXPECT_EQ(r.error().code, RewindErrc::empty_store);
    }
    ChainStore store = make_rewind_store(dir.path() / "db");
    ASSERT_TRUE(store.set_history_floor(120));
    const StoreDigest before = digest(store);
    struct Case {
        std::uint64_t to;
        RewindErrc code;
        const char* message;
    };
    for (const Case& c :
         {Case{300, RewindErrc::above_head, "block 300 is above the head 299"},
          Case{119, RewindErrc::below_floor, "block 119 is below the history floor 120"}}) {
        auto r = rewind_chain(store, rewind_to(c.to));
        ASSERT_FALSE(r) << c.to;
        EXPECT_EQ(r.error().code, c.code);
        EXPECT_NE(r.error().message.find(c.message), std::string::npos) << r.error().message;
        expect_same(digest(store), before);
    }
    // A chain that starts after genesis cannot be rewound below its first block.
    auto later = ChainStore::create(dir.path() / "later").value();
    synthetic::ChainOptions o = kRewindChain;
    o.first = 1000;
    o.count = 20;
    ASSERT_TRUE(synthetic::put_chain(later, synthetic::make_chain(o)));
    auto r = rewind_chain(later, rewind_to(999));
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().code, RewindErrc::below_tail);
    EXPECT_NE(r.error().message.find("below the first stored block 1000"), std::string::npos);
    // Another operation pending: refused, and the other operation refuses a pending rewind.
    ASSERT_TRUE(store.set_pending_operation(PendingOperation{"prune", Bytes(8)}));
    auto p = rewind_chain(store, rewind_to(200));
    ASSERT_FALSE(p);
    EXPECT_EQ(p.error().code, RewindErrc::other_operation);
    ASSERT_TRUE(
        store.set_pending_operation(PendingOperation{std::string(kRewindOperation), Bytes(3)}));
    auto bad = rewind_chain(store, rewind_to(200));
    ASSERT_FALSE(bad);
    EXPECT_EQ(bad.error().code, RewindErrc::bad_marker);
    ASSERT_TRUE(store.set_pending_operation(
        PendingOperation{std::string(kRewindOperation), rewind_marker_argument(250, 299)}));
    auto prune = prune_history(store, PruneOptions{.until = 130, .on_step = {}});
    ASSERT_FALSE(prune);
    EXPECT_EQ(prune.error().code, PruneError::Code::other_operation);
    for (const RewindErrc e : {RewindErrc::empty_store, RewindErrc::store}) {
        EXPECT_FALSE(describe(e).empty());
    }
}

// A pending rewind: verify refuses the store and names the block; a re-run finishes it, and a
// lower --to then goes further in the same run.
TEST(RewindChain, PendingRewindIsFinishedAndCanGoFurther) {
    TempDir dir("rewind-test");
    const StoreDigest want = digest(make_rewind_store(dir.path() / "short", 101));
    ChainStore store = make_rewind_store(dir.path() / "db");
    ASSERT_TRUE(store.lower_head(
        200, PendingOperation{std::string(kRewindOperation), rewind_marker_argument(200, 299)}));
    auto v = verify_store(store, VerifyOptions{.progress = false});
    ASSERT_FALSE(v);
    EXPECT_EQ(v.error().block, std::optional<std::uint64_t>(200));
    EXPECT_NE(v.error().message.find("a rewind to block 200 was interrupted"), std::string::npos)
        << v.error().message;
    auto r = rewind_chain(store, rewind_to(100));
    ASSERT_TRUE(r) << r.error().message;
    EXPECT_EQ(r->resumed, std::optional<std::uint64_t>(200));
    EXPECT_EQ(r->previous_head, 299u);
    EXPECT_EQ(r->head, 100u);
    EXPECT_EQ(r->blocks_removed, 199u);
    expect_same(digest(store), want);
    expect_rewind_verifies(store);
}

// ---- kill -9 ----------------------------------------------------------------------------------
//
// Each crash runs in a child that gtest starts by re-executing this binary (death test style
// "threadsafe"; see prune_test.cpp for why never a bare fork). The child builds the store in a
// directory the parent names through the environment, rewinds it in chunks of 16 blocks and
// SIGKILLs itself at the k-th hook call (mark, unwind state, every delete batch, clear mark). The
// parent re-runs the rewind and compares every family with an uninterrupted rewind's store.

constexpr const char* kCrashDirEnv = "KEEL_REWIND_CRASH_DIR";
constexpr std::uint64_t kCrashTo = 100;
constexpr std::size_t kCrashChunk = 16;

[[noreturn]] void rewind_and_die(const fs::path& work, int kill_at) {
    ChainStore store = make_rewind_store(work);
    int calls = 0;
    RewindOptions options = rewind_to(kCrashTo, kCrashChunk);
    options.on_step = [&](RewindStep, bool) {
        if (++calls == kill_at) ::kill(::getpid(), SIGKILL);
    };
    auto r = rewind_chain(store, options);
    if (!r) std::_Exit(4);
    ::kill(::getpid(), SIGKILL);  // finished before the k-th call
    std::_Exit(5);
}

// Hook calls of the uninterrupted rewind: mark (2), unwind state (2: this store holds no
// state), delete (before, one per batch, after), clear mark (2).
int hook_calls() {
    const std::uint64_t batches = (299 - kCrashTo + kCrashChunk - 1) / kCrashChunk;
    return static_cast<int>(2 + 2 + 2 + batches + 2);
}

class RewindCrash : public ::testing::TestWithParam<int> {};

TEST_P(RewindCrash, RerunEndsAsAnUninterruptedRewind) {
    GTEST_FLAG_SET(death_test_style, "threadsafe");
    // Made by the parent only: the child finds the directory in its inherited environment (a
    // child's own TempDir would never be removed: it dies by SIGKILL).
    static std::optional<TempDir> dir;
    if (std::getenv(kCrashDirEnv) == nullptr) {
        dir.emplace("rewind-crash");
        ::setenv(kCrashDirEnv, dir->path().c_str(), 1);
    }
    const fs::path root = std::getenv(kCrashDirEnv);
    const fs::path work = root / ("kill-at-" + std::to_string(GetParam()));
    std::error_code ec;
    fs::remove_all(work, ec);  // left by an earlier iteration (--gtest_repeat)
    EXPECT_EXIT(rewind_and_die(work, GetParam()), ::testing::KilledBySignal(SIGKILL), "");

    static const StoreDigest want = [] {
        TempDir ref("rewind-crash-ref");
        ChainStore s = make_rewind_store(ref.path() / "db");
        if (!rewind_chain(s, rewind_to(kCrashTo))) throw std::runtime_error("reference rewind");
        return digest(s);
    }();
    auto store = ChainStore::open(work);
    ASSERT_TRUE(store) << store.error().message;
    const bool marked = store->pending_operation().value().has_value();
    // The marker is on disk from the end of the mark step to the end of the last step.
    EXPECT_EQ(marked, GetParam() > 1 && GetParam() < hook_calls()) << GetParam();
    if (marked) {
        EXPECT_EQ(store->head().value(), std::optional<std::uint64_t>(kCrashTo));
        EXPECT_FALSE(verify_store(*store, VerifyOptions{.progress = false}));
    }
    auto r = rewind_chain(*store, rewind_to(kCrashTo));
    ASSERT_TRUE(r) << r.error().message;
    EXPECT_EQ(r->resumed.has_value(), marked);
    EXPECT_FALSE(store->pending_operation().value().has_value());
    expect_same(digest(*store), want);
    expect_rewind_verifies(*store);
}

std::vector<int> every_hook_call() {
    std::vector<int> out;
    for (int k = 1; k <= hook_calls(); ++k) out.push_back(k);
    return out;
}

INSTANTIATE_TEST_SUITE_P(EveryHookCall, RewindCrash, ::testing::ValuesIn(every_hook_call()));

TEST(RewindChain, StepNames) {
    EXPECT_EQ(to_string(RewindStep::mark), "mark");
    EXPECT_EQ(to_string(RewindStep::unwind_state), "unwind state");
    EXPECT_EQ(to_string(RewindStep::delete_blocks), "delete blocks");
    EXPECT_EQ(to_string(RewindStep::clear_mark), "clear mark");
}

}  // namespace
}  // namespace keel::store
