#include "keel/eth/tx_validation.hpp"

#include <gtest/gtest.h>

#include "keel/crypto/signature.hpp"

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "keel/eth/transaction.hpp"

namespace keel::eth {
namespace {

Address filled_address(std::uint8_t fill) {
    Address a;
    a.bytes.fill(fill);
    return a;
}

Hash32 versioned_hash(std::uint8_t fill) {
    Hash32 h;
    h.bytes.fill(fill);
    h[0] = 0x01;
    return h;
}

const Uint256 kSigR =
    *Uint256::from_hex("0x28ef61340bd939bc2195fe537567866003e1a15d3c71ff63e1590620aa636276");
const Uint256 kSigS =
    *Uint256::from_hex("0x67cbe9d8997f761aecb703304b3800ccf555c9f3dc64214b297fb1966a3b6d83");

TransactionFields legacy(std::uint64_t v = 37) {
    TransactionFields f;
    f.nonce = 1;
    f.max_fee_per_gas = 1000000000;
    f.gas_limit = 21000;
    f.to = filled_address(0x35);
    f.v = v;
    f.r = kSigR;
    f.s = kSigS;
    return f;
}

TransactionFields typed(TxType type) {
    TransactionFields f = legacy();
    f.type = type;
    f.chain_id = 1;
    f.v = 1;
    f.max_priority_fee_per_gas = 1000;
    if (type == TxType::blob) {
        f.blob_versioned_hashes = {versioned_hash(0xaa)};
        f.max_fee_per_blob_gas = 1;
    }
    if (type == TxType::set_code) {
        f.authorization_list = {{1, filled_address(0x42), 0, 0, kSigR, kSigS}};
        f.gas_limit = 21000 + 25000;
    }
    return f;
}

Transaction make(const TransactionFields& f) {
    auto tx = decode_transaction(encode(f));
    if (!tx) throw std::runtime_error("test transaction does not decode: " + to_string(tx.error()));
    return *tx;
}

// ---- intrinsic gas
// -------------------------------------------------------------------------------

TEST(IntrinsicGas, BaseAndCreation) {
    const Transaction call = make(legacy());
    for (const Fork f : kForks) EXPECT_EQ(intrinsic_gas(call, f), 21000u) << name(f);
    TransactionFields c = legacy();
    c.to.reset();
    const Transaction create = make(c);
    EXPECT_EQ(intrinsic_gas(create, Fork::frontier), 21000u);  // before EIP-2
    EXPECT_EQ(intrinsic_gas(create, Fork::homestead), 53000u);
    EXPECT_EQ(intrinsic_gas(create, Fork::shanghai), 53000u);  // no words of init code
}

TEST(IntrinsicGas, Calldata) {
    TransactionFields f = legacy();
    f.data = {0, 0, 0, 1, 2};  // 3 zero, 2 non-zero bytes
    const Transaction tx = make(f);
    EXPECT_EQ(tx.data_zero_bytes(), 3u);
    EXPECT_EQ(intrinsic_gas(tx, Fork::petersburg), 21000u + 3 * 4 + 2 * 68);
    EXPECT_EQ(intrinsic_gas(tx, Fork::istanbul), 21000u + 3 * 4 + 2 * 16);  // EIP-2028
    EXPECT_EQ(floor_data_gas(tx), 21000u + 10 * (3 + 4 * 2));               // EIP-7623
}

TEST(IntrinsicGas, InitcodeWords) {
    TransactionFields f = legacy();
    f.to.reset();
    f.data = Bytes(33, 0x60);  // two 32-byte words
    const Transaction tx = make(f);
    EXPECT_EQ(intrinsic_gas(tx, Fork::paris), 53000u + 33 * 16);
    EXPECT_EQ(intrinsic_gas(tx, Fork::shanghai), 53000u + 33 * 16 + 2 * 2);  // EIP-3860
}

TEST(IntrinsicGas, AccessListAndAuthorizations) {
    TransactionFields f = typed(TxType::dynamic_fee);
    f.access_list = {{filled_address(1), {Hash32{}, Hash32{}}},
                     {filled_address(2), {}},
                     {filled_address(1), {Hash32{}}}};
    const Transaction tx = make(f);
    EXPECT_EQ(intrinsic_gas(tx, Fork::london), 21000u + 3 * 2400 + 3 * 1900);  // EIP-2930
    TransactionFields s = typed(TxType::set_code);
    s.authorization_list.push_back(s.authorization_list[0]);
    EXPECT_EQ(intrinsic_gas(make(s), Fork::prague), 21000u + 2 * 25000);  // EIP-7702
}

// ---- validate: one row per check ---------------------------------------------------------------

struct ValidationRow {
    std::string name;
    TransactionFields fields;
    Fork fork;
    std::optional<Errc> error;  // nullopt: valid
    Field field = Field::none;
    std::uint64_t chain_id = kMainnetChainId;
};

std::vector<ValidationRow> rows() {
    std::vector<ValidationRow> r;
    const auto with = [](TransactionFields f, auto&& change) {
        change(f);
        return f;
    };
    // 1. types by fork.
    r.push_back({"legacy frontier", legacy(27), Fork::frontier, std::nullopt});
    r.push_back({"type 1 istanbul", typed(TxType::access_list), Fork::istanbul,
                 Errc::type_not_supported, Field::type});
    r.push_back({"type 1 berlin", typed(TxType::access_list), Fork::berlin, std::nullopt});
    r.push_back({"type 2 berlin", typed(TxType::dynamic_fee), Fork::berlin,
                 Errc::type_not_supported, Field::type});
    r.push_back({"type 2 london", typed(TxType::dynamic_fee), Fork::london, std::nullopt});
    r.push_back({"type 3 shanghai", typed(TxType::blob), Fork::shanghai, Errc::type_not_supported,
                 Field::type});
    r.push_back({"type 3 cancun", typed(TxType::blob), Fork::cancun, std::nullopt});
    r.push_back({"type 4 cancun", typed(TxType::set_code), Fork::cancun, Errc::type_not_supported,
                 Field::type});
    r.push_back({"type 4 prague", typed(TxType::set_code), Fork::prague, std::nullopt});
    r.push_back({"type 4 osaka", typed(TxType::set_code), Fork::osaka, std::nullopt});
    // 2. v and chain id.
    r.push_back({"v 28", legacy(28), Fork::cancun, std::nullopt});
    r.push_back({"v 37 before EIP-155", legacy(37), Fork::tangerine_whistle,
                 Errc::invalid_signature_values, Field::v});
    r.push_back({"v 37 from EIP-155", legacy(37), Fork::spurious_dragon, std::nullopt});
    r.push_back({"v 38", legacy(38), Fork::london, std::nullopt});
    r.push_back({"v 39: chain 2", legacy(39), Fork::london, Errc::invalid_chain_id, Field::v});
    r.push_back({"v 39 on chain 2", legacy(39), Fork::london, std::nullopt, Field::none, 2});
    r.push_back({"v 35: chain 0", legacy(35), Fork::london, Errc::invalid_chain_id, Field::v});
    r.push_back({"v 29", legacy(29), Fork::london, Errc::invalid_chain_id, Field::v});
    r.push_back({"v 29 before EIP-155", legacy(29), Fork::homestead, Errc::invalid_signature_values,
                 Field::v});
    r.push_back({"v 0", legacy(0), Fork::london, Errc::invalid_signature_values, Field::v});
    r.push_back({"v 1", legacy(1), Fork::london, Errc::invalid_signature_values, Field::v});
    r.push_back({"v 2^64 + 27", with(legacy(), [](auto& f) { f.v = (Uint256{1} << 64) + 27; }),
                 Fork::london, Errc::invalid_chain_id, Field::v});
    r.push_back({"typed chain 5", with(typed(TxType::dynamic_fee), [](auto& f) { f.chain_id = 5; }),
                 Fork::london, Errc::invalid_chain_id, Field::chain_id});
    r.push_back({"typed chain 5 on chain 5",
                 with(typed(TxType::dynamic_fee), [](auto& f) { f.chain_id = 5; }), Fork::london,
                 std::nullopt, Field::none, 5});
    r.push_back({"y parity 2", with(typed(TxType::access_list), [](auto& f) { f.v = 2; }),
                 Fork::berlin, Errc::invalid_signature_values, Field::y_parity});
    r.push_back({"y parity 0", with(typed(TxType::access_list), [](auto& f) { f.v = 0; }),
                 Fork::berlin, std::nullopt});
    // 3. r and s.
    r.push_back({"r 0", with(legacy(), [](auto& f) { f.r = 0; }), Fork::london,
                 Errc::invalid_signature_values, Field::r});
    r.push_back({"r n", with(legacy(), [](auto& f) { f.r = kSecp256k1N; }), Fork::london,
                 Errc::invalid_signature_values, Field::r});
    r.push_back({"r n-1", with(legacy(), [](auto& f) { f.r = kSecp256k1N - 1; }), Fork::london,
                 std::nullopt});
    r.push_back({"s 0", with(legacy(), [](auto& f) { f.s = 0; }), Fork::london,
                 Errc::invalid_signature_values, Field::s});
    r.push_back({"s n/2", with(legacy(), [](auto& f) { f.s = kSecp256k1HalfN; }), Fork::london,
                 std::nullopt});
    r.push_back({"s n/2+1 homestead", with(legacy(27), [](auto& f) { f.s = kSecp256k1HalfN + 1; }),
                 Fork::homestead, Errc::invalid_signature_values, Field::s});
    r.push_back({"s n/2+1 frontier", with(legacy(27), [](auto& f) { f.s = kSecp256k1HalfN + 1; }),
                 Fork::frontier, std::nullopt});
    r.push_back({"s n frontier", with(legacy(27), [](auto& f) { f.s = kSecp256k1N; }),
                 Fork::frontier, Errc::invalid_signature_values, Field::s});
    r.push_back({"typed high s",
                 with(typed(TxType::dynamic_fee), [](auto& f) { f.s = kSecp256k1HalfN + 1; }),
                 Fork::london, Errc::invalid_signature_values, Field::s});
    // 4. nonce (EIP-2681).
    r.push_back({"nonce 2^64-1", with(legacy(), [](auto& f) { f.nonce = ~std::uint64_t{0}; }),
                 Fork::london, Errc::nonce_is_max, Field::nonce});
    r.push_back({"nonce 2^64-1 frontier",
                 with(legacy(27), [](auto& f) { f.nonce = ~std::uint64_t{0}; }), Fork::frontier,
                 Errc::nonce_is_max, Field::nonce});
    r.push_back({"nonce 2^64-2", with(legacy(), [](auto& f) { f.nonce = ~std::uint64_t{0} - 1; }),
                 Fork::london, std::nullopt});
    // 5. tip above fee cap.
    r.push_back({"priority above max fee",
                 with(typed(TxType::dynamic_fee),
                      [](auto& f) { f.max_priority_fee_per_gas = f.max_fee_per_gas + 1; }),
                 Fork::london, Errc::priority_fee_greater_than_max_fee,
                 Field::max_priority_fee_per_gas});
    r.push_back({"priority equal to max fee",
                 with(typed(TxType::dynamic_fee),
                      [](auto& f) { f.max_priority_fee_per_gas = f.max_fee_per_gas; }),
                 Fork::london, std::nullopt});
    // 6. gas limit * price.
    r.push_back({"gas limit times price overflows",
                 with(legacy(), [](auto& f) { f.max_fee_per_gas = Uint256::max() / 21000 + 1; }),
                 Fork::london, Errc::gas_limit_price_overflow, Field::gas_limit});
    r.push_back({"gas limit times price fits",
                 with(legacy(), [](auto& f) { f.max_fee_per_gas = Uint256::max() / 21000; }),
                 Fork::london, std::nullopt});
    // 7. EIP-7825 cap.
    r.push_back({"gas limit 2^24+1 prague",
                 with(typed(TxType::dynamic_fee), [](auto& f) { f.gas_limit = (1u << 24) + 1; }),
                 Fork::prague, std::nullopt});
    r.push_back({"gas limit 2^24+1 osaka",
                 with(typed(TxType::dynamic_fee), [](auto& f) { f.gas_limit = (1u << 24) + 1; }),
                 Fork::osaka, Errc::gas_limit_exceeds_maximum, Field::gas_limit});
    r.push_back({"gas limit 2^24 osaka",
                 with(typed(TxType::dynamic_fee), [](auto& f) { f.gas_limit = 1u << 24; }),
                 Fork::osaka, std::nullopt});
    // 8. init code size (EIP-3860).
    const auto initcode = [&](std::size_t n) {
        return with(legacy(), [n](auto& f) {
            f.to.reset();
            f.data = Bytes(n, 0x60);
            f.gas_limit = 10000000;
        });
    };
    r.push_back({"initcode 49153 paris", initcode(49153), Fork::paris, std::nullopt});
    r.push_back({"initcode 49153 shanghai", initcode(49153), Fork::shanghai,
                 Errc::initcode_size_exceeded, Field::data});
    r.push_back({"initcode 49152 shanghai", initcode(49152), Fork::shanghai, std::nullopt});
    // 9. intrinsic gas.
    r.push_back({"gas 20999", with(legacy(), [](auto& f) { f.gas_limit = 20999; }), Fork::london,
                 Errc::intrinsic_gas_too_low, Field::gas_limit});
    r.push_back({"create with 21000 homestead", with(legacy(27), [](auto& f) { f.to.reset(); }),
                 Fork::homestead, Errc::intrinsic_gas_too_low, Field::gas_limit});
    r.push_back({"create with 21000 frontier", with(legacy(27), [](auto& f) { f.to.reset(); }),
                 Fork::frontier, std::nullopt});
    // 10. EIP-7623 floor: 100 non-zero bytes cost 1600 but floor at 4000.
    const auto floor_tx = with(typed(TxType::dynamic_fee), [](auto& f) {
        f.data = Bytes(100, 0xff);
        f.gas_limit = 21000 + 1600;
    });
    r.push_back({"floor cancun", floor_tx, Fork::cancun, std::nullopt});
    r.push_back(
        {"floor prague", floor_tx, Fork::prague, Errc::gas_below_floor_cost, Field::gas_limit});
    // 11. blobs.
    r.push_back({"no blobs",
                 with(typed(TxType::blob), [](auto& f) { f.blob_versioned_hashes.clear(); }),
                 Fork::cancun, Errc::blob_list_empty, Field::blob_versioned_hashes});
    const auto blobs = [&](std::size_t n) {
        return with(typed(TxType::blob),
                    [n](auto& f) { f.blob_versioned_hashes.assign(n, versioned_hash(0x11)); });
    };
    r.push_back({"6 blobs cancun", blobs(6), Fork::cancun, std::nullopt});
    r.push_back({"7 blobs cancun", blobs(7), Fork::cancun, Errc::blob_count_exceeded,
                 Field::blob_versioned_hashes});
    r.push_back({"9 blobs prague", blobs(9), Fork::prague, std::nullopt});
    r.push_back({"10 blobs prague", blobs(10), Fork::prague, Errc::blob_count_exceeded,
                 Field::blob_versioned_hashes});
    r.push_back({"7 blobs osaka", blobs(7), Fork::osaka, Errc::blob_count_exceeded,
                 Field::blob_versioned_hashes});
    r.push_back({"blob hash version 2",
                 with(typed(TxType::blob),
                      [](auto& f) {
                          f.blob_versioned_hashes.push_back(versioned_hash(0x22));
                          f.blob_versioned_hashes.back()[0] = 0x02;
                      }),
                 Fork::cancun, Errc::invalid_blob_versioned_hash, Field::blob_versioned_hash});
    // 12. authorizations.
    r.push_back({"no authorizations",
                 with(typed(TxType::set_code), [](auto& f) { f.authorization_list.clear(); }),
                 Fork::prague, Errc::authorization_list_empty, Field::authorization_list});
    return r;
}

TEST(Validate, EveryCheck) {
    std::size_t valid = 0, invalid = 0;
    for (const ValidationRow& row : rows()) {
        SCOPED_TRACE(row.name);
        const Transaction tx = make(row.fields);
        const auto v = validate(tx, row.fork, row.chain_id);
        if (!row.error) {
            EXPECT_TRUE(v) << to_string(v.error());
            ++valid;
            continue;
        }
        ++invalid;
        ASSERT_FALSE(v);
        EXPECT_EQ(v.error().code, *row.error) << to_string(v.error());
        EXPECT_EQ(v.error().field, row.field) << to_string(v.error());
        // The offset names the field's item (blob hashes: their list).
        const Field located =
            row.field == Field::blob_versioned_hash ? Field::blob_versioned_hashes : row.field;
        EXPECT_EQ(v.error().offset, tx.offset_of(located));
    }
    EXPECT_GT(valid, 10u);
    EXPECT_GT(invalid, 20u);
}

TEST(Validate, OffsetsPointAtTheField) {
    TransactionFields f = legacy();
    f.gas_limit = 20000;
    const Bytes bytes = encode(f);
    const auto tx = decode_transaction(bytes, 500);
    ASSERT_TRUE(tx);
    const auto v = validate(*tx, Fork::london);
    ASSERT_FALSE(v);
    EXPECT_EQ(v.error().code, Errc::intrinsic_gas_too_low);
    EXPECT_EQ(v.error().detail, 1000u);
    // f8 63 [nonce 01, gas price 84 3b9aca00, gas limit 82 4e20 ...]: gas limit at 2 + 1 + 5.
    EXPECT_EQ(v.error().offset, 500u + 2 + 1 + 5);
    EXPECT_EQ(bytes[v.error().offset - 500], 0x82);
    EXPECT_EQ(to_string(v.error()),
              "transaction field gas limit: gas limit below the intrinsic gas (short by 1000 gas) "
              "at offset 508");
}

TEST(Validate, ConstantsMatchTheCurve) {
    EXPECT_EQ(kSecp256k1N.to_hex(),
              "0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141");
    EXPECT_EQ(kSecp256k1HalfN, kSecp256k1N >> 1);
}

// The r and s bounds are those of the process-wide curve: on a secp256r1 network an s above
// P-256's n/2 (but below secp256k1's) breaks EIP-2, and an r above P-256's n is out of range.
TEST(Validate, SignatureBoundsFollowTheProcessWideCurve) {
    struct Restore {
        crypto::SignatureAlgorithm saved = crypto::signature_algorithm();
        ~Restore() { crypto::set_signature_algorithm(saved); }
    } restore;
    const Uint256 r1_half =
        crypto::signature_scheme(crypto::SignatureAlgorithm::secp256r1).half_order;
    const Uint256 r1_order = crypto::signature_scheme(crypto::SignatureAlgorithm::secp256r1).order;
    ASSERT_LT(r1_half + 1, kSecp256k1HalfN);
    TransactionFields s_fields = legacy();
    s_fields.s = r1_half + 1;
    TransactionFields r_fields = legacy();
    r_fields.r = r1_order;
    const Transaction high_s = make(s_fields);
    const Transaction high_r = make(r_fields);

    EXPECT_TRUE(validate(high_s, Fork::london));
    EXPECT_TRUE(validate(high_r, Fork::london));
    crypto::set_signature_algorithm(crypto::SignatureAlgorithm::secp256r1);
    auto s_check = validate(high_s, Fork::london);
    ASSERT_FALSE(s_check);
    EXPECT_EQ(s_check.error().field, Field::s);
    auto r_check = validate(high_r, Fork::london);
    ASSERT_FALSE(r_check);
    EXPECT_EQ(r_check.error().field, Field::r);
}

}  // namespace
}  // namespace keel::eth
