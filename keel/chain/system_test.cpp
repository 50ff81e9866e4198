#include "keel/chain/system.hpp"

#include <gtest/gtest.h>

#include "keel/common/hex.hpp"
#include "keel/eth/chain_config.hpp"

namespace keel::chain {
namespace {

void put_word(Bytes& data, std::size_t at, std::uint64_t v) {
    for (std::size_t i = 0; i < 8; ++i) data[at + 31 - i] = static_cast<std::uint8_t>(v >> (8 * i));
}

/// The ABI encoding the deposit contract emits: five offsets, then each part's length and its
/// bytes padded to whole words; part i is filled with the byte 0x10 + i.
state::Log deposit_log() {
    state::Log log;
    log.topics.push_back(deposit_event_topic());
    log.data.assign(576, 0);
    const std::size_t offsets[] = {160, 256, 320, 384, 512};
    const std::size_t sizes[] = {48, 32, 8, 96, 8};
    for (std::size_t i = 0; i < 5; ++i) {
        put_word(log.data, 32 * i, offsets[i]);
        put_word(log.data, offsets[i], sizes[i]);
        for (std::size_t j = 0; j < sizes[i]; ++j)
            log.data[offsets[i] + 32 + j] = static_cast<std::uint8_t>(0x10 + i);
    }
    return log;
}

TEST(SystemCalls, DepositEventTopicIsTheEventSignatureHash) {
    EXPECT_EQ(hex::encode(deposit_event_topic().view()),
              "649bbc62d0e31342afea4e5cd82d4049e7e1ee912fc0889aa790803be39038c5");
}

TEST(SystemCalls, DepositRequestIsTheFivePartsConcatenated) {
    Bytes out;
    ASSERT_TRUE(append_deposit(deposit_log(), out));
    ASSERT_EQ(out.size(), 192U);
    EXPECT_EQ(out[0], 0x10);
    EXPECT_EQ(out[47], 0x10);
    EXPECT_EQ(out[48], 0x11);
    EXPECT_EQ(out[80], 0x12);
    EXPECT_EQ(out[88], 0x13);
    EXPECT_EQ(out[184], 0x14);
    EXPECT_EQ(out[191], 0x14);
}

TEST(SystemCalls, DepositOfAnotherLayoutIsRefused) {
    Bytes out;
    state::Log short_data = deposit_log();
    short_data.data.pop_back();
    EXPECT_FALSE(append_deposit(short_data, out));
    state::Log bad_offset = deposit_log();
    put_word(bad_offset.data, 32, 257);
    EXPECT_FALSE(append_deposit(bad_offset, out));
    state::Log bad_size = deposit_log();
    put_word(bad_size.data, 384, 95);
    EXPECT_FALSE(append_deposit(bad_size, out));
    state::Log huge_offset = deposit_log();
    huge_offset.data[0] = 1;  // an offset wider than 64 bits
    EXPECT_FALSE(append_deposit(huge_offset, out));
    EXPECT_TRUE(out.empty());
    // Another event of the contract is not a deposit and is ignored.
    state::Log other = deposit_log();
    other.topics[0] = Hash32{};
    EXPECT_TRUE(append_deposit(other, out));
    state::Log no_topics;
    EXPECT_TRUE(append_deposit(no_topics, out));
    EXPECT_TRUE(out.empty());
}

TEST(SystemCalls, RequestsHashSkipsEmptyTypes) {
    // Values computed with Python's hashlib from EIP-7685's definition.
    const std::vector<Bytes> none(3);
    EXPECT_EQ(hex::encode(requests_hash(none).view()),
              "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    std::vector<Bytes> some(3);
    for (std::size_t i = 0; i < 192; ++i) some[0].push_back(static_cast<std::uint8_t>(i));
    some[2] = {0x01, 0x02};
    EXPECT_EQ(hex::encode(requests_hash(some).view()),
              "b8a57cd2e967faf0a989b9b3cc3a413c0671faf216e97b681c3a078f55400ed8");
}

TEST(SystemCalls, MainnetAddressesAndDevnetRule) {
    const auto m = eth::SystemContracts::mainnet();
    const auto d = eth::SystemContracts::devnet6();
    EXPECT_EQ(hex::encode(m.beacon_roots.view()), "000f3df6d732807ef1319fb7b8bb8522d0beac02");
    EXPECT_EQ(hex::encode(m.history_storage.view()), "0000f90827f1c53a10cb7a02335b175320002935");
    EXPECT_EQ(hex::encode(m.withdrawal_requests.view()),
              "00000961ef480eb55e80d19ad83579a64c007002");
    EXPECT_EQ(hex::encode(m.consolidation_requests.view()),
              "0000bbddc7ce488642fb579f8b00f3a590007251");
    EXPECT_TRUE(m.empty_is_invalid);
    EXPECT_FALSE(d.empty_is_invalid);
    EXPECT_EQ(d.withdrawal_requests, m.withdrawal_requests);
    const auto early = eth::SystemContracts::devnet5();
    EXPECT_FALSE(early.empty_is_invalid);
    EXPECT_EQ(early.beacon_roots, m.beacon_roots);
    EXPECT_EQ(hex::encode(early.withdrawal_requests.view()),
              "0c15f14308530b7cdb8460094bbb9cc28b9aaaaa");
    EXPECT_EQ(hex::encode(early.history_storage.view()),
              "0f792be4b0c0cb4dae440ef133e90c0ecd48cccc");
}

}  // namespace
}  // namespace keel::chain
