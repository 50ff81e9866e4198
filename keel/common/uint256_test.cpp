#include "keel/common/uint256.hpp"

#include <gmp.h>
#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "test/testutil/gmp_uint256.hpp"

namespace keel {
// Lets GoogleTest print values in failure messages.
void PrintTo(const Uint256& x, std::ostream* os) {
    *os << x.to_hex();
}
}  // namespace keel

namespace {

using keel::Uint256;
using Errc = keel::uint256::Errc;
using Error = keel::uint256::Error;

constexpr Uint256 kMax = Uint256::max();
constexpr Uint256 kMin = Uint256::from_limbs(0, 0, 0, 1ull << 63);  // -2^255, also 2^255

Uint256 dec(std::string_view s) {
    auto r = Uint256::from_dec(s);
    EXPECT_TRUE(r.has_value()) << s;
    return r.value_or(Uint256{});
}

Uint256 hex(std::string_view s) {
    auto r = Uint256::from_hex(s);
    EXPECT_TRUE(r.has_value()) << s;
    return r.value_or(Uint256{});
}

// ---- compile-time checks: the hot operations are constexpr
// ---------------------------------------

static_assert(Uint256(2) * 3 == 6);
static_assert(kMax + 1 == 0);
static_assert(Uint256{} - 1 == kMax);
static_assert((Uint256{1} << 255) == kMin);
static_assert((kMin >> 255) == 1);
static_assert(keel::sar(kMin, 255) == kMax);
static_assert(keel::slt(kMax, 0));
static_assert(kMax.bit_length() == 256 && Uint256{}.bit_length() == 0);
static_assert(keel::signextend(0, 0x80) == kMax - 0x7f);
static_assert(keel::byte(0, kMin) == 0x80);
static_assert(keel::add_overflow(kMax, 1).overflow);
static_assert(std::is_trivially_copyable_v<Uint256>);

// ---- known answers
// -------------------------------------------------------------------------------

TEST(Uint256, ConstructionAndLimbs) {
    Uint256 z;
    EXPECT_TRUE(z.is_zero());
    Uint256 x = Uint256::from_limbs(1, 2, 3, 4);
    EXPECT_EQ(x[0], 1u);
    EXPECT_EQ(x[3], 4u);
    x[2] = 9;
    EXPECT_EQ(x.limbs()[2], 9u);
    EXPECT_EQ(Uint256::from_limbs({5, 6, 7, 8}), Uint256::from_limbs(5, 6, 7, 8));
    EXPECT_TRUE(Uint256{7}.fits_u64());
    EXPECT_FALSE(Uint256::from_limbs(0, 1, 0, 0).fits_u64());
    EXPECT_EQ(Uint256::from_limbs(42, 1, 0, 0).as_u64(), 42u);
    EXPECT_EQ(static_cast<std::uint64_t>(Uint256::from_limbs(43, 0, 0, 1)), 43u);
}

TEST(Uint256, BitsAndBytes) {
    EXPECT_EQ(Uint256{}.count_leading_zeros(), 256u);
    EXPECT_EQ(Uint256{1}.count_leading_zeros(), 255u);
    EXPECT_EQ(kMin.count_leading_zeros(), 0u);
    EXPECT_EQ(Uint256{}.byte_length(), 0u);
    EXPECT_EQ(Uint256{1}.byte_length(), 1u);
    EXPECT_EQ(Uint256{256}.byte_length(), 2u);
    EXPECT_EQ(kMax.byte_length(), 32u);
    EXPECT_EQ(Uint256{255}.bit_length(), 8u);
    EXPECT_TRUE(kMin.bit(255));
    EXPECT_FALSE(kMin.bit(254));
    EXPECT_FALSE(kMax.bit(256));
    EXPECT_FALSE(kMax.bit(~std::size_t{0}));
    EXPECT_TRUE(kMin.is_negative());
    EXPECT_FALSE((kMin - 1).is_negative());
}

TEST(Uint256, BigEndianBytes) {
    EXPECT_EQ(Uint256::from_be_bytes(keel::BytesView{}), Uint256{});
    const std::uint8_t one[] = {0x01};
    EXPECT_EQ(Uint256::from_be_bytes(keel::BytesView{one}), Uint256{1});
    const std::uint8_t two[] = {0x01, 0x02};
    EXPECT_EQ(Uint256::from_be_bytes(keel::BytesView{two}), Uint256{0x102});
    std::uint8_t big[33] = {};
    EXPECT_EQ(Uint256::from_be_bytes(keel::BytesView{big, 32}), Uint256{});
    EXPECT_FALSE(Uint256::from_be_bytes(keel::BytesView{big, 33}).has_value());

    keel::Bytes32 b;
    for (std::size_t i = 0; i < 32; ++i) b[i] = static_cast<std::uint8_t>(i + 1);
    const Uint256 x = Uint256::from_be_bytes(b);
    EXPECT_EQ(x[3], 0x0102030405060708u);
    EXPECT_EQ(x[0], 0x191a1b1c1d1e1f20u);
    EXPECT_EQ(x.to_bytes32(), b);
    EXPECT_EQ(Uint256::from_be_bytes(b.view()), x);
    EXPECT_EQ(Uint256{1}.to_bytes32()[31], 1);
    EXPECT_EQ(kMin.to_bytes32()[0], 0x80);
}

TEST(Uint256, AddSubWrap) {
    EXPECT_EQ(kMax + 1, Uint256{});
    EXPECT_EQ(Uint256{} - 1, kMax);
    EXPECT_EQ(kMin + kMin, Uint256{});
    EXPECT_EQ(Uint256::from_limbs(~0ull, 0, 0, 0) + 1, Uint256::from_limbs(0, 1, 0, 0));
    EXPECT_EQ(Uint256::from_limbs(0, 0, 0, 1) - 1, Uint256::from_limbs(~0ull, ~0ull, ~0ull, 0));

    auto [s, c] = keel::add_overflow(kMax, kMax);
    EXPECT_EQ(s, kMax - 1);
    EXPECT_TRUE(c);
    EXPECT_FALSE(keel::add_overflow(kMax, 0).overflow);
    EXPECT_TRUE(keel::sub_overflow(0, 1).overflow);
    EXPECT_EQ(keel::sub_overflow(0, 1).value, kMax);
    EXPECT_FALSE(keel::sub_overflow(5, 5).overflow);

    Uint256 x = kMax;
    EXPECT_EQ(x++, kMax);
    EXPECT_EQ(x, Uint256{});
    EXPECT_EQ(--x, kMax);
    EXPECT_EQ(++x, Uint256{});
    EXPECT_EQ(x--, Uint256{});
    EXPECT_EQ(x, kMax);
    EXPECT_EQ(-Uint256{1}, kMax);
    EXPECT_EQ(-Uint256{}, Uint256{});
    EXPECT_EQ(-kMin, kMin);
}

TEST(Uint256, Mul) {
    EXPECT_EQ(kMax * kMax, Uint256{1});
    EXPECT_EQ((Uint256{1} << 128) * (Uint256{1} << 128), Uint256{});
    EXPECT_EQ((Uint256{1} << 127) * (Uint256{1} << 128), kMin);
    EXPECT_EQ(Uint256{~0ull} * Uint256{~0ull}, Uint256::from_limbs(1, ~0ull - 1, 0, 0));
    EXPECT_TRUE(keel::mul_overflow(kMin, 2).overflow);
    EXPECT_FALSE(keel::mul_overflow(kMin, 1).overflow);
    const auto w = keel::mul_wide(kMax, kMax);  // (2^256-1)^2 = 2^512 - 2^257 + 1
    EXPECT_EQ(w, (std::array<std::uint64_t, 8>{1, 0, 0, 0, ~1ull, ~0ull, ~0ull, ~0ull}));
}

TEST(Uint256, DivMod) {
    EXPECT_EQ(Uint256{7} / 0, Uint256{});  // EVM: division by zero is zero
    EXPECT_EQ(Uint256{7} % 0, Uint256{});
    EXPECT_EQ(kMax / 0, Uint256{});
    EXPECT_EQ(kMax % 0, Uint256{});
    EXPECT_EQ(kMax / 1, kMax);
    EXPECT_EQ(kMax / kMax, Uint256{1});
    EXPECT_EQ(kMax % kMax, Uint256{});
    EXPECT_EQ(Uint256{7} / kMax, Uint256{});
    EXPECT_EQ(Uint256{7} % kMax, Uint256{7});
    EXPECT_EQ(kMax / 2, kMin - 1);
    EXPECT_EQ(kMax % 10, Uint256{5});
    EXPECT_EQ(kMax / 10,
              dec("11579208923731619542357098500868790785326998466564056403945758400791312963993"));
    EXPECT_EQ(kMax / (Uint256{1} << 128), Uint256::from_limbs(~0ull, ~0ull, 0, 0));
    EXPECT_EQ(kMin / (kMin - 1), Uint256{1});
    EXPECT_EQ(kMin % (kMin - 1), Uint256{1});
    Uint256 x = 100;
    x /= 7;
    EXPECT_EQ(x, Uint256{14});
    x %= 5;
    EXPECT_EQ(x, Uint256{4});
    const auto [q, r] = keel::udivrem(kMax, 1000);
    EXPECT_EQ(q * 1000 + r, kMax);
    EXPECT_EQ(r, Uint256{935});
}

TEST(Uint256, SignedDivMod) {
    const Uint256 m7 = -Uint256{7};
    const Uint256 m2 = -Uint256{2};
    EXPECT_EQ(keel::sdiv(kMin, kMax), kMin);  // -2^255 / -1 overflows back to -2^255
    EXPECT_EQ(keel::smod(kMin, kMax), Uint256{});
    EXPECT_EQ(keel::sdiv(m7, 2), -Uint256{3});  // truncation toward zero
    EXPECT_EQ(keel::sdiv(7, m2), -Uint256{3});
    EXPECT_EQ(keel::sdiv(m7, m2), Uint256{3});
    EXPECT_EQ(keel::sdiv(m7, 0), Uint256{});
    EXPECT_EQ(keel::smod(m7, 2), -Uint256{1});  // sign of the dividend
    EXPECT_EQ(keel::smod(7, m2), Uint256{1});
    EXPECT_EQ(keel::smod(m7, m2), -Uint256{1});
    EXPECT_EQ(keel::smod(m7, 0), Uint256{});
    EXPECT_EQ(keel::sdiv(kMin, 2), -(Uint256{1} << 254));
    EXPECT_EQ(keel::sdiv(kMin, kMin), Uint256{1});
}

TEST(Uint256, AddModMulMod) {
    EXPECT_EQ(keel::addmod(kMax, 1, kMax), Uint256{1});  // 2^256 mod (2^256 - 1)
    EXPECT_EQ(keel::addmod(kMax, kMax, kMax), Uint256{});
    EXPECT_EQ(keel::addmod(kMax, kMax, 0), Uint256{});
    EXPECT_EQ(keel::addmod(kMax, 2, 10), Uint256{7});  // (2^256 + 1) mod 10
    EXPECT_EQ(keel::addmod(3, 4, 5), Uint256{2});
    EXPECT_EQ(keel::mulmod(kMax, kMax, kMax), Uint256{});
    EXPECT_EQ(keel::mulmod(kMax, kMax, 12), Uint256{9});
    EXPECT_EQ(keel::mulmod(kMax, kMax, 0), Uint256{});
    EXPECT_EQ(keel::mulmod(kMin, 2, kMax), Uint256{1});  // 2^256 mod (2^256 - 1)
    EXPECT_EQ(keel::mulmod(10, 10, 7), Uint256{2});
    EXPECT_EQ(keel::mulmod(~0ull, ~0ull, ~0ull - 1), Uint256{1});
}

TEST(Uint256, Exp) {
    EXPECT_EQ(keel::exp(0, 0), Uint256{1});
    EXPECT_EQ(keel::exp(0, 5), Uint256{});
    EXPECT_EQ(keel::exp(0, kMax), Uint256{});
    EXPECT_EQ(keel::exp(1, kMax), Uint256{1});
    EXPECT_EQ(keel::exp(2, 255), kMin);
    EXPECT_EQ(keel::exp(2, 256), Uint256{});
    EXPECT_EQ(keel::exp(2, kMax), Uint256{});
    EXPECT_EQ(keel::exp(3, 0), Uint256{1});
    EXPECT_EQ(keel::exp(kMax, 2), Uint256{1});
    EXPECT_EQ(keel::exp(kMax, kMax), kMax);  // (-1)^odd
    EXPECT_EQ(keel::exp(kMax, kMax - 1), Uint256{1});
    EXPECT_EQ(keel::exp(10, 18), Uint256{1'000'000'000'000'000'000ull});
    EXPECT_EQ(keel::exp(3, 161),
              dec("65542350158517637872691969508970705427701150314738255642438471845988797065603"));
    EXPECT_EQ(keel::exp(3, 1000),
              dec("93187681627927880847546880678405676082649356936463392727377489677428983356193"));
    EXPECT_EQ(keel::exp(0x1234567890abcdef, (Uint256{1} << 200) + 12345),
              dec("45651228538620864400790856563388148739492730122485680569709335797203538140783"));
    // 3 has order 2^254 modulo 2^256, so 3^(2^254) == 1 and 3^(2^253) != 1.
    EXPECT_EQ(keel::exp(3, Uint256{1} << 254), Uint256{1});
    EXPECT_NE(keel::exp(3, Uint256{1} << 253), Uint256{1});
    EXPECT_EQ(keel::exp(6, 256), Uint256{});
    EXPECT_EQ(keel::exp(6, 255), kMin);  // 2^255 * 3^255 and 3^255 is odd
}

TEST(Uint256, Shifts) {
    const Uint256 x = hex("0x8000000000000000000000000000000000000000000000000000000000000001");
    EXPECT_EQ(x << 0, x);
    EXPECT_EQ(x >> 0, x);
    EXPECT_EQ(x << 1, Uint256{2});
    EXPECT_EQ(x >> 255, Uint256{1});
    EXPECT_EQ(x << 255, kMin);
    EXPECT_EQ(x << 256, Uint256{});
    EXPECT_EQ(x >> 256, Uint256{});
    EXPECT_EQ(x << ~0ull, Uint256{});
    EXPECT_EQ(x >> Uint256::from_limbs(1, 0, 0, 1), Uint256{});
    EXPECT_EQ(x << Uint256::from_limbs(1, 1, 0, 0), Uint256{});
    EXPECT_EQ(x << Uint256{64}, Uint256::from_limbs(0, 1, 0, 0));
    EXPECT_EQ(x >> Uint256{64}, Uint256::from_limbs(0, 0, 1ull << 63, 0));
    EXPECT_EQ(keel::shl(Uint256{1}, 200), Uint256{1} << 200);
    EXPECT_EQ(keel::shr(kMax, Uint256{252}), Uint256{15});
    Uint256 y = 1;
    y <<= 70;
    EXPECT_EQ(y, Uint256::from_limbs(0, 64, 0, 0));
    y >>= 6;
    EXPECT_EQ(y, Uint256::from_limbs(0, 1, 0, 0));

    EXPECT_EQ(keel::sar(x, 0), x);
    EXPECT_EQ(keel::sar(x, 1),
              hex("0xc000000000000000000000000000000000000000000000000000000000000000"));
    EXPECT_EQ(keel::sar(x, 255), kMax);
    EXPECT_EQ(keel::sar(x, 256), kMax);
    EXPECT_EQ(keel::sar(x, Uint256::from_limbs(0, 0, 0, 5)), kMax);
    EXPECT_EQ(keel::sar(kMin - 1, 254), Uint256{1});
    EXPECT_EQ(keel::sar(kMin - 1, 256), Uint256{});
    EXPECT_EQ(keel::sar(kMin - 1, kMax), Uint256{});
    EXPECT_EQ(keel::sar(kMax, 17), kMax);
}

TEST(Uint256, BitwiseAndCompare) {
    const Uint256 a = hex("0xff00ff00ff00ff00ff00ff00ff00ff00ff00ff00ff00ff00ff00ff00ff00ff00");
    EXPECT_EQ(~a, a >> 8);
    EXPECT_EQ(a & (a >> 8), Uint256{});
    EXPECT_EQ(a | (a >> 8), kMax);
    EXPECT_EQ(a ^ kMax, a >> 8);
    Uint256 b = a;
    b &= 0xffff;
    EXPECT_EQ(b, Uint256{0xff00});
    b |= 1;
    b ^= 0xff01;
    EXPECT_EQ(b, Uint256{});

    EXPECT_LT(Uint256{1}, Uint256{2});
    EXPECT_LT(Uint256::from_limbs(~0ull, 0, 0, 0), Uint256::from_limbs(0, 1, 0, 0));
    EXPECT_GT(kMax, kMin);
    EXPECT_LE(kMin, kMin);
    EXPECT_GE(kMin, kMin);
    EXPECT_TRUE((Uint256{3} <=> Uint256{3}) == std::strong_ordering::equal);
    EXPECT_TRUE((kMin <=> kMax) == std::strong_ordering::less);
    EXPECT_TRUE(keel::slt(kMax, 0));     // -1 < 0
    EXPECT_TRUE(keel::slt(kMin, kMax));  // -2^255 < -1
    EXPECT_FALSE(keel::slt(0, kMin));
    EXPECT_TRUE(keel::sgt(1, kMax));
    EXPECT_FALSE(keel::sgt(5, 5));
}

TEST(Uint256, SignExtendAndByte) {
    EXPECT_EQ(keel::signextend(0, 0xff), kMax);
    EXPECT_EQ(keel::signextend(0, 0x7f), Uint256{0x7f});
    EXPECT_EQ(keel::signextend(0, 0x17f), Uint256{0x7f});  // bits above byte 0 are dropped
    EXPECT_EQ(keel::signextend(1, 0x8000), ~Uint256{0x7fff});
    EXPECT_EQ(keel::signextend(30, kMax >> 9), kMax >> 9);
    EXPECT_EQ(keel::signextend(30, kMax >> 8), kMax);
    EXPECT_EQ(keel::signextend(31, 0x80), Uint256{0x80});
    EXPECT_EQ(keel::signextend(31, kMin), kMin);
    EXPECT_EQ(keel::signextend(kMax, 0xff), Uint256{0xff});
    EXPECT_EQ(keel::signextend(Uint256::from_limbs(0, 1, 0, 0), 0xff), Uint256{0xff});

    const Uint256 x = hex("0x0102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f20");
    for (unsigned i = 0; i < 32; ++i) EXPECT_EQ(keel::byte(i, x), Uint256{i + 1});
    EXPECT_EQ(keel::byte(32, x), Uint256{});
    EXPECT_EQ(keel::byte(kMax, x), Uint256{});
    EXPECT_EQ(keel::byte(Uint256::from_limbs(0, 1, 0, 0), x), Uint256{});
}

TEST(Uint256, ToString) {
    EXPECT_EQ(Uint256{}.to_dec(), "0");
    EXPECT_EQ(Uint256{}.to_hex(), "0x0");
    EXPECT_EQ(Uint256{1}.to_hex(), "0x1");
    EXPECT_EQ(Uint256{0x1234abcd}.to_hex(), "0x1234abcd");
    EXPECT_EQ(Uint256{~0ull}.to_dec(), "18446744073709551615");
    EXPECT_EQ(Uint256{10'000'000'000'000'000'000ull}.to_dec(), "10000000000000000000");
    EXPECT_EQ(Uint256::from_limbs(0, 1, 0, 0).to_dec(), "18446744073709551616");
    EXPECT_EQ(kMax.to_dec(),
              "115792089237316195423570985008687907853269984665640564039457584007913129639935");
    EXPECT_EQ(kMin.to_dec(),
              "57896044618658097711785492504343953926634992332820282019728792003956564819968");
    EXPECT_EQ(kMax.to_hex(), "0x" + std::string(64, 'f'));
    EXPECT_EQ(kMin.to_hex(), "0x8" + std::string(63, '0'));
    // 10^76 has exactly 77 digits; its chunks of 19 digits are all zeros.
    EXPECT_EQ(keel::exp(10, 76).to_dec(), "1" + std::string(76, '0'));

    char buf[Uint256::kMaxHexChars];
    EXPECT_EQ(std::string_view(buf, Uint256{255}.write_hex(buf)), "0xff");
    char dbuf[Uint256::kMaxDecChars];
    EXPECT_EQ(kMax.write_dec(dbuf), 78u);
}

// write_hex against a byte-at-a-time reference for every digit count and every digit value
// in every position (the word-at-a-time formatting has a case per limb and per nibble).
TEST(Uint256, WriteHexMatchesAByteAtATimeReference) {
    const auto reference = [](const Uint256& v) {
        std::uint8_t be[32];
        v.to_be_bytes(be);
        static constexpr char kDigits[] = "0123456789abcdef";
        std::string s;
        for (const std::uint8_t b : be) {
            s += kDigits[b >> 4];
            s += kDigits[b & 15];
        }
        const std::size_t first = s.find_first_not_of('0');
        return "0x" + (first == std::string::npos ? std::string("0") : s.substr(first));
    };
    char buf[Uint256::kMaxHexChars];
    std::uint64_t seed = 0x9e3779b97f4a7c15ull;
    const auto next = [&] {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        return seed;
    };
    for (int digits = 1; digits <= 64; ++digits) {
        for (int round = 0; round < 40; ++round) {
            Uint256 v = Uint256::from_limbs(next(), next(), next(), next());
            v = v >> static_cast<unsigned>(256 - 4 * digits);  // at most `digits` digits
            if (round < 16)
                v = v | (Uint256{static_cast<std::uint64_t>(round)}
                         << static_cast<unsigned>(4 * (digits - 1)));
            EXPECT_EQ(std::string_view(buf, v.write_hex(buf)), reference(v));
        }
    }
}

TEST(Uint256, Parse) {
    EXPECT_EQ(dec("0"), Uint256{});
    EXPECT_EQ(dec("000123"), Uint256{123});
    EXPECT_EQ(dec("115792089237316195423570985008687907853269984665640564039457584007913129639935"),
              kMax);
    EXPECT_EQ(dec("0000000000000000000000000000000000000000000000000000000000000000000000000000000"
                  "00000000000042"),
              Uint256{42});
    EXPECT_EQ(hex("0x0"), Uint256{});
    EXPECT_EQ(hex("ff"), Uint256{255});
    EXPECT_EQ(hex("0XAbCd"), Uint256{0xabcd});
    EXPECT_EQ(hex("0x" + std::string(64, 'f')), kMax);
    EXPECT_EQ(hex("0x" + std::string(100, '0') + "1"), Uint256{1});
    EXPECT_EQ(Uint256::from_string("0x10").value(), Uint256{16});
    EXPECT_EQ(Uint256::from_string("10").value(), Uint256{10});
    EXPECT_EQ(Uint256::from_string("0").value(), Uint256{});
}

TEST(Uint256, ParseErrors) {
    auto err = [](keel::Result<Uint256, Error> r) {
        EXPECT_FALSE(r.has_value());
        return r.has_value() ? Error{Errc::empty, 9999} : r.error();
    };
    EXPECT_EQ(err(Uint256::from_dec("")), (Error{Errc::empty, 0}));
    EXPECT_EQ(err(Uint256::from_dec("12a3")), (Error{Errc::invalid_digit, 2}));
    EXPECT_EQ(err(Uint256::from_dec("-1")), (Error{Errc::invalid_digit, 0}));
    EXPECT_EQ(err(Uint256::from_dec(" 1")), (Error{Errc::invalid_digit, 0}));
    EXPECT_EQ(err(Uint256::from_dec("1 ")), (Error{Errc::invalid_digit, 1}));
    EXPECT_EQ(err(Uint256::from_dec("0x12")), (Error{Errc::invalid_digit, 1}));
    EXPECT_EQ(err(Uint256::from_dec("12345678901234567890123x")), (Error{Errc::invalid_digit, 23}));
    // 2^256 exactly: the last digit tips it over.
    EXPECT_EQ(
        err(Uint256::from_dec(
            "115792089237316195423570985008687907853269984665640564039457584007913129639936")),
        (Error{Errc::overflow, 77}));
    // The overflow comes before the bad character, so it is what is reported.
    EXPECT_EQ(err(Uint256::from_dec(kMax.to_dec() + "0x")), (Error{Errc::overflow, 78}));
    EXPECT_EQ(err(Uint256::from_dec(kMax.to_dec() + "x")), (Error{Errc::invalid_digit, 78}));
    EXPECT_EQ(err(Uint256::from_dec(std::string(80, '9'))), (Error{Errc::overflow, 77}));
    EXPECT_EQ(err(Uint256::from_dec("1" + std::string(80, '0'))), (Error{Errc::overflow, 78}));

    EXPECT_EQ(err(Uint256::from_hex("")), (Error{Errc::empty, 0}));
    EXPECT_EQ(err(Uint256::from_hex("0x")), (Error{Errc::empty, 2}));
    EXPECT_EQ(err(Uint256::from_hex("0X")), (Error{Errc::empty, 2}));
    EXPECT_EQ(err(Uint256::from_hex("0x12g")), (Error{Errc::invalid_digit, 4}));
    EXPECT_EQ(err(Uint256::from_hex("0xx1")), (Error{Errc::invalid_digit, 2}));
    EXPECT_EQ(err(Uint256::from_hex("x1")), (Error{Errc::invalid_digit, 0}));
    EXPECT_EQ(err(Uint256::from_hex("0x1" + std::string(64, '0'))), (Error{Errc::overflow, 66}));
    EXPECT_EQ(err(Uint256::from_hex("00" + std::string(65, 'f'))), (Error{Errc::overflow, 66}));
    EXPECT_EQ(err(Uint256::from_hex("0x" + std::string(64, 'f') + "g")),
              (Error{Errc::invalid_digit, 66}));
    EXPECT_EQ(err(Uint256::from_string("")), (Error{Errc::empty, 0}));
    EXPECT_EQ(err(Uint256::from_string("0x")), (Error{Errc::empty, 2}));
    EXPECT_EQ(err(Uint256::from_string("1f")), (Error{Errc::invalid_digit, 1}));

    EXPECT_EQ(keel::to_string(Error{Errc::overflow, 77}),
              "number does not fit in 256 bits at offset 77");
    EXPECT_EQ(keel::to_string(Error{Errc::invalid_digit, 3}),
              "invalid digit in number at offset 3");
    EXPECT_EQ(keel::to_string(Error{Errc::empty, 2}), "no digits in number at offset 2");
}

// ---- differential tests against GMP ------------------------------------------------------------

using keel::testutil::gmp::reference_parse;
using keel::testutil::gmp::set_signed;
using keel::testutil::gmp::wrap;
using keel::testutil::gmp::Z;

// Deterministic PRNG (splitmix64): fixed seeds keep every run identical.
class Rng {
  public:
    explicit Rng(std::uint64_t seed) : s_(seed) {}
    std::uint64_t next() {
        std::uint64_t z = (s_ += 0x9e3779b97f4a7c15ull);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
        return z ^ (z >> 31);
    }
    std::uint64_t below(std::uint64_t n) { return next() % n; }

    // A limb from the shapes that stress carries and Knuth's quotient estimate.
    std::uint64_t limb() {
        switch (below(10)) {
            case 0:
                return 0;
            case 1:
                return ~0ull;
            case 2:
                return 1ull << 63;
            case 3:
                return (1ull << 63) - 1;
            case 4:
                return ~0ull - below(3);
            case 5:
                return below(4);
            case 6:
                return next() >> below(64);
            default:
                return next();
        }
    }

    // An operand of a mixed shape: random limbs, few limbs, all ones, powers of two, values
    // near 0, 2^64, 2^128, 2^255 and 2^256.
    Uint256 operand() {
        switch (below(12)) {
            case 0:
            case 1:
                return Uint256::from_limbs(next(), next(), next(), next());
            case 2: {
                Uint256 x = Uint256::from_limbs(next(), next(), next(), next());
                return x >> (64 * below(4) + below(64));  // random bit length
            }
            case 3: {
                Uint256 x;
                const std::size_t n = 1 + below(4);
                for (std::size_t i = 0; i < n; ++i) x[i] = next();
                return x;
            }
            case 4:
                return Uint256::from_limbs(limb(), limb(), limb(), limb());
            case 5:
                return Uint256{1} << below(256);
            case 6:
                return (Uint256{1} << below(256)) + Uint256{below(5)} - Uint256{below(5)};
            case 7:
                return Uint256{below(20)};
            case 8:
                return Uint256::max() - below(20);
            case 9:
                return (Uint256{1} << 255) + Uint256{below(5)} - Uint256{below(5)};
            case 10:
                return below(2) ? Uint256::max() << below(256) : Uint256::max() >> below(256);
            default:
                return Uint256{next()};
        }
    }

    // A second operand, sometimes related to the first (equal, adjacent, same top limb).
    Uint256 partner(const Uint256& a) {
        switch (below(16)) {
            case 0:
                return a;
            case 1:
                return a + 1;
            case 2:
                return a - 1;
            case 3: {
                Uint256 b = operand();
                b[3] = a[3];
                return b;
            }
            case 4:
                return a >> (1 + below(255));
            default:
                return operand();
        }
    }

    // A shift or index amount: mostly in [0, 300), sometimes any word.
    Uint256 amount() { return below(8) == 0 ? operand() : Uint256{below(300)}; }

  private:
    std::uint64_t s_;
};

constexpr int kIterations = 20'000;

TEST(Uint256Gmp, AddSubMul) {
    Rng rng(1);
    Z za, zb, zr, two256;
    mpz_setbit(two256, 256);
    for (int it = 0; it < kIterations; ++it) {
        const Uint256 a = rng.operand();
        const Uint256 b = rng.partner(a);
        mpz_import(za, 4, -1, 8, 0, 0, a.limbs().data());
        mpz_import(zb, 4, -1, 8, 0, 0, b.limbs().data());

        mpz_add(zr, za, zb);
        ASSERT_EQ(a + b, wrap(zr)) << a.to_hex() << " + " << b.to_hex();
        ASSERT_EQ(keel::add_overflow(a, b).overflow, mpz_cmp(zr, two256) >= 0);
        ASSERT_EQ(keel::add_overflow(a, b).value, wrap(zr));

        mpz_sub(zr, za, zb);
        ASSERT_EQ(a - b, wrap(zr)) << a.to_hex() << " - " << b.to_hex();
        ASSERT_EQ(keel::sub_overflow(a, b).overflow, mpz_sgn(zr.get()) < 0);
        ASSERT_EQ(keel::sub_overflow(a, b).value, wrap(zr));

        mpz_neg(zr, za);
        ASSERT_EQ(-a, wrap(zr));

        mpz_mul(zr, za, zb);
        ASSERT_EQ(a * b, wrap(zr)) << a.to_hex() << " * " << b.to_hex();
        ASSERT_EQ(keel::mul_overflow(a, b).overflow, mpz_cmp(zr, two256) >= 0);
        const auto w = keel::mul_wide(a, b);
        Z zw;
        mpz_import(zw, 8, -1, 8, 0, 0, w.data());
        ASSERT_EQ(mpz_cmp(zw, zr), 0) << a.to_hex() << " *wide " << b.to_hex();

        Uint256 c = a;
        ++c;
        mpz_add_ui(zr, za, 1);
        ASSERT_EQ(c, wrap(zr));
        c = a;
        --c;
        mpz_sub_ui(zr, za, 1);
        ASSERT_EQ(c, wrap(zr));
    }
}

TEST(Uint256Gmp, DivMod) {
    Rng rng(2);
    Z za, zb, zq, zr;
    for (int it = 0; it < kIterations; ++it) {
        const Uint256 a0 = rng.operand();
        Uint256 b = rng.partner(a0);
        if (it % 4 == 0) b = b >> (64 * rng.below(4));  // more small and mid-size divisors
        Uint256 a = a0;
        if (it % 8 == 1) {  // 128 bits by 64 (udivrem's two-division path)
            a = a >> 128;
            b = b >> 192;
        }
        if (it % 8 == 3) b = Uint256{1} << rng.below(256);  // a power of two: a shift
        mpz_import(za, 4, -1, 8, 0, 0, a.limbs().data());
        mpz_import(zb, 4, -1, 8, 0, 0, b.limbs().data());
        const auto [q, r] = keel::udivrem(a, b);
        if (b.is_zero()) {
            ASSERT_EQ(q, Uint256{});
            ASSERT_EQ(r, Uint256{});
            ASSERT_EQ(a / b, Uint256{});
            ASSERT_EQ(a % b, Uint256{});
            continue;
        }
        mpz_tdiv_qr(zq, zr, za, zb);
        ASSERT_EQ(q, wrap(zq)) << a.to_hex() << " / " << b.to_hex();
        ASSERT_EQ(r, wrap(zr)) << a.to_hex() << " % " << b.to_hex();
        ASSERT_EQ(a / b, q);
        ASSERT_EQ(a % b, r);
    }
}

TEST(Uint256Gmp, SignedDivMod) {
    Rng rng(3);
    Z za, zb, zq, zr;
    for (int it = 0; it < kIterations; ++it) {
        Uint256 a = rng.operand();
        Uint256 b = rng.partner(a);
        if (it % 3 == 0) a = -a;
        if (it % 5 == 0) b = -b;
        if (it % 97 == 0) a = Uint256{1} << 255, b = Uint256::max();
        const Uint256 q = keel::sdiv(a, b);
        const Uint256 r = keel::smod(a, b);
        if (b.is_zero()) {
            ASSERT_EQ(q, Uint256{});
            ASSERT_EQ(r, Uint256{});
            continue;
        }
        set_signed(za, a);
        set_signed(zb, b);
        mpz_tdiv_qr(zq, zr, za, zb);  // truncating: quotient toward zero, remainder sign of a
        ASSERT_EQ(q, wrap(zq)) << a.to_hex() << " sdiv " << b.to_hex();
        ASSERT_EQ(r, wrap(zr)) << a.to_hex() << " smod " << b.to_hex();
    }
}

TEST(Uint256Gmp, AddModMulMod) {
    Rng rng(4);
    Z za, zb, zm, zr;
    for (int it = 0; it < kIterations; ++it) {
        const Uint256 a = rng.operand();
        const Uint256 b = rng.partner(a);
        Uint256 m = it % 2 == 0 ? rng.operand() : rng.partner(a);
        if (it % 4 == 1) m = m >> (64 * rng.below(4));
        if (it % 8 == 3) m = Uint256::max() - rng.below(3);
        mpz_import(za, 4, -1, 8, 0, 0, a.limbs().data());
        mpz_import(zb, 4, -1, 8, 0, 0, b.limbs().data());
        mpz_import(zm, 4, -1, 8, 0, 0, m.limbs().data());
        if (m.is_zero()) {
            ASSERT_EQ(keel::addmod(a, b, m), Uint256{});
            ASSERT_EQ(keel::mulmod(a, b, m), Uint256{});
            continue;
        }
        mpz_add(zr, za, zb);
        mpz_mod(zr, zr, zm);
        ASSERT_EQ(keel::addmod(a, b, m), wrap(zr))
            << a.to_hex() << " + " << b.to_hex() << " mod " << m.to_hex();
        mpz_mul(zr, za, zb);
        mpz_mod(zr, zr, zm);
        ASSERT_EQ(keel::mulmod(a, b, m), wrap(zr))
            << a.to_hex() << " * " << b.to_hex() << " mod " << m.to_hex();
    }
}

TEST(Uint256Gmp, Exp) {
    Rng rng(5);
    Z za, ze, zr, two256;
    mpz_setbit(two256, 256);
    for (int it = 0; it < kIterations; ++it) {
        const Uint256 a = rng.operand();
        Uint256 e = rng.operand();
        if (it % 3 == 0) e = Uint256{rng.below(600)};
        mpz_import(za, 4, -1, 8, 0, 0, a.limbs().data());
        mpz_import(ze, 4, -1, 8, 0, 0, e.limbs().data());
        mpz_powm(zr, za, ze, two256);
        ASSERT_EQ(keel::exp(a, e), wrap(zr)) << a.to_hex() << " ** " << e.to_hex();
    }
}

TEST(Uint256Gmp, ShiftsAndBitwise) {
    Rng rng(6);
    Z za, zb, zr, zs;
    for (int it = 0; it < kIterations; ++it) {
        const Uint256 a = rng.operand();
        const Uint256 b = rng.partner(a);
        const Uint256 n = rng.amount();
        mpz_import(za, 4, -1, 8, 0, 0, a.limbs().data());
        mpz_import(zb, 4, -1, 8, 0, 0, b.limbs().data());
        // Shifts of 256 or more give the same result as 300 (they push everything out).
        const std::uint64_t cnt = n.fits_u64() && n[0] < 300 ? n[0] : 300;

        mpz_mul_2exp(zr, za, cnt);
        ASSERT_EQ(a << n, wrap(zr)) << a.to_hex() << " << " << n.to_hex();
        ASSERT_EQ(keel::shl(a, n), wrap(zr));
        if (n.fits_u64()) {
            ASSERT_EQ(a << n[0], wrap(zr));
        }
        mpz_fdiv_q_2exp(zr, za, cnt);
        ASSERT_EQ(a >> n, wrap(zr)) << a.to_hex() << " >> " << n.to_hex();
        ASSERT_EQ(keel::shr(a, n), wrap(zr));
        if (n.fits_u64()) {
            ASSERT_EQ(a >> n[0], wrap(zr));
        }
        set_signed(zs, a);
        mpz_fdiv_q_2exp(zr, zs, cnt);  // floor division by 2^n is the arithmetic shift
        ASSERT_EQ(keel::sar(a, n), wrap(zr)) << a.to_hex() << " sar " << n.to_hex();
        if (n.fits_u64()) {
            ASSERT_EQ(keel::sar(a, n[0]), wrap(zr));
        }

        mpz_and(zr, za, zb);
        ASSERT_EQ(a & b, wrap(zr));
        mpz_ior(zr, za, zb);
        ASSERT_EQ(a | b, wrap(zr));
        mpz_xor(zr, za, zb);
        ASSERT_EQ(a ^ b, wrap(zr));
        mpz_com(zr, za);  // -a - 1
        ASSERT_EQ(~a, wrap(zr));
    }
}

TEST(Uint256Gmp, Compare) {
    Rng rng(7);
    Z za, zb;
    for (int it = 0; it < kIterations; ++it) {
        const Uint256 a = rng.operand();
        const Uint256 b = rng.partner(a);
        mpz_import(za, 4, -1, 8, 0, 0, a.limbs().data());
        mpz_import(zb, 4, -1, 8, 0, 0, b.limbs().data());
        const int c = mpz_cmp(za, zb);
        ASSERT_EQ(a == b, c == 0);
        ASSERT_EQ(a != b, c != 0);
        ASSERT_EQ(a < b, c < 0) << a.to_hex() << " < " << b.to_hex();
        ASSERT_EQ(a <= b, c <= 0);
        ASSERT_EQ(a > b, c > 0);
        ASSERT_EQ(a >= b, c >= 0);
        ASSERT_EQ((a <=> b) < 0, c < 0);
        ASSERT_EQ((a <=> b) == 0, c == 0);
        set_signed(za, a);
        set_signed(zb, b);
        const int sc = mpz_cmp(za, zb);
        ASSERT_EQ(keel::slt(a, b), sc < 0) << a.to_hex() << " slt " << b.to_hex();
        ASSERT_EQ(keel::sgt(a, b), sc > 0) << a.to_hex() << " sgt " << b.to_hex();
    }
}

TEST(Uint256Gmp, SignExtendByteBits) {
    Rng rng(8);
    Z zx, zr;
    for (int it = 0; it < kIterations; ++it) {
        const Uint256 x = rng.operand();
        const Uint256 k = rng.below(4) == 0 ? rng.operand() : Uint256{rng.below(40)};
        mpz_import(zx, 4, -1, 8, 0, 0, x.limbs().data());

        // SIGNEXTEND: keep the low 8(k+1) bits, then subtract 2^(8(k+1)) if their top bit is set.
        if (k.fits_u64() && k[0] < 31) {
            const std::uint64_t bits = 8 * (k[0] + 1);
            mpz_fdiv_r_2exp(zr, zx, bits);
            if (mpz_tstbit(zr, bits - 1)) {
                Z p;
                mpz_setbit(p, bits);
                mpz_sub(zr, zr, p);
            }
            ASSERT_EQ(keel::signextend(k, x), wrap(zr)) << k.to_hex() << " " << x.to_hex();
        } else {
            ASSERT_EQ(keel::signextend(k, x), x);
        }

        // BYTE: (x >> 8(31 - i)) & 0xff for i < 32.
        if (k.fits_u64() && k[0] < 32) {
            mpz_fdiv_q_2exp(zr, zx, 8 * (31 - k[0]));
            ASSERT_EQ(keel::byte(k, x), Uint256{mpz_get_ui(zr) & 0xff});
        } else {
            ASSERT_EQ(keel::byte(k, x), Uint256{});
        }

        const unsigned bits = x.is_zero() ? 0 : static_cast<unsigned>(mpz_sizeinbase(zx, 2));
        ASSERT_EQ(x.bit_length(), bits);
        ASSERT_EQ(x.count_leading_zeros(), 256 - bits);
        ASSERT_EQ(x.byte_length(), (bits + 7) / 8);
        ASSERT_EQ(x.fits_u64(), bits <= 64);
        ASSERT_EQ(x.is_negative(), mpz_tstbit(zx, 255) != 0);
        const std::size_t i = rng.below(260);
        ASSERT_EQ(x.bit(i), i < 256 && mpz_tstbit(zx, i) != 0);
    }
}

TEST(Uint256Gmp, BytesAndStrings) {
    Rng rng(9);
    Z zx, zr;
    for (int it = 0; it < kIterations; ++it) {
        const Uint256 x = rng.operand();
        mpz_import(zx, 4, -1, 8, 0, 0, x.limbs().data());

        // Big-endian bytes against GMP's export.
        std::array<std::uint8_t, 32> be{};
        std::size_t count = 0;
        mpz_export(be.data(), &count, 1, 1, 0, 0, zx);
        ASSERT_EQ(count, x.byte_length());
        const keel::Bytes32 b32 = x.to_bytes32();
        ASSERT_TRUE(std::equal(be.begin(), be.begin() + count, b32.begin() + (32 - count)));
        ASSERT_EQ(Uint256::from_be_bytes(keel::BytesView{be.data(), count}), x);
        ASSERT_EQ(Uint256::from_be_bytes(b32), x);

        // Strings against GMP's conversion, and back.
        char buf[80];
        mpz_get_str(buf, 10, zx);
        ASSERT_EQ(x.to_dec(), std::string(buf));
        mpz_get_str(buf, 16, zx);
        ASSERT_EQ(x.to_hex(), "0x" + std::string(buf));
        ASSERT_EQ(Uint256::from_dec(x.to_dec()).value(), x);
        ASSERT_EQ(Uint256::from_hex(x.to_hex()).value(), x);
        std::string upper = x.to_hex().substr(2);
        for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
        ASSERT_EQ(Uint256::from_hex(std::string(rng.below(3), '0') + upper).value(), x);
        ASSERT_EQ(Uint256::from_string(std::string(rng.below(3), '0') + x.to_dec()).value(), x);
    }
}

// Reference parser on GMP: scans left to right and reports the first problem, as documented.

TEST(Uint256Gmp, ParseRandomText) {
    Rng rng(10);
    const std::string_view dec_alphabet = "0123456789";
    const std::string_view hex_alphabet = "0123456789abcdefABCDEF";
    for (int it = 0; it < kIterations; ++it) {
        const bool is_hex = it % 2 == 1;
        // A plain buffer rather than std::string: g++ 12 -O3 warns falsely on small appends.
        char buf[128];
        std::size_t n = 0;
        if (is_hex && rng.below(2)) {
            buf[n++] = '0';
            buf[n++] = rng.below(2) ? 'x' : 'X';
        }
        const std::size_t len = rng.below(4) == 0 ? rng.below(100) : 60 + rng.below(25);
        const std::string_view alphabet = is_hex ? hex_alphabet : dec_alphabet;
        const bool leading_zeros = rng.below(4) == 0;
        constexpr std::string_view kBad{"x- g\0", 5};
        for (std::size_t k = 0; k < len; ++k) {
            if (leading_zeros && k < 10) {
                buf[n++] = '0';
            } else if (rng.below(200) == 0) {
                buf[n++] = kBad[rng.below(kBad.size())];  // an occasional bad character
            } else {
                buf[n++] = alphabet[rng.below(alphabet.size())];
            }
        }
        const std::string_view s(buf, n);
        const auto want = reference_parse(s, is_hex ? 16 : 10);
        const auto got = is_hex ? Uint256::from_hex(s) : Uint256::from_dec(s);
        ASSERT_EQ(got.has_value(), want.has_value()) << s;
        if (want) {
            ASSERT_EQ(*got, *want) << s;
        } else {
            ASSERT_EQ(got.error(), want.error()) << s;
        }
    }
}

}  // namespace
