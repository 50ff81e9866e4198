#include "keel/eth/transaction.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <ostream>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "keel/common/hex.hpp"
#include "keel/crypto/keccak.hpp"
#include "keel/eth/fork.hpp"
#include "keel/rlp/decode.hpp"
#include "keel/rlp/encode.hpp"
#include "test/testutil/data.hpp"
#include "test/testutil/rlp.hpp"
#include "test/testutil/vectors.hpp"

namespace keel::eth {

// Readable failures: the one-line message instead of the object's bytes.
void PrintTo(const Error& e, std::ostream* os) {
    *os << to_string(e);
}

namespace {

using testutil::concat;
using testutil::from_hex;
using testutil::list_of;

// ---- hand-made RLP ---------------------------------------------------------------------------

Bytes u(std::uint64_t v) {
    rlp::Encoder e;
    e.add_uint(v);
    return e.take();
}

Bytes u256(const Uint256& v) {
    rlp::Encoder e;
    e.add_uint256(v);
    return e.take();
}

Bytes str(BytesView b) {
    rlp::Encoder e;
    e.add_string(b);
    return e.take();
}

Bytes str_n(std::size_t n, std::uint8_t fill = 0x11) {
    return str(Bytes(n, fill));
}

// A string header written as is, followed by `payload` (for non-canonical integers).
Bytes raw_str(BytesView payload) {
    Bytes out;
    rlp::Encoder e(out);
    e.add_string_header(payload.size());
    e.add_raw(payload);
    e.trim();
    return out;
}

// A transaction built from items, with the absolute offset of each item and of the list's end.
struct Built {
    Bytes bytes;
    std::vector<std::size_t> offsets;
    std::size_t end = 0;
};

Built build(std::optional<std::uint8_t> type, const std::vector<Bytes>& items) {
    Built b;
    const Bytes l = list_of(items);
    if (type) b.bytes.push_back(*type);
    const std::size_t prefix = b.bytes.size();
    b.bytes.insert(b.bytes.end(), l.begin(), l.end());
    std::size_t payload = 0;
    for (const auto& i : items) payload += i.size();
    std::size_t off = prefix + rlp::header_length(payload);
    for (const auto& i : items) {
        b.offsets.push_back(off);
        off += i.size();
    }
    b.end = off;
    return b;
}

// The offset inside `item` of the nested item reached by `path`: at each level, the index of
// the child (an index equal to the child count gives the list's end). The headers on the path
// must be well formed.
std::size_t at(BytesView item, std::initializer_list<std::size_t> path) {
    std::size_t off = 0;
    for (const std::size_t index : path) {
        const auto list_header = rlp::decode_header(item.subspan(off));
        if (!list_header) throw std::runtime_error("bad path in test");
        off += list_header->header_size;
        for (std::size_t i = 0; i < index; ++i) {
            const auto child = rlp::decode_header(item.subspan(off));
            if (!child) throw std::runtime_error("bad path in test");
            off += child->size();
        }
    }
    return off;
}

Address addr(std::uint8_t fill) {
    Address a;
    a.bytes.fill(fill);
    return a;
}

Hash32 h32(std::uint8_t fill) {
    Hash32 h;
    h.bytes.fill(fill);
    return h;
}

const Uint256 kR =
    *Uint256::from_hex("0x28ef61340bd939bc2195fe537567866003e1a15d3c71ff63e1590620aa636276");
const Uint256 kS =
    *Uint256::from_hex("0x67cbe9d8997f761aecb703304b3800ccf555c9f3dc64214b297fb1966a3b6d83");

// The items of a legacy transaction: nonce, gas price, gas limit, to, value, data, v, r, s.
std::vector<Bytes> legacy_items() {
    return {u(9),  u(20000000000), u(21000), str(addr(0x35).view()), u(1000), str_n(3, 0xab),
            u(37), u256(kR),       u256(kS)};
}

// The items of a dynamic-fee (type 2) transaction without access list entries.
std::vector<Bytes> dynamic_fee_items() {
    return {u(1), u(7),     u(1000000000), u(2000000000), u(21000), str(addr(0x35).view()),
            u(0), str_n(0), list_of({}),   u(1),          u256(kR), u256(kS)};
}

// ---- well-formed transactions of every type ----------------------------------------------------

TransactionFields legacy_fields(bool eip155) {
    TransactionFields f;
    f.type = TxType::legacy;
    f.nonce = 9;
    f.max_fee_per_gas = 20000000000ull;
    f.gas_limit = 21000;
    f.to = addr(0x35);
    f.value = *Uint256::from_dec("1000000000000000000");
    f.v = eip155 ? 37 : 27;
    f.r = kR;
    f.s = kS;
    return f;
}

TransactionFields access_list_fields() {
    TransactionFields f;
    f.type = TxType::access_list;
    f.chain_id = 1;
    f.nonce = 1;
    f.max_fee_per_gas = 3000000000ull;
    f.gas_limit = 50000;
    f.to = addr(0x35);
    f.value = 1;
    f.data = from_hex("deadbeef");
    f.access_list = {{addr(0x35), {h32(1), h32(2)}}, {addr(0x36), {}}};
    f.v = 0;
    f.r = kR;
    f.s = kS;
    return f;
}

TransactionFields dynamic_fee_fields() {
    TransactionFields f;
    f.type = TxType::dynamic_fee;
    f.chain_id = 1;
    f.nonce = 2;
    f.max_priority_fee_per_gas = 1000000000ull;
    f.max_fee_per_gas = 30000000000ull;
    f.gas_limit = 200000;
    f.to = addr(0x7a);
    f.data = Bytes(300, 0x5a);
    f.access_list = {{addr(0x01), {h32(3)}}};
    f.v = 1;
    f.r = kR;
    f.s = kS;
    return f;
}

TransactionFields blob_fields() {
    TransactionFields f = dynamic_fee_fields();
    f.type = TxType::blob;
    f.max_fee_per_blob_gas = 1000000;
    Hash32 a = h32(0xaa), b = h32(0xbb);
    a[0] = 1;
    b[0] = 1;
    f.blob_versioned_hashes = {a, b};
    return f;
}

TransactionFields set_code_fields() {
    TransactionFields f = dynamic_fee_fields();
    f.type = TxType::set_code;
    f.authorization_list = {{1, addr(0x42), 0, 1, kR, kS}, {0, addr(0x43), 5, 0, kS, kR}};
    return f;
}

// The signing hash computed the long way: the unsigned fields encoded again with the Encoder.
Hash32 signing_hash_reference(const TransactionFields& f) {
    rlp::Encoder e;
    auto m = e.begin_list();
    if (f.type != TxType::legacy) e.add_uint(f.chain_id);
    e.add_uint(f.nonce);
    if (f.type == TxType::legacy || f.type == TxType::access_list) {
        e.add_uint256(f.max_fee_per_gas);
    } else {
        e.add_uint256(f.max_priority_fee_per_gas).add_uint256(f.max_fee_per_gas);
    }
    e.add_uint(f.gas_limit);
    e.add_string(f.to ? f.to->view() : BytesView{});
    e.add_uint256(f.value);
    e.add_string(f.data);
    if (f.type != TxType::legacy) {
        auto al = e.begin_list();
        for (const auto& entry : f.access_list) {
            auto em = e.begin_list();
            e.add_string(entry.address.view());
            auto km = e.begin_list();
            for (const auto& k : entry.storage_keys) e.add_string(k.view());
            e.end_list(km);
            e.end_list(em);
        }
        e.end_list(al);
    }
    if (f.type == TxType::blob) {
        e.add_uint256(f.max_fee_per_blob_gas);
        auto bm = e.begin_list();
        for (const auto& h : f.blob_versioned_hashes) e.add_string(h.view());
        e.end_list(bm);
    }
    if (f.type == TxType::set_code) {
        auto am = e.begin_list();
        for (const auto& a : f.authorization_list) {
            auto t = e.begin_list();
            e.add_uint256(a.chain_id).add_string(a.address.view()).add_uint(a.nonce);
            e.add_uint(a.y_parity).add_uint256(a.r).add_uint256(a.s);
            e.end_list(t);
        }
        e.end_list(am);
    }
    if (f.type == TxType::legacy && f.v >= 35) {
        e.add_uint256((f.v - 35) >> 1).add_uint(0).add_uint(0);
    }
    e.end_list(m);
    Bytes payload = e.take();
    if (f.type != TxType::legacy)
        payload.insert(payload.begin(), static_cast<std::uint8_t>(f.type));
    return crypto::keccak256(payload);
}

void expect_fields(const Transaction& tx, const TransactionFields& f) {
    EXPECT_EQ(tx.type(), f.type);
    EXPECT_EQ(tx.nonce(), f.nonce);
    EXPECT_EQ(tx.gas_limit(), f.gas_limit);
    EXPECT_EQ(tx.max_fee_per_gas(), f.max_fee_per_gas);
    EXPECT_EQ(tx.gas_price(), f.max_fee_per_gas);
    if (f.type == TxType::legacy || f.type == TxType::access_list) {
        EXPECT_EQ(tx.max_priority_fee_per_gas(), f.max_fee_per_gas);
    } else {
        EXPECT_EQ(tx.max_priority_fee_per_gas(), f.max_priority_fee_per_gas);
    }
    EXPECT_EQ(tx.to(), f.to);
    EXPECT_EQ(tx.is_create(), !f.to.has_value());
    EXPECT_EQ(tx.value(), f.value);
    EXPECT_EQ(Bytes(tx.data().begin(), tx.data().end()), f.data);
    EXPECT_EQ(tx.v(), f.v);
    EXPECT_EQ(tx.r(), f.r);
    EXPECT_EQ(tx.s(), f.s);
    if (f.type != TxType::legacy) {
        EXPECT_EQ(tx.chain_id(), f.chain_id);
    }
    // Access list, entry by entry.
    const auto al = tx.access_list();
    ASSERT_EQ(al.size(), f.type == TxType::legacy ? 0 : f.access_list.size());
    std::size_t i = 0, keys = 0;
    for (const AccessListEntryView entry : al) {
        const auto& want = f.access_list[i++];
        EXPECT_EQ(entry.address, want.address);
        ASSERT_EQ(entry.storage_keys.size(), want.storage_keys.size());
        std::size_t k = 0;
        for (const Hash32 key : entry.storage_keys) EXPECT_EQ(key, want.storage_keys[k++]);
        keys += k;
    }
    EXPECT_EQ(i, al.size());
    EXPECT_EQ(al.storage_key_count(), keys);
    // Blob fields.
    if (f.type == TxType::blob) {
        EXPECT_EQ(tx.max_fee_per_blob_gas(), f.max_fee_per_blob_gas);
        const auto hashes = tx.blob_versioned_hashes();
        ASSERT_EQ(hashes.size(), f.blob_versioned_hashes.size());
        for (std::size_t j = 0; j < hashes.size(); ++j) {
            EXPECT_EQ(hashes[j], f.blob_versioned_hashes[j]);
        }
    } else {
        EXPECT_TRUE(tx.blob_versioned_hashes().empty());
    }
    // Authorizations.
    if (f.type == TxType::set_code) {
        const auto auths = tx.authorization_list();
        ASSERT_EQ(auths.size(), f.authorization_list.size());
        std::size_t j = 0;
        for (const Authorization& a : auths) EXPECT_EQ(a, f.authorization_list[j++]);
    } else {
        EXPECT_TRUE(tx.authorization_list().empty());
    }
}

struct TypeCase {
    const char* name;
    TransactionFields fields;
};

std::vector<TypeCase> type_cases() {
    TransactionFields create = legacy_fields(true);
    create.to.reset();
    create.data = from_hex("6001600155");
    TransactionFields create2 = dynamic_fee_fields();
    create2.to.reset();
    TransactionFields big = dynamic_fee_fields();
    big.data = Bytes(70000, 0x01);  // three-byte length headers
    big.value = Uint256::max();
    big.nonce = ~std::uint64_t{0} - 1;
    TransactionFields single_byte_data = legacy_fields(false);
    single_byte_data.data = {0x05};
    return {{"legacy pre-155", legacy_fields(false)},
            {"legacy eip-155", legacy_fields(true)},
            {"legacy create", create},
            {"legacy single-byte data", single_byte_data},
            {"access list", access_list_fields()},
            {"dynamic fee", dynamic_fee_fields()},
            {"dynamic fee create", create2},
            {"dynamic fee big", big},
            {"blob", blob_fields()},
            {"set code", set_code_fields()}};
}

TEST(Transaction, RoundTripEveryType) {
    for (const auto& c : type_cases()) {
        SCOPED_TRACE(c.name);
        const Bytes bytes = encode(c.fields);
        const auto tx = decode_transaction(bytes);
        ASSERT_TRUE(tx) << to_string(tx.error());
        expect_fields(*tx, c.fields);
        // The envelope, the hash, the re-encoding.
        EXPECT_EQ(Bytes(tx->encoded().begin(), tx->encoded().end()), bytes);
        EXPECT_EQ(tx->hash(), crypto::keccak256(bytes));
        EXPECT_EQ(encode(*tx), bytes);
        rlp::Encoder e;
        e.add_uint(7);  // appends after what is there
        encode(*tx, e);
        EXPECT_EQ(e.view().subspan(1).size(), bytes.size());
        // The signing hash: recomputed independently, and never the transaction hash.
        EXPECT_EQ(tx->signing_hash(), signing_hash_reference(c.fields));
        EXPECT_NE(tx->signing_hash(), tx->hash());
        if (c.fields.type == TxType::legacy) {
            EXPECT_EQ(bytes[0] >= 0xc0, true);
        } else {
            EXPECT_EQ(bytes[0], static_cast<std::uint8_t>(c.fields.type));
        }
    }
}

// EIP-155's worked example: nonce 9, 20 gwei, 21000 gas, to 0x3535..., 1 ether, chain id 1.
TEST(Transaction, Eip155Example) {
    const Bytes raw = from_hex(
        "f86c098504a817c800825208943535353535353535353535353535353535353535880de0b6b3a76400008025"
        "a028ef61340bd939bc2195fe537567866003e1a15d3c71ff63e1590620aa636276a067cbe9d8997f761aecb7"
        "03304b3800ccf555c9f3dc64214b297fb1966a3b6d83");
    const auto tx = decode_transaction(raw);
    ASSERT_TRUE(tx) << to_string(tx.error());
    EXPECT_EQ(tx->type(), TxType::legacy);
    EXPECT_EQ(tx->chain_id(), 1u);
    EXPECT_EQ(tx->y_parity(), 0);
    EXPECT_EQ(tx->v(), 37);
    // The signing hash the EIP gives.
    EXPECT_EQ(hex::encode(tx->signing_hash().view()),
              "daf5a779ae972f972197303d7b574746c7ef83eadac0f2791ad23db92e4c8e53");
    EXPECT_EQ(hex::encode(tx->hash().view()),
              "33469b22e9f636356c4160a87eb19df52b7412e8eac32a4a55ffe88ea8350788");
}

TEST(Transaction, LegacyChainIdAndParity) {
    struct Row {
        std::uint64_t v;
        std::optional<std::uint64_t> chain_id;
        std::uint8_t y;
    };
    for (const Row& r : {Row{27, std::nullopt, 0}, Row{28, std::nullopt, 1}, Row{37, 1, 0},
                         Row{38, 1, 1}, Row{35, 0, 0}, Row{36, 0, 1}, Row{2 * 1337 + 36, 1337, 1},
                         Row{0, std::nullopt, 1}, Row{34, std::nullopt, 1}}) {
        TransactionFields f = legacy_fields(false);
        f.v = r.v;
        const auto tx = decode_transaction(encode(f));
        ASSERT_TRUE(tx);
        EXPECT_EQ(tx->chain_id(), r.chain_id) << r.v;
        EXPECT_EQ(tx->y_parity(), r.y) << r.v;
    }
    // A v whose chain id does not fit 64 bits names no chain.
    TransactionFields f = legacy_fields(false);
    f.v = Uint256{1} << 70;
    const auto tx = decode_transaction(encode(f));
    ASSERT_TRUE(tx);
    EXPECT_EQ(tx->chain_id(), std::nullopt);
    EXPECT_EQ(tx->v(), Uint256{1} << 70);
}

TEST(Transaction, ViewsSurviveCopiesAndMoves) {
    const Bytes bytes = encode(access_list_fields());
    std::optional<Transaction> original(*decode_transaction(bytes));
    Transaction copy = *original;
    Transaction moved = std::move(*original);
    original.reset();
    for (const Transaction* tx : {&copy, &moved}) {
        EXPECT_EQ(hex::encode(tx->data()), "deadbeef");
        auto it = tx->access_list().begin();
        EXPECT_EQ((*it).address, addr(0x35));
        EXPECT_EQ((*it).storage_keys[1], h32(2));
        EXPECT_EQ(tx->hash(), crypto::keccak256(bytes));
    }
}

TEST(Transaction, SenderSlot) {
    const auto tx = decode_transaction(encode(dynamic_fee_fields()));
    ASSERT_TRUE(tx);
    EXPECT_FALSE(tx->cached_sender().has_value());
    // Readable from a const transaction, by value; published only by sender recovery
    // (sender_test.cpp); copies start from the original's state.
    static_assert(std::is_same_v<decltype(tx->cached_sender()), std::optional<Address>>);
    Transaction copy = *tx;
    EXPECT_FALSE(copy.cached_sender().has_value());
    copy.clear_cached_sender();
    EXPECT_FALSE(copy.cached_sender().has_value());
}

TEST(Transaction, AuthorizationSigningHash) {
    const Authorization a{1, addr(0x42), 7, 0, kR, kS};
    rlp::Encoder e;
    auto m = e.begin_list();
    e.add_uint(1).add_string(addr(0x42).view()).add_uint(7);
    e.end_list(m);
    Bytes msg = e.take();
    msg.insert(msg.begin(), 0x05);  // EIP-7702 MAGIC
    EXPECT_EQ(a.signing_hash(), crypto::keccak256(msg));
    // A 256-bit chain id is allowed in an authorization.
    const Authorization big{Uint256::max(), addr(0x42), 7, 1, kR, kS};
    EXPECT_NE(big.signing_hash(), a.signing_hash());
    TransactionFields f = set_code_fields();
    f.authorization_list[0].chain_id = Uint256::max();
    const auto tx = decode_transaction(encode(f));
    ASSERT_TRUE(tx) << to_string(tx.error());
    EXPECT_EQ((*tx->authorization_list().begin()).chain_id, Uint256::max());
    EXPECT_EQ(tx->authorization_list().begin().encoded().size(),
              rlp::list_length(33 + 21 + 1 + 1 + 33 + 33));
}

TEST(Transaction, BaseOffsetShiftsOffsets) {
    const Bytes bytes = encode(dynamic_fee_fields());
    const auto tx = decode_transaction(bytes, 1000);
    ASSERT_TRUE(tx);
    EXPECT_EQ(tx->offset_of(Field::none), 1000u);
    EXPECT_EQ(tx->offset_of(Field::chain_id), 1000u + 1 + at(BytesView(bytes).subspan(1), {0}));
    // An error inside reports the shifted offset.
    Built b = build(2, dynamic_fee_items());
    b.bytes[b.offsets[1]] = 0x00;  // nonce 0x07 -> 0x00: a non-canonical zero
    const auto bad = decode_transaction(b.bytes, 1000);
    ASSERT_FALSE(bad);
    EXPECT_EQ(bad.error().offset, 1000 + b.offsets[1]);
}

// ---- bad inputs: every decoding error, with its field and offset -------------------------------

struct Bad {
    std::string name;
    Bytes in;
    Errc code;
    Field field;
    std::size_t offset;
    std::optional<rlp::Errc> rlp = std::nullopt;
    std::optional<std::uint32_t> detail = std::nullopt;
};

std::vector<Bad> bad_rows() {
    std::vector<Bad> rows;
    const auto with = [](std::vector<Bytes> items, std::size_t i, Bytes item) {
        items[i] = std::move(item);
        return items;
    };
    // Envelope.
    rows.push_back({"empty", {}, Errc::rlp, Field::none, 0, rlp::Errc::empty_input});
    rows.push_back(
        {"type 0x00", from_hex("00c0"), Errc::type_not_supported, Field::type, 0, std::nullopt, 0});
    rows.push_back(
        {"type 0x05", from_hex("05c0"), Errc::type_not_supported, Field::type, 0, std::nullopt, 5});
    rows.push_back({"type 0x7f", from_hex("7fc0"), Errc::type_not_supported, Field::type, 0,
                    std::nullopt, 0x7f});
    rows.push_back({"string header", from_hex("8180"), Errc::type_not_supported, Field::type, 0,
                    std::nullopt, 0x81});
    rows.push_back(
        {"type byte alone", from_hex("02"), Errc::rlp, Field::none, 1, rlp::Errc::empty_input});
    rows.push_back(
        {"typed string", from_hex("0280"), Errc::rlp, Field::none, 1, rlp::Errc::expected_list});
    {
        Built b = build(std::nullopt, legacy_items());
        b.bytes.push_back(0x00);
        rows.push_back(
            {"trailing byte", b.bytes, Errc::rlp, Field::none, b.end, rlp::Errc::trailing_bytes});
        Built t = build(2, dynamic_fee_items());
        t.bytes.push_back(0x80);
        rows.push_back({"typed trailing byte", t.bytes, Errc::rlp, Field::none, t.end,
                        rlp::Errc::trailing_bytes});
        Built c = build(std::nullopt, legacy_items());
        c.bytes.pop_back();
        rows.push_back({"list runs past input", c.bytes, Errc::rlp, Field::none, 0,
                        rlp::Errc::length_past_input});
        Bytes lz = from_hex("f9005f");
        rows.push_back({"list length leading zero", concat({lz, Bytes(0x5f, 0x80)}), Errc::rlp,
                        Field::none, 0, rlp::Errc::leading_zero_in_length});
    }
    // Field count.
    {
        auto items = legacy_items();
        items.pop_back();
        Built b = build(std::nullopt, items);
        rows.push_back({"legacy missing s", b.bytes, Errc::too_few_fields, Field::s, b.end});
        items = legacy_items();
        items.push_back(u(0));
        b = build(std::nullopt, items);
        rows.push_back(
            {"legacy extra field", b.bytes, Errc::too_many_fields, Field::none, b.offsets[9]});
        Built e = build(2, {});
        rows.push_back({"typed empty list", e.bytes, Errc::too_few_fields, Field::chain_id, e.end});
        // A type-2 payload under type 3 misses fields: the 10th item is the y_parity string.
        Built t = build(3, dynamic_fee_items());
        rows.push_back({"type 2 body as type 3", t.bytes, Errc::rlp, Field::blob_versioned_hashes,
                        t.offsets[10], rlp::Errc::expected_list});
    }
    // Integers.
    {
        const auto items = legacy_items();
        Built b = build(std::nullopt, with(items, 0, raw_str(from_hex("0009"))));
        rows.push_back({"nonce leading zero", b.bytes, Errc::rlp, Field::nonce, b.offsets[0],
                        rlp::Errc::leading_zero_in_integer});
        b = build(std::nullopt, with(items, 0, from_hex("00")));
        rows.push_back({"nonce zero byte", b.bytes, Errc::rlp, Field::nonce, b.offsets[0],
                        rlp::Errc::leading_zero_in_integer});
        b = build(std::nullopt, with(items, 0, from_hex("8105")));
        rows.push_back({"nonce wrapped single byte", b.bytes, Errc::rlp, Field::nonce, b.offsets[0],
                        rlp::Errc::non_canonical_single_byte});
        b = build(std::nullopt, with(items, 0, str_n(9, 0x01)));
        rows.push_back({"nonce 9 bytes", b.bytes, Errc::integer_overflow, Field::nonce,
                        b.offsets[0], std::nullopt, 9});
        b = build(std::nullopt, with(items, 2, raw_str(from_hex("000000000000000001"))));
        rows.push_back({"gas limit 9 bytes with leading zero", b.bytes, Errc::integer_overflow,
                        Field::gas_limit, b.offsets[2], std::nullopt, 9});
        b = build(std::nullopt, with(items, 2, list_of({})));
        rows.push_back({"gas limit list", b.bytes, Errc::rlp, Field::gas_limit, b.offsets[2],
                        rlp::Errc::expected_string});
        b = build(std::nullopt, with(items, 4, str_n(33, 0x01)));
        rows.push_back({"value 33 bytes", b.bytes, Errc::integer_overflow, Field::value,
                        b.offsets[4], std::nullopt, 33});
        b = build(std::nullopt, with(items, 4, raw_str(concat({from_hex("00"), Bytes(32, 1)}))));
        rows.push_back({"value 33 bytes leading zero", b.bytes, Errc::rlp, Field::value,
                        b.offsets[4], rlp::Errc::leading_zero_in_integer});
        b = build(std::nullopt, with(items, 6, raw_str(from_hex("0025"))));
        rows.push_back({"v leading zero", b.bytes, Errc::rlp, Field::v, b.offsets[6],
                        rlp::Errc::leading_zero_in_integer});
        b = build(std::nullopt, with(items, 7, list_of({u(1)})));
        rows.push_back(
            {"r list", b.bytes, Errc::rlp, Field::r, b.offsets[7], rlp::Errc::expected_string});
        b = build(std::nullopt, with(items, 8, str_n(33, 0xff)));
        rows.push_back({"s 33 bytes", b.bytes, Errc::integer_overflow, Field::s, b.offsets[8],
                        std::nullopt, 33});
        b = build(std::nullopt, with(items, 5, list_of({})));
        rows.push_back({"data list", b.bytes, Errc::rlp, Field::data, b.offsets[5],
                        rlp::Errc::expected_string});
        b = build(std::nullopt, with(items, 5, from_hex("b90003aabbcc")));
        rows.push_back({"data long form for 3 bytes", b.bytes, Errc::rlp, Field::data, b.offsets[5],
                        rlp::Errc::leading_zero_in_length});
        const auto typed = dynamic_fee_items();
        Built t = build(2, with(typed, 0, str_n(9, 0x01)));
        rows.push_back({"chain id 9 bytes", t.bytes, Errc::integer_overflow, Field::chain_id,
                        t.offsets[0], std::nullopt, 9});
        t = build(2, with(typed, 2, raw_str(from_hex("00ff"))));
        rows.push_back({"priority fee leading zero", t.bytes, Errc::rlp,
                        Field::max_priority_fee_per_gas, t.offsets[2],
                        rlp::Errc::leading_zero_in_integer});
        t = build(2, with(typed, 3, str_n(33, 0x01)));
        rows.push_back({"max fee 33 bytes", t.bytes, Errc::integer_overflow, Field::max_fee_per_gas,
                        t.offsets[3], std::nullopt, 33});
        t = build(2, with(typed, 9, raw_str(from_hex("0001"))));
        rows.push_back({"y parity leading zero", t.bytes, Errc::rlp, Field::y_parity, t.offsets[9],
                        rlp::Errc::leading_zero_in_integer});
    }
    // Addresses.
    {
        const auto items = legacy_items();
        Built b = build(std::nullopt, with(items, 3, str_n(19)));
        rows.push_back(
            {"to 19 bytes", b.bytes, Errc::too_short, Field::to, b.offsets[3], std::nullopt, 19});
        b = build(std::nullopt, with(items, 3, str_n(21)));
        rows.push_back(
            {"to 21 bytes", b.bytes, Errc::too_long, Field::to, b.offsets[3], std::nullopt, 21});
        b = build(std::nullopt, with(items, 3, from_hex("01")));
        rows.push_back(
            {"to single byte", b.bytes, Errc::too_short, Field::to, b.offsets[3], std::nullopt, 1});
        b = build(std::nullopt, with(items, 3, list_of({})));
        rows.push_back(
            {"to list", b.bytes, Errc::rlp, Field::to, b.offsets[3], rlp::Errc::expected_string});
    }
    // Access lists. at(item, path): the offset inside `item` of the nested item that `path`
    // (child indices, one per level) reaches.
    {
        const auto typed = dynamic_fee_items();
        const Bytes a20 = str(addr(0x35).view());
        const Bytes k32 = str(h32(0x01).view());
        const auto row = [&](std::string name, Bytes al, std::initializer_list<std::size_t> path,
                             Errc code, Field field, std::optional<rlp::Errc> r,
                             std::optional<std::uint32_t> detail) {
            const Built t = build(2, with(typed, 8, al));
            rows.push_back(
                {std::move(name), t.bytes, code, field, t.offsets[8] + at(al, path), r, detail});
        };
        row("access list string", str_n(0), {}, Errc::rlp, Field::access_list,
            rlp::Errc::expected_list, std::nullopt);
        row("access list entry string", list_of({str_n(2)}), {0}, Errc::rlp,
            Field::access_list_entry, rlp::Errc::expected_list, std::nullopt);
        row("access list entry without keys", list_of({list_of({a20})}), {0, 1},
            Errc::too_few_fields, Field::access_list_storage_keys, std::nullopt, std::nullopt);
        row("access list entry with 3 items", list_of({list_of({a20, list_of({}), u(1)})}), {0, 2},
            Errc::too_many_fields, Field::access_list_entry, std::nullopt, std::nullopt);
        row("access list address 19", list_of({list_of({str_n(19), list_of({})})}), {0, 0},
            Errc::too_short, Field::access_list_address, std::nullopt, 19);
        row("access list address 21", list_of({list_of({str_n(21), list_of({})})}), {0, 0},
            Errc::too_long, Field::access_list_address, std::nullopt, 21);
        row("access list keys string", list_of({list_of({a20, str_n(0)})}), {0, 1}, Errc::rlp,
            Field::access_list_storage_keys, rlp::Errc::expected_list, std::nullopt);
        row("storage key 31", list_of({list_of({a20, list_of({k32, str_n(31)})})}), {0, 1, 1},
            Errc::too_short, Field::access_list_storage_key, std::nullopt, 31);
        row("storage key 33", list_of({list_of({a20, list_of({str_n(33)})})}), {0, 1, 0},
            Errc::too_long, Field::access_list_storage_key, std::nullopt, 33);
        row("storage key list", list_of({list_of({a20, list_of({list_of({})})})}), {0, 1, 0},
            Errc::rlp, Field::access_list_storage_key, rlp::Errc::expected_string, std::nullopt);
        // A nested header running past its parent: the keys list claims one byte too many.
        Bytes broken = list_of({list_of({a20, list_of({k32})})});
        broken[at(broken, {0, 1})] += 1;
        row("keys list past its entry", broken, {0, 1}, Errc::rlp, Field::access_list_storage_keys,
            rlp::Errc::length_past_input, std::nullopt);
        // A non-canonical header deep inside.
        Bytes long_form = list_of({list_of({a20, concat({from_hex("f821"), k32})})});
        row("keys list long form for 33 bytes", long_form, {0, 1}, Errc::rlp,
            Field::access_list_storage_keys, rlp::Errc::non_canonical_size, std::nullopt);
    }
    // Blob transactions.
    {
        auto items = dynamic_fee_items();
        items.insert(items.begin() + 9, {u(1), list_of({str(h32(0x01).view())})});
        Built t = build(3, with(items, 5, str_n(0)));
        rows.push_back({"blob create", t.bytes, Errc::create_not_allowed, Field::to, t.offsets[5]});
        t = build(3, with(items, 10, list_of({str_n(31)})));
        rows.push_back({"blob hash 31", t.bytes, Errc::too_short, Field::blob_versioned_hash,
                        t.offsets[10] + 1, std::nullopt, 31});
        t = build(3, with(items, 10, str_n(32)));
        rows.push_back({"blob hashes string", t.bytes, Errc::rlp, Field::blob_versioned_hashes,
                        t.offsets[10], rlp::Errc::expected_list});
        t = build(3, with(items, 9, list_of({})));
        rows.push_back({"blob fee list", t.bytes, Errc::rlp, Field::max_fee_per_blob_gas,
                        t.offsets[9], rlp::Errc::expected_string});
    }
    // Set-code transactions.
    {
        const Bytes a20 = str(addr(0x42).view());
        const std::vector<Bytes> good = {u(1), a20, u(0), u(1), u256(kR), u256(kS)};
        auto items = dynamic_fee_items();
        items.insert(items.begin() + 9, list_of({list_of(good)}));
        Built t = build(4, with(items, 5, str_n(0)));
        rows.push_back(
            {"set code create", t.bytes, Errc::create_not_allowed, Field::to, t.offsets[5]});
        const auto row = [&](std::string name, Bytes auths, std::initializer_list<std::size_t> path,
                             Errc code, Field field, std::optional<rlp::Errc> r,
                             std::optional<std::uint32_t> detail) {
            const Built b = build(4, with(items, 9, auths));
            rows.push_back(
                {std::move(name), b.bytes, code, field, b.offsets[9] + at(auths, path), r, detail});
        };
        const auto tuple = [&](std::size_t i, std::optional<Bytes> item) {
            auto f = good;
            if (i == f.size()) {
                f.push_back(*item);
            } else if (!item) {
                f.erase(f.begin() + static_cast<std::ptrdiff_t>(i));
            } else {
                f[i] = *item;
            }
            return list_of({list_of(f)});
        };
        row("authorization list string", str_n(0), {}, Errc::rlp, Field::authorization_list,
            rlp::Errc::expected_list, std::nullopt);
        row("authorization string", list_of({str_n(3)}), {0}, Errc::rlp, Field::authorization,
            rlp::Errc::expected_list, std::nullopt);
        row("authorization chain id 33 bytes", tuple(0, str_n(33, 0x01)), {0, 0},
            Errc::integer_overflow, Field::authorization_chain_id, std::nullopt, 33);
        row("authorization address 19", tuple(1, str_n(19)), {0, 1}, Errc::too_short,
            Field::authorization_address, std::nullopt, 19);
        row("authorization nonce 9 bytes", tuple(2, str_n(9, 0x01)), {0, 2}, Errc::integer_overflow,
            Field::authorization_nonce, std::nullopt, 9);
        row("authorization y parity 2 bytes", tuple(3, str_n(2, 0x01)), {0, 3},
            Errc::integer_overflow, Field::authorization_y_parity, std::nullopt, 2);
        row("authorization r leading zero", tuple(4, raw_str(from_hex("0001"))), {0, 4}, Errc::rlp,
            Field::authorization_r, rlp::Errc::leading_zero_in_integer, std::nullopt);
        row("authorization with 7 fields", tuple(6, u(0)), {0, 6}, Errc::too_many_fields,
            Field::authorization, std::nullopt, std::nullopt);
        row("authorization with 5 fields", tuple(5, std::nullopt), {0, 5}, Errc::too_few_fields,
            Field::authorization_s, std::nullopt, std::nullopt);
    }
    return rows;
}

TEST(Transaction, BadInputs) {
    std::size_t n = 0;
    for (const Bad& b : bad_rows()) {
        SCOPED_TRACE(b.name);
        const auto tx = decode_transaction(b.in);
        ASSERT_FALSE(tx) << "accepted " << hex::encode(b.in);
        const Error& e = tx.error();
        EXPECT_EQ(e.code, b.code) << to_string(e);
        EXPECT_EQ(e.field, b.field) << to_string(e);
        EXPECT_EQ(e.offset, b.offset) << to_string(e);
        if (b.rlp) {
            EXPECT_EQ(e.rlp, *b.rlp) << to_string(e);
        }
        if (b.detail) {
            EXPECT_EQ(e.detail, *b.detail) << to_string(e);
        }
        EXPECT_LE(e.offset, b.in.size());
        ++n;
    }
    EXPECT_GT(n, 50u);
}

TEST(Transaction, ErrorMessages) {
    // "transaction field value: RLP integer has a leading zero byte at offset 41"
    auto items = legacy_items();
    items[4] = raw_str(from_hex("0001"));
    const Built b = build(std::nullopt, items);
    const auto tx = decode_transaction(b.bytes);
    ASSERT_FALSE(tx);
    EXPECT_EQ(to_string(tx.error()),
              "transaction field value: RLP integer has a leading zero "
              "byte at offset " +
                  std::to_string(b.offsets[4]));
    items = legacy_items();
    items[3] = str_n(21);
    const Built long_to = build(std::nullopt, items);
    EXPECT_EQ(to_string(decode_transaction(long_to.bytes).error()),
              "transaction field to: longer than its fixed size (21 bytes, expected 20) at "
              "offset " +
                  std::to_string(long_to.offsets[3]));
    EXPECT_EQ(to_string(decode_transaction(from_hex("05c0")).error()),
              "transaction field type: transaction type not supported (type 0x05) at offset 0");
    EXPECT_EQ(to_string(decode_transaction(from_hex("c0")).error()),
              "transaction field nonce: list has too few fields at offset 1");
    EXPECT_EQ(to_string(Error{Errc::integer_overflow, {}, Field::nonce, 9, 3}),
              "transaction field nonce: integer too large for its field (9 bytes) at offset 3");
    EXPECT_EQ(to_string(Error{Errc::rlp, rlp::Errc::trailing_bytes, Field::none, 0, 99}),
              "transaction: unexpected bytes after the last RLP item at offset 99");
    // Every code and field has words.
    for (int c = 0; c <= static_cast<int>(Errc::invalid_signature); ++c) {
        EXPECT_FALSE(describe(static_cast<Errc>(c)).empty()) << c;
        EXPECT_NE(describe(static_cast<Errc>(c)), "unknown eth error") << c;
    }
    for (std::size_t f = 1; f <= static_cast<std::size_t>(Field::proof); ++f) {
        EXPECT_FALSE(field_name(static_cast<Field>(f)).empty()) << f;
        EXPECT_NE(field_name(static_cast<Field>(f)), "unknown field") << f;
    }
}

// ---- block-body items ---------------------------------------------------------------------------

TEST(Transaction, BlockBodyItems) {
    for (const auto& c : type_cases()) {
        SCOPED_TRACE(c.name);
        const auto tx = decode_transaction(encode(c.fields));
        ASSERT_TRUE(tx);
        rlp::Encoder e;
        encode_item(*tx, e);
        const Bytes item = e.take();
        if (c.fields.type == TxType::legacy) {
            EXPECT_EQ(item, encode(c.fields));
        } else {
            EXPECT_TRUE(item[0] >= 0x80 && item[0] < 0xc0);
        }
        const auto back = decode_transaction_item(item, 10);
        ASSERT_TRUE(back) << to_string(back.error());
        EXPECT_EQ(back->hash(), tx->hash());
        EXPECT_EQ(back->offset_of(Field::none), 10u + (item.size() - tx->encoded().size()));
    }
    // A legacy list wrapped in a string is no typed envelope.
    const Bytes legacy = encode(legacy_fields(true));
    rlp::Encoder e;
    e.add_string(legacy);
    auto r = decode_transaction_item(e.view());
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().code, Errc::type_not_supported);
    EXPECT_EQ(r.error().offset, 2u);
    // Trailing bytes after the item, reported after the item decodes.
    Bytes extra = legacy;
    extra.push_back(0x01);
    r = decode_transaction_item(extra);
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().rlp, rlp::Errc::trailing_bytes);
    EXPECT_EQ(r.error().offset, legacy.size());
    // An empty string.
    r = decode_transaction_item(from_hex("80"));
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().rlp, rlp::Errc::empty_input);
    r = decode_transaction_item({});
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().rlp, rlp::Errc::empty_input);
}

// ---- network form of blob transactions ---------------------------------------------------------

Bytes network_form(const TransactionFields& f, std::optional<std::uint8_t> version,
                   std::size_t blobs, std::size_t commitments, std::size_t proofs) {
    const Bytes envelope = encode(f);
    std::vector<Bytes> items;
    items.emplace_back(envelope.begin() + 1, envelope.end());
    if (version) items.push_back(u(*version));
    std::vector<Bytes> b, c, p;
    for (std::size_t i = 0; i < blobs; ++i) b.push_back(str(Bytes(kBlobSize, std::uint8_t(i + 1))));
    for (std::size_t i = 0; i < commitments; ++i)
        c.push_back(str(Bytes(48, std::uint8_t(0xc0 + i))));
    for (std::size_t i = 0; i < proofs; ++i) p.push_back(str(Bytes(48, std::uint8_t(i))));
    items.push_back(list_of(b));
    items.push_back(list_of(c));
    items.push_back(list_of(p));
    Bytes out = list_of(items);
    out.insert(out.begin(), 0x03);
    return out;
}

TEST(Transaction, NetworkFormVersion0) {
    const TransactionFields f = blob_fields();
    const Bytes canonical = encode(f);
    const Bytes net = network_form(f, std::nullopt, 2, 2, 2);
    const auto tx = decode_transaction_network(net);
    ASSERT_TRUE(tx) << to_string(tx.error());
    EXPECT_TRUE(tx->has_sidecar());
    EXPECT_EQ(tx->wrapper_version(), 0);
    EXPECT_EQ(tx->hash(), crypto::keccak256(canonical));
    EXPECT_EQ(Bytes(tx->encoded().begin(), tx->encoded().end()), canonical);
    EXPECT_EQ(encode(*tx), canonical);
    ASSERT_EQ(tx->blobs().size(), 2u);
    EXPECT_EQ(tx->blobs().as_view(1).size(), kBlobSize);
    EXPECT_EQ(tx->blobs().as_view(1)[kBlobSize - 1], 2);
    EXPECT_EQ(tx->commitments()[1], Bytes48::from(Bytes(48, 0xc1)).value());
    EXPECT_EQ(tx->proofs().size(), 2u);
    EXPECT_EQ(encode_network(*tx), net);
    expect_fields(*tx, f);
    // The canonical form decodes without sidecar and is not a network form.
    const auto plain = decode_transaction(canonical);
    ASSERT_TRUE(plain);
    EXPECT_FALSE(plain->has_sidecar());
    EXPECT_EQ(encode_network(*plain), canonical);
    const auto not_network = decode_transaction_network(canonical);
    ASSERT_FALSE(not_network);
    EXPECT_EQ(not_network.error().field, Field::network_wrapper);
    // The network form is not an envelope.
    EXPECT_FALSE(decode_transaction(net));
    // Other types pass through.
    const Bytes t2 = encode(dynamic_fee_fields());
    const auto passed = decode_transaction_network(t2);
    ASSERT_TRUE(passed);
    EXPECT_EQ(passed->hash(), crypto::keccak256(t2));
}

TEST(Transaction, NetworkFormVersion1) {
    const TransactionFields f = blob_fields();
    const Bytes net = network_form(f, 1, 2, 2, 2 * kCellProofsPerBlob);
    const auto tx = decode_transaction_network(net);
    ASSERT_TRUE(tx) << to_string(tx.error());
    EXPECT_EQ(tx->wrapper_version(), 1);
    EXPECT_EQ(tx->proofs().size(), 2 * kCellProofsPerBlob);
    EXPECT_EQ(encode_network(*tx), net);
    EXPECT_EQ(tx->hash(), crypto::keccak256(encode(f)));
}

TEST(Transaction, NetworkFormErrors) {
    const TransactionFields f = blob_fields();
    struct Row {
        const char* name;
        Bytes in;
        Errc code;
        Field field;
    };
    const std::vector<Row> rows = {
        {"one blob for two hashes", network_form(f, std::nullopt, 1, 2, 2),
         Errc::sidecar_count_mismatch, Field::blobs},
        {"one commitment", network_form(f, std::nullopt, 2, 1, 2), Errc::sidecar_count_mismatch,
         Field::commitments},
        {"three proofs", network_form(f, std::nullopt, 2, 2, 3), Errc::sidecar_count_mismatch,
         Field::proofs},
        {"version 1 with one proof per blob", network_form(f, 1, 2, 2, 2),
         Errc::sidecar_count_mismatch, Field::proofs},
        {"version 2", network_form(f, 2, 2, 2, 2), Errc::wrong_wrapper_version,
         Field::wrapper_version},
        {"version 0 written out", network_form(f, 0, 2, 2, 2), Errc::wrong_wrapper_version,
         Field::wrapper_version},
    };
    for (const Row& r : rows) {
        SCOPED_TRACE(r.name);
        const auto tx = decode_transaction_network(r.in);
        ASSERT_FALSE(tx);
        EXPECT_EQ(tx.error().code, r.code) << to_string(tx.error());
        EXPECT_EQ(tx.error().field, r.field) << to_string(tx.error());
    }
    // A short blob.
    Bytes net = network_form(f, std::nullopt, 2, 2, 2);
    const Bytes small = [&] {
        std::vector<Bytes> items;
        const Bytes env = encode(f);
        items.emplace_back(env.begin() + 1, env.end());
        items.push_back(list_of({str(Bytes(100, 1)), str(Bytes(100, 2))}));
        items.push_back(list_of({str(Bytes(48, 1)), str(Bytes(48, 1))}));
        items.push_back(list_of({str(Bytes(48, 1)), str(Bytes(48, 1))}));
        Bytes out = list_of(items);
        out.insert(out.begin(), 0x03);
        return out;
    }();
    const auto tx = decode_transaction_network(small);
    ASSERT_FALSE(tx);
    EXPECT_EQ(tx.error().code, Errc::too_short);
    EXPECT_EQ(tx.error().field, Field::blob);
    // Trailing bytes.
    net.push_back(0);
    const auto trailing = decode_transaction_network(net);
    ASSERT_FALSE(trailing);
    EXPECT_EQ(trailing.error().rlp, rlp::Errc::trailing_bytes);
    EXPECT_EQ(trailing.error().offset, net.size() - 1);
    // Field offsets are offsets in the network bytes.
    auto one = blob_fields();
    one.blob_versioned_hashes.resize(1);
    const Bytes single = network_form(one, std::nullopt, 1, 1, 1);
    const auto ok = decode_transaction_network(single);
    ASSERT_TRUE(ok) << to_string(ok.error());
    const auto outer = rlp::decode_header(BytesView(single).subspan(1));
    ASSERT_TRUE(outer);
    const auto body = rlp::decode_header(outer->payload);
    ASSERT_TRUE(body);
    EXPECT_EQ(ok->offset_of(Field::chain_id), 1 + outer->header_size + body->header_size);
    EXPECT_EQ(ok->offset_of(Field::none), 0u);
}

// ---- forks
// ---------------------------------------------------------------------------------------

TEST(Fork, NamesRoundTrip) {
    for (const Fork f : kForks) EXPECT_EQ(parse_fork(name(f)), f);
    EXPECT_EQ(parse_fork("EIP150"), Fork::tangerine_whistle);
    EXPECT_EQ(parse_fork("ConstantinopleFix"), Fork::petersburg);
    EXPECT_EQ(parse_fork("Petersburg"), Fork::petersburg);
    EXPECT_EQ(parse_fork("Merge"), Fork::paris);
    EXPECT_EQ(parse_fork("SpuriousDragon"), Fork::spurious_dragon);
    EXPECT_EQ(parse_fork("cancun"), std::nullopt);
    EXPECT_EQ(parse_fork(""), std::nullopt);
    EXPECT_EQ(name(Fork::osaka), "Osaka");
}

TEST(Fork, TransactionTypes) {
    EXPECT_TRUE(supports_tx_type(Fork::frontier, 0));
    EXPECT_FALSE(supports_tx_type(Fork::istanbul, 1));
    EXPECT_TRUE(supports_tx_type(Fork::berlin, 1));
    EXPECT_FALSE(supports_tx_type(Fork::berlin, 2));
    EXPECT_TRUE(supports_tx_type(Fork::london, 2));
    EXPECT_FALSE(supports_tx_type(Fork::shanghai, 3));
    EXPECT_TRUE(supports_tx_type(Fork::cancun, 3));
    EXPECT_FALSE(supports_tx_type(Fork::cancun, 4));
    EXPECT_TRUE(supports_tx_type(Fork::prague, 4));
    EXPECT_FALSE(supports_tx_type(Fork::osaka, 5));
    EXPECT_EQ(max_blobs_per_tx(Fork::shanghai), 0u);
    EXPECT_EQ(max_blobs_per_tx(Fork::cancun), 6u);
    EXPECT_EQ(max_blobs_per_tx(Fork::prague), 9u);
    EXPECT_EQ(max_blobs_per_tx(Fork::osaka), 6u);
}

}  // namespace
}  // namespace keel::eth
