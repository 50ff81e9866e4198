// era1 reader against the two real Sepolia archives in ../shared/vectors/era1 (expected values in
// expected.json, from an independent parser), and corrupted copies of them.
#include "keel/store/era1.hpp"

#include "keel/crypto/keccak.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "keel/common/hex.hpp"
#include "keel/eth/block.hpp"
#include "keel/store/e2store.hpp"
#include "keel/store/store_test_helpers.hpp"
#include "test/testutil/vectors.hpp"

namespace keel::store {
namespace {

using test_helpers::put_le;

using nlohmann::json;

std::string hex_of(BytesView b) {
    return "0x" + hex::encode(b);
}

struct Fixture {
    json expected;
    std::vector<std::pair<json, Bytes>> files;
};

const Fixture& fixture() {
    static const Fixture f = [] {
        Fixture out;
        const auto dir = testutil::vectors_dir("era1");
        out.expected = testutil::load_json(dir / "expected.json");
        for (const json& jf : out.expected.at("files")) {
            out.files.emplace_back(jf, testutil::read_file(dir / jf.at("file").get<std::string>()));
        }
        return out;
    }();
    return f;
}

[[gnu::noinline]] void put_record(Bytes& out, std::uint16_t type, BytesView value) {
    put_le(out, type, 2);
    put_le(out, value.size(), 4);
    put_le(out, 0, 2);
    out.insert(out.end(), value.begin(), value.end());
}

// A valid era1 of the first `n` blocks of `era` (records copied as stored, accumulator and index
// rebuilt): small files for corruption tests and fuzz seeds.
Bytes cut(BytesView file, const Era1& era, std::size_t n) {
    Bytes out;
    put_record(out, e2type::kVersion, {});
    std::vector<Hash32> hashes;
    std::vector<Uint256> tds;
    std::vector<std::size_t> offsets;
    Bytes scratch;
    for (std::size_t i = 0; i < n; ++i) {
        offsets.push_back(out.size());
        const std::size_t from = era.header_offset(i);
        const std::size_t to = i + 1 < era.count() ? era.header_offset(i + 1) : era.index_offset();
        // The last tuple of the file is followed by the Accumulator record (40 bytes).
        const std::size_t end = i + 1 < era.count() ? to : to - 40;
        out.insert(out.end(), file.begin() + static_cast<std::ptrdiff_t>(from),
                   file.begin() + static_cast<std::ptrdiff_t>(end));
        hashes.push_back(era.header_hash(i, scratch).value());
        tds.push_back(era.total_difficulty(i));
    }
    const Hash32 acc = accumulator_root(hashes, tds);
    put_record(out, e2type::kAccumulator, acc.view());
    Bytes index;
    put_le(index, era.start_block(), 8);
    const std::size_t at = out.size();
    for (std::size_t o : offsets) put_le(index, static_cast<std::uint64_t>(o - at), 8);
    put_le(index, n, 8);
    put_record(out, e2type::kBlockIndex, index);
    return out;
}

TEST(Era1, SepoliaFilesMatchExpected) {
    const Fixture& fx = fixture();
    ASSERT_EQ(fx.files.size(), 2u);
    for (const auto& [jf, file] : fx.files) {
        SCOPED_TRACE(jf.at("file").get<std::string>());
        auto era = Era1::open(file);
        ASSERT_TRUE(era) << to_string(era.error());
        EXPECT_EQ(era->start_block(), jf.at("startBlock").get<std::uint64_t>());
        ASSERT_EQ(era->count(), jf.at("count").get<std::size_t>());
        EXPECT_EQ(hex_of(era->accumulator().view()), jf.at("accumulatorRoot").get<std::string>());
        auto acc = era->verify_accumulator();
        ASSERT_TRUE(acc) << to_string(acc.error());
        EXPECT_EQ(*acc, era->accumulator());

        const json& ji = jf.at("blockIndex");
        EXPECT_EQ(era->index_offset(), ji.at("entryOffset").get<std::size_t>());
        const auto rel = [&](std::size_t i) {
            return static_cast<std::int64_t>(era->header_offset(i)) -
                   static_cast<std::int64_t>(era->index_offset());
        };
        for (std::size_t i = 0; i < ji.at("firstRelativeOffsets").size(); ++i) {
            EXPECT_EQ(rel(i), ji.at("firstRelativeOffsets")[i].get<std::int64_t>());
        }
        EXPECT_EQ(rel(era->count() - 1), ji.at("lastRelativeOffset").get<std::int64_t>());

        // Blocks the JSON describes, by number.
        std::map<std::uint64_t, json> described;
        described[jf.at("firstBlock").at("number")] = jf.at("firstBlock");
        described[jf.at("lastBlock").at("number")] = jf.at("lastBlock");
        for (const json& s : jf.at("sampleBlocksWithTransactions")) described[s.at("number")] = s;

        std::optional<Hash32> parent;
        Bytes scratch;
        trie::RootBuilder builder;
        std::size_t txs = 0, receipts = 0, with_txs = 0, seen = 0;
        for (std::size_t i = 0; i < era->count(); ++i) {
            const std::uint64_t number = era->start_block() + i;
            auto b = era->block(i, scratch);
            ASSERT_TRUE(b) << to_string(b.error());
            ASSERT_EQ(b->header.number, number);
            EXPECT_EQ(b->hash, b->header.hash());
            if (parent) {
                ASSERT_EQ(b->header.parent_hash, *parent) << "block " << number;
            }
            parent = b->hash;
            ASSERT_EQ(eth::transactions_root(b->body.transactions, builder),
                      b->header.transactions_root)
                << "block " << number;
            ASSERT_EQ(eth::ommers_hash(b->body.ommers), b->header.ommers_hash);
            ASSERT_EQ(b->receipts.size(), b->body.transactions.size());
            ASSERT_EQ(eth::receipts_root(b->receipts, builder), b->header.receipts_root);
            EXPECT_EQ(b->total_difficulty, era->total_difficulty(i));
            txs += b->body.transactions.size();
            receipts += b->receipts.size();
            with_txs += !b->body.transactions.empty();
            if (auto it = described.find(number); it != described.end()) {
                const json& d = it->second;
                ++seen;
                EXPECT_EQ(hex_of(b->hash.view()), d.at("hash").get<std::string>());
                EXPECT_EQ(b->total_difficulty.to_dec(), d.at("td").get<std::string>());
                EXPECT_EQ(b->body.transactions.size(), d.at("txs").get<std::size_t>());
                EXPECT_EQ(b->body.ommers.size(), d.at("uncles").get<std::size_t>());
                EXPECT_EQ(b->receipts.size(), d.at("receipts").get<std::size_t>());
                EXPECT_EQ(era->header_offset(i), d.at("entryOffset").get<std::size_t>());
                EXPECT_EQ(era->header_hash(i, scratch).value(), b->hash);
                // The raw payloads are the bytes the decoded values encode back to.
                Era1RawBlock raw;
                ASSERT_TRUE(era->raw_block(i, raw));
                EXPECT_EQ(crypto::keccak256(raw.header), b->hash);
                EXPECT_EQ(raw.body, eth::encode(b->body));
                EXPECT_EQ(raw.receipts.empty(), false);
            }
        }
        EXPECT_EQ(seen, described.size());
        EXPECT_EQ(txs, jf.at("totalTransactions").get<std::size_t>());
        EXPECT_EQ(receipts, jf.at("totalReceipts").get<std::size_t>());
        EXPECT_EQ(with_txs, jf.at("blocksWithTransactions").get<std::size_t>());
        auto out = era->block(era->count());
        ASSERT_FALSE(out);
        EXPECT_EQ(out.error().code, Errc::block_out_of_range);
    }
}

TEST(Era1, CutFileIsValid) {
    const auto& [jf, file] = fixture().files[1];
    auto era = Era1::open(file);
    ASSERT_TRUE(era);
    for (std::size_t n : {0u, 1u, 3u}) {
        const Bytes small = cut(file, *era, n);
        auto e = Era1::open(small);
        ASSERT_TRUE(e) << to_string(e.error());
        EXPECT_EQ(e->count(), n);
        EXPECT_EQ(e->start_block(), era->start_block());
        auto acc = e->verify_accumulator();
        ASSERT_TRUE(acc) << to_string(acc.error());
        for (std::size_t i = 0; i < n; ++i) ASSERT_TRUE(e->block(i));
    }
    // Fuzz seeds: KEEL_WRITE_ERA1_SEEDS=<dir> writes the cut files there.
    if (const char* dir = std::getenv("KEEL_WRITE_ERA1_SEEDS")) {
        for (std::size_t n : {0u, 1u, 2u}) {
            const Bytes small = cut(file, *era, n);
            std::ofstream(std::filesystem::path(dir) / ("sepolia_" + std::to_string(n) + "_blocks"),
                          std::ios::binary)
                .write(reinterpret_cast<const char*>(small.data()),
                       static_cast<std::streamsize>(small.size()));
        }
    }
}

TEST(Era1, TruncatedFile) {
    const auto& [jf, file] = fixture().files[0];
    auto era = Era1::open(file);
    ASSERT_TRUE(era);
    {
        // One byte short: the BlockIndex record runs past the end.
        const BytesView t = BytesView(file).first(file.size() - 1);
        auto e = Era1::open(t);
        ASSERT_FALSE(e);
        EXPECT_EQ(e.error().code, Errc::record_past_end);
        EXPECT_EQ(e.error().record, era->index_offset());
        EXPECT_EQ(to_string(e.error()),
                  "era1 (record at offset 3201894): e2store record runs past the end of the "
                  "file at offset 3201894");
    }
    {
        // Cut inside block 100's body record.
        const std::size_t body = era->header_offset(100) + 20;
        auto e = Era1::open(BytesView(file).first(body + 8 + 3));
        ASSERT_FALSE(e);
        EXPECT_EQ(e.error().block, 100u);
        EXPECT_TRUE(e.error().block_is_position);
        EXPECT_NE(to_string(e.error()).find("block #100 of the file"), std::string::npos)
            << to_string(e.error());
    }
    {
        // Cut exactly after block 7's tuple: the accumulator is missing.
        auto e = Era1::open(BytesView(file).first(era->header_offset(8)));
        ASSERT_FALSE(e);
        EXPECT_EQ(e.error().code, Errc::missing_record);
    }
    {
        auto e = Era1::open(BytesView(file).first(5));
        ASSERT_FALSE(e);
        EXPECT_EQ(e.error().code, Errc::record_header_truncated);
    }
}

TEST(Era1, FlippedByteInCompressedHeader) {
    const auto& [jf, file] = fixture().files[1];
    auto era = Era1::open(file);
    ASSERT_TRUE(era);
    Bytes bad = file;
    const std::size_t rec = era->header_offset(5);
    bad[rec + 8 + 10 + 4 + 4 + 40] ^= 0x01;  // inside the first data chunk's payload
    auto e = Era1::open(bad);
    ASSERT_TRUE(e) << "structure is intact";
    EXPECT_TRUE(e->block(4));
    auto b = e->block(5);
    ASSERT_FALSE(b);
    EXPECT_TRUE(b.error().code == Errc::frame_checksum_mismatch ||
                b.error().code == Errc::frame_corrupt_data)
        << to_string(b.error());
    EXPECT_EQ(b.error().block, era->start_block() + 5);
    EXPECT_EQ(b.error().record, rec);
    const std::string line = to_string(b.error());
    EXPECT_EQ(line.find('\n'), std::string::npos);
    EXPECT_NE(line.find("block 172037"), std::string::npos) << line;
    EXPECT_NE(line.find("record at offset " + std::to_string(rec)), std::string::npos) << line;
    auto acc = e->verify_accumulator();
    ASSERT_FALSE(acc);
    EXPECT_EQ(acc.error().block, era->start_block() + 5);

    // A flipped checksum byte is always a checksum mismatch, at the checksum's offset.
    Bytes bad2 = file;
    bad2[rec + 8 + 10 + 4] ^= 0x01;
    auto e2 = Era1::open(bad2);
    ASSERT_TRUE(e2);
    auto b2 = e2->block(5);
    ASSERT_FALSE(b2);
    EXPECT_EQ(b2.error().code, Errc::frame_checksum_mismatch);
    EXPECT_EQ(b2.error().offset, rec + 8 + 10 + 4);
}

TEST(Era1, WrongAccumulator) {
    const auto& [jf, file] = fixture().files[0];
    auto era = Era1::open(file);
    ASSERT_TRUE(era);
    Bytes bad = file;
    const std::size_t acc_record = era->index_offset() - 40;
    bad[acc_record + 8 + 31] ^= 0x80;
    auto e = Era1::open(bad);
    ASSERT_TRUE(e);
    auto acc = e->verify_accumulator();
    ASSERT_FALSE(acc);
    EXPECT_EQ(acc.error().code, Errc::accumulator_mismatch);
    EXPECT_EQ(acc.error().record, acc_record);
    EXPECT_EQ(to_string(acc.error()),
              "era1 (record at offset 3201854): era1 accumulator root does not match the blocks "
              "at offset 3201862");
}

TEST(Era1, BadStructure) {
    const auto& [jf, file] = fixture().files[1];
    auto era = Era1::open(file);
    ASSERT_TRUE(era);
    const Bytes small = cut(file, *era, 3);
    auto s = Era1::open(small);
    ASSERT_TRUE(s);
    const std::size_t index = s->index_offset();
    auto expect_error = [](const Bytes& b, Errc code) {
        auto e = Era1::open(b);
        ASSERT_FALSE(e);
        EXPECT_EQ(e.error().code, code) << to_string(e.error());
    };
    {
        Bytes b = small;
        b[index + 8 + 8] ^= 1;  // block 0's offset
        expect_error(b, Errc::index_mismatch);
    }
    {
        Bytes b = small;
        b[index + 8 + 8 + 24] = 4;  // count, disagreeing with the number of offsets
        expect_error(b, Errc::bad_block_index);
    }
    {
        Bytes b = small;
        b[0] = 0x66;  // not a Version record
        expect_error(b, Errc::missing_version);
    }
    {
        Bytes b = small;
        b[s->header_offset(1)] = 0x04;  // body where a header belongs
        expect_error(b, Errc::unexpected_record);
    }
    {
        Bytes b = small;
        b[s->header_offset(1) + 6] = 1;
        expect_error(b, Errc::record_reserved_not_zero);
    }
    {
        Bytes b = small;
        put_record(b, 0x1234, {});
        expect_error(b, Errc::trailing_records);
    }
    {
        // Unknown records between the tuples and the accumulator are skipped.
        Bytes b(small.begin(), small.begin() + static_cast<std::ptrdiff_t>(index - 40));
        put_record(b, 0x1234, Bytes(3, 7));
        Bytes tail(small.begin() + static_cast<std::ptrdiff_t>(index - 40), small.end());
        // Index offsets are relative to the index, which moved 11 bytes later.
        for (std::size_t i = 0; i < 3; ++i) {
            std::uint64_t v = 0;
            for (int k = 7; k >= 0; --k) v = v << 8 | tail[40 + 16 + 8 * i + k];
            v -= 11;
            for (int k = 0; k < 8; ++k)
                tail[40 + 16 + 8 * i + k] = static_cast<std::uint8_t>(v >> (8 * k));
        }
        b.insert(b.end(), tail.begin(), tail.end());
        auto e = Era1::open(b);
        ASSERT_TRUE(e) << to_string(e.error());
        EXPECT_TRUE(e->verify_accumulator());
    }
}

}  // namespace
}  // namespace keel::store
