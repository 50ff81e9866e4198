// libFuzzer target for keel::Uint256: every operation is checked against GMP, and the text
// parsers are fed the raw input and checked against a GMP-based reference and by round trip.
//
// Input layout for the arithmetic part (inputs shorter than 65 bytes only exercise the parsers):
//   [0]       selector: bits 0-1 shrink b, bits 2-3 shrink c, bit 4 negates a, bit 5 makes b = a
//   [1, 33)   a, big-endian
//   [33, 65)  b, big-endian
//   [65, 97)  c (modulus, exponent, shift amount), big-endian; a ^ b when absent
#include <gmp.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "keel/common/uint256.hpp"
#include "test/testutil/gmp_uint256.hpp"

namespace {

using keel::Uint256;
using Errc = keel::uint256::Errc;

#define CHECK(cond)                    \
    do {                               \
        if (!(cond)) __builtin_trap(); \
    } while (false)

using keel::testutil::gmp::reference_parse;
using keel::testutil::gmp::set;
using keel::testutil::gmp::set_signed;
using keel::testutil::gmp::wrap;
using keel::testutil::gmp::Z;

void check_strings(const Uint256& x) {
    Z z;
    set(z, x);
    char buf[80];
    mpz_get_str(buf, 10, z);
    const std::string d = x.to_dec();
    CHECK(d == buf);
    mpz_get_str(buf, 16, z);
    const std::string h = x.to_hex();
    CHECK(h.substr(2) == buf && h.starts_with("0x"));
    CHECK(Uint256::from_dec(d) == x);
    CHECK(Uint256::from_hex(h) == x);
    CHECK(Uint256::from_string(h) == x);
    CHECK(Uint256::from_string(d) == x);
}

void check_text(std::string_view s) {
    const auto d = Uint256::from_dec(s);
    CHECK(d == reference_parse(s, 10));
    if (d) {
        // Canonical form: the input without leading zeros.
        const std::size_t nz = s.find_first_not_of('0');
        CHECK(d->to_dec() == (nz == std::string_view::npos ? "0" : s.substr(nz)));
    }
    const auto h = Uint256::from_hex(s);
    CHECK(h == reference_parse(s, 16));
    if (h) check_strings(*h);
    const bool prefixed = s.size() >= 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
    CHECK(Uint256::from_string(s) == (prefixed ? h : d));
}

void check_arithmetic(const Uint256& a, const Uint256& b, const Uint256& c) {
    Z za, zb, zc, zr, zq, two256;
    mpz_setbit(two256, 256);
    set(za, a);
    set(zb, b);
    set(zc, c);

    mpz_add(zr, za, zb);
    CHECK(a + b == wrap(zr));
    CHECK(keel::add_overflow(a, b).overflow == (mpz_cmp(zr, two256) >= 0));
    mpz_sub(zr, za, zb);
    CHECK(a - b == wrap(zr));
    CHECK(keel::sub_overflow(a, b).overflow == (mpz_sgn(zr.get()) < 0));
    mpz_mul(zr, za, zb);
    CHECK(a * b == wrap(zr));
    CHECK(keel::mul_overflow(a, b).overflow == (mpz_cmp(zr, two256) >= 0));
    {
        const auto w = keel::mul_wide(a, b);
        Z zw;
        mpz_import(zw, 8, -1, 8, 0, 0, w.data());
        CHECK(mpz_cmp(zw, zr) == 0);
    }
    mpz_neg(zr, za);
    CHECK(-a == wrap(zr));

    if (b.is_zero()) {
        CHECK(a / b == 0 && a % b == 0 && keel::sdiv(a, b) == 0 && keel::smod(a, b) == 0);
    } else {
        mpz_tdiv_qr(zq, zr, za, zb);
        const auto [q, r] = keel::udivrem(a, b);
        CHECK(q == wrap(zq) && r == wrap(zr));
        Z sa, sb;
        set_signed(sa, a);
        set_signed(sb, b);
        mpz_tdiv_qr(zq, zr, sa, sb);
        CHECK(keel::sdiv(a, b) == wrap(zq));
        CHECK(keel::smod(a, b) == wrap(zr));
    }

    if (c.is_zero()) {
        CHECK(keel::addmod(a, b, c) == 0 && keel::mulmod(a, b, c) == 0);
    } else {
        mpz_add(zr, za, zb);
        mpz_mod(zr, zr, zc);
        CHECK(keel::addmod(a, b, c) == wrap(zr));
        mpz_mul(zr, za, zb);
        mpz_mod(zr, zr, zc);
        CHECK(keel::mulmod(a, b, c) == wrap(zr));
    }

    mpz_powm(zr, za, zc, two256);
    CHECK(keel::exp(a, c) == wrap(zr));

    // Shifts by c (a full word) and by its low byte.
    for (const Uint256& n : {c, Uint256{c[0] & 0x1ff}}) {
        const std::uint64_t cnt = n.fits_u64() && n[0] < 300 ? n[0] : 300;
        mpz_mul_2exp(zr, za, cnt);
        CHECK((a << n) == wrap(zr));
        mpz_fdiv_q_2exp(zr, za, cnt);
        CHECK((a >> n) == wrap(zr));
        Z sa;
        set_signed(sa, a);
        mpz_fdiv_q_2exp(zr, sa, cnt);
        CHECK(keel::sar(a, n) == wrap(zr));
    }

    mpz_and(zr, za, zb);
    CHECK((a & b) == wrap(zr));
    mpz_ior(zr, za, zb);
    CHECK((a | b) == wrap(zr));
    mpz_xor(zr, za, zb);
    CHECK((a ^ b) == wrap(zr));
    mpz_com(zr, za);
    CHECK(~a == wrap(zr));

    const int cmp = mpz_cmp(za, zb);
    CHECK((a < b) == (cmp < 0) && (a == b) == (cmp == 0) && (a > b) == (cmp > 0));
    CHECK(((a <=> b) < 0) == (cmp < 0));
    {
        Z sa, sb;
        set_signed(sa, a);
        set_signed(sb, b);
        const int scmp = mpz_cmp(sa, sb);
        CHECK(keel::slt(a, b) == (scmp < 0) && keel::sgt(a, b) == (scmp > 0));
    }

    // SIGNEXTEND and BYTE with the low byte of c as the index.
    const std::uint64_t k = c[0] & 0x3f;
    if (k < 31) {
        const std::uint64_t bits = 8 * (k + 1);
        mpz_fdiv_r_2exp(zr, za, bits);
        if (mpz_tstbit(zr, bits - 1)) {
            Z p;
            mpz_setbit(p, bits);
            mpz_sub(zr, zr, p);
        }
        CHECK(keel::signextend(k, a) == wrap(zr));
    } else {
        CHECK(keel::signextend(k, a) == a);
    }
    CHECK(keel::signextend(c, a) == (c.fits_u64() && c[0] < 31 ? keel::signextend(c[0], a) : a));
    if (k < 32) {
        mpz_fdiv_q_2exp(zr, za, 8 * (31 - k));
        CHECK(keel::byte(k, a) == Uint256{mpz_get_ui(zr) & 0xff});
    } else {
        CHECK(keel::byte(k, a) == 0);
    }

    const unsigned bits = a.is_zero() ? 0 : static_cast<unsigned>(mpz_sizeinbase(za, 2));
    CHECK(a.bit_length() == bits && a.count_leading_zeros() == 256 - bits);
    CHECK(a.byte_length() == (bits + 7) / 8);
    CHECK(Uint256::from_be_bytes(a.to_bytes32()) == a);

    check_strings(a);
}

Uint256 load(const std::uint8_t* p) {
    return Uint256::load_be(p);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    check_text(std::string_view(reinterpret_cast<const char*>(data), size));
    if (size < 65) return 0;

    const std::uint8_t sel = data[0];
    Uint256 a = load(data + 1);
    Uint256 b = load(data + 33);
    Uint256 c = size >= 97 ? load(data + 65) : a ^ b;
    // Shrink operands to 1-3 limbs so the small-divisor and short-modulus paths get inputs.
    if (sel & 3) b = b >> (64 * (sel & 3));
    if ((sel >> 2) & 3) c = c >> (64 * ((sel >> 2) & 3));
    if (sel & 0x10) a = -a;
    if (sel & 0x20) b = a;
    check_arithmetic(a, b, c);
    check_arithmetic(b, c, a);
    return 0;
}
