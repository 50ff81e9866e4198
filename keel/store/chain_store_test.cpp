// ChainStore over blocks of the real Sepolia era1 archive sepolia-00021 in a temporary
// directory: batches written, the store reopened, everything read back byte-identical, tx
// lookups, not found, pruned below the history floor, and the error path.
#include "keel/store/chain_store.hpp"

#include <gtest/gtest.h>

#include <fcntl.h>
#include <sys/file.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <optional>
#include <random>
#include <span>
#include <string>
#include <vector>

#include "keel/crypto/keccak.hpp"
#include "keel/eth/block.hpp"
#include "keel/eth/receipt.hpp"
#include "keel/rlp/encode.hpp"
#include "keel/store/era1.hpp"
#include "keel/store/keys.hpp"
#include "test/testutil/temp_dir.hpp"
#include "test/testutil/vectors.hpp"

namespace keel::store {
namespace {

namespace fs = std::filesystem;

using testutil::TempDir;

// One block as the store receives it, with owned bytes.
struct OwnedBlock {
    std::uint64_t number = 0;
    Hash32 hash;
    Bytes header;
    Bytes body;
    Bytes receipts;
    Uint256 td;
    std::vector<Hash32> tx_hashes;

    BlockToStore view() const { return {number, hash, header, body, receipts, td, tx_hashes}; }
};

Bytes encode_receipts(const std::vector<eth::Receipt>& receipts) {
    rlp::Encoder items;
    for (const auto& r : receipts) eth::encode_item(r, items);
    rlp::Encoder out;
    out.add_list_header(items.size());
    out.add_raw(items.view());
    return out.take();
}

// The whole archive (8192 blocks, 93 transactions in 74 blocks, the first at 174010), in
// batches that do not divide it.
constexpr std::size_t kBatch = 500;

const std::vector<OwnedBlock>& blocks() {
    static const std::vector<OwnedBlock> out = [] {
        const Bytes file =
            testutil::read_file(testutil::vectors_dir("era1") / "sepolia-00021-b8814b14.era1");
        auto era = Era1::open(file);
        if (!era) throw std::runtime_error("era1: " + to_string(era.error()));
        std::vector<OwnedBlock> v;
        Bytes scratch;
        for (std::size_t i = 0; i < era->count(); ++i) {
            auto b = era->block(i, scratch);
            if (!b) throw std::runtime_error("era1: " + to_string(b.error()));
            OwnedBlock o;
            o.number = b->header.number;
            o.hash = b->hash;
            o.header = eth::encode(b->header);
            o.body = eth::encode(b->body);
            o.receipts = encode_receipts(b->receipts);
            o.td = b->total_difficulty;
            for (const auto& tx : b->body.transactions) o.tx_hashes.push_back(tx.hash());
            v.push_back(std::move(o));
        }
        return v;
    }();
    return out;
}

std::size_t tx_count() {
    std::size_t n = 0;
    for (const auto& b : blocks()) n += b.tx_hashes.size();
    return n;
}

void put_all(ChainStore& store) {
    const auto& all = blocks();
    for (std::size_t i = 0; i < all.size(); i += kBatch) {
        std::vector<BlockToStore> batch;
        for (std::size_t j = i; j < std::min(all.size(), i + kBatch); ++j) {
            batch.push_back(all[j].view());
        }
        auto r = store.put_blocks(batch);
        ASSERT_TRUE(r) << r.error().message;
    }
}

TEST(ChainStore, ArchiveBlocksAreWhatTheTestThinks) {
    const auto& all = blocks();
    ASSERT_EQ(all.size(), 8192u);
    EXPECT_EQ(all.front().number, 21u * 8192u);
    EXPECT_EQ(tx_count(), 93u);  // expected.json: totalTransactions
    for (const auto& b : all) EXPECT_EQ(crypto::keccak256(b.header), b.hash);
}

TEST(ChainStore, PutReopenReadBack) {
    TempDir dir;
    const fs::path path = dir.path() / "db";
    {
        auto store = ChainStore::create(path);
        ASSERT_TRUE(store) << store.error().message;
        auto head = store->head();
        ASSERT_TRUE(head);
        EXPECT_FALSE(head->has_value());
        put_all(*store);
        ASSERT_TRUE(store->set_chain_id(11155111));
        ASSERT_TRUE(store->set_genesis_hash(blocks().front().hash));
        ASSERT_TRUE(store->set_merge_block(1735371));
    }
    auto store = ChainStore::open(path);
    ASSERT_TRUE(store) << store.error().message;

    const auto& all = blocks();
    auto head = store->head();
    ASSERT_TRUE(head);
    ASSERT_TRUE(head->has_value());
    EXPECT_EQ(**head, all.back().number);
    EXPECT_EQ(*store->chain_id(), std::optional<std::uint64_t>(11155111));
    EXPECT_EQ(*store->genesis_hash(), std::optional<Hash32>(all.front().hash));
    EXPECT_EQ(*store->merge_block(), std::optional<std::uint64_t>(1735371));
    EXPECT_EQ(store->history_floor(), 0u);

    std::size_t looked_up = 0;
    for (const auto& b : all) {
        SCOPED_TRACE(b.number);
        auto h = store->header_by_number(b.number);
        ASSERT_TRUE(h);
        ASSERT_EQ(h->status, ReadStatus::found);
        EXPECT_EQ(h->value, b.header);
        auto hh = store->header_by_hash(b.hash);
        ASSERT_TRUE(hh);
        ASSERT_EQ(hh->status, ReadStatus::found);
        EXPECT_EQ(hh->value, b.header);
        auto c = store->canonical_hash(b.number);
        ASSERT_TRUE(c && c->found());
        EXPECT_EQ(c->value, b.hash);
        auto n = store->block_number(b.hash);
        ASSERT_TRUE(n && n->found());
        EXPECT_EQ(n->value, b.number);
        auto td = store->total_difficulty(b.number);
        ASSERT_TRUE(td && td->found());
        EXPECT_EQ(td->value, b.td);
        auto body = store->body(b.number);
        ASSERT_TRUE(body && body->found());
        EXPECT_EQ(body->value, b.body);
        auto rc = store->receipts(b.number);
        ASSERT_TRUE(rc && rc->found());
        EXPECT_EQ(rc->value, b.receipts);
        // By number and hash (any branch): the same rows.
        EXPECT_EQ(store->body_at(b.number, b.hash)->value, b.body);
        EXPECT_EQ(store->receipts_at(b.number, b.hash)->value, b.receipts);
        for (std::size_t i = 0; i < b.tx_hashes.size(); ++i) {
            auto loc = store->tx_lookup(b.tx_hashes[i]);
            ASSERT_TRUE(loc && loc->found());
            EXPECT_EQ(loc->value, (TxLocation{b.number, static_cast<std::uint32_t>(i)}));
            ++looked_up;
        }
    }
    EXPECT_EQ(looked_up, tx_count());

    // Missing keys: not found, not pruned.
    const std::uint64_t past = all.back().number + 1;
    Hash32 unknown;
    unknown[0] = 0xab;
    EXPECT_EQ(store->header_by_number(past)->status, ReadStatus::not_found);
    EXPECT_EQ(store->header_by_hash(unknown)->status, ReadStatus::not_found);
    EXPECT_EQ(store->canonical_hash(past)->status, ReadStatus::not_found);
    EXPECT_EQ(store->block_number(unknown)->status, ReadStatus::not_found);
    EXPECT_EQ(store->total_difficulty(past)->status, ReadStatus::not_found);
    EXPECT_EQ(store->body(past)->status, ReadStatus::not_found);
    EXPECT_EQ(store->receipts(past)->status, ReadStatus::not_found);
    EXPECT_EQ(store->body_at(all.back().number, unknown)->status, ReadStatus::not_found);
    EXPECT_EQ(store->receipts_at(all.back().number, unknown)->status, ReadStatus::not_found);
    EXPECT_EQ(store->tx_lookup(unknown)->status, ReadStatus::not_found);
}

TEST(ChainStore, CanonicalRewritesCountWhatTakesCanonicalHashesBack) {
    TempDir dir;
    auto store = ChainStore::create(dir.path() / "db");
    ASSERT_TRUE(store) << store.error().message;
    const auto& all = blocks();
    std::vector<BlockToStore> first;
    for (std::size_t i = 0; i < 10; ++i) first.push_back(all[i].view());
    ASSERT_TRUE(store->put_blocks(first));
    EXPECT_EQ(store->canonical_rewrites(), 0u);  // the chain extended
    ASSERT_TRUE(store->put_blocks(std::span(&first[5], 1)));
    EXPECT_EQ(store->canonical_rewrites(), 0u);  // a canonical block stored again
    BlockToStore other = first[5];
    Hash32 other_hash = other.hash;
    other_hash[0] ^= 1;
    other.hash = other_hash;
    ASSERT_TRUE(store->put_blocks(std::span(&other, 1)));
    EXPECT_EQ(store->canonical_rewrites(), 1u);  // block 5's canonical hash replaced
    EXPECT_EQ(store->canonical_hash(first[5].number)->value, other_hash);
    ASSERT_TRUE(store->delete_blocks(first[8].number, first[9].number + 1, {}, {}));
    EXPECT_EQ(store->canonical_rewrites(), 2u);  // blocks deleted
    ASSERT_TRUE(store->put_blocks(std::span(&first[8], 2)));
    EXPECT_EQ(store->canonical_rewrites(), 3u);  // at or below the head (9), where none is held
}

// The head and the last header read by number are kept in memory (no read for "latest"): what
// replaces, removes or lowers them is seen by the next read, and a reopened store reads them.
TEST(ChainStore, HeadAndKeptHeaderFollowEveryWriteOfTheCanonicalChain) {
    TempDir dir;
    const fs::path path = dir.path() / "db";
    const auto& all = blocks();
    std::vector<BlockToStore> first;
    for (std::size_t i = 0; i < 6; ++i) first.push_back(all[i].view());
    const std::uint64_t top = first[5].number;
    const auto header_at = [&](ChainStore& store, std::uint64_t n) {
        auto h = store.header_by_number(n);
        EXPECT_TRUE(h.has_value());
        return h && h->found() ? std::optional<Bytes>(h->value) : std::nullopt;
    };
    {
        auto store = ChainStore::create(path);
        ASSERT_TRUE(store) << store.error().message;
        EXPECT_FALSE(store->head()->has_value());
        ASSERT_TRUE(store->put_blocks(first));
        EXPECT_EQ(**store->head(), top);
        EXPECT_EQ(header_at(*store, top),
                  Bytes(first[5].header_rlp.begin(), first[5].header_rlp.end()));
        // Block `top` replaced by another: the kept header is not its old one.
        BlockToStore other = first[5];
        Bytes other_rlp(first[5].header_rlp.begin(), first[5].header_rlp.end());
        other_rlp.back() ^= 1;
        other.header_rlp = other_rlp;
        Hash32 other_hash = other.hash;
        other_hash[0] ^= 1;
        other.hash = other_hash;
        ASSERT_TRUE(store->put_blocks(std::span(&other, 1)));
        EXPECT_EQ(header_at(*store, top), other_rlp);
        // Deleted: not found, though it was the header kept.
        ASSERT_TRUE(store->delete_blocks(top, top + 1, {}, {}));
        EXPECT_EQ(header_at(*store, top), std::nullopt);
        EXPECT_EQ(header_at(*store, top - 1),
                  Bytes(first[4].header_rlp.begin(), first[4].header_rlp.end()));
        // The head lowered by a rewind's first step.
        ASSERT_TRUE(store->lower_head(top - 2, PendingOperation{"rewind", {}}));
        EXPECT_EQ(**store->head(), top - 2);
    }
    auto store = ChainStore::open(path);
    ASSERT_TRUE(store) << store.error().message;
    EXPECT_EQ(**store->head(), top - 2);
}

TEST(ChainStore, HistoryFloorMakesHistoryPruned) {
    TempDir dir;
    const fs::path path = dir.path() / "db";
    const auto& all = blocks();
    const std::uint64_t floor = all[all.size() / 2].number;
    {
        auto store = ChainStore::create(path);
        ASSERT_TRUE(store) << store.error().message;
        put_all(*store);
        ASSERT_TRUE(store->set_history_floor(floor));
        EXPECT_EQ(store->history_floor(), floor);
    }
    auto store = ChainStore::open(path);
    ASSERT_TRUE(store) << store.error().message;
    EXPECT_EQ(store->history_floor(), floor);
    std::size_t pruned_txs = 0;
    for (const auto& b : all) {
        SCOPED_TRACE(b.number);
        const ReadStatus history = b.number < floor ? ReadStatus::pruned : ReadStatus::found;
        EXPECT_EQ(store->body(b.number)->status, history);
        EXPECT_EQ(store->receipts(b.number)->status, history);
        for (std::size_t i = 0; i < b.tx_hashes.size(); ++i) {
            auto loc = store->tx_lookup(b.tx_hashes[i]);
            ASSERT_TRUE(loc);
            EXPECT_EQ(loc->status, history);
            // A pruned entry still on disk says where it was.
            EXPECT_EQ(loc->value, (TxLocation{b.number, static_cast<std::uint32_t>(i)}));
            if (b.number < floor) ++pruned_txs;
        }
        // Headers, canonical hashes and TD are kept.
        EXPECT_EQ(store->header_by_number(b.number)->status, ReadStatus::found);
        EXPECT_EQ(store->canonical_hash(b.number)->status, ReadStatus::found);
        EXPECT_EQ(store->total_difficulty(b.number)->status, ReadStatus::found);
    }
    EXPECT_GT(pruned_txs, 0u) << "the floor should cover blocks with transactions";

    // A compaction drops the lookup entries below the floor (they then read as not found: a
    // hash alone cannot say which block it was in) and keeps the others.
    ASSERT_TRUE(store->compact_tx_lookup());
    std::size_t kept = 0;
    for (const auto& b : all) {
        for (std::size_t i = 0; i < b.tx_hashes.size(); ++i) {
            auto loc = store->tx_lookup(b.tx_hashes[i]);
            ASSERT_TRUE(loc);
            if (b.number < floor) {
                EXPECT_EQ(loc->status, ReadStatus::not_found) << b.number;
            } else {
                ASSERT_EQ(loc->status, ReadStatus::found) << b.number;
                EXPECT_EQ(loc->value, (TxLocation{b.number, static_cast<std::uint32_t>(i)}));
                ++kept;
            }
        }
    }
    EXPECT_EQ(kept + pruned_txs, tx_count());
    EXPECT_GT(kept, 0u);
}

TEST(ChainStore, TailIsTheLowestCanonicalBlock) {
    TempDir dir;
    auto store = ChainStore::create(dir.path() / "db");
    ASSERT_TRUE(store) << store.error().message;
    auto empty = store->tail();
    ASSERT_TRUE(empty);
    EXPECT_FALSE(empty->has_value());
    put_all(*store);
    auto tail = store->tail();
    ASSERT_TRUE(tail);
    EXPECT_EQ(*tail, std::optional<std::uint64_t>(blocks().front().number));
    EXPECT_EQ(*store->head(), std::optional<std::uint64_t>(blocks().back().number));
}

TEST(ChainStore, CursorsWalkAFamilyInKeyOrderWithinBounds) {
    TempDir dir;
    auto store = ChainStore::create(dir.path() / "db");
    ASSERT_TRUE(store) << store.error().message;
    put_all(*store);
    const auto& all = blocks();

    // The whole canonical family: every block, in number order.
    auto c = store->cursor(Family::canonical);
    ASSERT_TRUE(c) << c.error().message;
    std::size_t i = 0;
    for (; c->valid(); c->next(), ++i) {
        ASSERT_LT(i, all.size());
        EXPECT_EQ(keys::parse_number(c->key()), std::optional<std::uint64_t>(all[i].number));
        EXPECT_TRUE(std::equal(c->value().begin(), c->value().end(), all[i].hash.view().begin()));
    }
    EXPECT_TRUE(c->status());
    EXPECT_EQ(i, all.size());

    // Bodies of blocks [first + 10, first + 20): the bounds are number keys.
    const std::uint64_t first = all.front().number;
    const auto lower = keys::number(first + 10);
    const auto upper = keys::number(first + 20);
    auto b = store->cursor(Family::bodies, lower, upper);
    ASSERT_TRUE(b);
    std::vector<std::uint64_t> numbers;
    for (; b->valid(); b->next()) {
        const auto nh = keys::parse_number_hash(b->key());
        ASSERT_TRUE(nh);
        EXPECT_EQ(Bytes(b->value().begin(), b->value().end()), all[nh->number - first].body);
        numbers.push_back(nh->number);
    }
    ASSERT_EQ(numbers.size(), 10u);
    EXPECT_EQ(numbers.front(), first + 10);
    EXPECT_EQ(numbers.back(), first + 19);

    // seek() moves within the bounds.
    b->seek(keys::number(first + 15));
    ASSERT_TRUE(b->valid());
    EXPECT_EQ(keys::parse_number_hash(b->key())->number, first + 15);
    EXPECT_EQ(family_name(Family::tx_lookup), "tx_lookup");
    EXPECT_EQ(family_name(Family::headers), "headers");
}

TEST(ChainStore, PrunePrimitivesRemoveHistoryAndReportSizes) {
    TempDir dir;
    auto store = ChainStore::create(dir.path() / "db");
    ASSERT_TRUE(store) << store.error().message;
    put_all(*store);
    const auto& all = blocks();
    const std::uint64_t first = all.front().number;
    const std::uint64_t floor = all[all.size() / 2].number;
    std::size_t txs_below = 0;
    for (const auto& b : all) {
        if (b.number < floor) txs_below += b.tx_hashes.size();
    }
    ASSERT_GT(txs_below, 0u);

    ASSERT_TRUE(store->flush());
    auto before = store->disk_usage();
    ASSERT_TRUE(before) << before.error().message;
    EXPECT_GT(before->directory_bytes, 0u);
    EXPECT_GT(before->family_bytes[static_cast<std::size_t>(Family::bodies)], 0u);

    // Step 1: the marker and the floor in one batch.
    ASSERT_TRUE(store->set_history_floor(floor, PendingOperation{"prune", Bytes{7}}));
    EXPECT_EQ(store->history_floor(), floor);
    EXPECT_EQ((*store->pending_operation())->argument, Bytes{7});
    EXPECT_EQ(store->body(floor - 1)->status, ReadStatus::pruned);
    const Hash32 below = store->canonical_hash(floor - 1)->value;
    EXPECT_EQ(store->body_at(floor - 1, below)->status, ReadStatus::pruned);
    EXPECT_EQ(store->receipts_at(floor - 1, below)->status, ReadStatus::pruned);

    // Steps 2 to 4. An empty range is a no-op; repeating a step is harmless.
    ASSERT_TRUE(store->delete_history(5, 5));
    ASSERT_TRUE(store->delete_history(0, floor));
    ASSERT_TRUE(store->delete_history(0, floor));
    const std::uint64_t dropped = store->tx_lookup_entries_dropped();
    ASSERT_TRUE(store->compact_tx_lookup());
    EXPECT_EQ(store->tx_lookup_entries_dropped() - dropped, txs_below);
    ASSERT_TRUE(store->compact_history(0, floor));
    ASSERT_TRUE(store->compact_history(0, floor));

    for (const Family f : {Family::bodies, Family::receipts}) {
        auto c = store->cursor(f);
        ASSERT_TRUE(c);
        ASSERT_TRUE(c->valid());
        EXPECT_EQ(keys::parse_number_hash(c->key())->number, floor) << family_name(f);
    }
    auto headers = store->cursor(Family::headers);
    ASSERT_TRUE(headers && headers->valid());
    EXPECT_EQ(keys::parse_number_hash(headers->key())->number, first);  // headers are kept

    ASSERT_TRUE(store->flush());
    auto after = store->disk_usage();
    ASSERT_TRUE(after);
    EXPECT_LT(after->family_bytes[static_cast<std::size_t>(Family::bodies)],
              before->family_bytes[static_cast<std::size_t>(Family::bodies)]);
    EXPECT_LT(after->family_bytes[static_cast<std::size_t>(Family::receipts)],
              before->family_bytes[static_cast<std::size_t>(Family::receipts)]);
    EXPECT_EQ(after->family_bytes[static_cast<std::size_t>(Family::headers)],
              before->family_bytes[static_cast<std::size_t>(Family::headers)]);
}

TEST(ChainStore, PendingOperationRoundTrip) {
    TempDir dir;
    auto store = ChainStore::create(dir.path() / "db");
    ASSERT_TRUE(store) << store.error().message;
    EXPECT_FALSE(store->pending_operation()->has_value());
    ASSERT_TRUE(store->set_pending_operation(PendingOperation{"prune", Bytes{1, 2, 3}}));
    auto op = store->pending_operation();
    ASSERT_TRUE(op && op->has_value());
    EXPECT_EQ((*op)->kind, "prune");
    EXPECT_EQ((*op)->argument, (Bytes{1, 2, 3}));
    ASSERT_TRUE(store->set_pending_operation(std::nullopt));
    EXPECT_FALSE(store->pending_operation()->has_value());
}

TEST(ChainStore, ErrorsAreOneLine) {
    TempDir dir;
    const fs::path file = dir.path() / "plain-file";
    std::ofstream(file) << "not a database";
    for (const bool create : {false, true}) {
        auto store = create ? ChainStore::create(file) : ChainStore::open(file);
        ASSERT_FALSE(store);
        const std::string& msg = store.error().message;
        EXPECT_NE(msg.find(file.string()), std::string::npos) << msg;
        EXPECT_EQ(msg.find('\n'), std::string::npos) << msg;
        EXPECT_FALSE(msg.empty());
    }
    // Opening a missing store creates nothing, not even the directory or RocksDB's files.
    auto missing = ChainStore::open(dir.path() / "missing");
    ASSERT_FALSE(missing);
    EXPECT_EQ(missing.error().message,
              "store open " + (dir.path() / "missing").string() + ": no such directory");
    EXPECT_FALSE(fs::exists(dir.path() / "missing"));
    fs::create_directories(dir.path() / "empty");
    auto empty = ChainStore::open(dir.path() / "empty");
    ASSERT_FALSE(empty);
    EXPECT_NE(empty.error().message.find("no CURRENT file"), std::string::npos);
    EXPECT_TRUE(fs::is_empty(dir.path() / "empty"));
    // Creating over an existing store fails.
    ASSERT_TRUE(ChainStore::create(dir.path() / "db"));
    EXPECT_FALSE(ChainStore::create(dir.path() / "db"));
}

}  // namespace
}  // namespace keel::store

namespace keel::store {
namespace {

TEST(ChainStore, CreateIsAtomic) {
    testutil::TempDir dir("chain-store-test");
    const auto path = dir.path() / "db";
    // What a create killed half-way leaves behind is cleared, and never shows at the path.
    std::filesystem::create_directories(dir.path() / "db.creating");
    std::ofstream(dir.path() / "db.creating" / "LOCK") << "junk";
    {
        auto created = ChainStore::create(path);
        ASSERT_TRUE(created) << created.error().message;
        EXPECT_FALSE(std::filesystem::exists(dir.path() / "db.creating"));
    }
    ASSERT_TRUE(ChainStore::open(path));
    auto again = ChainStore::create(path);
    ASSERT_FALSE(again);
    EXPECT_NE(again.error().message.find("the path exists and is not an empty directory"),
              std::string::npos)
        << again.error().message;
    // An empty directory is fine (e.g. made by the user beforehand).
    std::filesystem::create_directories(dir.path() / "empty");
    EXPECT_TRUE(ChainStore::create(dir.path() / "empty"));
}

}  // namespace
}  // namespace keel::store

namespace keel::store {
namespace {

// Every file name in a directory, sorted.
std::vector<std::string> files_in(const fs::path& dir) {
    std::vector<std::string> out;
    for (const auto& e : fs::directory_iterator(dir)) out.push_back(e.path().filename().string());
    std::sort(out.begin(), out.end());
    return out;
}

// A made-up block: the store does not decode what it stores.
struct TinyBlock {
    Hash32 hash;
    Bytes header{0xc0};
    Bytes body{0xc2, 0xc0, 0xc0};
};

TEST(ChainStore, ReadOnlyOpenTakesNoLockAndWritesNothing) {
    TempDir dir("chain-store-test");
    const fs::path path = dir.path() / "db";
    auto writer = ChainStore::create(path);
    ASSERT_TRUE(writer) << writer.error().message;
    TinyBlock b;
    b.hash[0] = 1;
    const BlockToStore row{0, b.hash, b.header, b.body, {}, Uint256(1), {}};
    ASSERT_TRUE(writer->put_blocks(std::span(&row, 1)));
    ASSERT_TRUE(writer->flush());
    // While the writer holds the store (its LOCK): a read-write open is refused in words (it
    // still rotates RocksDB's LOG: read-write opens keep 4), a read-only one works, sees the
    // block, refuses writes, and leaves no file (RocksDB rotated its LOG at every open: one more
    // file per call).
    auto second = ChainStore::open(path);
    ASSERT_FALSE(second);
    EXPECT_NE(second.error().message.find("in use by another process"), std::string::npos)
        << second.error().message;
    const auto before = files_in(path);
    for (int i = 0; i < 5; ++i) {
        auto reader = ChainStore::open(path, {.read_only = true});
        ASSERT_TRUE(reader) << reader.error().message;
        EXPECT_EQ(reader->head().value(), std::optional<std::uint64_t>(0));
        EXPECT_EQ(reader->canonical_hash(0).value().value, b.hash);
        auto w = reader->set_chain_id(5);
        ASSERT_FALSE(w);
        EXPECT_NE(w.error().message.find("store write " + path.string()), std::string::npos)
            << w.error().message;
    }
    EXPECT_EQ(files_in(path), before);
    // A read-only create is refused, and creates nothing.
    EXPECT_FALSE(ChainStore::create(dir.path() / "ro", {.read_only = true}));
    EXPECT_FALSE(fs::exists(dir.path() / "ro"));
}

// Runs `hold` in a child process, which keeps what it took until the parent has called `check`.
// `hold` returns whether it took it.
template <class Hold, class Check>
void in_child(Hold&& hold, Check&& check) {
    int ready[2];
    int done[2];
    ASSERT_EQ(::pipe(ready), 0);
    ASSERT_EQ(::pipe(done), 0);
    const pid_t child = ::fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
        ::close(ready[0]);
        ::close(done[1]);
        const char ok = hold() ? '1' : '0';
        (void)!::write(ready[1], &ok, 1);
        char c;
        (void)!::read(done[0], &c, 1);
        ::_exit(0);
    }
    ::close(ready[1]);
    ::close(done[0]);
    char ok = 0;
    ASSERT_EQ(::read(ready[0], &ok, 1), 1);
    EXPECT_EQ(ok, '1');
    check();
    ::close(done[1]);
    int status = 0;
    ASSERT_EQ(::waitpid(child, &status, 0), child);
    ::close(ready[0]);
}

#if defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define KEEL_TEST_TSAN 1
#endif
#endif

// has_writer() sees another process's lock on the store's LOCK file (RocksDB's, a POSIX write
// lock on the whole file), and nothing once it has gone; a directory without a store has none.
TEST(ChainStore, HasWriterSeesAnotherProcessHoldingTheStore) {
    TempDir dir("chain-store-test");
    const fs::path path = dir.path() / "db";
    EXPECT_FALSE(ChainStore::has_writer(path));
    ASSERT_TRUE(ChainStore::create(path).has_value());  // created and closed
    EXPECT_FALSE(ChainStore::has_writer(path));
    int stage = 0;
    const auto seen = [&] { EXPECT_TRUE(ChainStore::has_writer(path)) << "stage " << stage; };
    // The lock as RocksDB takes it, by a child that starts no thread.
    stage = 1;
    in_child(
        [&] {
            const int fd = ::open((path / "LOCK").c_str(), O_RDWR);
            struct flock lock{};
            lock.l_type = F_WRLCK;
            lock.l_whence = SEEK_SET;
            return fd >= 0 && ::fcntl(fd, F_SETLK, &lock) == 0;
        },
        seen);
    EXPECT_FALSE(ChainStore::has_writer(path));
#ifndef KEEL_TEST_TSAN
    // A child that opens the store for writing (RocksDB starts threads in the child, which
    // ThreadSanitizer refuses after a fork: that half runs in the other builds).
    stage = 2;
    in_child(
        [&] {
            // Kept open until the child exits (it never closes it: _exit).
            auto* writer = new Result<ChainStore, StoreError>(ChainStore::open(path));
            return writer->has_value();
        },
        seen);
    EXPECT_FALSE(ChainStore::has_writer(path));
#endif
}

TEST(ChainStore, CreateIsExclusive) {
    TempDir dir("chain-store-test");
    const fs::path path = dir.path() / "db";
    const fs::path lock_path = dir.path() / "db.lock";
    {
        // Another creator holds the lock: refused with one line, nothing written at the path,
        // and that creator's staging directory is left alone.
        const int fd = ::open(lock_path.c_str(), O_RDWR | O_CREAT, 0644);
        ASSERT_GE(fd, 0);
        ASSERT_EQ(::flock(fd, LOCK_EX | LOCK_NB), 0);
        fs::create_directories(dir.path() / "db.creating");
        auto busy = ChainStore::create(path);
        ASSERT_FALSE(busy);
        EXPECT_EQ(busy.error().message, "store create " + path.string() +
                                            ": another process is creating this store (" +
                                            lock_path.string() + " is locked)");
        EXPECT_FALSE(fs::exists(path));
        EXPECT_TRUE(fs::exists(dir.path() / "db.creating"));
        ::close(fd);
    }
    // Released: the create goes through and removes its lock file.
    auto created = ChainStore::create(path);
    ASSERT_TRUE(created) << created.error().message;
    EXPECT_FALSE(fs::exists(lock_path));
    EXPECT_FALSE(fs::exists(dir.path() / "db.creating"));
}

// A table file gone from under the store: the message says "Corruption:" once.
TEST(ChainStore, MissingTableFileIsReportedOnce) {
    TempDir dir("chain-store-test");
    const fs::path path = dir.path() / "db";
    {
        auto store = ChainStore::create(path);
        ASSERT_TRUE(store) << store.error().message;
        TinyBlock b;
        const BlockToStore row{0, b.hash, b.header, b.body, {}, Uint256(1), {}};
        ASSERT_TRUE(store->put_blocks(std::span(&row, 1)));
        ASSERT_TRUE(store->flush());
    }
    bool removed = false;
    for (const auto& e : fs::directory_iterator(path)) {
        if (e.path().extension() == ".sst" && !removed) removed = fs::remove(e.path());
    }
    ASSERT_TRUE(removed);
    for (const bool read_only : {false, true}) {
        auto store = ChainStore::open(path, {.read_only = read_only});
        ASSERT_FALSE(store);
        const std::string& msg = store.error().message;
        EXPECT_NE(msg.find("store open " + path.string() + ": "), std::string::npos) << msg;
        EXPECT_EQ(msg.find("Corruption: Corruption:"), std::string::npos) << msg;
        EXPECT_EQ(msg.find('\n'), std::string::npos) << msg;
    }
}

}  // namespace
}  // namespace keel::store
