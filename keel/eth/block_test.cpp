#include "keel/eth/block.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <tuple>
#include <vector>

#include "keel/common/hex.hpp"
#include "keel/crypto/keccak.hpp"
#include "keel/rlp/decode.hpp"
#include "keel/trie/root.hpp"
#include "test/testutil/hex.hpp"
#include "test/testutil/rlp.hpp"
#include "test/testutil/vectors.hpp"

namespace keel::eth {
namespace {

using testutil::from_hex;
using testutil::hex_of;
using testutil::list_of;

// Blocks from execution-spec-tests Prague fixtures (blockchain_tests/eest_prague/cancun/
// eip4788_beacon_root/beacon_root_contract/):
//   kCallsBlock   beacon_root_contract_calls.json, first test, block 1: one type-2 transaction,
//                 an empty withdrawals list
//   kDeployBlock  beacon_root_contract_deploy.json, first test, first block with withdrawals:
//                 one legacy transaction, two withdrawals
constexpr std::string_view kCallsBlock =
    "f902ecf9025da0159b88be6d3930e9dd1748be4d5ea97ec43127897f78b6cd5106fd3d3491e0fca01dcc4de8dec7"
    "5d7aab85b567b6ccd41ad312451b948a7413f0a142fd40d49347942adc25665018aa1fe0e6bc666dac8fc2697ff9"
    "baa08b932b8b07c62ce225bddd3778ddadedccea653e77dc501068d28a4a8c87dbdda06d77a5b4c664c1b597baca"
    "781e0002bd9baf408d4b9134b6e2ba7aebb75475e3a01a55138d5a4f9df98b51595d38f5cf0aac621470a34f7657"
    "ebe6a2fc1c293e5eb901000000000000000000000000000000000000000000000000000000000000000000000000"
    "00000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"
    "00000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"
    "00000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"
    "00000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"
    "00000000000000000000000000000000000000000000000000000000000000000000000000800188016345785d8a"
    "00008283510c80a00000000000000000000000000000000000000000000000000000000000000000880000000000"
    "00000007a056e81f171bcc55a6ff8345e692c0f86e5b48e01b996cadc001622fb5e363b4218080a06c31fc15422e"
    "bad28aaf9089c306702f67540b53c7eea8b7d2941044b027100fa0e3b0c44298fc1c149afbf4c8996fb92427ae41"
    "e4649b934ca495991b7852b855f888b88602f88301808007830f4240940000000000000000000000000000000000"
    "00100080a0000000000000000000000000000000000000000000000000000000000000000cc080a00250e37fb109"
    "4dca850d5e9930a67cfcbdfb10dd4e93d576c1add47ebcaa9087a077e2484f633730a17870768524826e03dbb3a1"
    "856b5b07b850631453167b42c5c0c0";

constexpr std::string_view kDeployBlock =
    "f902daf9021ca08e6180ef3eb90c1bd8e508e85ed75e8222b56d1718bf68bbbf5847f69909b566a01dcc4de8dec7"
    "5d7aab85b567b6ccd41ad312451b948a7413f0a142fd40d49347942adc25665018aa1fe0e6bc666dac8fc2697ff9"
    "baa007676f1b8708a3ec5b0724c25c51ba09b2c17ee0a2181f9ea75a724cf4cf42f0a0d87da2b23fc7bbfa7e2994"
    "ee830e73325af892d036e2e5d90d9f17ff2dd41d9da0d5caddb93c844bd1c4a6364ec17b3f09afea9b2f335d8aba"
    "110ef6b0c9d9bfebb901000000000000000000000000000000000000000000000000000000000000000000000000"
    "00000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"
    "00000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"
    "00000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"
    "00000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"
    "00000000000000000000000000000000000000000000000000000000000000000000000000800188016345785d8a"
    "000083012164821d4c80a00000000000000000000000000000000000000000000000000000000000000000880000"
    "00000000000007a02aef4d3e6939af0b4bf4c0e7572a214eb7db9ba52937e1e82ad6c64b52d2e8bbf885f8838085"
    "e8d4a510008303d0908080b86a60618060095f395ff33373fffffffffffffffffffffffffffffffffffffffe1460"
    "4d57602036146024575f5ffd5b5f35801560495762001fff810690815414603c575f5ffd5b62001fff01545f5260"
    "205ff35b5f5ffd5b62001fff42064281555f359062001fff0155001b820539851b9b6eb1f0c0f2d8808094000f3d"
    "f6d732807ef1319fb7b8bb8522d0beac0201d8010194fffffffffffffffffffffffffffffffffffffffe01";

struct Fixture {
    std::string_view rlp;
    const char* hash;
    const char* transactions_root;
    const char* withdrawals_root;
    std::size_t transactions;
    std::size_t withdrawals;
};

const Fixture kFixtures[] = {
    {kCallsBlock, "4c798db6e1643ed247056afcfce490a3aaffe379cb61d9ac07a83bc6ede04fab",
     "6d77a5b4c664c1b597baca781e0002bd9baf408d4b9134b6e2ba7aebb75475e3",
     "56e81f171bcc55a6ff8345e692c0f86e5b48e01b996cadc001622fb5e363b421", 1, 0},
    {kDeployBlock, "742687cf22eb1d831de5ab314ae05365a71a64ac09d871f8145f306a56d7d86d",
     "d87da2b23fc7bbfa7e2994ee830e73325af892d036e2e5d90d9f17ff2dd41d9d",
     "2aef4d3e6939af0b4bf4c0e7572a214eb7db9ba52937e1e82ad6c64b52d2e8bb", 1, 2},
};

TEST(Block, FixtureBlocks) {
    for (const Fixture& fx : kFixtures) {
        SCOPED_TRACE(fx.hash);
        const Bytes in = from_hex(fx.rlp);
        auto b = decode_block(in);
        ASSERT_TRUE(b) << to_string(b.error());
        EXPECT_EQ(hex_of(b->hash()), fx.hash);
        EXPECT_EQ(b->body.transactions.size(), fx.transactions);
        ASSERT_TRUE(b->body.withdrawals.has_value());
        EXPECT_EQ(b->body.withdrawals->size(), fx.withdrawals);
        EXPECT_TRUE(b->body.ommers.empty());

        EXPECT_EQ(hex_of(transactions_root(b->body.transactions)), fx.transactions_root);
        EXPECT_EQ(b->header.transactions_root, transactions_root(b->body.transactions));
        EXPECT_EQ(hex_of(withdrawals_root(*b->body.withdrawals)), fx.withdrawals_root);
        EXPECT_EQ(*b->header.withdrawals_root, withdrawals_root(*b->body.withdrawals));
        EXPECT_EQ(b->header.ommers_hash, ommers_hash(b->body.ommers));

        EXPECT_EQ(hex::encode(encode(*b)), hex::encode(in));
        EXPECT_EQ(encoded_size(*b), in.size());

        // The body alone: [transactions, ommers, withdrawals].
        const Bytes body = encode(b->body);
        EXPECT_EQ(body.size(), encoded_size(b->body));
        auto back = decode_body(body);
        ASSERT_TRUE(back) << to_string(back.error());
        EXPECT_EQ(hex::encode(encode(*back)), hex::encode(body));
    }
}

TEST(Block, WithdrawalsFromFixture) {
    const Bytes in = from_hex(kDeployBlock);
    auto b = decode_block(in);
    ASSERT_TRUE(b) << to_string(b.error());
    const std::vector<Withdrawal> ws = b->body.withdrawals.value_or(std::vector<Withdrawal>{});
    ASSERT_EQ(ws.size(), 2u);
    EXPECT_EQ(ws[0].index, 0u);
    EXPECT_EQ(ws[0].validator_index, 0u);
    EXPECT_EQ(hex::encode(ws[0].address.view()), "000f3df6d732807ef1319fb7b8bb8522d0beac02");
    EXPECT_EQ(ws[0].amount_gwei, 1u);
    EXPECT_EQ(ws[1].index, 1u);
    EXPECT_EQ(hex::encode(ws[1].address.view()), "fffffffffffffffffffffffffffffffffffffffe");
    // Each withdrawal re-encodes to its bytes, and decodes on its own.
    for (const Withdrawal& w : ws) {
        const Bytes enc = encode(w);
        EXPECT_EQ(enc.size(), encoded_size(w));
        EXPECT_EQ(decode_withdrawal(enc).value(), w);
        rlp::Encoder e;
        encode(w, e);
        EXPECT_EQ(hex::encode(e.view()), hex::encode(enc));
    }
}

// Transactions built with the transaction module's encoder, then decoded.
Transaction make_tx(TxType type, std::uint64_t nonce, std::size_t data) {
    TransactionFields f;
    f.type = type;
    f.nonce = nonce;
    f.max_fee_per_gas = Uint256{30'000'000'000ull};
    f.max_priority_fee_per_gas = Uint256{1'000'000'000ull};
    f.gas_limit = 21000 + 16 * data;
    Address to;
    to[19] = static_cast<std::uint8_t>(nonce);
    f.to = to;
    f.value = Uint256{nonce * 1000};
    f.data.assign(data, 0xab);
    if (type == TxType::blob) {
        Hash32 h;
        h[0] = 0x01;
        f.blob_versioned_hashes.push_back(h);
        f.max_fee_per_blob_gas = Uint256{1};
    }
    f.v = type == TxType::legacy ? Uint256{37} : Uint256{1};
    f.r = Uint256{0x1234567890ull + nonce};
    f.s = Uint256{0x0987654321ull + nonce};
    auto tx = decode_transaction(encode(f));
    EXPECT_TRUE(tx) << to_string(tx.error());
    return tx.value();
}

Header make_header(std::uint64_t number, std::size_t optional_fields) {
    Header h;
    h.number = number;
    h.gas_limit = 30'000'000;
    h.timestamp = 1'600'000'000 + number;
    h.difficulty = Uint256{131072};
    h.extra_data = Bytes(7, 0x11);
    h.ommers_hash = kEmptyOmmersHash;
    if (optional_fields > 0) h.base_fee_per_gas = Uint256{875'000'000};
    if (optional_fields > 1) h.withdrawals_root = trie::kEmptyRoot;
    if (optional_fields > 2) {
        h.blob_gas_used = 0;
        h.excess_blob_gas = 0;
        h.parent_beacon_block_root = Hash32{};
    }
    if (optional_fields > 5) h.requests_hash = Hash32{};
    return h;
}

Block make_block(std::size_t txs, bool withdrawals, std::size_t ommers) {
    Block b;
    b.header = make_header(1000, withdrawals ? 6 : 1);
    const TxType types[] = {TxType::legacy, TxType::access_list, TxType::dynamic_fee, TxType::blob,
                            TxType::set_code};
    for (std::size_t i = 0; i < txs; ++i) {
        const TxType t = types[i % 4];  // set-code needs an authorization list: left out
        b.body.transactions.push_back(make_tx(t, i, (i * 37) % 300));
    }
    for (std::size_t i = 0; i < ommers; ++i) b.body.ommers.push_back(make_header(998 + i, 1));
    if (withdrawals) {
        b.body.withdrawals.emplace();
        for (std::uint64_t i = 0; i < 16; ++i) {
            Withdrawal w;
            w.index = 1'000'000 + i;
            w.validator_index = 500'000 + 7 * i;
            w.address[0] = static_cast<std::uint8_t>(i);
            w.amount_gwei = 18'000'000 + i;
            b.body.withdrawals->push_back(w);
        }
    }
    b.header.transactions_root = transactions_root(b.body.transactions);
    b.header.ommers_hash = ommers_hash(b.body.ommers);
    if (withdrawals) b.header.withdrawals_root = withdrawals_root(*b.body.withdrawals);
    return b;
}

TEST(Block, ConstructedBlocksRoundTrip) {
    for (const auto& [txs, withdrawals, ommers] :
         std::vector<std::tuple<std::size_t, bool, std::size_t>>{
             {0, false, 0}, {1, false, 2}, {3, true, 0}, {130, true, 0}, {200, false, 1}}) {
        SCOPED_TRACE(std::to_string(txs) + (withdrawals ? " +w " : " ") + std::to_string(ommers));
        const Block b = make_block(txs, withdrawals, ommers);
        const Bytes enc = encode(b);
        EXPECT_EQ(enc.size(), encoded_size(b));
        auto back = decode_block(enc, 7);
        ASSERT_TRUE(back) << to_string(back.error());
        EXPECT_EQ(back->header, b.header);
        ASSERT_EQ(back->body.transactions.size(), txs);
        for (std::size_t i = 0; i < txs; ++i) {
            EXPECT_EQ(back->body.transactions[i].hash(), b.body.transactions[i].hash());
        }
        EXPECT_EQ(back->body.ommers, b.body.ommers);
        EXPECT_EQ(back->body.withdrawals, b.body.withdrawals);
        EXPECT_EQ(hex::encode(encode(*back)), hex::encode(enc));
        EXPECT_EQ(back->hash(), crypto::keccak256(encode(b.header)));
        EXPECT_EQ(transactions_root(back->body.transactions), b.header.transactions_root);

        // The transactions root is the ordered trie root of the envelopes.
        std::vector<BytesView> envs;
        for (const auto& tx : b.body.transactions) envs.push_back(tx.encoded());
        EXPECT_EQ(transactions_root(b.body.transactions), trie::ordered_root(envs));
    }
}

TEST(Block, OmmersHash) {
    EXPECT_EQ(ommers_hash({}), kEmptyOmmersHash);
    std::vector<Header> ommers = {make_header(5, 0), make_header(6, 1)};
    rlp::Encoder e;
    const Bytes a = encode(ommers[0]);
    const Bytes c = encode(ommers[1]);
    e.add_list_header(a.size() + c.size());
    e.add_raw(a);
    e.add_raw(c);
    EXPECT_EQ(ommers_hash(ommers), crypto::keccak256(e.view()));
}

TEST(Block, BadInputs) {
    const Block good = make_block(2, true, 0);
    const Bytes header = encode(good.header);
    rlp::Encoder txs_enc;
    std::size_t txs_payload = 0;
    for (const auto& tx : good.body.transactions) {
        txs_payload += tx.type() == TxType::legacy
                           ? tx.encoded().size()
                           : rlp::header_length(tx.encoded().size()) + tx.encoded().size();
    }
    txs_enc.add_list_header(txs_payload);
    for (const auto& tx : good.body.transactions) encode_item(tx, txs_enc);
    const Bytes txs(txs_enc.view().begin(), txs_enc.view().end());
    const Bytes no_ommers = from_hex("c0");
    const Bytes withdrawal = encode(good.body.withdrawals->front());
    const Bytes ws = list_of({withdrawal});
    const std::size_t h = rlp::header_length(header.size() + txs.size() + 1 + ws.size());
    std::vector<Bytes> fields14;  // a header without its nonce
    {
        const Bytes full = encode(make_header(1, 0));
        auto d = rlp::open_list(full).value();
        for (int i = 0; i < 14; ++i) {
            const BytesView f = d.next().value().encoded();
            fields14.emplace_back(f.begin(), f.end());
        }
    }
    const Bytes header14 = list_of(fields14);

    struct Row {
        std::string name;
        Bytes in;
        Errc code;
        Field field;
        std::size_t offset;
        std::string message = "";
    };
    std::vector<Row> rows = {
        {"empty", {}, Errc::rlp, Field::block, 0, "block: empty RLP input at offset 0"},
        {"string", from_hex("83010203"), Errc::rlp, Field::block, 0},
        {"no header", from_hex("c0"), Errc::too_few_fields, Field::header, 1},
        {"header only", list_of({header}), Errc::too_few_fields, Field::block_transactions,
         rlp::header_length(header.size()) + header.size(),
         "block field transactions: list has too few fields at offset " +
             std::to_string(rlp::header_length(header.size()) + header.size())},
        {"no ommers", list_of({header, txs}), Errc::too_few_fields, Field::block_ommers,
         rlp::header_length(header.size() + txs.size()) + header.size() + txs.size()},
        {"five parts", list_of({header, txs, no_ommers, ws, no_ommers}), Errc::too_many_fields,
         Field::block,
         rlp::header_length(header.size() + txs.size() + 1 + ws.size() + 1) + header.size() +
             txs.size() + 1 + ws.size()},
        {"transactions as string", list_of({header, from_hex("80"), no_ommers, ws}), Errc::rlp,
         Field::block_transactions,
         rlp::header_length(header.size() + 2 + ws.size()) + header.size()},
        {"withdrawals as string", list_of({header, txs, no_ommers, from_hex("80")}), Errc::rlp,
         Field::block_withdrawals,
         rlp::header_length(header.size() + txs.size() + 2) + header.size() + txs.size() + 1},
        {"header with 14 fields", list_of({header14, txs, no_ommers}), Errc::too_few_fields,
         Field::header_nonce, 0},  // offset checked below
        {"bad withdrawal amount",
         list_of({header, txs, no_ommers,
                  list_of({list_of({from_hex("01"), from_hex("02"),
                                    from_hex("94" + std::string(40, '0')),
                                    from_hex("89010000000000000000")})})}),
         Errc::integer_overflow, Field::withdrawal_amount,
         h + header.size() + txs.size() + 1 + 1 + 1 + 1 + 1 + 21},
        {"withdrawal with 3 fields",
         list_of({header, txs, no_ommers,
                  list_of({list_of(
                      {from_hex("01"), from_hex("02"), from_hex("94" + std::string(40, '0'))})})}),
         Errc::too_few_fields, Field::withdrawal_amount,
         h + header.size() + txs.size() + 1 + 1 + 1 + 1 + 1 + 21},
        {"typed tx string holding a list",
         list_of({header, list_of({from_hex("82c0c0")}), no_ommers}), Errc::type_not_supported,
         Field::type, 0},  // offset checked below
        {"ommer not a list", list_of({header, txs, list_of({from_hex("80")})}), Errc::rlp,
         Field::header,
         rlp::header_length(header.size() + txs.size() + 2) + header.size() + txs.size() + 1},
    };
    rows[8].offset = rows[8].in.size() - txs.size() - 1;  // the end of the 14-field header
    rows[11].offset = rlp::header_length(header.size() + 5) + header.size() + 1 + 1;
    for (const Row& row : rows) {
        SCOPED_TRACE(row.name);
        auto r = decode_block(row.in);
        ASSERT_FALSE(r);
        EXPECT_EQ(r.error().code, row.code) << to_string(r.error());
        EXPECT_EQ(r.error().field, row.field) << to_string(r.error());
        EXPECT_EQ(r.error().offset, row.offset) << to_string(r.error());
        if (!row.message.empty()) {
            EXPECT_EQ(to_string(r.error()), row.message);
        }
        auto shifted = decode_block(row.in, 1000);
        ASSERT_FALSE(shifted);
        EXPECT_EQ(shifted.error().offset, row.offset + 1000);
    }
}

// A transaction error inside a block keeps the transaction's field and an offset in the block.
TEST(Block, TransactionErrorOffsetsAreAbsolute) {
    Block b = make_block(3, false, 0);
    Bytes enc = encode(b);
    const Bytes tx1 =
        Bytes(b.body.transactions[1].encoded().begin(), b.body.transactions[1].encoded().end());
    // Find the second transaction's envelope in the block and break its first field (chain id
    // of a type-1 transaction: 0x01 -> 0x00, a non-canonical integer).
    auto it = std::search(enc.begin(), enc.end(), tx1.begin(), tx1.end());
    ASSERT_NE(it, enc.end());
    const std::size_t env = static_cast<std::size_t>(it - enc.begin());
    auto payload = rlp::decode_header(BytesView(enc).subspan(env + 1)).value();
    const std::size_t chain_id_at = env + 1 + payload.header_size;
    ASSERT_EQ(enc[chain_id_at], 0x01);
    enc[chain_id_at] = 0x00;
    auto r = decode_block(enc);
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().field, Field::chain_id) << to_string(r.error());
    EXPECT_EQ(r.error().offset, chain_id_at) << to_string(r.error());
    EXPECT_NE(to_string(r.error()).find("transaction field chain id"), std::string::npos)
        << to_string(r.error());
}

TEST(Withdrawal, BadInputs) {
    struct Row {
        std::string name;
        std::string hex;
        Errc code;
        Field field;
        std::size_t offset;
    };
    const std::string addr = "94" + std::string(40, '0');
    for (const Row& row : std::vector<Row>{
             {"empty", "", Errc::rlp, Field::withdrawal, 0},
             {"string", "80", Errc::rlp, Field::withdrawal, 0},
             {"three fields",
              "d7"
              "01"
              "02" +
                  addr,
              Errc::too_few_fields, Field::withdrawal_amount, 24},
             {"five fields",
              "d9"
              "01"
              "02" +
                  addr +
                  "03"
                  "04",
              Errc::too_many_fields, Field::withdrawal, 25},
             {"index 9 bytes",
              "e1"
              "89010000000000000000"
              "02" +
                  addr + "03",
              Errc::integer_overflow, Field::withdrawal_index, 1},
             {"validator leading zero",
              "da"
              "01"
              "820002" +
                  addr + "03",
              Errc::rlp, Field::withdrawal_validator_index, 2},
             {"address 19 bytes",
              "d7"
              "01"
              "02"
              "93" +
                  std::string(38, '0') + "03",
              Errc::too_short, Field::withdrawal_address, 3},
         }) {
        SCOPED_TRACE(row.name);
        auto r = decode_withdrawal(from_hex(row.hex));
        ASSERT_FALSE(r);
        EXPECT_EQ(r.error().code, row.code) << to_string(r.error());
        EXPECT_EQ(r.error().field, row.field) << to_string(r.error());
        EXPECT_EQ(r.error().offset, row.offset) << to_string(r.error());
    }
    Withdrawal w;
    w.index = ~0ull;
    w.validator_index = 0;
    w.amount_gwei = 0x80;
    EXPECT_EQ(decode_withdrawal(encode(w)).value(), w);
    EXPECT_EQ(withdrawals_root({}), trie::kEmptyRoot);
}

}  // namespace
}  // namespace keel::eth
