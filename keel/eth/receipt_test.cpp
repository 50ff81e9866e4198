#include "keel/eth/receipt.hpp"

#include <gtest/gtest.h>

#include <bit>
#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "keel/common/hex.hpp"
#include "keel/crypto/keccak.hpp"
#include "keel/rlp/decode.hpp"
#include "keel/trie/root.hpp"
#include "test/testutil/data.hpp"
#include "test/testutil/rlp.hpp"
#include "test/testutil/vectors.hpp"

namespace keel::eth {
namespace {

using testutil::concat;
using testutil::from_hex;
using testutil::list_of;

Hash32 hash_of(std::string_view hex) {
    return hex::decode_fixed<Hash32>(hex).value();
}

Log make_log(std::uint8_t seed, std::size_t topics, std::size_t data) {
    Log l;
    for (auto& b : l.address) b = seed;
    for (std::size_t i = 0; i < topics; ++i) {
        Hash32 t;
        t[31] = static_cast<std::uint8_t>(seed + i);
        l.topics.push_back(t);
    }
    l.data.assign(data, static_cast<std::uint8_t>(seed ^ 0x5a));
    return l;
}

Receipt sample(TxType type, std::size_t logs) {
    Receipt r;
    r.type = type;
    r.success = true;
    r.cumulative_gas_used = 1'234'567;
    for (std::size_t i = 0; i < logs; ++i) {
        r.logs.push_back(make_log(static_cast<std::uint8_t>(i + 1), i % 5, i * 30));
    }
    r.logs_bloom = logs_bloom(r.logs);
    return r;
}

// The encoding written out by hand from YP eq. 22 and EIP-658: a successful legacy transfer.
TEST(Receipt, LegacyEncodingByHand) {
    Receipt r;
    r.success = true;
    r.cumulative_gas_used = 21000;
    const std::string want =
        "f90108"
        "01"
        "825208"
        "b90100" +
        std::string(512, '0') + "c0";
    EXPECT_EQ(hex::encode(encode(r)), want);
    EXPECT_EQ(encoded_size(r), want.size() / 2);

    r.success = false;
    r.type = TxType::dynamic_fee;  // EIP-2718: 0x02 || rlp, status 0 is the empty string
    EXPECT_EQ(hex::encode(encode(r)),
              "02"
              "f90108"
              "80"
              "825208"
              "b90100" +
                  std::string(512, '0') + "c0");
}

TEST(Receipt, RoundTrips) {
    std::vector<Receipt> cases;
    for (TxType t : {TxType::legacy, TxType::access_list, TxType::dynamic_fee, TxType::blob,
                     TxType::set_code}) {
        for (std::size_t logs : {0u, 1u, 2u, 7u}) cases.push_back(sample(t, logs));
    }
    Receipt failed = sample(TxType::legacy, 0);
    failed.success = false;
    cases.push_back(failed);
    Receipt frontier = sample(TxType::legacy, 3);  // pre-Byzantium: state root
    frontier.post_state = hash_of(std::string(64, 'd'));
    frontier.success = false;  // unused with a state root; decoding leaves it false
    cases.push_back(frontier);
    Receipt big_log = sample(TxType::dynamic_fee, 0);
    big_log.logs.push_back(make_log(9, 4, 70000));  // three-byte RLP lengths
    cases.push_back(big_log);

    for (const Receipt& r : cases) {
        SCOPED_TRACE(std::to_string(static_cast<int>(r.type)) + "/" +
                     std::to_string(r.logs.size()));
        const Bytes enc = encode(r);
        EXPECT_EQ(enc.size(), encoded_size(r));
        auto back = decode_receipt(enc);
        ASSERT_TRUE(back) << to_string(back.error());
        EXPECT_EQ(*back, r);
        EXPECT_EQ(hex::encode(encode(*back)), hex::encode(enc));

        // As an element of a receipts list: the bare list, or a string around the envelope.
        rlp::Encoder item;
        encode_item(r, item);
        const auto header = rlp::decode_single(item.view()).value();
        EXPECT_EQ(header.is_list, r.type == TxType::legacy);
        auto from_item = decode_receipt_item(item.view());
        ASSERT_TRUE(from_item) << to_string(from_item.error());
        EXPECT_EQ(*from_item, r);
    }
}

// The logs read in place from a receipts list are the decoded receipts' logs, each with its
// receipt; the count of receipts comes out, empty receipts included.
TEST(Receipt, LogReaderSeesTheDecodedLogsInPlace) {
    std::vector<Receipt> receipts = {sample(TxType::legacy, 3), sample(TxType::dynamic_fee, 0),
                                     sample(TxType::blob, 7), sample(TxType::set_code, 1)};
    receipts[2].logs.push_back(make_log(9, 4, 70000));
    Receipt frontier = sample(TxType::legacy, 2);
    frontier.post_state = hash_of(std::string(64, 'e'));
    receipts.push_back(frontier);
    rlp::Encoder items;
    for (const Receipt& r : receipts) encode_item(r, items);
    rlp::Encoder list;
    list.add_list_header(items.view().size());
    list.add_raw(items.view());

    auto reader = ReceiptLogReader::open(list.view());
    ASSERT_TRUE(reader) << to_string(reader.error());
    std::vector<std::pair<std::size_t, Log>> seen;
    for (;;) {
        auto log = reader->next();
        ASSERT_TRUE(log) << to_string(log.error());
        if (!*log) break;
        seen.emplace_back(reader->receipts() - 1, (*log)->to_log());
    }
    std::vector<std::pair<std::size_t, Log>> want;
    for (std::size_t i = 0; i < receipts.size(); ++i)
        for (const Log& l : receipts[i].logs) want.emplace_back(i, l);
    EXPECT_EQ(seen, want);
    EXPECT_EQ(reader->receipts(), receipts.size());

    // A list cut inside a receipt (its items cut short, the list's header made to fit) ends in
    // an error, not a crash; cut between receipts, it reads to its end.
    std::set<std::size_t> boundaries = {0};
    std::size_t at = 0;
    for (const Receipt& r : receipts) {
        rlp::Encoder one;
        encode_item(r, one);
        at += one.view().size();
        boundaries.insert(at);
    }
    for (std::size_t cut = 0; cut <= items.view().size(); cut += 13) {
        rlp::Encoder prefix;
        prefix.add_list_header(cut);
        prefix.add_raw(items.view().first(cut));
        auto r = ReceiptLogReader::open(prefix.view());
        ASSERT_TRUE(r);
        bool failed = false;
        for (;;) {
            auto log = r->next();
            if (!log) failed = true;
            if (!log || !*log) break;
        }
        EXPECT_EQ(failed, !boundaries.contains(cut)) << cut;
    }
    rlp::Encoder typed;
    typed.add_string(concat({Bytes{0x07}, encode(sample(TxType::legacy, 1))}));
    rlp::Encoder unknown;
    unknown.add_list_header(typed.view().size());
    unknown.add_raw(typed.view());
    auto r = ReceiptLogReader::open(unknown.view());
    ASSERT_TRUE(r);
    auto log = r->next();
    ASSERT_FALSE(log);
    EXPECT_EQ(log.error().code, Errc::type_not_supported);
}

// ethereum/go-ethereum core/types bloom test: 100 strings added to one bloom; the Keccak-256 of
// the 256 bloom bytes is a published known answer.
TEST(Receipt, BloomKnownAnswer) {
    Bloom b;
    for (int i = 0; i < 100; ++i) {
        const std::string s = "xxxxxxxxxx data " + std::to_string(i) + " yyyyyyyyyyyyyy";
        bloom_add(b, as_bytes(s));
    }
    EXPECT_EQ(hex::encode(crypto::keccak256(b.view()).view()),
              "c8d3ca65cdb4874300a9e39475508f23ed6da09fdbc487f89a2dcf50b09eb263");
}

TEST(Receipt, BlockBloomIsTheOrOfTheReceipts) {
    Receipt a, b;
    a.logs_bloom[0] = 0x81;
    a.logs_bloom[255] = 0x01;
    b.logs_bloom[0] = 0x02;
    b.logs_bloom[100] = 0x40;
    const Receipt both[] = {a, b};
    const Bloom got = block_bloom(both);
    EXPECT_EQ(got[0], 0x83);
    EXPECT_EQ(got[100], 0x40);
    EXPECT_EQ(got[255], 0x01);
    EXPECT_EQ(got[1], 0x00);
    EXPECT_TRUE(block_bloom({}).is_zero());
}

TEST(Receipt, BloomOfLogsCoversAddressesAndTopics) {
    const Log l = make_log(3, 2, 10);
    Bloom want;
    bloom_add(want, l.address.view());
    for (const Hash32& t : l.topics) bloom_add(want, t.view());
    EXPECT_EQ(logs_bloom(std::span<const Log>(&l, 1)), want);
    EXPECT_TRUE(logs_bloom({}).is_zero());
    // Each entry sets at most three bits.
    Bloom one;
    bloom_add(one, as_bytes("x"));
    int bits = 0;
    for (std::uint8_t byte : one) bits += std::popcount(byte);
    EXPECT_GE(bits, 1);
    EXPECT_LE(bits, 3);
}

// Receipts roots from execution-spec-tests Prague fixtures (beacon_root_contract_calls.json):
// blocks with one type-2 transaction, no logs (zero bloom), so the single receipt is
// 0x02 || rlp([1, gasUsed, 0, []]) with the header's gas used.
TEST(Receipt, ReceiptsRootKnownAnswers) {
    struct Row {
        std::uint64_t gas_used;
        const char* root;
    };
    for (const Row& row :
         {Row{0x8351, "1a55138d5a4f9df98b51595d38f5cf0aac621470a34f7657ebe6a2fc1c293e5e"},
          Row{0x01c73c, "56c22a6b2c9ca708dca598477f7c7391409272310505c9844e52aac13bf08af0"},
          Row{0xa679, "947fdf5cc17a8d6a0327ead70a42723e880e9e5e973ba0f9f472269086af76d6"}}) {
        Receipt r;
        r.type = TxType::dynamic_fee;
        r.success = true;
        r.cumulative_gas_used = row.gas_used;
        EXPECT_EQ(hex::encode(receipts_root(std::span<const Receipt>(&r, 1)).view()), row.root);
    }
    EXPECT_EQ(receipts_root({}), trie::kEmptyRoot);
}

TEST(Receipt, ReceiptsRootMatchesOrderedRootOfEnvelopes) {
    std::vector<Receipt> rs;
    for (std::size_t i = 0; i < 130; ++i)
        rs.push_back(sample(i % 2 ? TxType::dynamic_fee : TxType::legacy, i % 4));
    std::vector<Bytes> encs;
    for (const auto& r : rs) encs.push_back(encode(r));
    std::vector<BytesView> views(encs.begin(), encs.end());
    trie::RootBuilder builder;
    EXPECT_EQ(receipts_root(rs, builder), trie::ordered_root(views));
    EXPECT_EQ(receipts_root(rs), trie::ordered_root(views));
}

TEST(Receipt, BadInputs) {
    const Bytes status1 = from_hex("01");
    const Bytes gas = from_hex("825208");
    const Bytes bloom = from_hex("b90100" + std::string(512, '0'));
    const Bytes no_logs = from_hex("c0");
    const Bytes address = from_hex("94" + std::string(40, '0'));
    const std::size_t logs_at = 3 + 1 + 3 + 259;  // f9xxxx, status, gas, bloom

    struct Row {
        std::string name;
        Bytes in;
        Errc code;
        Field field;
        std::size_t offset;
        std::string message = "";
    };
    const Bytes log_short_address =
        list_of({from_hex("93" + std::string(38, '0')), from_hex("c0"), from_hex("80")});
    const Bytes log_long_topic =
        list_of({address, list_of({from_hex("a1" + std::string(66, '0'))}), from_hex("80")});
    const Bytes log_four_fields =
        list_of({address, from_hex("c0"), from_hex("80"), from_hex("80")});
    const Bytes log_no_data = list_of({address, from_hex("c0")});
    const std::vector<Row> rows = {
        {"empty", {}, Errc::rlp, Field::receipt, 0, "receipt: empty RLP input at offset 0"},
        {"type 0", from_hex("00c0"), Errc::type_not_supported, Field::receipt_type, 0,
         "receipt field type: transaction type not supported (type 0x00) at offset 0"},
        {"type 5", from_hex("05c0"), Errc::type_not_supported, Field::receipt_type, 0},
        {"string header first", from_hex("8180"), Errc::type_not_supported, Field::receipt_type, 0},
        {"typed without list", from_hex("02"), Errc::rlp, Field::receipt, 1},
        {"status 2", list_of({from_hex("02"), gas, bloom, no_logs}), Errc::invalid_receipt_status,
         Field::receipt_status, 3,
         "receipt field status: receipt status is neither 0, 1 nor a 32-byte state root (1 "
         "bytes) at offset 3"},
        {"status 0x00", list_of({from_hex("00"), gas, bloom, no_logs}),
         Errc::invalid_receipt_status, Field::receipt_status, 3},
        {"status 31 bytes", list_of({from_hex("9f" + std::string(62, '1')), gas, bloom, no_logs}),
         Errc::invalid_receipt_status, Field::receipt_status, 3},
        {"status as list", list_of({from_hex("c0"), gas, bloom, no_logs}), Errc::rlp,
         Field::receipt_status, 3},
        {"gas 9 bytes", list_of({status1, from_hex("89010000000000000000"), bloom, no_logs}),
         Errc::integer_overflow, Field::receipt_cumulative_gas_used, 4},
        {"bloom 255", list_of({status1, gas, from_hex("b8ff" + std::string(510, '0')), no_logs}),
         Errc::too_short, Field::receipt_logs_bloom, 7},
        {"three fields", list_of({status1, gas, bloom}), Errc::too_few_fields, Field::receipt_logs,
         logs_at},
        {"five fields", list_of({status1, gas, bloom, no_logs, from_hex("80")}),
         Errc::too_many_fields, Field::receipt, logs_at + 1},
        {"logs as string", list_of({status1, gas, bloom, from_hex("80")}), Errc::rlp,
         Field::receipt_logs, logs_at},
        {"log address short", list_of({status1, gas, bloom, list_of({log_short_address})}),
         Errc::too_short, Field::receipt_log_address, logs_at + 2},
        // logs list and log list both have 2-byte headers (payloads of 57 and 59 bytes).
        {"log topic long", list_of({status1, gas, bloom, list_of({log_long_topic})}),
         Errc::too_long, Field::receipt_log_topic, logs_at + 2 + 2 + 21 + 1},
        {"log with 4 fields", list_of({status1, gas, bloom, list_of({log_four_fields})}),
         Errc::too_many_fields, Field::receipt_log, logs_at + 2 + 21 + 1 + 1},
        {"log missing data", list_of({status1, gas, bloom, list_of({log_no_data})}),
         Errc::too_few_fields, Field::receipt_log_data, logs_at + 2 + 21 + 1},
        {"trailing byte", concat({list_of({status1, gas, bloom, no_logs}), from_hex("00")}),
         Errc::rlp, Field::receipt, logs_at + 1},
    };
    for (const Row& row : rows) {
        SCOPED_TRACE(row.name);
        auto r = decode_receipt(row.in);
        ASSERT_FALSE(r);
        EXPECT_EQ(r.error().code, row.code) << to_string(r.error());
        EXPECT_EQ(r.error().field, row.field) << to_string(r.error());
        EXPECT_EQ(r.error().offset, row.offset) << to_string(r.error());
        if (!row.message.empty()) {
            EXPECT_EQ(to_string(r.error()), row.message);
        }
        auto typed = decode_receipt(concat({from_hex("02"), row.in}), 10);
        if (!row.in.empty() && row.in[0] >= 0xc0) {  // the same list as a typed receipt
            ASSERT_FALSE(typed);
            EXPECT_EQ(typed.error().code, row.code);
            EXPECT_EQ(typed.error().offset, row.offset + 11);
        }
    }
    // A list element that is a string must hold a typed envelope.
    auto bad_item = decode_receipt_item(from_hex("82c0c0"));
    ASSERT_FALSE(bad_item);
    EXPECT_EQ(bad_item.error().code, Errc::type_not_supported);
    EXPECT_EQ(bad_item.error().offset, 1u);
}

}  // namespace
}  // namespace keel::eth
