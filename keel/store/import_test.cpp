// The importer: RLP chain files built here block by block (good ones, and damaged copies:
// flipped bytes, truncation, gaps, another chain), and the real Sepolia era1 archives, whose
// facts in expected.json every import must reproduce.
#include "keel/store/import.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "keel/common/hex.hpp"
#include "keel/crypto/keccak.hpp"
#include "keel/eth/block.hpp"
#include "keel/eth/transaction.hpp"
#include "keel/eth/withdrawal.hpp"
#include "keel/store/chain_store.hpp"
#include "keel/store/era1.hpp"
#include "keel/store/rewind.hpp"
#include "keel/store/verify.hpp"
#include "test/testutil/temp_dir.hpp"
#include "test/testutil/vectors.hpp"

namespace keel::store {
namespace {

namespace fs = std::filesystem;
using testutil::TempDir;

// ---- a small chain, built here ----------------------------------------------------------------

struct TestChain {
    std::vector<Bytes> blocks;  // rlp(block)
    std::vector<Hash32> hashes;
    std::vector<std::vector<Hash32>> tx_hashes;
    std::vector<Uint256> difficulties;
};

// `n` blocks from genesis, `txs` legacy EIP-155 transactions in each block after the genesis
// (signatures are well-formed numbers, not real: the importer hashes transactions, it does not
// recover senders), difficulty until `merge_at`, withdrawals from then on. `salt` makes another
// chain with the same shape.
TestChain make_chain(std::size_t n, std::size_t txs, std::uint64_t merge_at,
                     std::uint64_t chain_id = 1337, std::uint8_t salt = 0) {
    TestChain c;
    Hash32 parent{};
    for (std::size_t i = 0; i < n; ++i) {
        eth::Block b;
        for (std::size_t t = 0; i > 0 && t < txs; ++t) {
            eth::TransactionFields f;
            f.nonce = i * 1000 + t;
            f.max_fee_per_gas = Uint256(1'000'000'000);
            f.gas_limit = 21000;
            Address to;
            to.mutable_view()[0] = static_cast<std::uint8_t>(t);
            to.mutable_view()[19] = static_cast<std::uint8_t>(i);
            f.to = to;
            f.value = Uint256(i * 7 + t + salt);
            f.v = Uint256(35 + 2 * chain_id);
            f.r = Uint256(1000 + i);
            f.s = Uint256(2000 + t);
            b.body.transactions.push_back(eth::decode_transaction(eth::encode(f)).value());
        }
        eth::Header& h = b.header;
        h.parent_hash = parent;
        h.ommers_hash = eth::kEmptyOmmersHash;
        h.state_root.mutable_view()[0] = salt;
        h.transactions_root = eth::transactions_root(b.body.transactions);
        h.receipts_root = trie::kEmptyRoot;
        h.difficulty = i < merge_at ? Uint256(1000 + i) : Uint256(0);
        h.number = i;
        h.gas_limit = 30'000'000;
        h.timestamp = 1'700'000'000 + 12 * i;
        h.base_fee_per_gas = Uint256(7);
        if (i >= merge_at) {
            std::vector<eth::Withdrawal> ws = {{i * 2, 5, Address{}, 32},
                                               {i * 2 + 1, 6, Address{}, 1}};
            h.withdrawals_root = eth::withdrawals_root(ws);
            b.body.withdrawals = std::move(ws);
        }
        c.blocks.push_back(eth::encode(b));
        c.hashes.push_back(h.hash());
        std::vector<Hash32> hs;
        for (const auto& tx : b.body.transactions) hs.push_back(tx.hash());
        c.tx_hashes.push_back(std::move(hs));
        c.difficulties.push_back(h.difficulty);
        parent = c.hashes.back();
    }
    return c;
}

// Writes blocks [from, to) of the chain as an RLP chain file.
fs::path write_rlp(const fs::path& path, const TestChain& c, std::size_t from, std::size_t to) {
    std::ofstream out(path, std::ios::binary);
    for (std::size_t i = from; i < to; ++i) {
        out.write(reinterpret_cast<const char*>(c.blocks[i].data()),
                  static_cast<std::streamsize>(c.blocks[i].size()));
    }
    return path;
}

fs::path write_bytes(const fs::path& path, BytesView bytes) {
    std::ofstream out(path, std::ios::binary);
    out.write(reinterpret_cast<const char*>(bytes.data()),
              static_cast<std::streamsize>(bytes.size()));
    return path;
}

Bytes concat_blocks(const TestChain& c, std::size_t from, std::size_t to) {
    Bytes out;
    for (std::size_t i = from; i < to; ++i)
        out.insert(out.end(), c.blocks[i].begin(), c.blocks[i].end());
    return out;
}

std::optional<std::uint64_t> head_of(const ChainStore& s) {
    return s.head().value();
}

Result<FileImportReport, ImportError> import_one(ChainStore& store, const fs::path& file) {
    auto importer = Importer::create(store);
    EXPECT_TRUE(importer) << (importer ? "" : importer.error().message);
    return importer->import_file(file);
}

class RlpImport : public ::testing::Test {
  protected:
    TempDir dir{"import-test"};
    TestChain chain = make_chain(30, 5, 20);
    ChainStore store = ChainStore::create(dir.path() / "db").value();
};

TEST_F(RlpImport, StoresEveryBlockWithConfig) {
    const fs::path file = write_rlp(dir.path() / "chain.rlp", chain, 0, 30);
    auto info = inspect_chain_file(file);
    ASSERT_TRUE(info) << info.error().message;
    EXPECT_EQ(info->kind, ChainFileKind::rlp);
    EXPECT_EQ(info->first, 0u);
    EXPECT_EQ(info->count, 30u);

    auto r = import_one(store, file);
    ASSERT_TRUE(r) << r.error().message;
    EXPECT_EQ(r->imported, 30u);
    EXPECT_EQ(r->transactions, 29u * 5);
    EXPECT_EQ(r->skipped, 0u);
    EXPECT_EQ(head_of(store), 29u);
    EXPECT_EQ(store.tail().value(), 0u);
    EXPECT_EQ(store.chain_id().value(), 1337u);
    EXPECT_EQ(store.genesis_hash().value(), chain.hashes[0]);
    EXPECT_EQ(store.merge_block().value(), 20u);
    Uint256 td;
    for (std::size_t i = 0; i < 30; ++i) {
        td = td + chain.difficulties[i];
        EXPECT_EQ(store.canonical_hash(i).value().value, chain.hashes[i]);
        EXPECT_EQ(store.total_difficulty(i).value().value, td);
        // The stored header and body re-assemble the block exactly.
        const Bytes header = store.header_by_number(i).value().value;
        const Bytes body = store.body(i).value().value;
        auto block = eth::decode_block(chain.blocks[i]).value();
        EXPECT_EQ(header, eth::encode(block.header));
        EXPECT_EQ(body, eth::encode(block.body));
        for (std::size_t t = 0; t < chain.tx_hashes[i].size(); ++t) {
            auto where = store.tx_lookup(chain.tx_hashes[i][t]).value();
            ASSERT_TRUE(where.found());
            EXPECT_EQ(where.value, (TxLocation{i, static_cast<std::uint32_t>(t)}));
        }
    }
}

TEST_F(RlpImport, ResumesAndSkipsImportedFiles) {
    const fs::path half = write_rlp(dir.path() / "half.rlp", chain, 0, 15);
    const fs::path full = write_rlp(dir.path() / "full.rlp", chain, 0, 30);
    auto importer = Importer::create(store).value();
    auto a = importer.import_file(half);
    ASSERT_TRUE(a) << a.error().message;
    EXPECT_EQ(a->imported, 15u);

    // A new importer (a re-run after an interruption) continues after the stored head.
    auto again = Importer::create(store).value();
    auto b = again.import_file(full);
    ASSERT_TRUE(b) << b.error().message;
    EXPECT_EQ(b->skipped, 15u);
    EXPECT_EQ(b->imported, 15u);
    EXPECT_EQ(head_of(store), 29u);

    auto c = again.import_file(full);
    ASSERT_TRUE(c) << c.error().message;
    EXPECT_EQ(c->skipped, 30u);
    EXPECT_EQ(c->imported, 0u);
    auto d = again.import_file(half);
    ASSERT_TRUE(d) << d.error().message;
    EXPECT_EQ(d->skipped, 15u);

    // Continuing files, one after the other.
    TempDir other{"import-test"};
    ChainStore split = ChainStore::create(other.path() / "db").value();
    auto imp = Importer::create(split).value();
    ASSERT_TRUE(imp.import_file(write_rlp(other.path() / "a.rlp", chain, 0, 10)));
    auto e = imp.import_file(write_rlp(other.path() / "b.rlp", chain, 10, 30));
    ASSERT_TRUE(e) << e.error().message;
    EXPECT_EQ(e->imported, 20u);
    EXPECT_EQ(split.merge_block().value(), 20u);
}

TEST_F(RlpImport, EmptyStoreNeedsGenesis) {
    const fs::path file = write_rlp(dir.path() / "late.rlp", chain, 5, 30);
    auto r = import_one(store, file);
    ASSERT_FALSE(r);
    EXPECT_NE(r.error().message.find("late.rlp: block 5: an RLP chain file must start at block 0"),
              std::string::npos)
        << r.error().message;
    EXPECT_EQ(head_of(store), std::nullopt);
}

TEST_F(RlpImport, GapIsRefused) {
    auto importer = Importer::create(store).value();
    ASSERT_TRUE(importer.import_file(write_rlp(dir.path() / "a.rlp", chain, 0, 10)));
    auto r = importer.import_file(write_rlp(dir.path() / "c.rlp", chain, 15, 30));
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().message,
              (dir.path() / "c.rlp").string() + ": block 15: gap: the store ends at block 9");
    EXPECT_EQ(head_of(store), 9u);
}

TEST_F(RlpImport, FlippedByteStopsAtThatBlock) {
    Bytes bytes = concat_blocks(chain, 0, 30);
    // Inside block 12: the first transaction's `to` address. RLP stays well-formed; the
    // transactions root no longer matches.
    std::size_t at = 0;
    for (std::size_t i = 0; i < 12; ++i) at += chain.blocks[i].size();
    const auto block12 = eth::decode_block(chain.blocks[12]).value();
    const BytesView env = block12.body.transactions[0].encoded();
    const auto pos =
        std::search(chain.blocks[12].begin(), chain.blocks[12].end(), env.begin(), env.end()) -
        chain.blocks[12].begin();
    // legacy tx: list header(2) nonce(3) gasPrice(5) gas(3) to-header(1) to...
    bytes[at + static_cast<std::size_t>(pos) + 2 + 3 + 5 + 3 + 1 + 5] ^= 0x01;
    const fs::path file = write_bytes(dir.path() / "flipped.rlp", bytes);
    auto r = import_one(store, file);
    ASSERT_FALSE(r);
    EXPECT_NE(
        r.error().message.find("flipped.rlp: block 12: transactions root mismatch (header 0x"),
        std::string::npos)
        << r.error().message;
    // Everything before the bad block is stored, nothing after it.
    EXPECT_EQ(head_of(store), 11u);
    EXPECT_FALSE(store.canonical_hash(12).value().found());
    // Lookups of the bad block's transactions were not written.
    EXPECT_FALSE(store.tx_lookup(chain.tx_hashes[13][0]).value().found());
}

TEST_F(RlpImport, TruncatedFileStoresTheWholeBlocks) {
    Bytes bytes = concat_blocks(chain, 0, 21);
    bytes.resize(bytes.size() - 7);  // cut inside block 20
    const fs::path file = write_bytes(dir.path() / "cut.rlp", bytes);
    auto r = import_one(store, file);
    ASSERT_FALSE(r);
    EXPECT_NE(r.error().message.find(
                  "cut.rlp: block 20: truncated or damaged after the last whole block (offset"),
              std::string::npos)
        << r.error().message;
    EXPECT_EQ(head_of(store), 19u);
}

TEST_F(RlpImport, AnotherChainIsRefused) {
    const TestChain other = make_chain(30, 5, 20, 1337, 9);
    ASSERT_TRUE(import_one(store, write_rlp(dir.path() / "a.rlp", chain, 0, 10)));
    // Its block 9 differs from ours: refused as another chain, not skipped.
    auto r = import_one(store, write_rlp(dir.path() / "b.rlp", other, 0, 30));
    ASSERT_FALSE(r);
    EXPECT_NE(r.error().message.find("b.rlp: block 9: hash 0x"), std::string::npos)
        << r.error().message;
    EXPECT_NE(r.error().message.find("(another chain)"), std::string::npos);
    // A continuation that does not link to our head: parent hash.
    auto c = import_one(store, write_rlp(dir.path() / "c.rlp", other, 10, 30));
    ASSERT_FALSE(c);
    EXPECT_NE(c.error().message.find("c.rlp: block 10: parent hash 0x"), std::string::npos)
        << c.error().message;
    EXPECT_EQ(head_of(store), 9u);
}

// Block 12 with a damaged header that still decodes and matches its body (a state root byte):
// the importer cannot tell, stores it and stops at block 13, whose parent hash names the real
// block 12. The error says which block may stay; after a rewind to it, the good file imports.
TEST_F(RlpImport, DamagedHeaderStoredThenReplacedAfterARewind) {
    auto bad = eth::decode_block(chain.blocks[12]).value();
    bad.header.state_root.mutable_view()[1] ^= 0x01;
    std::vector<Bytes> blocks = chain.blocks;
    blocks[12] = eth::encode(bad);
    Bytes bytes;
    for (const Bytes& b : blocks) bytes.insert(bytes.end(), b.begin(), b.end());
    auto r = import_one(store, write_bytes(dir.path() / "bad.rlp", bytes));
    ASSERT_FALSE(r);
    EXPECT_NE(r.error().message.find("bad.rlp: block 13: parent hash 0x"), std::string::npos)
        << r.error().message;
    EXPECT_EQ(r.error().rewind_to, std::optional<std::uint64_t>(11));
    EXPECT_EQ(head_of(store), 12u);

    // The good file meets another block 12: refused, and the two agree up to block 11.
    const fs::path good = write_rlp(dir.path() / "good.rlp", chain, 0, 30);
    auto again = import_one(store, good);
    ASSERT_FALSE(again);
    EXPECT_NE(again.error().message.find("block 12: hash 0x"), std::string::npos)
        << again.error().message;
    EXPECT_NE(again.error().message.find("(another chain; the file and the store agree up to "
                                         "block 11)"),
              std::string::npos)
        << again.error().message;
    EXPECT_EQ(again.error().rewind_to, std::optional<std::uint64_t>(11));

    auto rewound =
        rewind_chain(store, RewindOptions{.to = 11, .chunk_blocks = 4096, .on_step = {}});
    ASSERT_TRUE(rewound) << rewound.error().message;
    EXPECT_EQ(rewound->blocks_removed, 1u);
    auto fixed = import_one(store, good);
    ASSERT_TRUE(fixed) << fixed.error().message;
    EXPECT_EQ(fixed->imported, 18u);
    EXPECT_EQ(head_of(store), 29u);
    EXPECT_EQ(store.canonical_hash(12).value().value, chain.hashes[12]);
    auto v = verify_store(store, VerifyOptions{.progress = false});
    EXPECT_TRUE(v) << v.error().message;
}

// A store whose rewind was interrupted is refused until the rewind is run again.
TEST_F(RlpImport, PendingRewindIsRefused) {
    ASSERT_TRUE(import_one(store, write_rlp(dir.path() / "a.rlp", chain, 0, 20)));
    ASSERT_TRUE(store.lower_head(
        10, PendingOperation{std::string(kRewindOperation), rewind_marker_argument(10, 19)}));
    auto importer = Importer::create(store);
    ASSERT_FALSE(importer);
    EXPECT_NE(importer.error().message.find("a rewind to block 10 was interrupted"),
              std::string::npos)
        << importer.error().message;
}

TEST_F(RlpImport, ChainIdMustNotChange) {
    const TestChain other = make_chain(30, 5, 20, 1);
    // Same shape, other chain id in the transactions: its blocks hash differently, so splice
    // its block 10 onto ours by re-linking is not possible; check within one chain instead.
    ASSERT_TRUE(import_one(store, write_rlp(dir.path() / "a.rlp", other, 0, 30)));
    EXPECT_EQ(store.chain_id().value(), 1u);
    TempDir d2{"import-test"};
    ChainStore s2 = ChainStore::create(d2.path() / "db").value();
    ASSERT_TRUE(s2.set_chain_id(5));
    auto r = import_one(s2, write_rlp(d2.path() / "b.rlp", chain, 0, 30));
    ASSERT_FALSE(r);
    EXPECT_NE(r.error().message.find("b.rlp: block 1: a transaction names chain id 1337, the "
                                     "chain's is 5"),
              std::string::npos)
        << r.error().message;
    EXPECT_EQ(s2.head().value(), 0u);  // the genesis (no transactions) went in
}

TEST_F(RlpImport, NotAChainFile) {
    const Bytes junk = {0x83, 'a', 'b', 'c'};
    auto r = import_one(store, write_bytes(dir.path() / "junk.rlp", junk));
    ASSERT_FALSE(r);
    EXPECT_NE(r.error().message.find("junk.rlp: no block: offset 0: an RLP string, not a block"),
              std::string::npos)
        << r.error().message;
    auto missing = inspect_chain_file(dir.path() / "nope.rlp");
    ASSERT_FALSE(missing);
    EXPECT_NE(missing.error().message.find("nope.rlp: No such file or directory"),
              std::string::npos);
    auto empty = import_one(store, write_bytes(dir.path() / "empty.rlp", {}));
    ASSERT_FALSE(empty);
    EXPECT_NE(empty.error().message.find("empty.rlp: empty file"), std::string::npos);
}

// ---- the real Sepolia era1 archives ------------------------------------------------------------

using nlohmann::json;

std::string hex_of(const Hash32& h) {
    return hex::encode_prefixed(h.view());
}

TEST(Era1Import, SepoliaFilesMatchExpected) {
    const fs::path vectors = testutil::vectors_dir("era1");
    const json expected = testutil::load_json(vectors / "expected.json");
    for (const json& jf : expected.at("files")) {
        SCOPED_TRACE(jf.at("file").get<std::string>());
        const fs::path file = vectors / jf.at("file").get<std::string>();
        TempDir dir{"import-test"};
        ChainStore store = ChainStore::create(dir.path() / "db").value();
        auto importer = Importer::create(store).value();
        auto r = importer.import_file(file);
        ASSERT_TRUE(r) << r.error().message;
        const std::uint64_t first = jf.at("startBlock").get<std::uint64_t>();
        const std::uint64_t count = jf.at("count").get<std::uint64_t>();
        EXPECT_EQ(r->file.kind, ChainFileKind::era1);
        EXPECT_EQ(r->imported, count);
        EXPECT_EQ(r->transactions, jf.at("totalTransactions").get<std::uint64_t>());
        EXPECT_EQ(store.tail().value(), first);
        EXPECT_EQ(head_of(store), first + count - 1);
        // Sepolia, from the file name.
        EXPECT_EQ(store.chain_id().value(), 11155111u);
        EXPECT_EQ(store.merge_block().value(), 1450409u);
        EXPECT_EQ(hex_of(store.genesis_hash().value().value()),
                  "0x25a5cc106eea7138acab33231d7160d69cb777ee0c2c553fcddf5138993e6dd9");
        for (const char* which : {"firstBlock", "lastBlock"}) {
            const json& b = jf.at(which);
            const std::uint64_t n = b.at("number").get<std::uint64_t>();
            EXPECT_EQ(hex_of(store.canonical_hash(n).value().value),
                      b.at("hash").get<std::string>());
            EXPECT_EQ(store.total_difficulty(n).value().value.to_dec(),
                      b.at("td").get<std::string>());
        }
        // Every stored block equals the archive's records, and every transaction is found.
        const Bytes bytes = testutil::read_file(file);
        auto era = Era1::open(bytes).value();
        Era1RawBlock raw;
        std::uint64_t txs = 0;
        for (std::size_t i = 0; i < era.count(); ++i) {
            const std::uint64_t n = first + i;
            ASSERT_TRUE(era.raw_block(i, raw));
            ASSERT_EQ(store.header_by_number(n).value().value, raw.header);
            ASSERT_EQ(store.body(n).value().value, raw.body);
            ASSERT_EQ(store.receipts(n).value().value, raw.receipts);
            auto body = eth::decode_body(raw.body).value();
            for (std::size_t t = 0; t < body.transactions.size(); ++t) {
                auto where = store.tx_lookup(body.transactions[t].hash()).value();
                ASSERT_TRUE(where.found());
                EXPECT_EQ(where.value, (TxLocation{n, static_cast<std::uint32_t>(t)}));
                ++txs;
            }
        }
        EXPECT_EQ(txs, jf.at("totalTransactions").get<std::uint64_t>());

        // Again: skipped, nothing written.
        auto again = Importer::create(store).value().import_file(file);
        ASSERT_TRUE(again) << again.error().message;
        EXPECT_EQ(again->imported, 0u);
        EXPECT_EQ(again->skipped, count);
    }
}

TEST(Era1Import, TwoSepoliaFilesLeaveAGap) {
    const fs::path vectors = testutil::vectors_dir("era1");
    TempDir dir{"import-test"};
    ChainStore store = ChainStore::create(dir.path() / "db").value();
    auto importer = Importer::create(store).value();
    ASSERT_TRUE(importer.import_file(vectors / "sepolia-00000-643a00f7.era1"));
    auto r = importer.import_file(vectors / "sepolia-00021-b8814b14.era1");
    ASSERT_FALSE(r);
    EXPECT_NE(r.error().message.find("sepolia-00021-b8814b14.era1: block 172032: gap: the store "
                                     "ends at block 8191"),
              std::string::npos)
        << r.error().message;
    // And the other way round: the earlier file lies before the stored chain.
    TempDir dir2{"import-test"};
    ChainStore late = ChainStore::create(dir2.path() / "db").value();
    auto imp2 = Importer::create(late).value();
    ASSERT_TRUE(imp2.import_file(vectors / "sepolia-00021-b8814b14.era1"));
    auto early = imp2.import_file(vectors / "sepolia-00000-643a00f7.era1");
    ASSERT_FALSE(early);
    EXPECT_NE(early.error().message.find("blocks 0-8191 lie before the stored chain, which starts "
                                         "at block 172032"),
              std::string::npos)
        << early.error().message;
}

class Era1Damage : public ::testing::Test {
  protected:
    TempDir dir{"import-test"};
    Bytes bytes =
        testutil::read_file(testutil::vectors_dir("era1") / "sepolia-00021-b8814b14.era1");
    ChainStore store = ChainStore::create(dir.path() / "db").value();
};

TEST_F(Era1Damage, FlippedHeaderByteFailsTheAccumulatorAndWritesNothing) {
    auto era = Era1::open(bytes).value();
    Bytes bad = bytes;
    // A byte of block 100's compressed header: its CRC fails while hashing headers for the
    // accumulator, before any block is written.
    bad[era.header_offset(100) + 8 + 20] ^= 0x40;
    auto r = import_one(store, write_bytes(dir.path() / "sepolia-00021-b8814b14.era1", bad));
    ASSERT_FALSE(r);
    EXPECT_NE(r.error().message.find("era1 block 172132"), std::string::npos) << r.error().message;
    EXPECT_EQ(head_of(store), std::nullopt);
}

TEST_F(Era1Damage, WrongAccumulatorWritesNothing) {
    auto era = Era1::open(bytes).value();
    Bytes bad = bytes;
    // The Accumulator record sits just before the BlockIndex record: 8-byte header, 32 bytes.
    bad[era.index_offset() - 1] ^= 0x01;
    auto r = import_one(store, write_bytes(dir.path() / "acc.era1", bad));
    ASSERT_FALSE(r);
    EXPECT_NE(r.error().message.find("acc.era1: era1 (record at offset"), std::string::npos)
        << r.error().message;
    EXPECT_NE(r.error().message.find("accumulator"), std::string::npos) << r.error().message;
    EXPECT_EQ(head_of(store), std::nullopt);
}

TEST_F(Era1Damage, FlippedReceiptsByteStopsAtThatBlock) {
    auto era = Era1::open(bytes).value();
    Bytes bad = bytes;
    // The last byte of block 300's receipts record: the TD record (8 + 32 bytes) follows it.
    bad[era.header_offset(301) - 40 - 1] ^= 0x01;
    auto r = import_one(store, write_bytes(dir.path() / "rec.era1", bad));
    ASSERT_FALSE(r);
    EXPECT_NE(r.error().message.find("rec.era1: era1 block 172332"), std::string::npos)
        << r.error().message;
    EXPECT_EQ(head_of(store), 172331u);
}

}  // namespace
}  // namespace keel::store
