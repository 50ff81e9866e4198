#include "keel/common/uint256.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cstring>
#include <type_traits>

namespace keel {
namespace uint256 {

std::string_view describe(Errc e) noexcept {
    switch (e) {
        case Errc::empty:
            return "no digits in number";
        case Errc::invalid_digit:
            return "invalid digit in number";
        case Errc::overflow:
            return "number does not fit in 256 bits";
    }
    return "unknown number error";
}

}  // namespace uint256

namespace {

using uint256::Errc;
using uint256::detail::u128;
using u64 = std::uint64_t;

// ---- limb division primitives -------------------------------------------------------------------

using uint256::detail::udiv128;

// The reciprocal floor((2^128 - 1) / d) - 2^64 of a normalised d (top bit set), as used by
// Möller and Granlund, "Improved division by invariant integers" (IEEE TC 2011), section 3.
constexpr u64 reciprocal_2by1(u64 d) noexcept {
    // (2^128 - 1) - 2^64 * d == (~d) * 2^64 + (2^64 - 1), and ~d < d since d is normalised.
    if (std::is_constant_evaluated()) {
        return static_cast<u64>(((static_cast<u128>(~d) << 64) | ~u64{0}) / d);
    }
    u64 rem;
    return udiv128(~d, ~u64{0}, d, rem);
}

// (u1:u0) / d with the reciprocal v of the normalised d, for u1 < d: two multiplications and a
// couple of corrections instead of a hardware division (Möller-Granlund, algorithm 4).
constexpr u64 div_2by1(u64 u1, u64 u0, u64 d, u64 v, u64& rem) noexcept {
    u128 q = static_cast<u128>(v) * u1;
    q += static_cast<u128>(u1 + 1) << 64 | u0;  // u1 + 1 cannot wrap: u1 < d <= 2^64 - 1
    u64 q1 = static_cast<u64>(q >> 64);
    const u64 q0 = static_cast<u64>(q);
    u64 r = u0 - q1 * d;
    if (r > q0) {
        --q1;
        r += d;
    }
    if (r >= d) [[unlikely]] {
        ++q1;
        r -= d;
    }
    rem = r;
    return q1;
}

// The reciprocal floor((2^192 - 1) / (d1:d0)) - 2^64 of a normalised two-limb divisor
// (Möller-Granlund, algorithm 6).
inline u64 reciprocal_3by2(u64 d1, u64 d0) noexcept {
    u64 v = reciprocal_2by1(d1);
    u64 p = d1 * v + d0;
    if (p < d0) {
        --v;
        if (p >= d1) {
            --v;
            p -= d1;
        }
        p -= d1;
    }
    const u128 t = static_cast<u128>(v) * d0;
    const u64 t1 = static_cast<u64>(t >> 64);
    const u64 t0 = static_cast<u64>(t);
    p += t1;
    if (p < t1) {
        --v;
        if (p > d1 || (p == d1 && t0 >= d0)) --v;
    }
    return v;
}

// (u2:u1:u0) / (d1:d0) for (u2:u1) < (d1:d0), d1 normalised, v = reciprocal_3by2(d1, d0): the
// exact quotient digit and the two-limb remainder (Möller-Granlund, algorithm 5). This replaces
// Knuth's estimate-and-refine step by a digit that is exact for the top three limbs.
inline u64 div_3by2(u64 u2, u64 u1, u64 u0, u64 d1, u64 d0, u64 v, u128& rem) noexcept {
    const u128 q = static_cast<u128>(v) * u2 + (static_cast<u128>(u2) << 64 | u1);
    u64 q1 = static_cast<u64>(q >> 64);
    const u64 q0 = static_cast<u64>(q);
    const u64 r1 = u1 - q1 * d1;
    const u128 d = static_cast<u128>(d1) << 64 | d0;
    u128 r = (static_cast<u128>(r1) << 64 | u0) - static_cast<u128>(d0) * q1 - d;
    ++q1;
    if (static_cast<u64>(r >> 64) >= q0) {
        --q1;
        r += d;
    }
    if (r >= d) [[unlikely]] {
        ++q1;
        r -= d;
    }
    rem = r;
    return q1;
}

// g++ turns the short limb-shifting loops below into vector code that reloads freshly stored
// limbs (a store-forwarding stall that cost a quarter of the division time) unless the shifts
// are funnel shifts (shld/shrd), which also need no special case for s == 0.
using uint256::detail::funnel_left;
using uint256::detail::funnel_right;

// x[0..n) -= q * y[0..n); returns what is still to be subtracted from x[n] (the high limb of the
// product plus the borrow).
inline u64 submul(u64* x, const u64* y, std::size_t n, u64 q) noexcept {
    u64 k = 0;
    for (std::size_t i = 0; i < n; ++i) {
        const u128 p = static_cast<u128>(q) * y[i] + k;
        const u64 lo = static_cast<u64>(p);
        const u64 t = x[i] - lo;
        // p >> 64 <= 2^64 - 2, so adding the borrow cannot wrap.
        k = static_cast<u64>(p >> 64) + (t > x[i] ? 1 : 0);
        x[i] = t;
    }
    return k;
}

// x[0..n) += y[0..n), dropping the carry out.
inline void add_back(u64* x, const u64* y, std::size_t n) noexcept {
    bool carry = false;
    for (std::size_t i = 0; i < n; ++i) x[i] = uint256::detail::addc(x[i], y[i], carry);
}

// Number of significant limbs of `x` (0 for zero).
inline std::size_t limb_count(const u64* x, std::size_t n) noexcept {
    while (n > 0 && x[n - 1] == 0) --n;
    return n;
}

// q[0..m) = u[0..m) / d, returns u mod d. d != 0, m >= 1.
u64 divrem_by_limb(u64* q, const u64* u, std::size_t m, u64 d) noexcept {
    const unsigned s = static_cast<unsigned>(std::countl_zero(d));
    const u64 dn = d << s;
    const u64 v = reciprocal_2by1(dn);
    // Shift the dividend left by s on the fly; the s bits shifted out of the top start the
    // remainder, which is then below 2^s <= 2^63 <= dn as div_2by1 requires.
    u64 r = funnel_left(0, u[m - 1], s);
    for (std::size_t i = m; i-- > 0;) {
        q[i] = div_2by1(r, funnel_left(u[i], i > 0 ? u[i - 1] : 0, s), dn, v, r);
    }
    return r >> s;
}

// Knuth, TAOCP vol. 2, 4.3.1, algorithm D with 64-bit digits. u has m limbs, v has N limbs (N a
// template argument) with v[N-1] != 0, m >= N >= 2, m <= 8. Writes m - N + 1 quotient limbs to q
// and N remainder limbs to r.
template <std::size_t N>
void divrem_knuth(u64* q, u64* r, const u64* u, std::size_t m, const u64* v) noexcept {
    // D1: normalise so that the divisor's top bit is set; the dividend gains one limb.
    const unsigned s = static_cast<unsigned>(std::countl_zero(v[N - 1]));
    u64 vn[N];
    u64 un[9];
    for (std::size_t i = N - 1; i > 0; --i) vn[i] = funnel_left(v[i], v[i - 1], s);
    vn[0] = v[0] << s;
    un[m] = funnel_left(0, u[m - 1], s);
    for (std::size_t i = m - 1; i > 0; --i) un[i] = funnel_left(u[i], u[i - 1], s);
    un[0] = u[0] << s;
    const u64 d1 = vn[N - 1];
    const u64 d0 = vn[N - 2];
    const u64 rv = reciprocal_3by2(d1, d0);

    for (std::size_t j = m - N + 1; j-- > 0;) {
        // D3: the quotient digit of the window un[j..j+N] (which is below vn * 2^64).
        u64* w = un + j;
        const u64 u2 = w[N];
        const u64 u1 = w[N - 1];
        u64 qhat;
        bool negative;
        if (u2 == d1 && u1 == d0) [[unlikely]] {
            // The top limbs equal the divisor's, so div_3by2 does not apply; the digit is then
            // 2^64 - 1 or one less. D4: subtract the whole product.
            qhat = ~u64{0};
            const u64 k = submul(w, vn, N, qhat);
            negative = k > u2;
        } else {
            // The digit of the top three limbs is exact there and at most one too large for the
            // window. D4: subtract its product with the remaining low divisor limbs.
            u128 rem;
            qhat = div_3by2(u2, u1, w[N - 2], d1, d0, rv, rem);
            u64 k = 0;
            if constexpr (N > 2) k = submul(w, vn, N - 2, qhat);
            const u128 top = rem - k;
            negative = top > rem;
            w[N - 2] = static_cast<u64>(top);
            w[N - 1] = static_cast<u64>(top >> 64);
        }
        // D5/D6: the digit was one too large (rare): add the divisor back once.
        if (negative) [[unlikely]] {
            --qhat;
            add_back(w, vn, N);
        }
        w[N] = 0;  // the window's remainder fits in N limbs
        q[j] = qhat;
    }

    // D8: the remainder is un[0..N) shifted back; un[N] is zero by now.
    for (std::size_t i = 0; i < N; ++i) r[i] = funnel_right(un[i + 1], un[i], s);
}

// r = u mod v (and q = u / v when q != nullptr) for u of m <= 8 limbs and v of n <= 4 limbs,
// v[n-1] != 0, m >= n. q receives m - n + 1 limbs (m when n == 1), r receives n limbs; limbs
// above those are left as they were.
void divrem_limbs(u64* q, u64* r, const u64* u, std::size_t m, const u64* v,
                  std::size_t n) noexcept {
    if (n == 1) {
        u64 qbuf[8];
        r[0] = divrem_by_limb(q != nullptr ? q : qbuf, u, m, v[0]);
        return;
    }
    // The divisor length is a template argument so that the short loops over it unroll.
    u64 qbuf[8];
    u64* const qq = q != nullptr ? q : qbuf;
    if (n == 2) {
        divrem_knuth<2>(qq, r, u, m, v);
    } else if (n == 3) {
        divrem_knuth<3>(qq, r, u, m, v);
    } else {
        divrem_knuth<4>(qq, r, u, m, v);
    }
}

// ---- text helpers ------------------------------------------------------------------------------

// Two ASCII digits for each value 0..99.
constexpr std::array<char, 200> make_dec_pairs() {
    std::array<char, 200> t{};
    for (int i = 0; i < 100; ++i) {
        t[2 * i] = static_cast<char>('0' + i / 10);
        t[2 * i + 1] = static_cast<char>('0' + i % 10);
    }
    return t;
}
constexpr auto kDecPairs = make_dec_pairs();

// Nibble value of an ASCII hex digit, or 0xff.
constexpr std::array<std::uint8_t, 256> make_hex_table() {
    std::array<std::uint8_t, 256> t{};
    for (auto& x : t) x = 0xff;
    for (int c = '0'; c <= '9'; ++c) t[c] = static_cast<std::uint8_t>(c - '0');
    for (int c = 'a'; c <= 'f'; ++c) t[c] = static_cast<std::uint8_t>(c - 'a' + 10);
    for (int c = 'A'; c <= 'F'; ++c) t[c] = static_cast<std::uint8_t>(c - 'A' + 10);
    return t;
}
constexpr auto kHexValue = make_hex_table();

// 10^19 is the largest power of ten below 2^64, and it is already normalised (>= 2^63).
constexpr u64 kTen19 = 10'000'000'000'000'000'000ull;
constexpr u64 kTen19Reciprocal = reciprocal_2by1(kTen19);
static_assert(kTen19 >> 63 == 1);

constexpr std::array<u64, 20> make_pow10() {
    std::array<u64, 20> t{};
    t[0] = 1;
    for (std::size_t i = 1; i < t.size(); ++i) t[i] = t[i - 1] * 10;
    return t;
}
constexpr auto kPow10 = make_pow10();

// Writes exactly `n` decimal digits of v (< 10^n) ending just before `end`; returns the start.
char* write_digits_back(char* end, u64 v, std::size_t n) noexcept {
    char* p = end;
    while (n >= 2) {
        p -= 2;
        std::memcpy(p, &kDecPairs[2 * (v % 100)], 2);
        v /= 100;
        n -= 2;
    }
    if (n == 1) *--p = static_cast<char>('0' + v);
    return p;
}

std::size_t dec_digit_count(u64 v) noexcept {
    std::size_t n = 1;
    while (n < 20 && v >= kPow10[n]) ++n;
    return n;
}

// acc = acc * mul + add; returns false (acc unspecified) when the result needs more than 256 bits.
inline bool mul_add_small(Uint256& acc, u64 mul, u64 add) noexcept {
    u64 carry = add;
    for (std::size_t i = 0; i < 4; ++i) {
        const u128 t = static_cast<u128>(acc[i]) * mul + carry;
        acc[i] = static_cast<u64>(t);
        carry = static_cast<u64>(t >> 64);
    }
    return carry == 0;
}

// x * x mod 2^256 with 6 limb multiplications instead of 10: each cross product a_i * a_j
// (i < j) is computed once and doubled, and only the squares a_0^2 and a_1^2 reach below 2^256.
inline Uint256 sqr(const Uint256& a) noexcept {
    u128 t = static_cast<u128>(a[0]) * a[1];
    u64 c1 = static_cast<u64>(t);
    t = static_cast<u128>(a[0]) * a[2] + static_cast<u64>(t >> 64);
    u64 c2 = static_cast<u64>(t);
    u64 c3 = a[0] * a[3] + a[1] * a[2] + static_cast<u64>(t >> 64);
    c3 = (c3 << 1) | (c2 >> 63);
    c2 = (c2 << 1) | (c1 >> 63);
    c1 <<= 1;
    const u128 d0 = static_cast<u128>(a[0]) * a[0];
    const u128 d1 = static_cast<u128>(a[1]) * a[1];
    bool carry = false;
    const u64 r1 = uint256::detail::addc(c1, static_cast<u64>(d0 >> 64), carry);
    const u64 r2 = uint256::detail::addc(c2, static_cast<u64>(d1), carry);
    const u64 r3 = uint256::detail::addc(c3, static_cast<u64>(d1 >> 64), carry);
    return Uint256::from_limbs(static_cast<u64>(d0), r1, r2, r3);
}

}  // namespace

// ---- division --------------------------------------------------------------------------------

namespace uint256::detail {

DivResult udivrem_slow(const Uint256& u, const Uint256& v) noexcept {
    // One result object on every path, so that it is built in place (NRVO): a copy out of a
    // local would reload the freshly stored limbs as vectors and stall store forwarding.
    DivResult out;
    const std::size_t n = limb_count(v.limbs().data(), 4);
    if (n == 0) return out;
    if (u < v) {
        out.rem = u;
        return out;
    }
    // A power of two is a shift: compilers before EIP-145 wrote x >> k as x / 2^k.
    const u64 top = v[n - 1];
    if ((top & (top - 1)) == 0) {
        bool lower_zero = true;
        for (std::size_t i = 0; i + 1 < n; ++i) lower_zero = lower_zero && v[i] == 0;
        if (lower_zero) {
            const unsigned k =
                64 * static_cast<unsigned>(n - 1) + static_cast<unsigned>(std::countr_zero(top));
            out.quot = u >> k;
            out.rem = u & (v - 1);
            return out;
        }
    }
    const std::size_t m = limb_count(u.limbs().data(), 4);
    // Quotient (m - n + 1 <= 4 limbs) and remainder (n limbs) go straight into the result.
    divrem_limbs(&out.quot[0], &out.rem[0], u.limbs().data(), m, v.limbs().data(), n);
    return out;
}

}  // namespace uint256::detail

namespace {

// out = x mod m for x[0..xn), xn <= 8, m != 0, out zero on entry. The remainder is written
// straight into the caller's result (see udivrem_slow on why no copy through a local buffer).
void mod_into(Uint256& out, const u64* x, std::size_t xn, const Uint256& m) noexcept {
    const std::size_t n = limb_count(m.limbs().data(), 4);
    xn = limb_count(x, xn);
    bool below = xn < n;
    if (xn == n) {
        std::size_t i = n;
        while (i > 0 && x[i - 1] == m[i - 1]) --i;
        below = i > 0 && x[i - 1] < m[i - 1];
    }
    if (below) {
        for (std::size_t i = 0; i < xn; ++i) out[i] = x[i];
        return;
    }
    divrem_limbs(nullptr, &out[0], x, xn, m.limbs().data(), n);
}

}  // namespace

Uint256 addmod(const Uint256& a, const Uint256& b, const Uint256& m) noexcept {
    Uint256 out;
    if (m.is_zero()) return out;
    const auto [sum, carry] = add_overflow(a, b);
    if (a < m && b < m) {
        // The usual case, reduced operands: a + b < 2m, so one subtraction reduces it; on a
        // carry the true sum exceeds 2^256 > m and the wrapped difference is still exact.
        out = carry || sum >= m ? sum - m : sum;
        return out;
    }
    // Otherwise one division of the 257-bit sum.
    const u64 x[5] = {sum[0], sum[1], sum[2], sum[3], carry ? u64{1} : u64{0}};
    mod_into(out, x, 5, m);
    return out;
}

Uint256 mulmod(const Uint256& a, const Uint256& b, const Uint256& m) noexcept {
    Uint256 out;
    if (m.is_zero()) return out;
    if (((a[1] | a[2] | a[3] | b[1] | b[2] | b[3] | m[1] | m[2] | m[3]) == 0)) {
        // Both factors reduced below a 64-bit m make a product whose high limb is below m.
        const u128 p = static_cast<u128>(a[0] % m[0]) * (b[0] % m[0]);
        udiv128(static_cast<u64>(p >> 64), static_cast<u64>(p), m[0], out[0]);
        return out;
    }
    const auto p = mul_wide(a, b);
    mod_into(out, p.data(), 8, m);
    return out;
}

Uint256 exp(const Uint256& base, const Uint256& exponent) noexcept {
    if (exponent.is_zero()) return 1;  // 0^0 == 1 as in the EVM
    if (!base.bit(0)) {
        // An even base carries a factor 2^e: zero once e >= 256; a power of two is a shift.
        if (!exponent.fits_u64() || exponent[0] >= 256) return {};
        if (base == 2) return Uint256{1} << exponent[0];
    }
    if (base.fits_u64() && base[0] <= 1) return base;
    // Left to right: the top bit is 1, so start from the base and skip one squaring.
    Uint256 r = base;
    for (unsigned i = exponent.bit_length() - 1; i-- > 0;) {
        r = sqr(r);
        if (exponent.bit(i)) r = r * base;
    }
    return r;
}

// ---- text --------------------------------------------------------------------------------------

std::size_t Uint256::write_dec(char* out) const noexcept {
    if (fits_u64()) {
        const std::size_t n = dec_digit_count(limbs_[0]);
        write_digits_back(out + n, limbs_[0], n);
        return n;
    }
    // Peel off 19 digits at a time by dividing by 10^19 with its precomputed reciprocal.
    char buf[kMaxDecChars + 2];
    char* const end = buf + sizeof buf;
    char* p = end;
    Uint256 x = *this;
    std::size_t top = limb_count(x.limbs_.data(), 4);
    while (top > 1 || x.limbs_[0] >= kTen19) {
        u64 r = 0;
        for (std::size_t i = top; i-- > 0;) {
            x.limbs_[i] = div_2by1(r, x.limbs_[i], kTen19, kTen19Reciprocal, r);
        }
        if (x.limbs_[top - 1] == 0) --top;
        p = write_digits_back(p, r, 19);
    }
    const u64 head = x.limbs_[0];
    p = write_digits_back(p, head, dec_digit_count(head));
    const auto n = static_cast<std::size_t>(end - p);
    std::memcpy(out, p, n);
    return n;
}

namespace {

// The 8 lower-case hex digits of `v`, most significant first, as the bytes of a word stored
// little-endian: each nibble spread into a byte of its own, the bytes put in big-endian order,
// then '0' added to each and 39 more to those of 10 and up ('a' - '0' - 10), all in one word.
std::uint64_t hex8(std::uint32_t v) noexcept {
    static_assert(std::endian::native == std::endian::little, "the digits are stored as a word");
    std::uint64_t t = v;
    t = (t | (t << 16)) & 0x0000ffff0000ffffull;
    t = (t | (t << 8)) & 0x00ff00ff00ff00ffull;
    t = (t | (t << 4)) & 0x0f0f0f0f0f0f0f0full;  // byte k holds nibble k
    t = std::byteswap(t);                        // byte k holds nibble 7 - k
    const std::uint64_t letters = ((t + 0x0606060606060606ull) >> 4) & 0x0101010101010101ull;
    return t + 0x3030303030303030ull + letters * 39;
}

// The 16 hex digits of `x` into out[0..16).
void hex16(std::uint64_t x, char* out) noexcept {
    const std::uint64_t hi = hex8(static_cast<std::uint32_t>(x >> 32));
    const std::uint64_t lo = hex8(static_cast<std::uint32_t>(x));
    std::memcpy(out, &hi, 8);
    std::memcpy(out + 8, &lo, 8);
}

}  // namespace

std::size_t Uint256::write_hex(char* out) const noexcept {
    out[0] = '0';
    out[1] = 'x';
    // Minimal digits (DESIGN.md: hex formatting writes into the caller's buffer): the highest
    // limb that is not zero without its leading zero digits, then 16 digits a limb, each limb
    // formatted in a few word operations (hex8) rather than a byte at a time.
    int top = 3;
    while (top > 0 && limbs_[static_cast<std::size_t>(top)] == 0) --top;
    const std::uint64_t high = limbs_[static_cast<std::size_t>(top)];
    const std::size_t digits =
        high == 0 ? 1 : 16 - static_cast<std::size_t>(std::countl_zero(high)) / 4;
    char first[16];
    hex16(high, first);
    std::memcpy(out + 2, first + 16 - digits, digits);
    char* p = out + 2 + digits;
    for (int i = top - 1; i >= 0; --i, p += 16) hex16(limbs_[static_cast<std::size_t>(i)], p);
    return static_cast<std::size_t>(p - out);
}

std::string Uint256::to_dec() const {
    char buf[kMaxDecChars];
    return std::string(buf, write_dec(buf));
}

std::string Uint256::to_hex() const {
    char buf[kMaxHexChars];
    return std::string(buf, write_hex(buf));
}

Result<Uint256, uint256::Error> Uint256::from_dec(std::string_view s) noexcept {
    if (s.empty()) return input_error(Errc::empty, 0);
    Uint256 acc;
    std::size_t i = 0;
    while (i < s.size()) {
        // Up to 19 digits fit in one u64; then one multiply-add of the whole accumulator.
        const std::size_t len = std::min<std::size_t>(19, s.size() - i);
        u64 chunk = 0;
        std::size_t k = 0;
        for (; k < len; ++k) {
            const unsigned d = static_cast<unsigned char>(s[i + k]) - unsigned{'0'};
            if (d > 9) break;
            chunk = chunk * 10 + d;
        }
        const Uint256 before = acc;
        if (!mul_add_small(acc, kPow10[k], chunk)) {
            // Find the digit at which the value first overflows.
            acc = before;
            for (std::size_t j = 0;; ++j) {
                if (!mul_add_small(acc, 10, static_cast<u64>(s[i + j] - '0'))) {
                    return input_error(Errc::overflow, i + j);
                }
            }
        }
        if (k < len) return input_error(Errc::invalid_digit, i + k);
        i += len;
    }
    return acc;
}

Result<Uint256, uint256::Error> Uint256::from_hex(std::string_view s) noexcept {
    const std::size_t base = s.size() >= 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X') ? 2 : 0;
    if (s.size() == base) return input_error(Errc::empty, base);
    // Pass 1: validate, and find where the significant digits start.
    std::size_t first = s.size();  // first non-zero digit
    for (std::size_t i = base; i < s.size(); ++i) {
        const std::uint8_t d = kHexValue[static_cast<unsigned char>(s[i])];
        if (d == 0xff) return input_error(Errc::invalid_digit, i);
        if (first == s.size()) {
            if (d != 0) first = i;
        } else if (i - first >= 64) {
            return input_error(Errc::overflow, i);
        }
    }
    // Pass 2: place nibbles from the least significant end.
    Uint256 r;
    const std::size_t n = s.size() - first;
    for (std::size_t k = 0; k < n; ++k) {
        const u64 d = kHexValue[static_cast<unsigned char>(s[s.size() - 1 - k])];
        r.limbs_[k / 16] |= d << (4 * (k % 16));
    }
    return r;
}

Result<Uint256, uint256::Error> Uint256::from_string(std::string_view s) noexcept {
    if (s.size() >= 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) return from_hex(s);
    return from_dec(s);
}

}  // namespace keel
