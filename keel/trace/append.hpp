#pragma once
/// The formatting primitives the tracers share: numbers and hex written straight into the
/// caller's buffer, no temporary strings (a trace of a block is millions of them).
///
/// Two forms. The append_* functions grow a std::string as they write. The write_* functions
/// write at a raw position in a buffer whose room the caller has reserved (a struct log step is
/// sized once, then written with no capacity check per field) and return the end of what they
/// wrote. write_quantity may store bytes past that end, never more than kMaxWordBytes from where
/// it started: the caller reserves the maximum, and the next write overwrites them.

#include <bit>
#include <charconv>
#include <cstdint>
#include <cstring>
#include <string>

#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "keel/common/bytes.hpp"
#include "keel/common/hex.hpp"
#include "keel/common/uint256.hpp"

namespace keel::trace {

/// The most bytes write_dec writes (a negative 64-bit number).
inline constexpr std::size_t kMaxDecBytes = 20;
/// The most bytes write_quantity and write_word write: a quote, "0x", 64 digits, a quote.
inline constexpr std::size_t kMaxWordBytes = 68;

namespace detail {

inline constexpr char kDigitPairs[201] =
    "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
    "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
    "8081828384858687888990919293949596979899";

/// The number of decimal digits of v (1 for 0).
inline unsigned decimal_digits(std::uint64_t v) noexcept {
    static constexpr std::uint64_t kPow10[20] = {1ull,
                                                 10ull,
                                                 100ull,
                                                 1000ull,
                                                 10000ull,
                                                 100000ull,
                                                 1000000ull,
                                                 10000000ull,
                                                 100000000ull,
                                                 1000000000ull,
                                                 10000000000ull,
                                                 100000000000ull,
                                                 1000000000000ull,
                                                 10000000000000ull,
                                                 100000000000000ull,
                                                 1000000000000000ull,
                                                 10000000000000000ull,
                                                 100000000000000000ull,
                                                 1000000000000000000ull,
                                                 10000000000000000000ull};
    // bit_width · log10(2) (1233/4096) is the digit count or one less.
    const unsigned guess = (static_cast<unsigned>(std::bit_width(v)) * 1233) >> 12;
    return guess + (guess < 20 && v >= kPow10[guess] ? 1 : 0) + (v == 0 ? 1 : 0);
}

#ifdef __SSE2__
/// The hex digits of the 16 bytes in `b` (memory order): high and low nibbles apart, each to its
/// ASCII digit ('0' + n, and 39 more from 'a' on), interleaved high, low.
inline void hex_bytes16(char* out, __m128i b) noexcept {
    const auto digits = [](__m128i n) {
        const __m128i letter = _mm_cmpgt_epi8(n, _mm_set1_epi8(9));
        return _mm_add_epi8(_mm_add_epi8(n, _mm_set1_epi8('0')),
                            _mm_and_si128(letter, _mm_set1_epi8('a' - '0' - 10)));
    };
    const __m128i mask = _mm_set1_epi8(0x0f);
    const __m128i hi = digits(_mm_and_si128(_mm_srli_epi16(b, 4), mask));
    const __m128i lo = digits(_mm_and_si128(b, mask));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(out), _mm_unpacklo_epi8(hi, lo));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(out + 16), _mm_unpackhi_epi8(hi, lo));
}

inline __m128i big_endian(std::uint64_t high, std::uint64_t low) noexcept {
    return _mm_set_epi64x(static_cast<long long>(std::byteswap(low)),
                          static_cast<long long>(std::byteswap(high)));
}
#endif

/// The 16 hex digits of v, most significant first. Stores 32 bytes (the rest is garbage for
/// the caller to overwrite).
inline void hex16(char* out, std::uint64_t v) noexcept {
#ifdef __SSE2__
    hex_bytes16(out, big_endian(v, 0));
#else
    // Each nibble spread into a byte, then turned into its ASCII digit eight bytes at a time.
    const auto spread = [](std::uint64_t x) {  // 32 bits -> one nibble per byte, low first
        x = (x | (x << 16)) & 0x0000FFFF0000FFFFull;
        x = (x | (x << 8)) & 0x00FF00FF00FF00FFull;
        x = (x | (x << 4)) & 0x0F0F0F0F0F0F0F0Full;
        return x;
    };
    const auto ascii = [](std::uint64_t n) {  // nibble bytes -> '0'-'9', 'a'-'f'
        const std::uint64_t letters = ((n + 0x0606060606060606ull) >> 4) & 0x0101010101010101ull;
        return n + 0x3030303030303030ull + letters * ('a' - '0' - 10);
    };
    std::uint64_t hi = ascii(spread(v >> 32));
    std::uint64_t lo = ascii(spread(v & 0xFFFFFFFFull));
    if constexpr (std::endian::native == std::endian::little) {
        hi = std::byteswap(hi);
        lo = std::byteswap(lo);
    }
    std::memcpy(out, &hi, 8);
    std::memcpy(out + 8, &lo, 8);
#endif
}

/// The 64 hex digits of v, most significant first.
inline void hex64(char* out, const Uint256& v) noexcept {
#ifdef __SSE2__
    hex_bytes16(out, big_endian(v[3], v[2]));
    hex_bytes16(out + 32, big_endian(v[1], v[0]));
#else
    for (int i = 3; i >= 0; --i, out += 16) hex16(out, v[static_cast<std::size_t>(i)]);
#endif
}

}  // namespace detail

/// v in decimal.
inline char* write_dec(char* p, std::uint64_t v) noexcept {
    const unsigned n = detail::decimal_digits(v);
    char* q = p + n;
    while (v >= 100) {
        q -= 2;
        std::memcpy(q, &detail::kDigitPairs[2 * (v % 100)], 2);
        v /= 100;
    }
    if (v >= 10) {
        std::memcpy(q - 2, &detail::kDigitPairs[2 * v], 2);
    } else {
        q[-1] = static_cast<char>('0' + v);
    }
    return p + n;
}

inline char* write_dec(char* p, std::int64_t v) noexcept {
    if (v >= 0) return write_dec(p, static_cast<std::uint64_t>(v));
    *p++ = '-';
    return write_dec(p, ~static_cast<std::uint64_t>(v) + 1);
}

/// A quoted QUANTITY: "0x" and minimal lower-case hex digits ("0x0" for zero).
inline char* write_quantity(char* p, const Uint256& v) noexcept {
    std::memcpy(p, "\"0x", 3);
    p += 3;
    // The value without its leading zero digits: shifted up to the top, all digits written, the
    // first `n` kept (the rest lies in the slack and is overwritten).
    if ((v[1] | v[2] | v[3]) == 0) {  // most words: one limb
        const std::uint64_t x = v[0];
        const unsigned n = x == 0 ? 1u : (static_cast<unsigned>(std::bit_width(x)) + 3) / 4;
        detail::hex16(p, x << (64 - 4 * n));
        p += n;
    } else {
        const unsigned n = (v.bit_length() + 3) / 4;
        detail::hex64(p, v << (256 - 4 * n));
        p += n;
    }
    *p++ = '"';
    return p;
}

/// A quoted 32-byte word: "0x" and 64 digits.
inline char* write_word(char* p, const Uint256& v) noexcept {
    std::memcpy(p, "\"0x", 3);
    detail::hex64(p + 3, v);
    p[67] = '"';
    return p + 68;
}

/// Appends what `write(char*)` writes, having reserved `room` bytes for it.
template <class Write>
void append_with(std::string& out, std::size_t room, Write&& write) {
    const std::size_t at = out.size();
    out.resize_and_overwrite(at + room, [&](char* buf, std::size_t) {
        return static_cast<std::size_t>(write(buf + at) - buf);
    });
}

inline void append_dec(std::string& out, std::uint64_t v) {
    append_with(out, kMaxDecBytes, [v](char* p) { return write_dec(p, v); });
}

inline void append_dec(std::string& out, std::int64_t v) {
    append_with(out, kMaxDecBytes, [v](char* p) { return write_dec(p, v); });
}

/// A quoted QUANTITY: "0x" and minimal lower-case hex digits ("0x0" for zero).
inline void append_quantity(std::string& out, const Uint256& v) {
    append_with(out, kMaxWordBytes, [&v](char* p) { return write_quantity(p, v); });
}

/// A quoted QUANTITY of a gas amount (never negative where a tracer sees it; 0 if it were).
inline void append_quantity(std::string& out, std::int64_t v) {
    append_quantity(out, Uint256(static_cast<std::uint64_t>(v < 0 ? 0 : v)));
}

/// A quoted 32-byte word: "0x" and 64 digits.
inline void append_word(std::string& out, const Uint256& v) {
    append_with(out, kMaxWordBytes, [&v](char* p) { return write_word(p, v); });
}

/// Quoted hex of `b`, "0x"-prefixed or not.
inline void append_hex(std::string& out, BytesView b, bool prefix) {
    out += prefix ? "\"0x" : "\"";
    hex::append(out, b);
    out += '"';
}

}  // namespace keel::trace
