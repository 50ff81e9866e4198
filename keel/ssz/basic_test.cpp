// Basic types: uintN, uint128, uint256, boolean (consensus-specs ssz "uintN", "boolean").
#include <gtest/gtest.h>

#include "keel/ssz/test_helpers.hpp"

namespace keel::ssz::test {
namespace {

TEST(SszBasic, UintsAreLittleEndian) {
    EXPECT_EQ(round_trip<std::uint8_t>("ab"), 0xab);
    EXPECT_EQ(round_trip<std::uint16_t>("3412"), 0x1234);
    EXPECT_EQ(round_trip<std::uint32_t>("78563412"), 0x12345678u);
    EXPECT_EQ(round_trip<std::uint64_t>("0807060504030201"), 0x0102030405060708ull);
    const Uint128 u = round_trip<Uint128>(
        "0100000000000000"
        "0200000000000000");
    EXPECT_EQ(u.lo, 1u);
    EXPECT_EQ(u.hi, 2u);
    const Uint256 w = round_trip<Uint256>(std::string(62, '0') + "ff");
    EXPECT_EQ(w, Uint256::from_limbs(0, 0, 0, 0xff00000000000000ull));
}

TEST(SszBasic, CompileTimeSizes) {
    static_assert(fixed_size<std::uint16_t> == 2);
    static_assert(fixed_size<Uint128> == 16);
    static_assert(fixed_size<Uint256> == 32);
    static_assert(fixed_size<bool> == 1);
    static_assert(is_fixed_size<std::uint64_t>);
}

TEST(SszBasic, WrongSizeIsRejected) {
    Error e = decode_error<std::uint16_t>("01");
    EXPECT_EQ(e.code, Errc::wrong_size);
    EXPECT_EQ(to_string(e), "ssz: uint16: wrong size (1 bytes, expected 2) at offset 0");
    EXPECT_EQ(decode_error<std::uint64_t>("000000000000000000").code, Errc::wrong_size);
    EXPECT_EQ(decode_error<Uint256>("").code, Errc::wrong_size);
}

TEST(SszBasic, Boolean) {
    EXPECT_TRUE(round_trip<bool>("01"));
    EXPECT_FALSE(round_trip<bool>("00"));
    for (const char* bad : {"02", "80", "ff", "10"}) {
        Error e = decode_error<bool>(bad);
        EXPECT_EQ(e.code, Errc::invalid_bool) << bad;
    }
    EXPECT_EQ(decode_error<bool>("0100").code, Errc::wrong_size);
}

TEST(SszBasic, RootIsThePaddedValue) {
    Hash32 want;
    want[0] = 0x34;
    want[1] = 0x12;
    EXPECT_EQ(hash_tree_root(std::uint16_t{0x1234}), want);
    EXPECT_EQ(hash_tree_root(true), *Hash32::from(from_hex("01" + std::string(62, '0'))));
}

}  // namespace
}  // namespace keel::ssz::test
