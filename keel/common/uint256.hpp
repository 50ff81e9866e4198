#pragma once
/// keel::Uint256: a 256-bit unsigned integer with the arithmetic of the EVM word.
///
/// Every operation wraps modulo 2^256 as the EVM does (Yellow Paper, Appendix H.2). The signed
/// operations (sdiv, smod, sar, slt, sgt, signextend) read the word as two's complement.
/// Division and modulo by zero give zero, never a trap (EVM DIV/MOD/SDIV/SMOD/ADDMOD/MULMOD).
///
/// The hot operations (+ - * comparisons, shifts, bitwise) are inline and constexpr; division,
/// modular arithmetic, exponentiation and the string codecs live in uint256.cpp. Nothing here
/// allocates except to_dec() and to_hex(), which return a std::string; write_dec()/write_hex()
/// write into a caller's buffer instead. Nothing throws.

#include <array>
#include <bit>
#include <compare>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>

#include "keel/common/bytes.hpp"
#include "keel/common/result.hpp"

#if defined(__x86_64__) && !defined(__clang__)
// _addcarry_u64/_subborrow_u64: the form g++ 12 reliably turns into adc/sbb chains.
#include <x86gprintrin.h>
#endif

namespace keel::uint256 {

/// What went wrong while parsing a number from text.
enum class Errc : std::uint8_t {
    empty,          ///< no digits at all ("" or a bare "0x")
    invalid_digit,  ///< a character that is not a digit of the base (signs and spaces included)
    overflow,       ///< the value does not fit in 256 bits
};

/// A short phrase for the code, e.g. "invalid digit".
std::string_view describe(Errc e) noexcept;

/// The offset counts characters of the input string, including any "0x" prefix: the bad
/// character for invalid_digit, the digit at which the value first exceeds 2^256 - 1 for
/// overflow, and the end of the input (where a digit was expected) for empty.
using Error = InputError<Errc>;

}  // namespace keel::uint256

namespace keel::uint256::detail {

__extension__ typedef unsigned __int128 u128;

/// (hi:lo) / d for hi < d, so the quotient fits in 64 bits; the remainder goes to `rem`.
inline std::uint64_t udiv128(std::uint64_t hi, std::uint64_t lo, std::uint64_t d,
                             std::uint64_t& rem) noexcept {
#if defined(__x86_64__)
    // One divq: the generic u128 / u64 would call __udivti3.
    std::uint64_t q;
    std::uint64_t r;
    __asm__("divq %[d]" : "=a"(q), "=d"(r) : [d] "r"(d), "a"(lo), "d"(hi));
    rem = r;
    return q;
#else
    const u128 n = static_cast<u128>(hi) << 64 | lo;
    rem = static_cast<std::uint64_t>(n % d);
    return static_cast<std::uint64_t>(n / d);
#endif
}

/// a + b + carry; `carry` becomes the carry out.
[[gnu::always_inline]] constexpr std::uint64_t addc(std::uint64_t a, std::uint64_t b,
                                                    bool& carry) noexcept {
    if (!std::is_constant_evaluated()) {
#if defined(__clang__)
        unsigned long long out = 0;
        const unsigned long long r = __builtin_addcll(a, b, carry, &out);
        carry = out != 0;
        return r;
#elif defined(__x86_64__)
        unsigned long long r = 0;
        carry = _addcarry_u64(carry, a, b, &r) != 0;
        return r;
#endif
    }
    const u128 s = static_cast<u128>(a) + b + carry;
    carry = static_cast<bool>(s >> 64);
    return static_cast<std::uint64_t>(s);
}

/// a - b - borrow; `borrow` becomes the borrow out.
[[gnu::always_inline]] constexpr std::uint64_t subb(std::uint64_t a, std::uint64_t b,
                                                    bool& borrow) noexcept {
    if (!std::is_constant_evaluated()) {
#if defined(__clang__)
        unsigned long long out = 0;
        const unsigned long long r = __builtin_subcll(a, b, borrow, &out);
        borrow = out != 0;
        return r;
#elif defined(__x86_64__)
        unsigned long long r = 0;
        borrow = _subborrow_u64(borrow, a, b, &r) != 0;
        return r;
#endif
    }
    const u128 d = static_cast<u128>(a) - b - borrow;
    borrow = static_cast<bool>(d >> 127);
    return static_cast<std::uint64_t>(d);
}

/// The high limb of (hi:lo) << s, for s < 64 (s == 0 gives hi).
constexpr std::uint64_t funnel_left(std::uint64_t hi, std::uint64_t lo, unsigned s) noexcept {
    // Two shifts of lo, so that s == 0 needs no branch; plain 64-bit shifts, because in a large
    // function (the interpreter) g++ spilled the 128-bit form's halves to the stack and reloaded
    // them.
    return (hi << s) | ((lo >> 1) >> (63 - s));
}

/// The low limb of (hi:lo) >> s, for s < 64 (s == 0 gives lo).
constexpr std::uint64_t funnel_right(std::uint64_t hi, std::uint64_t lo, unsigned s) noexcept {
    return (lo >> s) | ((hi << 1) << (63 - s));  // as funnel_left
}

}  // namespace keel::uint256::detail

namespace keel {

/// 256-bit unsigned integer: four 64-bit limbs, least significant first. Trivially copyable,
/// value-initialised to zero, implicitly constructible from std::uint64_t.
class Uint256 {
  public:
    /// Number of 64-bit limbs.
    static constexpr std::size_t kLimbs = 4;
    /// Most characters write_dec() writes: 2^256 - 1 has 78 decimal digits.
    static constexpr std::size_t kMaxDecChars = 78;
    /// Most characters write_hex() writes: "0x" and 64 digits.
    static constexpr std::size_t kMaxHexChars = 66;

    /// Zero.
    constexpr Uint256() noexcept = default;

    /// The value `v` (implicit, so `x + 1` and `x == 0` read naturally). A negative int converts
    /// through std::uint64_t (-1 becomes 2^64 - 1); the word -1 is `-Uint256{1}` or max().
    constexpr Uint256(std::uint64_t v) noexcept : limbs_{v, 0, 0, 0} {}

    /// The value l0 + l1*2^64 + l2*2^128 + l3*2^192 (limbs least significant first).
    static constexpr Uint256 from_limbs(std::uint64_t l0, std::uint64_t l1, std::uint64_t l2,
                                        std::uint64_t l3) noexcept {
        Uint256 r;
        r.limbs_ = {l0, l1, l2, l3};
        return r;
    }

    /// The value of four limbs, least significant first.
    static constexpr Uint256 from_limbs(const std::array<std::uint64_t, 4>& limbs) noexcept {
        Uint256 r;
        r.limbs_ = limbs;
        return r;
    }

    /// 2^256 - 1 (all bits set; -1 as a signed word).
    static constexpr Uint256 max() noexcept { return from_limbs(~0ull, ~0ull, ~0ull, ~0ull); }

    /// Limb `i` (0 = least significant). Precondition: i < 4.
    constexpr std::uint64_t operator[](std::size_t i) const noexcept { return limbs_[i]; }
    /// Mutable limb `i` (0 = least significant). Precondition: i < 4.
    constexpr std::uint64_t& operator[](std::size_t i) noexcept { return limbs_[i]; }
    /// The four limbs, least significant first.
    constexpr const std::array<std::uint64_t, 4>& limbs() const noexcept { return limbs_; }

    // ---- bytes -------------------------------------------------------------------------------

    /// Reads exactly 32 big-endian bytes at `in32` (an EVM word as stored in memory).
    static Uint256 load_be(const std::uint8_t* in32) noexcept {
        Uint256 r;
        for (std::size_t i = 0; i < 4; ++i) {
            std::uint64_t w;
            std::memcpy(&w, in32 + 8 * (3 - i), 8);
            if constexpr (std::endian::native == std::endian::little) w = std::byteswap(w);
            r.limbs_[i] = w;
        }
        return r;
    }

    /// A big-endian number of at most 32 bytes, right-aligned (so "" is zero and leading zero
    /// bytes are allowed); std::nullopt when `in` is longer than 32 bytes.
    static std::optional<Uint256> from_be_bytes(BytesView in) noexcept {
        if (in.size() > 32) return std::nullopt;
        std::uint8_t buf[32] = {};
        if (!in.empty()) std::memcpy(buf + (32 - in.size()), in.data(), in.size());
        return load_be(buf);
    }

    /// The big-endian number held in exactly 32 bytes (a storage slot, a hash).
    static Uint256 from_be_bytes(const Bytes32& in) noexcept { return load_be(in.data()); }

    /// Writes the value as exactly 32 big-endian bytes to `out32`.
    void to_be_bytes(std::uint8_t* out32) const noexcept {
        for (std::size_t i = 0; i < 4; ++i) {
            std::uint64_t w = limbs_[i];
            if constexpr (std::endian::native == std::endian::little) w = std::byteswap(w);
            std::memcpy(out32 + 8 * (3 - i), &w, 8);
        }
    }

    /// The value as 32 big-endian bytes.
    Bytes32 to_bytes32() const noexcept {
        Bytes32 out;
        to_be_bytes(out.data());
        return out;
    }

    // ---- size and bits -----------------------------------------------------------------------

    /// True when the value is zero.
    constexpr bool is_zero() const noexcept {
        return (limbs_[0] | limbs_[1] | limbs_[2] | limbs_[3]) == 0;
    }

    /// True when bit 255 is set, i.e. the word is negative in two's complement.
    constexpr bool is_negative() const noexcept { return (limbs_[3] >> 63) != 0; }

    /// Number of leading zero bits: 256 for zero, 0 when bit 255 is set.
    constexpr unsigned count_leading_zeros() const noexcept {
        for (std::size_t i = 4; i-- > 0;) {
            if (limbs_[i] != 0) {
                return static_cast<unsigned>(64 * (3 - i)) +
                       static_cast<unsigned>(std::countl_zero(limbs_[i]));
            }
        }
        return 256;
    }

    /// Number of significant bits: 0 for zero, 256 when bit 255 is set.
    constexpr unsigned bit_length() const noexcept { return 256 - count_leading_zeros(); }

    /// Number of bytes of the minimal big-endian form: 0 for zero, 32 at most.
    constexpr std::size_t byte_length() const noexcept { return (bit_length() + 7) / 8; }

    /// Bit `i` (0 = least significant); false for i >= 256.
    constexpr bool bit(std::size_t i) const noexcept {
        return i < 256 && ((limbs_[i / 64] >> (i % 64)) & 1) != 0;
    }

    /// True when the value is below 2^64, so as_u64() loses nothing.
    constexpr bool fits_u64() const noexcept { return (limbs_[1] | limbs_[2] | limbs_[3]) == 0; }

    /// The low 64 bits (truncating: the value mod 2^64). Check fits_u64() first if it matters.
    constexpr std::uint64_t as_u64() const noexcept { return limbs_[0]; }

    /// The low 64 bits (truncating), as as_u64().
    explicit constexpr operator std::uint64_t() const noexcept { return limbs_[0]; }

    // ---- text --------------------------------------------------------------------------------
    // The parsers take untrusted text: on failure they return only the error (code and offset,
    // see uint256::Error), never a partial value.

    /// Parses decimal digits only (no sign, no spaces, no prefix; leading zeros are allowed).
    /// Fails with empty, invalid_digit or overflow; the first problem from the left is reported.
    [[nodiscard]] static Result<Uint256, uint256::Error> from_dec(std::string_view s) noexcept;

    /// Parses hex digits with or without a "0x"/"0X" prefix, either case, leading zeros allowed.
    /// Fails with empty (no digits), invalid_digit or overflow (more than 64 significant digits);
    /// the first problem from the left is reported.
    [[nodiscard]] static Result<Uint256, uint256::Error> from_hex(std::string_view s) noexcept;

    /// from_hex() when `s` starts with "0x" or "0X", from_dec() otherwise.
    [[nodiscard]] static Result<Uint256, uint256::Error> from_string(std::string_view s) noexcept;

    /// Writes the decimal digits (no leading zeros; "0" for zero) to `out`, which must hold
    /// kMaxDecChars chars. Returns the number written; no terminating NUL.
    std::size_t write_dec(char* out) const noexcept;

    /// Writes "0x" and minimal lower-case hex digits ("0x0" for zero; a JSON-RPC quantity) to
    /// `out`, which must hold kMaxHexChars chars. Returns the number written; no terminating NUL.
    std::size_t write_hex(char* out) const noexcept;

    /// The decimal form, as write_dec().
    std::string to_dec() const;

    /// The "0x"-prefixed minimal hex form, as write_hex().
    std::string to_hex() const;

    // ---- comparison --------------------------------------------------------------------------

    /// Equality of values (written out: g++ 12 makes the defaulted form a memcmp call).
    friend constexpr bool operator==(const Uint256& a, const Uint256& b) noexcept {
        return ((a[0] ^ b[0]) | (a[1] ^ b[1]) | (a[2] ^ b[2]) | (a[3] ^ b[3])) == 0;
    }

    /// Unsigned order (branch-free borrow chain).
    friend constexpr bool operator<(const Uint256& a, const Uint256& b) noexcept {
        bool borrow = false;
        for (std::size_t i = 0; i < 4; ++i) uint256::detail::subb(a[i], b[i], borrow);
        return borrow;
    }
    /// Unsigned order.
    friend constexpr bool operator>(const Uint256& a, const Uint256& b) noexcept { return b < a; }
    /// Unsigned order.
    friend constexpr bool operator<=(const Uint256& a, const Uint256& b) noexcept {
        return !(b < a);
    }
    /// Unsigned order.
    friend constexpr bool operator>=(const Uint256& a, const Uint256& b) noexcept {
        return !(a < b);
    }
    /// Unsigned three-way comparison.
    friend constexpr std::strong_ordering operator<=>(const Uint256& a, const Uint256& b) noexcept {
        for (std::size_t i = 4; i-- > 0;) {
            if (a[i] != b[i])
                return a[i] < b[i] ? std::strong_ordering::less : std::strong_ordering::greater;
        }
        return std::strong_ordering::equal;
    }

    // ---- arithmetic (all modulo 2^256) -------------------------------------------------------

    /// a + b mod 2^256 (EVM ADD). add_overflow() also reports the carry.
    friend constexpr Uint256 operator+(const Uint256& a, const Uint256& b) noexcept {
        Uint256 r;
        bool carry = false;
        for (std::size_t i = 0; i < 4; ++i) r[i] = uint256::detail::addc(a[i], b[i], carry);
        return r;
    }

    /// a - b mod 2^256 (EVM SUB). sub_overflow() also reports the borrow.
    friend constexpr Uint256 operator-(const Uint256& a, const Uint256& b) noexcept {
        Uint256 r;
        bool borrow = false;
        for (std::size_t i = 0; i < 4; ++i) r[i] = uint256::detail::subb(a[i], b[i], borrow);
        return r;
    }

    /// a * b mod 2^256 (EVM MUL): the low half of the product, 10 limb multiplications.
    friend constexpr Uint256 operator*(const Uint256& a, const Uint256& b) noexcept {
        using uint256::detail::u128;
        Uint256 r;
        std::uint64_t carry = 0;
        for (std::size_t j = 0; j < 4; ++j) {
            const u128 t = static_cast<u128>(a[0]) * b[j] + carry;
            r[j] = static_cast<std::uint64_t>(t);
            carry = static_cast<std::uint64_t>(t >> 64);
        }
        for (std::size_t i = 1; i < 4; ++i) {
            carry = 0;
            for (std::size_t j = 0; j + i < 3; ++j) {
                const u128 t = static_cast<u128>(a[i]) * b[j] + r[i + j] + carry;
                r[i + j] = static_cast<std::uint64_t>(t);
                carry = static_cast<std::uint64_t>(t >> 64);
            }
            // The top limb only needs the low half of its last partial product.
            r[3] += a[i] * b[3 - i] + carry;
        }
        return r;
    }

    /// Two's complement negation: 0 - a mod 2^256.
    friend constexpr Uint256 operator-(const Uint256& a) noexcept { return Uint256{} - a; }

    /// Bitwise NOT (EVM NOT).
    friend constexpr Uint256 operator~(const Uint256& a) noexcept {
        return from_limbs(~a[0], ~a[1], ~a[2], ~a[3]);
    }
    /// Bitwise AND (EVM AND).
    friend constexpr Uint256 operator&(const Uint256& a, const Uint256& b) noexcept {
        return from_limbs(a[0] & b[0], a[1] & b[1], a[2] & b[2], a[3] & b[3]);
    }
    /// Bitwise OR (EVM OR).
    friend constexpr Uint256 operator|(const Uint256& a, const Uint256& b) noexcept {
        return from_limbs(a[0] | b[0], a[1] | b[1], a[2] | b[2], a[3] | b[3]);
    }
    /// Bitwise XOR (EVM XOR).
    friend constexpr Uint256 operator^(const Uint256& a, const Uint256& b) noexcept {
        return from_limbs(a[0] ^ b[0], a[1] ^ b[1], a[2] ^ b[2], a[3] ^ b[3]);
    }

    /// Logical left shift by `n` bits; zero when n >= 256 (EVM SHL).
    friend constexpr Uint256 operator<<(const Uint256& x, std::uint64_t n) noexcept {
        using uint256::detail::funnel_left;
        if (n >= 256) return {};
        // Shift within limbs first (funnel shifts, no special case for a multiple of 64), then
        // move whole limbs: straight-line code with no stores to reload.
        const auto s = static_cast<unsigned>(n % 64);
        const std::uint64_t y0 = x[0] << s;
        const std::uint64_t y1 = funnel_left(x[1], x[0], s);
        const std::uint64_t y2 = funnel_left(x[2], x[1], s);
        const std::uint64_t y3 = funnel_left(x[3], x[2], s);
        switch (n / 64) {
            case 0:
                return from_limbs(y0, y1, y2, y3);
            case 1:
                return from_limbs(0, y0, y1, y2);
            case 2:
                return from_limbs(0, 0, y0, y1);
            default:
                return from_limbs(0, 0, 0, y0);
        }
    }

    /// Logical right shift by `n` bits; zero when n >= 256 (EVM SHR).
    friend constexpr Uint256 operator>>(const Uint256& x, std::uint64_t n) noexcept {
        using uint256::detail::funnel_right;
        if (n >= 256) return {};
        const auto s = static_cast<unsigned>(n % 64);
        const std::uint64_t y0 = funnel_right(x[1], x[0], s);
        const std::uint64_t y1 = funnel_right(x[2], x[1], s);
        const std::uint64_t y2 = funnel_right(x[3], x[2], s);
        const std::uint64_t y3 = x[3] >> s;
        switch (n / 64) {
            case 0:
                return from_limbs(y0, y1, y2, y3);
            case 1:
                return from_limbs(y1, y2, y3, 0);
            case 2:
                return from_limbs(y2, y3, 0, 0);
            default:
                return from_limbs(y3, 0, 0, 0);
        }
    }

    /// Left shift by a word-sized amount; zero when n >= 256.
    friend constexpr Uint256 operator<<(const Uint256& x, const Uint256& n) noexcept {
        return n.fits_u64() ? x << n[0] : Uint256{};
    }
    /// Logical right shift by a word-sized amount; zero when n >= 256.
    friend constexpr Uint256 operator>>(const Uint256& x, const Uint256& n) noexcept {
        return n.fits_u64() ? x >> n[0] : Uint256{};
    }

    // ---- compound assignment and increments --------------------------------------------------

    /// *this = *this + b (wrapping).
    constexpr Uint256& operator+=(const Uint256& b) noexcept { return *this = *this + b; }
    /// *this = *this - b (wrapping).
    constexpr Uint256& operator-=(const Uint256& b) noexcept { return *this = *this - b; }
    /// *this = *this * b (wrapping).
    constexpr Uint256& operator*=(const Uint256& b) noexcept { return *this = *this * b; }
    /// *this = *this / b (zero when b is zero).
    Uint256& operator/=(const Uint256& b) noexcept;
    /// *this = *this % b (zero when b is zero).
    Uint256& operator%=(const Uint256& b) noexcept;
    /// *this = *this & b.
    constexpr Uint256& operator&=(const Uint256& b) noexcept { return *this = *this & b; }
    /// *this = *this | b.
    constexpr Uint256& operator|=(const Uint256& b) noexcept { return *this = *this | b; }
    /// *this = *this ^ b.
    constexpr Uint256& operator^=(const Uint256& b) noexcept { return *this = *this ^ b; }
    /// *this = *this << n (zero when n >= 256).
    constexpr Uint256& operator<<=(std::uint64_t n) noexcept { return *this = *this << n; }
    /// *this = *this >> n (zero when n >= 256).
    constexpr Uint256& operator>>=(std::uint64_t n) noexcept { return *this = *this >> n; }
    /// Pre-increment (max wraps to zero).
    constexpr Uint256& operator++() noexcept { return *this = *this + 1; }
    /// Pre-decrement (zero wraps to max).
    constexpr Uint256& operator--() noexcept { return *this = *this - 1; }
    /// Post-increment (max wraps to zero); returns the old value.
    constexpr Uint256 operator++(int) noexcept {
        Uint256 old = *this;
        ++*this;
        return old;
    }
    /// Post-decrement (zero wraps to max); returns the old value.
    constexpr Uint256 operator--(int) noexcept {
        Uint256 old = *this;
        --*this;
        return old;
    }

  private:
    std::array<std::uint64_t, 4> limbs_{};
};

static_assert(std::is_trivially_copyable_v<Uint256>);
static_assert(sizeof(Uint256) == 32);

/// Quotient and remainder of an unsigned division.
struct DivResult {
    Uint256 quot;  ///< u / v, or zero when v is zero
    Uint256 rem;   ///< u % v, or zero when v is zero
};

/// A wrapped result and whether the exact result did not fit in 256 bits.
struct OverflowResult {
    Uint256 value;  ///< the result modulo 2^256
    bool overflow;  ///< carry out (add), borrow (sub: a < b) or a product >= 2^256 (mul)
};

namespace uint256::detail {
/// Division when either operand needs more than 64 bits, or v is zero (Knuth algorithm D).
DivResult udivrem_slow(const Uint256& u, const Uint256& v) noexcept;
}  // namespace uint256::detail

/// Quotient and remainder of u / v; both zero when v is zero (EVM DIV/MOD). Inline when both
/// operands fit in 64 bits, Knuth's algorithm D out of line otherwise.
inline DivResult udivrem(const Uint256& u, const Uint256& v) noexcept {
    // The EVM mostly divides small numbers: one hardware division when both fit in 64 bits.
    if (((u[1] | u[2] | u[3] | v[1] | v[2] | v[3]) == 0) && v[0] != 0) {
        return {u[0] / v[0], u[0] % v[0]};
    }
    // Next most often 128 bits by 64 (fixed-point quotients): two.
    if (((u[2] | u[3] | v[1] | v[2] | v[3]) == 0) && v[0] != 0) {
        std::uint64_t r = 0;
        const std::uint64_t lo = uint256::detail::udiv128(u[1] % v[0], u[0], v[0], r);
        return {Uint256::from_limbs(lo, u[1] / v[0], 0, 0), r};
    }
    return uint256::detail::udivrem_slow(u, v);
}

/// Quotient (EVM DIV); zero when b is zero.
inline Uint256 operator/(const Uint256& a, const Uint256& b) noexcept {
    return udivrem(a, b).quot;
}
/// Remainder (EVM MOD); zero when b is zero.
inline Uint256 operator%(const Uint256& a, const Uint256& b) noexcept {
    return udivrem(a, b).rem;
}
inline Uint256& Uint256::operator/=(const Uint256& b) noexcept {
    return *this = *this / b;
}
inline Uint256& Uint256::operator%=(const Uint256& b) noexcept {
    return *this = *this % b;
}

/// a + b with the carry out: overflow is true when a + b >= 2^256.
constexpr OverflowResult add_overflow(const Uint256& a, const Uint256& b) noexcept {
    OverflowResult r{{}, false};
    for (std::size_t i = 0; i < 4; ++i) r.value[i] = uint256::detail::addc(a[i], b[i], r.overflow);
    return r;
}

/// a - b with the borrow out: overflow is true when a < b (the value then wraps).
constexpr OverflowResult sub_overflow(const Uint256& a, const Uint256& b) noexcept {
    OverflowResult r{{}, false};
    for (std::size_t i = 0; i < 4; ++i) r.value[i] = uint256::detail::subb(a[i], b[i], r.overflow);
    return r;
}

/// The full 512-bit product a * b as eight limbs, least significant first.
constexpr std::array<std::uint64_t, 8> mul_wide(const Uint256& a, const Uint256& b) noexcept {
    using uint256::detail::u128;
    std::array<std::uint64_t, 8> r{};
    for (std::size_t i = 0; i < 4; ++i) {
        std::uint64_t carry = 0;
        for (std::size_t j = 0; j < 4; ++j) {
            const u128 t = static_cast<u128>(a[i]) * b[j] + r[i + j] + carry;
            r[i + j] = static_cast<std::uint64_t>(t);
            carry = static_cast<std::uint64_t>(t >> 64);
        }
        r[i + 4] = carry;
    }
    return r;
}

/// a * b with overflow true when the exact product is >= 2^256.
constexpr OverflowResult mul_overflow(const Uint256& a, const Uint256& b) noexcept {
    const auto w = mul_wide(a, b);
    return {Uint256::from_limbs(w[0], w[1], w[2], w[3]), (w[4] | w[5] | w[6] | w[7]) != 0};
}

/// Logical left shift of `x` by `n` bits (value first, unlike the EVM's SHL stack order);
/// zero when n >= 256.
constexpr Uint256 shl(const Uint256& x, std::uint64_t n) noexcept {
    return x << n;
}
/// Logical left shift by a word-sized amount; zero when n >= 256.
constexpr Uint256 shl(const Uint256& x, const Uint256& n) noexcept {
    return x << n;
}
/// Logical right shift of `x` by `n` bits (value first; EVM SHR); zero when n >= 256.
constexpr Uint256 shr(const Uint256& x, std::uint64_t n) noexcept {
    return x >> n;
}
/// Logical right shift by a word-sized amount; zero when n >= 256.
constexpr Uint256 shr(const Uint256& x, const Uint256& n) noexcept {
    return x >> n;
}

/// Arithmetic right shift of `x` read as two's complement (value first; EVM SAR, EIP-145):
/// the sign bit fills from the left; when n >= 256 the result is 0, or all ones if x < 0.
constexpr Uint256 sar(const Uint256& x, std::uint64_t n) noexcept {
    // For negative x, floor(x / 2^n) is the complement of the logical shift of the complement.
    return x.is_negative() ? ~(~x >> n) : x >> n;
}
/// Arithmetic right shift by a word-sized amount (EVM SAR).
constexpr Uint256 sar(const Uint256& x, const Uint256& n) noexcept {
    return sar(x, n.fits_u64() ? n[0] : std::uint64_t{256});
}

/// Signed less-than, both read as two's complement (EVM SLT).
constexpr bool slt(const Uint256& a, const Uint256& b) noexcept {
    // Flipping the sign bits maps signed order onto unsigned order.
    constexpr Uint256 kSign = Uint256::from_limbs(0, 0, 0, 1ull << 63);
    return (a ^ kSign) < (b ^ kSign);
}

/// Signed greater-than, both read as two's complement (EVM SGT).
constexpr bool sgt(const Uint256& a, const Uint256& b) noexcept {
    return slt(b, a);
}

/// Signed division truncating toward zero (EVM SDIV): zero when b is zero, and
/// -2^255 / -1 == -2^255 (the one quotient that does not fit wraps back).
inline Uint256 sdiv(const Uint256& a, const Uint256& b) noexcept {
    const bool na = a.is_negative();
    const bool nb = b.is_negative();
    const Uint256 q = udivrem(na ? -a : a, nb ? -b : b).quot;
    return na != nb ? -q : q;
}

/// Signed remainder whose sign follows the dividend (EVM SMOD): zero when b is zero.
inline Uint256 smod(const Uint256& a, const Uint256& b) noexcept {
    const bool na = a.is_negative();
    const Uint256 r = udivrem(na ? -a : a, b.is_negative() ? -b : b).rem;
    return na ? -r : r;
}

/// (a + b) mod m computed without wrapping (EVM ADDMOD); zero when m is zero.
Uint256 addmod(const Uint256& a, const Uint256& b, const Uint256& m) noexcept;

/// (a * b) mod m over the full 512-bit product (EVM MULMOD); zero when m is zero.
Uint256 mulmod(const Uint256& a, const Uint256& b, const Uint256& m) noexcept;

/// base^exponent mod 2^256 by square-and-multiply (EVM EXP); 0^0 == 1.
Uint256 exp(const Uint256& base, const Uint256& exponent) noexcept;

/// Sign-extends `x` from its low b+1 bytes (EVM SIGNEXTEND(b, x)): bit 8b+7 is copied to every
/// bit above it. When b >= 31 the value is returned unchanged.
constexpr Uint256 signextend(const Uint256& b, const Uint256& x) noexcept {
    if (!b.fits_u64() || b[0] >= 31) return x;
    const std::uint64_t sign_bit = 8 * b[0] + 7;
    const Uint256 low_mask = (Uint256{1} << (sign_bit + 1)) - 1;
    return x.bit(sign_bit) ? (x | ~low_mask) : (x & low_mask);
}

/// Byte `i` of `x` counted from the most significant (EVM BYTE(i, x)): i == 0 is the top byte,
/// i == 31 the lowest; zero when i >= 32.
constexpr Uint256 byte(const Uint256& i, const Uint256& x) noexcept {
    if (!i.fits_u64() || i[0] >= 32) return {};
    const std::uint64_t from_low = 31 - i[0];
    return (x[from_low / 8] >> (8 * (from_low % 8))) & 0xff;
}

}  // namespace keel
