// verify_store() on synthetic chains: the counts of consistent stores (full, empty, starting
// late, without receipts, pruned, with a prune pending), and one store per kind of damage,
// each reported at the right block with a one-line message naming what is wrong.
#include "keel/store/verify.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include "keel/crypto/keccak.hpp"
#include "keel/eth/header.hpp"
#include "keel/store/prune.hpp"
#include "keel/store/store_test_helpers.hpp"
#include "keel/store/synthetic_chain.hpp"
#include "test/testutil/temp_dir.hpp"

namespace keel::store {
namespace {

using test_helpers::prune_to;

using testutil::TempDir;

constexpr synthetic::ChainOptions kVerifyChain{
    .count = 120, .txs_per_block = 3, .merge_block = 100};

std::uint64_t count_txs(const std::vector<synthetic::Block>& blocks, std::uint64_t from = 0) {
    std::uint64_t n = 0;
    for (const auto& b : blocks) {
        if (b.number >= from) n += b.tx_hashes.size();
    }
    return n;
}

ChainStore store_of(const TempDir& dir, const std::vector<synthetic::Block>& blocks) {
    auto store = ChainStore::create(dir.path() / "db");
    if (!store) throw std::runtime_error(store.error().message);
    if (auto r = synthetic::put_chain(*store, blocks, 32); !r) {
        throw std::runtime_error(r.error().message);
    }
    return std::move(*store);
}

Result<VerifyReport, VerifyError> verify(const ChainStore& store) {
    return verify_store(store, VerifyOptions{.progress = false});
}

// Re-encodes a block's header after `edit`, and rehashes it.
void edit_header(synthetic::Block& b, const std::function<void(eth::Header&)>& edit) {
    auto h = eth::decode_header(b.header);
    ASSERT_TRUE(h);
    edit(*h);
    b.header = eth::encode(*h);
    b.hash = crypto::keccak256(b.header);
}

TEST(VerifyStore, CountsAConsistentStore) {
    TempDir dir;
    const auto blocks = synthetic::make_chain(kVerifyChain);
    ChainStore store = store_of(dir, blocks);
    ASSERT_TRUE(store.set_genesis_hash(blocks.front().hash));
    auto r = verify(store);
    ASSERT_TRUE(r) << r.error().message;
    EXPECT_EQ(r->blocks, 120u);
    EXPECT_EQ(r->tail, std::optional<std::uint64_t>(0));
    EXPECT_EQ(r->head, std::optional<std::uint64_t>(119));
    EXPECT_EQ(r->floor, 0u);
    EXPECT_FALSE(r->pending);
    EXPECT_EQ(r->bodies, 120u);
    EXPECT_EQ(r->receipts, 120u);
    EXPECT_EQ(r->no_receipts, 0u);
    EXPECT_EQ(r->transactions, count_txs(blocks));
    EXPECT_EQ(r->tx_lookups, count_txs(blocks));
    EXPECT_GT(r->transactions, 0u);
}

TEST(VerifyStore, EmptyStore) {
    TempDir dir;
    ChainStore store = store_of(dir, {});
    auto r = verify(store);
    ASSERT_TRUE(r) << r.error().message;
    EXPECT_EQ(r->blocks, 0u);
    EXPECT_FALSE(r->tail);
    EXPECT_FALSE(r->head);
}

TEST(VerifyStore, ChainStartingAfterGenesisWithoutReceipts) {
    TempDir dir;
    synthetic::ChainOptions options = kVerifyChain;
    options.first = 5000;
    options.receipts = false;  // as an RLP-chain import stores them
    const auto blocks = synthetic::make_chain(options);
    ChainStore store = store_of(dir, blocks);
    auto r = verify(store);
    ASSERT_TRUE(r) << r.error().message;
    EXPECT_EQ(r->tail, std::optional<std::uint64_t>(5000));
    EXPECT_EQ(r->head, std::optional<std::uint64_t>(5119));
    EXPECT_EQ(r->receipts, 0u);
    EXPECT_EQ(r->no_receipts, 120u);
}

TEST(VerifyStore, PrunedStore) {
    TempDir dir;
    const auto blocks = synthetic::make_chain(kVerifyChain);
    ChainStore store = store_of(dir, blocks);
    ASSERT_TRUE(prune_history(store, prune_to(100)));
    auto r = verify(store);
    ASSERT_TRUE(r) << r.error().message;
    EXPECT_EQ(r->blocks, 120u);
    EXPECT_EQ(r->floor, 100u);
    EXPECT_EQ(r->bodies, 20u);
    EXPECT_EQ(r->transactions, count_txs(blocks, 100));
    EXPECT_EQ(r->tx_lookups, count_txs(blocks, 100));
}

TEST(VerifyStore, HistoryBelowTheFloorIsFineOnlyWhileAPruneIsPending) {
    TempDir dir;
    const auto blocks = synthetic::make_chain(kVerifyChain);
    ChainStore store = store_of(dir, blocks);
    ASSERT_TRUE(store.set_history_floor(
        60, PendingOperation{std::string(kPruneOperation), prune_marker_argument(60, 0)}));
    auto r = verify(store);
    ASSERT_TRUE(r) << r.error().message;
    ASSERT_TRUE(r->pending);
    EXPECT_EQ(r->pending->kind, "prune");
    EXPECT_EQ(r->bodies, 60u);
    EXPECT_EQ(r->tx_lookups, count_txs(blocks, 60));

    // The same floor without the marker: the rows below it should be gone and are not.
    ASSERT_TRUE(store.set_pending_operation(std::nullopt));
    auto bad = verify(store);
    ASSERT_FALSE(bad);
    EXPECT_EQ(bad.error().block, std::optional<std::uint64_t>(0));
    EXPECT_EQ(bad.error().message, "block 0: body stored below the history floor 60");

    // A marker that disagrees with the floor.
    ASSERT_TRUE(store.set_pending_operation(
        PendingOperation{std::string(kPruneOperation), prune_marker_argument(61, 0)}));
    auto meta = verify(store);
    ASSERT_FALSE(meta);
    EXPECT_NE(meta.error().message.find("disagrees with the history floor 60"), std::string::npos)
        << meta.error().message;
}

// A damaged store: `damage` edits the chain before it is written (and may write more after).
struct Damage {
    const char* name;
    std::function<void(std::vector<synthetic::Block>&)> before;
    std::function<void(ChainStore&, const std::vector<synthetic::Block>&)> after;
    std::uint64_t block;
    const char* phrase;
};

std::vector<Damage> damages() {
    std::vector<Damage> out;
    out.push_back(
        {"parent hash",
         [](auto& bs) { edit_header(bs[50], [](eth::Header& h) { h.parent_hash[0] ^= 1; }); },
         nullptr, 50, "is not the canonical hash of block 49"});
    out.push_back({"header hash", [](auto& bs) { bs[30].hash[5] ^= 1; }, nullptr, 30,
                   "the header hashes to"});
    out.push_back({"header number",
                   [](auto& bs) { edit_header(bs[31], [](eth::Header& h) { h.number = 7; }); },
                   nullptr, 31, "the header says number 7"});
    out.push_back({"total difficulty", [](auto& bs) { bs[40].td = bs[40].td + 1; }, nullptr, 40,
                   "is not the parent's plus the difficulty"});
    out.push_back({"missing lookup", [](auto& bs) { bs[22].tx_hashes.clear(); }, nullptr, 22,
                   "transaction 0 (0x"});
    out.push_back({"lookup elsewhere",
                   [](auto& bs) { std::reverse(bs[23].tx_hashes.begin(), bs[23].tx_hashes.end()); },
                   nullptr, 23, "has a lookup entry for block 23 index 2"});
    out.push_back({"extra lookup",
                   [](auto& bs) {
                       Hash32 stray;
                       stray[0] = 0x42;
                       bs[24].tx_hashes.push_back(stray);
                   },
                   nullptr, 24, "points at index 3, but the block has 3 transactions stored"});
    out.push_back({"receipt count", [](auto& bs) { bs[25].receipts = Bytes{0xc2, 0xc0, 0xc0}; },
                   nullptr, 25, "2 receipts for 3 transactions"});
    out.push_back({"bad body", [](auto& bs) { bs[26].body = Bytes{0x01}; }, nullptr, 26,
                   "the body is not rlp"});
    out.push_back({"gap", [](auto& bs) { bs.erase(bs.begin() + 70); }, nullptr, 70,
                   "missing from the canonical chain (the next canonical block is 71)"});
    out.push_back({"replaced head", nullptr,
                   [](ChainStore& store, const auto& bs) {
                       synthetic::Block side = bs.back();
                       edit_header(side, [](eth::Header& h) { ++h.timestamp; });
                       const BlockToStore view = side.view();
                       ASSERT_TRUE(store.put_blocks({&view, 1}));
                   },
                   119, "which is not the canonical hash"});
    out.push_back({"genesis", nullptr,
                   [](ChainStore& store, const auto&) {
                       Hash32 other;
                       other[0] = 1;
                       ASSERT_TRUE(store.set_genesis_hash(other));
                   },
                   0, "is not the genesis hash in meta"});
    return out;
}

TEST(VerifyStore, ReportsEachDamageAtItsBlock) {
    for (const Damage& d : damages()) {
        SCOPED_TRACE(d.name);
        TempDir dir;
        auto blocks = synthetic::make_chain(kVerifyChain);
        if (d.before) d.before(blocks);
        ChainStore store = store_of(dir, blocks);
        if (d.after) d.after(store, blocks);
        auto r = verify(store);
        ASSERT_FALSE(r);
        const std::string& msg = r.error().message;
        EXPECT_EQ(r.error().block, std::optional<std::uint64_t>(d.block)) << msg;
        EXPECT_EQ(msg.rfind("block " + std::to_string(d.block) + ": ", 0), 0u) << msg;
        EXPECT_NE(msg.find(d.phrase), std::string::npos) << msg;
        EXPECT_EQ(msg.find('\n'), std::string::npos) << msg;
    }
}

}  // namespace
}  // namespace keel::store
