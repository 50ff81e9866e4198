#include "keel/chain/header_rules.hpp"

#include <gtest/gtest.h>

namespace keel::chain {
namespace {

using eth::Fork;

eth::Header prague_parent() {
    eth::Header p;
    p.number = 10;
    p.timestamp = 1000;
    p.gas_limit = 30'000'000;
    p.gas_used = 15'000'000;
    p.base_fee_per_gas = Uint256(1'000'000'000);
    p.withdrawals_root = Hash32{};
    p.blob_gas_used = 0;
    p.excess_blob_gas = 0;
    p.parent_beacon_block_root = Hash32{};
    p.requests_hash = Hash32{};
    p.ommers_hash = eth::kEmptyOmmersHash;
    return p;
}

eth::Header child_of(const eth::Header& p) {
    eth::Header c = p;
    c.number = p.number + 1;
    c.timestamp = p.timestamp + 12;
    c.gas_used = 0;
    c.base_fee_per_gas = Uint256(1'000'000'000);  // the parent used exactly its target
    return c;
}

TEST(HeaderRules, BaseFeeFollowsEip1559) {
    eth::Header p = prague_parent();
    EXPECT_EQ(expected_base_fee(p, Fork::prague, Fork::prague), Uint256(1'000'000'000));
    p.gas_used = 30'000'000;  // twice the target: +1/8
    EXPECT_EQ(expected_base_fee(p, Fork::prague, Fork::prague), Uint256(1'125'000'000));
    p.gas_used = 0;  // nothing: -1/8
    EXPECT_EQ(expected_base_fee(p, Fork::prague, Fork::prague), Uint256(875'000'000));
    // A tiny base fee still rises by at least 1.
    p.base_fee_per_gas = Uint256(7);
    p.gas_used = 15'000'001;
    EXPECT_EQ(expected_base_fee(p, Fork::prague, Fork::prague), Uint256(8));
    // The first London block starts at INITIAL_BASE_FEE; before London there is none.
    EXPECT_EQ(expected_base_fee(p, Fork::berlin, Fork::london), Uint256(1'000'000'000));
    EXPECT_EQ(expected_base_fee(p, Fork::berlin, Fork::berlin), Uint256(0));
}

TEST(HeaderRules, ExcessBlobGasFollowsEip4844AndEip7691) {
    eth::Header p = prague_parent();
    const eth::BlobParams cancun = eth::default_blob_params(Fork::cancun);
    const eth::BlobParams prague = eth::default_blob_params(Fork::prague);
    EXPECT_EQ(expected_excess_blob_gas(p, Fork::prague, prague), 0U);
    p.blob_gas_used = 9 * eth::kGasPerBlob;  // 3 over Prague's target of 6
    EXPECT_EQ(expected_excess_blob_gas(p, Fork::prague, prague), 3 * eth::kGasPerBlob);
    p.blob_gas_used = 6 * eth::kGasPerBlob;  // 3 over Cancun's target of 3
    EXPECT_EQ(expected_excess_blob_gas(p, Fork::cancun, cancun), 3 * eth::kGasPerBlob);
    p.excess_blob_gas = 2 * eth::kGasPerBlob;
    p.blob_gas_used = 0;  // under the target: the excess shrinks to zero, not below
    EXPECT_EQ(expected_excess_blob_gas(p, Fork::cancun, cancun), 0U);
    EXPECT_EQ(expected_excess_blob_gas(p, Fork::shanghai, {}), 0U);
    // A parent before Cancun counts as zero excess and zero used.
    eth::Header shanghai = prague_parent();
    shanghai.blob_gas_used.reset();
    shanghai.excess_blob_gas.reset();
    EXPECT_EQ(expected_excess_blob_gas(shanghai, Fork::cancun, cancun), 0U);
}

TEST(HeaderRules, OsakaReservePriceKeepsExcessGrowing) {
    // EIP-7918: with a high execution base fee and cheap blobs, the excess grows by
    // used * (max - target) / max instead of used - target.
    eth::Header p = prague_parent();
    p.base_fee_per_gas = Uint256(1'000'000'000'000ULL);
    p.excess_blob_gas = 6 * eth::kGasPerBlob;
    p.blob_gas_used = 9 * eth::kGasPerBlob;
    const eth::BlobParams osaka = eth::default_blob_params(Fork::osaka);
    EXPECT_EQ(expected_excess_blob_gas(p, Fork::osaka, osaka),
              6 * eth::kGasPerBlob + 9 * eth::kGasPerBlob * 3 / 9);
    p.base_fee_per_gas = Uint256(1);  // blobs are dear relative to gas: the EIP-4844 rule
    EXPECT_EQ(expected_excess_blob_gas(p, Fork::osaka, osaka), 9 * eth::kGasPerBlob);
}

TEST(HeaderRules, ReservePriceComparisonDoesNotWrap) {
    // A header can carry any 256-bit base fee, and a huge excess saturates the blob fee at
    // 2^256 - 1: the comparison is the EIP's, in unbounded integers, not modulo 2^256.
    eth::Header p = prague_parent();
    const eth::BlobParams osaka = eth::default_blob_params(Fork::osaka);
    p.blob_gas_used = 9 * eth::kGasPerBlob;
    // The true blob fee is far above 2^256 (it saturates): blobs are dear whatever the base fee,
    // so the EIP-4844 rule applies (wrapped products said the opposite).
    p.excess_blob_gas = std::uint64_t{1} << 40;
    p.base_fee_per_gas = Uint256::max();
    EXPECT_EQ(expected_excess_blob_gas(p, Fork::osaka, osaka),
              *p.excess_blob_gas + 9 * eth::kGasPerBlob - 6 * eth::kGasPerBlob);
    // A blob fee of 1 against a base fee of 2^256 - 1: blobs are cheap, the excess only grows.
    p.excess_blob_gas = 6 * eth::kGasPerBlob;
    EXPECT_EQ(expected_excess_blob_gas(p, Fork::osaka, osaka),
              6 * eth::kGasPerBlob + 9 * eth::kGasPerBlob * 3 / 9);
}

TEST(HeaderRules, ReservePriceAtABlobScheduleChangeUsesTheChildsFraction) {
    // A BPO fork's first block prices the parent's blobs with its own update fraction
    // (execution-specs: each BPO fork's get_base_fee_per_blob_gas; EEST
    // test_reserve_price_at_transition). Parent excess 10,000,000: Osaka's fraction gives a blob
    // base fee of 7 (no reserve at base fee 100), BPO2's 11,684,671 gives 2 (reserve).
    eth::Header p = prague_parent();
    p.base_fee_per_gas = Uint256(100);
    p.excess_blob_gas = 10'000'000;
    p.blob_gas_used = 21 * eth::kGasPerBlob;
    ASSERT_EQ(eth::blob_base_fee(10'000'000, 5'007'716), Uint256(7));
    ASSERT_EQ(eth::blob_base_fee(10'000'000, 11'684'671), Uint256(2));
    const eth::BlobParams bpo2{14, 21, 11'684'671};
    EXPECT_EQ(expected_excess_blob_gas(p, Fork::osaka, bpo2),
              10'000'000 + 21 * eth::kGasPerBlob * 7 / 21);
}

TEST(HeaderRules, ValidHeaderPasses) {
    const eth::ChainConfig config = eth::ChainConfig::from_genesis(Fork::prague);
    const eth::Header p = prague_parent();
    const auto r = validate_header(child_of(p), p, config);
    EXPECT_TRUE(r.has_value()) << to_string(r.error());
}

TEST(HeaderRules, EachBrokenRuleIsNamed) {
    const eth::ChainConfig config = eth::ChainConfig::from_genesis(Fork::prague);
    const eth::Header p = prague_parent();
    struct Case {
        const char* what;
        void (*mutate)(eth::Header&);
        Errc want;
    };
    const Case cases[] = {
        {"no requests hash", [](eth::Header& h) { h.requests_hash.reset(); }, Errc::wrong_fields},
        {"number", [](eth::Header& h) { h.number += 1; }, Errc::wrong_number},
        {"timestamp", [](eth::Header& h) { h.timestamp = 1000; }, Errc::timestamp_not_after_parent},
        {"extra data", [](eth::Header& h) { h.extra_data.assign(33, 1); },
         Errc::extra_data_too_long},
        {"gas limit up", [](eth::Header& h) { h.gas_limit += 30'000'000 / 1024; },
         Errc::gas_limit_out_of_bounds},
        {"gas limit down", [](eth::Header& h) { h.gas_limit -= 30'000'000 / 1024; },
         Errc::gas_limit_out_of_bounds},
        {"gas used", [](eth::Header& h) { h.gas_used = h.gas_limit + 1; },
         Errc::gas_used_above_limit},
        {"base fee", [](eth::Header& h) { h.base_fee_per_gas = Uint256(999'999'999); },
         Errc::wrong_base_fee},
        {"excess blob gas", [](eth::Header& h) { h.excess_blob_gas = 1; },
         Errc::wrong_excess_blob_gas},
        {"difficulty", [](eth::Header& h) { h.difficulty = Uint256(1); },
         Errc::difficulty_after_merge},
        {"nonce", [](eth::Header& h) { h.nonce[7] = 1; }, Errc::proof_of_work_fields},
        {"ommers", [](eth::Header& h) { h.ommers_hash = Hash32{}; }, Errc::ommers_after_merge},
    };
    for (const Case& c : cases) {
        eth::Header h = child_of(p);
        c.mutate(h);
        const auto r = validate_header(h, p, config);
        ASSERT_FALSE(r.has_value()) << c.what;
        EXPECT_EQ(r.error().code, c.want) << c.what << ": " << to_string(r.error());
        EXPECT_EQ(r.error().number, h.number);
    }
    // The bound is strict: parent/1024 - 1 either way is fine.
    eth::Header h = child_of(p);
    h.gas_limit += 30'000'000 / 1024 - 1;
    EXPECT_TRUE(validate_header(h, p, config).has_value());
}

TEST(HeaderRules, LondonTransitionDoublesTheGasLimitBound) {
    const auto config = eth::test_network("BerlinToLondonAt5");
    ASSERT_TRUE(config);
    eth::Header p;
    p.number = 4;
    p.timestamp = 100;
    p.gas_limit = 10'000'000;
    p.difficulty = Uint256(131072);
    p.ommers_hash = eth::kEmptyOmmersHash;  // no ommers: the difficulty stays (EIP-100)
    eth::Header c = p;
    c.number = 5;
    c.timestamp = 113;
    c.gas_limit = 20'000'000;  // the parent's limit times the elasticity
    c.base_fee_per_gas = Uint256(kInitialBaseFee);
    const auto r = validate_header(c, p, *config);
    EXPECT_TRUE(r.has_value()) << to_string(r.error());
    c.base_fee_per_gas = Uint256(kInitialBaseFee + 1);
    EXPECT_EQ(validate_header(c, p, *config).error().code, Errc::wrong_base_fee);
}

}  // namespace
}  // namespace keel::chain
