#include "keel/eth/header.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "keel/common/hex.hpp"
#include "keel/crypto/keccak.hpp"
#include "keel/rlp/decode.hpp"
#include "test/testutil/rlp.hpp"
#include "test/testutil/vectors.hpp"

namespace keel::eth {
namespace {

using testutil::from_hex;

template <std::size_t N>
FixedBytes<N> fixed(std::string_view hex) {
    return hex::decode_fixed<FixedBytes<N>>(hex).value();
}

// The Prague genesis block of an execution-spec-tests fixture (blockchain_tests/eest_prague/
// cancun/eip4788_beacon_root/beacon_root_contract/beacon_root_contract_calls.json, first test):
// [header, [], [], []], 21-field header, hash 159b88be...
constexpr std::string_view kPragueGenesisBlock =
    "f90261f9025ba00000000000000000000000000000000000000000000000000000000000000000a01dcc4de8dec7"
    "5d7aab85b567b6ccd41ad312451b948a7413f0a142fd40d493479400000000000000000000000000000000000000"
    "00a092f15798cee121a4c70c7a5809d0b3654d08c401640fb518b809b02fc32e836fa056e81f171bcc55a6ff8345"
    "e692c0f86e5b48e01b996cadc001622fb5e363b421a056e81f171bcc55a6ff8345e692c0f86e5b48e01b996cadc0"
    "01622fb5e363b421b901000000000000000000000000000000000000000000000000000000000000000000000000"
    "00000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"
    "00000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"
    "00000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"
    "00000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"
    "00000000000000000000000000000000000000000000000000000000000000000000000000808088016345785d8a"
    "0000808000a000000000000000000000000000000000000000000000000000000000000000008800000000000000"
    "0007a056e81f171bcc55a6ff8345e692c0f86e5b48e01b996cadc001622fb5e363b4218080a00000000000000000"
    "000000000000000000000000000000000000000000000000a0e3b0c44298fc1c149afbf4c8996fb92427ae41e464"
    "9b934ca495991b7852b855c0c0c0";
constexpr std::string_view kPragueGenesisHash =
    "159b88be6d3930e9dd1748be4d5ea97ec43127897f78b6cd5106fd3d3491e0fc";

Bytes prague_genesis_header() {
    const Bytes block = from_hex(kPragueGenesisBlock);
    auto outer = rlp::open_list(block).value();
    const BytesView header = outer.next().value().encoded();
    return Bytes(header.begin(), header.end());
}

// The Ethereum mainnet genesis header (block 0, 2015-07-30): 15 fields, proof of work.
Header mainnet_genesis() {
    Header h;
    h.ommers_hash = kEmptyOmmersHash;
    h.state_root = fixed<32>("d7f8974fb5ac78d9ac099b9ad5018bedc2ce0a72dad1827a1709da30580f0544");
    h.transactions_root =
        fixed<32>("56e81f171bcc55a6ff8345e692c0f86e5b48e01b996cadc001622fb5e363b421");
    h.receipts_root = h.transactions_root;
    h.difficulty = Uint256{0x400000000ull};
    h.number = 0;
    h.gas_limit = 5000;
    h.extra_data = from_hex("11bbe8db4e347b4e8c937c1c8370e4b5ed33adb3db69cbdb7a38e1e50b1b82fa");
    h.nonce = fixed<8>("0000000000000042");
    return h;
}

TEST(Header, EmptyOmmersHashIsKeccakOfEmptyList) {
    const std::uint8_t empty_list[] = {0xc0};
    EXPECT_EQ(kEmptyOmmersHash, crypto::keccak256(empty_list));
}

TEST(Header, MainnetGenesisHash) {
    const Header h = mainnet_genesis();
    EXPECT_EQ(hex::encode(h.hash().view()),
              "d4e56740f876aef8c010b86a40d5f56745a118d0906a34e69aec8c0db1cb8fa3");
    const Bytes enc = encode(h);
    EXPECT_EQ(enc.size(), encoded_size(h));
    auto back = decode_header(enc);
    ASSERT_TRUE(back) << to_string(back.error());
    EXPECT_EQ(*back, h);
    EXPECT_EQ(back->optional_field_count(), 0u);
}

TEST(Header, PragueHeaderFromFixture) {
    const Bytes in = prague_genesis_header();
    auto h = decode_header(in);
    ASSERT_TRUE(h) << to_string(h.error());
    EXPECT_EQ(hex::encode(h->hash().view()), kPragueGenesisHash);
    EXPECT_EQ(h->number, 0u);
    EXPECT_EQ(h->gas_limit, 0x016345785d8a0000ull);
    EXPECT_EQ(h->extra_data, Bytes{0x00});
    EXPECT_EQ(h->ommers_hash, kEmptyOmmersHash);
    ASSERT_EQ(h->optional_field_count(), 6u);
    EXPECT_EQ(*h->base_fee_per_gas, Uint256{7});
    EXPECT_EQ(*h->blob_gas_used, 0u);
    EXPECT_EQ(*h->excess_blob_gas, 0u);
    EXPECT_TRUE(h->parent_beacon_block_root->is_zero());
    EXPECT_EQ(hex::encode(h->requests_hash->view()),
              "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    EXPECT_EQ(hex::encode(encode(*h)), hex::encode(in));
    EXPECT_EQ(encoded_size(*h), in.size());
    EXPECT_EQ(crypto::keccak256(in), h->hash());
}

// Every fork's shape: 15 fields (Frontier-Berlin), 16 (London), 17 (Shanghai), 18, 19 and 20
// (Cancun: blob gas used, excess blob gas, parent beacon root), 21 (Prague).
TEST(Header, OptionalFieldPrefixesRoundTrip) {
    for (std::size_t k = 0; k <= 6; ++k) {
        SCOPED_TRACE(k);
        Header h = mainnet_genesis();
        h.number = 19'000'000;
        h.gas_limit = 30'000'000;
        h.gas_used = 12'345'678;
        h.timestamp = 1'700'000'000;
        h.difficulty = 0;
        h.extra_data = Bytes(32, 0xee);
        h.beneficiary = fixed<20>("95222290dd7278aa3ddd389cc1e1d165cc4bafe5");
        if (k > 0) h.base_fee_per_gas = Uint256{7'000'000'000ull};
        if (k > 1) h.withdrawals_root = fixed<32>(std::string(64, 'a'));
        if (k > 2) h.blob_gas_used = 393216;
        if (k > 3) h.excess_blob_gas = 0;
        if (k > 4) h.parent_beacon_block_root = fixed<32>(std::string(64, 'b'));
        if (k > 5) h.requests_hash = fixed<32>(std::string(64, 'c'));
        EXPECT_EQ(h.optional_field_count(), k);
        const Bytes enc = encode(h);
        EXPECT_EQ(enc.size(), encoded_size(h));
        auto back = decode_header(enc, 1000);
        ASSERT_TRUE(back) << to_string(back.error());
        EXPECT_EQ(*back, h);
        EXPECT_EQ(back->hash(), crypto::keccak256(enc));
        auto item = rlp::decode_single(enc).value();
        EXPECT_EQ(rlp::Decoder(item.payload).count().value(), 15 + k);
    }
}

TEST(Header, LargeValuesRoundTrip) {
    Header h = mainnet_genesis();
    h.difficulty = Uint256::max();
    h.number = ~0ull;
    h.gas_limit = ~0ull;
    h.gas_used = 0;
    h.timestamp = 0x80;
    h.extra_data = Bytes(97, 0x01);  // Clique: 32 vanity + 65 seal
    h.base_fee_per_gas = Uint256::max();
    const Bytes enc = encode(h);
    auto back = decode_header(enc);
    ASSERT_TRUE(back) << to_string(back.error());
    EXPECT_EQ(*back, h);
}

TEST(HeaderDeathTest, EncodingAGapInOptionalFieldsAborts) {
    GTEST_FLAG_SET(death_test_style, "threadsafe");
    Header h = mainnet_genesis();
    h.withdrawals_root = Hash32{};  // without a base fee: no RLP for it
    EXPECT_DEATH((void)encode(h), "assertion failed");
}

// Bad inputs, each built from the Prague fixture header by replacing the raw bytes of fields.
struct Fields {
    std::vector<Bytes> items;  // raw encoded fields

    static Fields of(BytesView header) {
        Fields f;
        auto d = rlp::open_list(header).value();
        while (!d.empty()) {
            auto it = d.next().value();
            f.items.emplace_back(it.encoded().begin(), it.encoded().end());
        }
        return f;
    }
    Bytes encode() const { return testutil::list_of(items); }
    // Offset of field i in encode()'s output.
    std::size_t offset_of(std::size_t i) const {
        std::size_t n = 0;
        for (std::size_t j = 0; j < i; ++j) n += items[j].size();
        std::size_t total = 0;
        for (const auto& it : items) total += it.size();
        return rlp::header_length(total) + n;
    }
};

TEST(Header, BadInputs) {
    const Bytes good = prague_genesis_header();
    const Fields base = Fields::of(good);
    ASSERT_EQ(base.items.size(), 21u);

    struct Row {
        std::string name;
        Bytes in;
        Errc code;
        Field field;
        std::size_t offset;
        std::string message;  // checked when not empty
        rlp::Errc rlp_code = rlp::Errc::empty_input;
    };
    std::vector<Row> rows;
    const auto with = [&](std::size_t i, std::string_view hex) {
        Fields f = base;
        f.items[i] = from_hex(hex);
        return f;
    };
    {
        rows.push_back({"empty",
                        {},
                        Errc::rlp,
                        Field::header,
                        0,
                        "header: empty RLP input at offset 0",
                        rlp::Errc::empty_input});
        rows.push_back({"string, not a list", from_hex("8180"), Errc::rlp, Field::header, 0, "",
                        rlp::Errc::expected_list});
        Bytes trailing = good;
        trailing.push_back(0x00);
        rows.push_back({"trailing byte", trailing, Errc::rlp, Field::header, good.size(), "",
                        rlp::Errc::trailing_bytes});
        Bytes truncated(good.begin(), good.end() - 1);
        rows.push_back({"truncated", truncated, Errc::rlp, Field::header, 0, "",
                        rlp::Errc::length_past_input});
    }
    {
        Fields f = base;
        f.items.resize(14);  // no nonce
        const Bytes in = f.encode();
        rows.push_back(
            {"14 fields", in, Errc::too_few_fields, Field::header_nonce, in.size(),
             "header field nonce: list has too few fields at offset " + std::to_string(in.size())});
    }
    {
        Fields f = base;
        f.items.push_back(from_hex("80"));
        rows.push_back(
            {"22 fields", f.encode(), Errc::too_many_fields, Field::header, f.offset_of(21),
             "header: list has too many fields at offset " + std::to_string(f.offset_of(21))});
    }
    {
        Fields f = with(9, "89010000000000000000");  // gas limit 2^64
        rows.push_back({"gas limit 9 bytes", f.encode(), Errc::integer_overflow,
                        Field::header_gas_limit, f.offset_of(9),
                        "header field gas limit: integer too large for its field (9 bytes) at "
                        "offset " +
                            std::to_string(f.offset_of(9))});
    }
    {
        Fields f = with(0, "9f" + std::string(62, '0'));
        rows.push_back({"parent hash 31 bytes", f.encode(), Errc::too_short,
                        Field::header_parent_hash, f.offset_of(0),
                        "header field parent hash: shorter than its fixed size (31 bytes, "
                        "expected 32) at offset 3"});
    }
    {
        Fields f = with(2, "95" + std::string(42, '0'));
        rows.push_back({"beneficiary 21 bytes", f.encode(), Errc::too_long,
                        Field::header_beneficiary, f.offset_of(2),
                        "header field beneficiary: longer than its fixed size (21 bytes, "
                        "expected 20) at offset " +
                            std::to_string(f.offset_of(2))});
    }
    {
        Fields f = with(14, "89" + std::string(18, '0'));
        rows.push_back({"nonce 9 bytes", f.encode(), Errc::too_long, Field::header_nonce,
                        f.offset_of(14), ""});
    }
    {
        Fields f = with(6, "b8ff" + std::string(510, '0'));
        rows.push_back({"bloom 255 bytes", f.encode(), Errc::too_short, Field::header_logs_bloom,
                        f.offset_of(6), ""});
    }
    {
        Fields f = with(7, "a1" + std::string(66, '1'));
        rows.push_back({"difficulty 33 bytes", f.encode(), Errc::integer_overflow,
                        Field::header_difficulty, f.offset_of(7), ""});
    }
    {
        Fields f = with(8, "820001");
        rows.push_back({"number with leading zero", f.encode(), Errc::rlp, Field::header_number,
                        f.offset_of(8),
                        "header field number: RLP integer has a leading zero byte at offset " +
                            std::to_string(f.offset_of(8)),
                        rlp::Errc::leading_zero_in_integer});
    }
    {
        Fields f = with(11, "8105");
        rows.push_back({"timestamp as 0x81 0x05", f.encode(), Errc::rlp, Field::header_timestamp,
                        f.offset_of(11), "", rlp::Errc::non_canonical_single_byte});
    }
    {
        Fields f = with(12, "c0");
        rows.push_back({"extra data as a list", f.encode(), Errc::rlp, Field::header_extra_data,
                        f.offset_of(12), "", rlp::Errc::expected_string});
    }
    {
        Fields f = with(15, "c107");
        rows.push_back({"base fee as a list", f.encode(), Errc::rlp, Field::header_base_fee_per_gas,
                        f.offset_of(15), "", rlp::Errc::expected_string});
    }
    {
        Fields f = with(17, "89010000000000000000");
        rows.push_back({"blob gas used 9 bytes", f.encode(), Errc::integer_overflow,
                        Field::header_blob_gas_used, f.offset_of(17), ""});
    }
    {
        Fields f = with(20, "80");
        rows.push_back({"requests hash empty", f.encode(), Errc::too_short,
                        Field::header_requests_hash, f.offset_of(20), ""});
    }

    for (const Row& row : rows) {
        SCOPED_TRACE(row.name);
        auto r = decode_header(row.in);
        ASSERT_FALSE(r);
        EXPECT_EQ(r.error().code, row.code) << to_string(r.error());
        EXPECT_EQ(r.error().field, row.field) << to_string(r.error());
        EXPECT_EQ(r.error().offset, row.offset) << to_string(r.error());
        if (row.code == Errc::rlp) {
            EXPECT_EQ(r.error().rlp, row.rlp_code) << to_string(r.error());
        }
        if (!row.message.empty()) {
            EXPECT_EQ(to_string(r.error()), row.message);
        }
        // With a base offset every offset moves by it.
        auto shifted = decode_header(row.in, 500);
        ASSERT_FALSE(shifted);
        EXPECT_EQ(shifted.error().offset, row.offset + 500);
    }
}

}  // namespace
}  // namespace keel::eth
