#include "keel/common/hex.hpp"

#include <array>
#include <cstring>

#ifdef __SSE2__
#include <emmintrin.h>
#endif

namespace keel::hex {
namespace {

// Two ASCII digits per byte value, so encoding is one 16-bit load and store per byte.
constexpr std::array<char, 512> make_encode_table() {
    constexpr char digits[] = "0123456789abcdef";
    std::array<char, 512> t{};
    for (int i = 0; i < 256; ++i) {
        t[2 * i] = digits[i >> 4];
        t[2 * i + 1] = digits[i & 15];
    }
    return t;
}
constexpr auto kEncode = make_encode_table();

// Nibble value of an ASCII character, or 0xff for a non-digit.
constexpr std::array<std::uint8_t, 256> make_decode_table() {
    std::array<std::uint8_t, 256> t{};
    for (auto& v : t) v = 0xff;
    for (int c = '0'; c <= '9'; ++c) t[c] = static_cast<std::uint8_t>(c - '0');
    for (int c = 'a'; c <= 'f'; ++c) t[c] = static_cast<std::uint8_t>(c - 'a' + 10);
    for (int c = 'A'; c <= 'F'; ++c) t[c] = static_cast<std::uint8_t>(c - 'A' + 10);
    return t;
}
constexpr auto kDecode = make_decode_table();

std::size_t prefix_length(std::string_view in) noexcept {
    return in.size() >= 2 && in[0] == '0' && (in[1] == 'x' || in[1] == 'X') ? 2 : 0;
}

// Decodes digits [base, base + 2*n) of `in` into out[0..n). Returns the offset of the first
// invalid character, or npos.
std::size_t decode_digits(std::string_view in, std::size_t base, std::uint8_t* out,
                          std::size_t n) noexcept {
    const auto* p = reinterpret_cast<const unsigned char*>(in.data()) + base;
    for (std::size_t i = 0; i < n; ++i) {
        std::uint8_t hi = kDecode[p[2 * i]];
        std::uint8_t lo = kDecode[p[2 * i + 1]];
        if ((hi | lo) & 0xf0) [[unlikely]] {  // 0xff marks a non-digit
            return base + 2 * i + (hi == 0xff ? 0 : 1);
        }
        out[i] = static_cast<std::uint8_t>(hi << 4 | lo);
    }
    return std::string_view::npos;
}

}  // namespace

std::string_view describe(Errc e) noexcept {
    switch (e) {
        case Errc::odd_length:
            return "odd number of hex digits";
        case Errc::invalid_digit:
            return "invalid hex digit";
        case Errc::wrong_size:
            return "wrong number of hex digits for the value";
    }
    return "unknown hex error";
}

std::size_t encode_to(BytesView in, char* out, EncodeOptions o) noexcept {
    char* p = out;
    if (o.prefix) {
        *p++ = '0';
        *p++ = 'x';
    }
    if (o.width > 2 * in.size()) {
        std::size_t pad = o.width - 2 * in.size();
        std::memset(p, '0', pad);
        p += pad;
    }
    const std::uint8_t* src = in.data();
    const std::size_t n = in.size();
    std::size_t i = 0;
#ifdef __SSE2__
    // 16 bytes -> 32 digits per step with baseline x86-64 SSE2 (no CPU dispatch needed): split
    // the nibbles, turn each into '0'+v or 'a'+v-10 arithmetically, interleave high and low.
    const __m128i mask = _mm_set1_epi8(0x0f);
    const __m128i nine = _mm_set1_epi8(9);
    const __m128i zero_char = _mm_set1_epi8('0');
    const __m128i letter_gap = _mm_set1_epi8('a' - '0' - 10);
    for (; i + 16 <= n; i += 16) {
        __m128i x = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + i));
        __m128i hi = _mm_and_si128(_mm_srli_epi16(x, 4), mask);
        __m128i lo = _mm_and_si128(x, mask);
        hi = _mm_add_epi8(_mm_add_epi8(hi, zero_char),
                          _mm_and_si128(_mm_cmpgt_epi8(hi, nine), letter_gap));
        lo = _mm_add_epi8(_mm_add_epi8(lo, zero_char),
                          _mm_and_si128(_mm_cmpgt_epi8(lo, nine), letter_gap));
        _mm_storeu_si128(reinterpret_cast<__m128i*>(p + 2 * i), _mm_unpacklo_epi8(hi, lo));
        _mm_storeu_si128(reinterpret_cast<__m128i*>(p + 2 * i + 16), _mm_unpackhi_epi8(hi, lo));
    }
#endif
    for (; i < n; ++i) std::memcpy(p + 2 * i, &kEncode[2 * src[i]], 2);
    return static_cast<std::size_t>(p - out) + 2 * n;
}

void append(std::string& out, BytesView in, EncodeOptions o) {
    std::size_t at = out.size();
    out.resize(at + encoded_size(in.size(), o));
    encode_to(in, out.data() + at, o);
}

std::string encode(BytesView in, EncodeOptions o) {
    std::string s;
    append(s, in, o);
    return s;
}

Result<Bytes, Error> decode(std::string_view in) {
    const std::size_t base = prefix_length(in);
    const std::size_t digits = in.size() - base;
    if (digits % 2 != 0) {
        // Name the first bad character if there is one; otherwise the odd length itself.
        Bytes scratch(digits / 2);
        std::size_t bad = decode_digits(in, base, scratch.data(), digits / 2);
        if (bad != std::string_view::npos) return input_error(Errc::invalid_digit, bad);
        if (kDecode[static_cast<unsigned char>(in.back())] == 0xff)
            return input_error(Errc::invalid_digit, in.size() - 1);
        return input_error(Errc::odd_length, in.size());
    }
    Bytes out(digits / 2);
    std::size_t bad = decode_digits(in, base, out.data(), out.size());
    if (bad != std::string_view::npos) return input_error(Errc::invalid_digit, bad);
    return out;
}

Result<void, Error> decode_to(std::string_view in, MutableBytesView out) noexcept {
    const std::size_t base = prefix_length(in);
    const std::size_t digits = in.size() - base;
    if (digits != 2 * out.size()) {
        std::size_t check = std::min(digits, 2 * out.size()) / 2;
        std::size_t bad = decode_digits(in, base, out.data(), check);
        if (bad != std::string_view::npos) return input_error(Errc::invalid_digit, bad);
        return input_error(Errc::wrong_size, in.size());
    }
    std::size_t bad = decode_digits(in, base, out.data(), out.size());
    if (bad != std::string_view::npos) return input_error(Errc::invalid_digit, bad);
    return {};
}

}  // namespace keel::hex
