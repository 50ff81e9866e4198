// History pruning on synthetic chains: what is removed and what is kept, the report, refusals,
// resuming an interrupted prune, and kill -9 at every step boundary and at arbitrary moments
// (children that SIGKILL themselves), each followed by a re-run whose store must equal the one
// an uninterrupted prune makes.
#include "keel/store/prune.hpp"

#include <gtest/gtest.h>

#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "keel/store/keys.hpp"
#include "keel/store/store_test_helpers.hpp"
#include "keel/store/synthetic_chain.hpp"
#include "keel/store/verify.hpp"
#include "test/testutil/temp_dir.hpp"

namespace keel::store {
namespace {

using test_helpers::prune_to;

namespace fs = std::filesystem;
using test_helpers::digest_store;
using test_helpers::StoreDigest;
using testutil::TempDir;

// 300 blocks of 4 transactions (every 7th block has none), merge block 200 in meta.
constexpr synthetic::ChainOptions kChain{.count = 300, .txs_per_block = 4, .merge_block = 200};
constexpr std::uint64_t kMerge = 200;

const std::vector<synthetic::Block>& chain() {
    static const std::vector<synthetic::Block> blocks = synthetic::make_chain(kChain);
    return blocks;
}

ChainStore make_store(const fs::path& path, bool with_merge_block = true) {
    auto store = ChainStore::create(path);
    if (!store) throw std::runtime_error(store.error().message);
    if (auto r = synthetic::put_chain(*store, chain(), 64); !r) {
        throw std::runtime_error(r.error().message);
    }
    if (with_merge_block) {
        if (auto r = store->set_merge_block(kMerge); !r)
            throw std::runtime_error(r.error().message);
    }
    return std::move(*store);
}

std::uint64_t txs_below(std::uint64_t number) {
    std::uint64_t n = 0;
    for (const auto& b : chain()) {
        if (b.number < number) n += b.tx_hashes.size();
    }
    return n;
}

// The digest of a fresh store pruned to `until` in one uninterrupted call.
StoreDigest reference_digest(std::uint64_t until) {
    TempDir dir("prune-test");
    ChainStore store = make_store(dir.path() / "db");
    auto r = prune_history(store, prune_to(until));
    if (!r) throw std::runtime_error(r.error().message);
    auto d = digest_store(store);
    if (!d) throw std::runtime_error(d.error().message);
    return *d;
}

void expect_verifies(const ChainStore& store) {
    auto v = verify_store(store, VerifyOptions{.progress = false});
    ASSERT_TRUE(v) << v.error().message;
}

TEST(PruneHistory, RemovesHistoryBelowTheMergeBlockAndKeepsTheRest) {
    TempDir dir("prune-test");
    ChainStore store = make_store(dir.path() / "db");
    std::vector<std::pair<PruneStep, bool>> steps;
    PruneOptions options;
    options.on_step = [&](PruneStep s, bool done) { steps.emplace_back(s, done); };
    auto report = prune_history(store, options);
    ASSERT_TRUE(report) << report.error().message;

    EXPECT_TRUE(report->pruned);
    EXPECT_EQ(report->target, kMerge);  // defaulted to the merge block
    EXPECT_EQ(report->previous_floor, 0u);
    EXPECT_EQ(report->floor, kMerge);
    EXPECT_FALSE(report->resumed);
    EXPECT_EQ(report->blocks_pruned, kMerge);
    EXPECT_EQ(report->tx_lookups_dropped, txs_below(kMerge));
    EXPECT_GT(report->before.directory_bytes, 0u);
    EXPECT_GT(report->after.directory_bytes, 0u);
    EXPECT_LT(report->after.family_bytes[static_cast<std::size_t>(Family::bodies)],
              report->before.family_bytes[static_cast<std::size_t>(Family::bodies)]);
    EXPECT_LT(report->after.family_bytes[static_cast<std::size_t>(Family::tx_lookup)],
              report->before.family_bytes[static_cast<std::size_t>(Family::tx_lookup)]);

    // Every step ran once, in order, with a call before and after it.
    ASSERT_EQ(steps.size(), 2 * kPruneStepCount);
    for (std::size_t i = 0; i < steps.size(); ++i) {
        EXPECT_EQ(steps[i].first, static_cast<PruneStep>(i / 2));
        EXPECT_EQ(steps[i].second, i % 2 == 1);
    }

    EXPECT_EQ(store.history_floor(), kMerge);
    EXPECT_FALSE(store.pending_operation()->has_value());
    for (const auto& b : chain()) {
        SCOPED_TRACE(b.number);
        const ReadStatus history = b.number < kMerge ? ReadStatus::pruned : ReadStatus::found;
        EXPECT_EQ(store.body(b.number)->status, history);
        EXPECT_EQ(store.receipts(b.number)->status, history);
        for (std::size_t i = 0; i < b.tx_hashes.size(); ++i) {
            auto loc = store.tx_lookup(b.tx_hashes[i]);
            ASSERT_TRUE(loc);
            // Dropped by the compaction filter: a hash alone cannot say it was pruned, the
            // floor can (a caller answers "not found, history below block F is pruned").
            EXPECT_EQ(loc->status, b.number < kMerge ? ReadStatus::not_found : ReadStatus::found);
        }
        EXPECT_EQ(store.header_by_number(b.number)->value, b.header);
        EXPECT_EQ(store.canonical_hash(b.number)->value, b.hash);
        EXPECT_EQ(store.total_difficulty(b.number)->value, b.td);
        EXPECT_EQ(store.block_number(b.hash)->value, b.number);
    }
    // Nothing below the floor is left in the families, not even rows readers would not see.
    for (const Family f : {Family::bodies, Family::receipts}) {
        auto c = store.cursor(f);
        ASSERT_TRUE(c);
        ASSERT_TRUE(c->valid());
        EXPECT_EQ(keys::parse_number_hash(c->key())->number, kMerge) << family_name(f);
    }
    expect_verifies(store);
}

TEST(PruneHistory, NothingToDoAtOrBelowTheFloor) {
    TempDir dir("prune-test");
    ChainStore store = make_store(dir.path() / "db");
    ASSERT_TRUE(prune_history(store, prune_to(100)));
    auto before = digest_store(store);
    ASSERT_TRUE(before);
    for (const std::uint64_t until : {std::uint64_t{100}, std::uint64_t{40}, std::uint64_t{0}}) {
        int calls = 0;
        PruneOptions options = prune_to(until);
        options.on_step = [&](PruneStep, bool) { ++calls; };
        auto r = prune_history(store, options);
        ASSERT_TRUE(r) << r.error().message;
        EXPECT_FALSE(r->pruned) << until;
        EXPECT_EQ(r->floor, 100u);
        EXPECT_EQ(calls, 0);
    }
    EXPECT_EQ(*digest_store(store), *before);
}

TEST(PruneHistory, TwoPrunesEndAsOne) {
    TempDir dir("prune-test");
    ChainStore store = make_store(dir.path() / "db");
    auto first = prune_history(store, prune_to(90));
    ASSERT_TRUE(first) << first.error().message;
    auto second = prune_history(store, prune_to(250));
    ASSERT_TRUE(second) << second.error().message;
    EXPECT_EQ(second->previous_floor, 90u);
    EXPECT_EQ(second->blocks_pruned, 160u);
    EXPECT_EQ(first->tx_lookups_dropped + second->tx_lookups_dropped, txs_below(250));
    EXPECT_EQ(*digest_store(store), reference_digest(250));
    expect_verifies(store);
}

TEST(PruneHistory, FinishesAnInterruptedPruneAndGoesOnToTheNewTarget) {
    TempDir dir("prune-test");
    ChainStore store = make_store(dir.path() / "db");
    // A prune to 120 that stopped right after its first step.
    ASSERT_TRUE(store.set_history_floor(
        120, PendingOperation{std::string(kPruneOperation), prune_marker_argument(120, 0)}));
    EXPECT_EQ(store.body(119)->status, ReadStatus::pruned);  // pruned for readers already

    auto r = prune_history(store, prune_to(150));
    ASSERT_TRUE(r) << r.error().message;
    EXPECT_EQ(r->resumed, std::optional<std::uint64_t>(120));
    EXPECT_EQ(r->previous_floor, 0u);
    EXPECT_EQ(r->floor, 150u);
    EXPECT_EQ(r->blocks_pruned, 150u);
    EXPECT_FALSE(store.pending_operation()->has_value());
    EXPECT_EQ(*digest_store(store), reference_digest(150));

    // A target below the interrupted one's finishes the interrupted one.
    TempDir dir2("keel-prune-test");
    ChainStore store2 = make_store(dir2.path() / "db");
    ASSERT_TRUE(store2.set_history_floor(
        120, PendingOperation{std::string(kPruneOperation), prune_marker_argument(120, 0)}));
    auto r2 = prune_history(store2, prune_to(10));
    ASSERT_TRUE(r2) << r2.error().message;
    EXPECT_TRUE(r2->pruned);
    EXPECT_EQ(r2->floor, 120u);
    EXPECT_EQ(*digest_store(store2), reference_digest(120));
}

TEST(PruneHistory, RefusesWithoutWritingAnything) {
    TempDir dir("prune-test");
    auto expect_refused = [](ChainStore& store, const PruneOptions& options, PruneError::Code code,
                             const std::string& phrase) {
        auto before = digest_store(store);
        ASSERT_TRUE(before);
        auto r = prune_history(store, options);
        ASSERT_FALSE(r);
        EXPECT_EQ(r.error().code, code);
        EXPECT_NE(r.error().message.find(phrase), std::string::npos) << r.error().message;
        EXPECT_EQ(r.error().message.find('\n'), std::string::npos);
        EXPECT_EQ(*digest_store(store), *before);
    };

    ChainStore no_merge = make_store(dir.path() / "no-merge", false);
    expect_refused(no_merge, {}, PruneError::Code::no_target, "--until");
    // (With an interrupted prune pending, no target is needed: it is finished.)
    ASSERT_TRUE(no_merge.set_history_floor(
        30, PendingOperation{std::string(kPruneOperation), prune_marker_argument(30, 0)}));
    auto resumed = prune_history(no_merge);
    ASSERT_TRUE(resumed) << resumed.error().message;
    EXPECT_EQ(resumed->resumed, std::optional<std::uint64_t>(30));
    EXPECT_EQ(resumed->floor, 30u);
    expect_refused(no_merge, prune_to(300), PruneError::Code::above_head,
                   "block 300 is above the head 299");

    auto empty = ChainStore::create(dir.path() / "empty");
    ASSERT_TRUE(empty);
    expect_refused(*empty, prune_to(1), PruneError::Code::empty_store, "empty");

    ChainStore other = make_store(dir.path() / "other");
    ASSERT_TRUE(other.set_pending_operation(PendingOperation{"import", {}}));
    expect_refused(other, {}, PruneError::Code::other_operation, "'import'");

    ChainStore bad = make_store(dir.path() / "bad");
    ASSERT_TRUE(bad.set_pending_operation(PendingOperation{"prune", Bytes{1, 2, 3}}));
    expect_refused(bad, {}, PruneError::Code::bad_marker, "3 bytes");
}

TEST(PruneHistory, StepNames) {
    EXPECT_EQ(to_string(PruneStep::mark), "mark");
    EXPECT_EQ(to_string(PruneStep::compact_tx_lookup), "compact tx_lookup");
    EXPECT_EQ(to_string(PruneStep::clear_mark), "clear mark");
}

// ---- kill -9 ----------------------------------------------------------------------------------
//
// Each crash runs in a child that gtest starts by re-executing this test binary (death test
// style "threadsafe"), never in a bare fork() of it: RocksDB runs flushes and compactions on a
// process-wide thread pool, and a forked child inherits the pool's bookkeeping without its
// threads, so its first flush or compaction waits forever once the parent (or any earlier test
// in this binary) has opened a database. The child copies a closed base store, prunes the copy
// and SIGKILLs itself at the crash point; the parent then opens the copy, re-runs the prune and
// compares every family with the base store pruned without interruption.

constexpr const char* kCrashRootEnv = "KEEL_PRUNE_CRASH_ROOT";
// About 100k transactions, in table files of several flushes: compactions take a while.
constexpr synthetic::ChainOptions kCrashChain{
    .count = 12000, .txs_per_block = 10, .merge_block = 8000};

// The base store and its uninterrupted prune, made once by the parent process; a child finds
// the directory through the environment (it is started after the parent made it).
class CrashFixture {
  public:
    CrashFixture() {
        if (const char* root = std::getenv(kCrashRootEnv)) {
            root_ = root;
            return;
        }
        root_ = fs::temp_directory_path() /
                ("keel-prune-crash-" + std::to_string(::getpid()) + "-" +
                 std::to_string(std::chrono::steady_clock::now().time_since_epoch().count()));
        fs::create_directories(root_);
        owner_ = true;
        {
            auto store = ChainStore::create(base());
            if (!store) throw std::runtime_error(store.error().message);
            auto txs = synthetic::write_chain(*store, kCrashChain, 500, 4);
            if (!txs) throw std::runtime_error(txs.error().message);
            if (!store->set_merge_block(kCrashChain.merge_block)) throw std::runtime_error("meta");
            transactions_ = *txs;
        }
        fs::copy(base(), root_ / "reference", fs::copy_options::recursive);
        auto ref = ChainStore::open(root_ / "reference");
        if (!ref) throw std::runtime_error(ref.error().message);
        auto r = prune_history(*ref);
        if (!r) throw std::runtime_error(r.error().message);
        auto v = verify_store(*ref, VerifyOptions{.progress = false});
        if (!v) throw std::runtime_error("reference: " + v.error().message);
        auto d = digest_store(*ref);
        if (!d) throw std::runtime_error(d.error().message);
        reference_ = *d;
        ::setenv(kCrashRootEnv, root_.c_str(), 1);
    }
    ~CrashFixture() {
        if (!owner_) return;
        std::error_code ec;
        fs::remove_all(root_, ec);
    }
    CrashFixture(const CrashFixture&) = delete;
    CrashFixture& operator=(const CrashFixture&) = delete;

    fs::path base() const { return root_ / "base"; }
    fs::path work(const std::string& name) const { return root_ / name; }
    const StoreDigest& reference() const { return reference_; }
    std::uint64_t transactions() const { return transactions_; }

  private:
    fs::path root_;
    StoreDigest reference_{};
    std::uint64_t transactions_ = 0;
    bool owner_ = false;
};

const CrashFixture& crash_fixture() {
    static const CrashFixture fixture;
    return fixture;
}

std::string current_test_name() {
    std::string name = ::testing::UnitTest::GetInstance()->current_test_info()->name();
    for (char& c : name) {
        if (c == '/') c = '_';
    }
    return name;
}

// Where a child dies: at a step boundary (before or after the step), or after a delay.
struct CrashPoint {
    std::optional<std::pair<PruneStep, bool>> step;
    std::chrono::milliseconds delay{0};
};

// "delete ranges done": the child writes one such line as each hook call starts.
std::string step_line(PruneStep step, bool done) {
    return std::string(to_string(step)) + (done ? " done" : " starts");
}

// The child: copies the base store, prunes the copy and dies by SIGKILL at `point`, or at the
// end when the prune finished first. Any other way out (an error) fails the death test.
[[noreturn]] void prune_and_die(const fs::path& base, const fs::path& work, CrashPoint point) {
    std::error_code ec;
    fs::remove_all(work, ec);
    fs::copy(base, work, fs::copy_options::recursive);
    std::ofstream log(work.string() + ".steps", std::ios::trunc);
    if (!point.step) {
        std::thread([delay = point.delay] {
            std::this_thread::sleep_for(delay);
            ::kill(::getpid(), SIGKILL);
        }).detach();
    }
    auto store = ChainStore::open(work);
    if (!store) std::_Exit(3);
    PruneOptions options;
    options.on_step = [&](PruneStep step, bool done) {
        log << step_line(step, done) << std::endl;  // flushed: the parent reads it after the kill
        if (point.step && point.step->first == step && point.step->second == done) {
            ::kill(::getpid(), SIGKILL);
        }
    };
    auto r = prune_history(*store, options);
    if (!r) std::_Exit(4);
    log << "finished" << std::endl;
    ::kill(::getpid(), SIGKILL);
    std::_Exit(5);
}

std::vector<std::string> read_lines(const fs::path& path) {
    std::ifstream in(path);
    std::vector<std::string> lines;
    for (std::string line; std::getline(in, line);) lines.push_back(line);
    return lines;
}

// The parent's half: re-runs the prune on the crashed copy and compares it with the reference.
// Returns whether the crashed run had left its marker (so the re-run resumed).
bool resume_and_compare(const fs::path& work) {
    const CrashFixture& fx = crash_fixture();
    auto store = ChainStore::open(work);
    EXPECT_TRUE(store) << store.error().message;
    if (!store) return false;
    auto pending = store->pending_operation();
    EXPECT_TRUE(pending);
    const bool marked = pending && pending->has_value();
    if (marked) {
        // Step 1 raised the floor with the marker: history below it reads as pruned already.
        EXPECT_EQ(store->history_floor(), kCrashChain.merge_block);
        EXPECT_EQ(store->body(kCrashChain.merge_block - 1)->status, ReadStatus::pruned);
    }
    auto r = prune_history(*store);
    EXPECT_TRUE(r) << r.error().message;
    if (!r) return marked;
    EXPECT_EQ(r->resumed.has_value(), marked);
    EXPECT_EQ(r->floor, kCrashChain.merge_block);
    EXPECT_FALSE(store->pending_operation()->has_value());
    auto v = verify_store(*store, VerifyOptions{.progress = false});
    EXPECT_TRUE(v) << v.error().message;
    if (v) {
        EXPECT_EQ(v->bodies, kCrashChain.count - kCrashChain.merge_block);
        EXPECT_EQ(v->tx_lookups, v->transactions);
        EXPECT_LT(v->transactions, fx.transactions());
    }
    auto d = digest_store(*store);
    EXPECT_TRUE(d) << d.error().message;
    if (d) {
        for (std::size_t f = 0; f < kFamilyCount; ++f) {
            EXPECT_EQ((*d)[f], fx.reference()[f]) << family_name(static_cast<Family>(f));
        }
    }
    return marked;
}

class PruneCrashAtStep : public ::testing::TestWithParam<std::pair<PruneStep, bool>> {};

TEST_P(PruneCrashAtStep, RerunEndsAsAnUninterruptedPrune) {
    GTEST_FLAG_SET(death_test_style, "threadsafe");
    const CrashFixture& fx = crash_fixture();
    const fs::path work = fx.work(current_test_name());
    const auto [step, done] = GetParam();
    EXPECT_EXIT(prune_and_die(fx.base(), work, CrashPoint{GetParam(), {}}),
                ::testing::KilledBySignal(SIGKILL), "");

    // The child died where it was told to.
    const auto lines = read_lines(work.string() + ".steps");
    ASSERT_FALSE(lines.empty());
    EXPECT_EQ(lines.back(), step_line(step, done));

    // The marker is on disk from the end of step 1 to the end of step 5.
    const bool want_marked = (step == PruneStep::mark && done) ||
                             (step != PruneStep::mark && !(step == PruneStep::clear_mark && done));
    EXPECT_EQ(resume_and_compare(work), want_marked);
}

std::string crash_point_name(const ::testing::TestParamInfo<std::pair<PruneStep, bool>>& info) {
    std::string name =
        (info.param.second ? "after_" : "before_") + std::string(to_string(info.param.first));
    for (char& c : name) {
        if (c == ' ') c = '_';
    }
    return name;
}

std::vector<std::pair<PruneStep, bool>> all_step_boundaries() {
    std::vector<std::pair<PruneStep, bool>> out;
    for (std::size_t s = 0; s < kPruneStepCount; ++s) {
        out.emplace_back(static_cast<PruneStep>(s), false);
        out.emplace_back(static_cast<PruneStep>(s), true);
    }
    return out;
}

INSTANTIATE_TEST_SUITE_P(EveryBoundary, PruneCrashAtStep,
                         ::testing::ValuesIn(all_step_boundaries()), crash_point_name);

class PruneCrashAfterDelay : public ::testing::TestWithParam<int> {};

// Killed after a delay (by a timer thread in the child, as a kill from outside would): wherever
// the kill lands (opening, a step, inside a compaction, or after the prune finished) the re-run
// ends with the same store. Where it landed is printed, not asserted: it depends on the
// machine's speed.
TEST_P(PruneCrashAfterDelay, RerunEndsAsAnUninterruptedPrune) {
    GTEST_FLAG_SET(death_test_style, "threadsafe");
    const CrashFixture& fx = crash_fixture();
    const fs::path work = fx.work(current_test_name());
    EXPECT_EXIT(prune_and_die(fx.base(), work,
                              CrashPoint{std::nullopt, std::chrono::milliseconds(GetParam())}),
                ::testing::KilledBySignal(SIGKILL), "");
    const auto lines = read_lines(work.string() + ".steps");
    std::string landed = "before the first step";
    if (!lines.empty()) {
        landed = lines.back() == "finished" ? "after the prune finished"
                                            : "after '" + lines.back() + "'";
    }
    std::cout << "[ kill -9 after " << GetParam() << " ms: " << landed << " ]\n";
    resume_and_compare(work);
}

INSTANTIATE_TEST_SUITE_P(Delays, PruneCrashAfterDelay,
                         ::testing::Values(0, 5, 15, 30, 60, 100, 150, 200, 250, 300, 350, 450,
                                           800));

}  // namespace
}  // namespace keel::store
