#pragma once
/// Table-driven hex codec. Encoding writes into a caller's buffer (no allocation per byte);
/// decoding reports the offset of the first bad character.

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "keel/common/bytes.hpp"
#include "keel/common/result.hpp"

namespace keel::hex {

enum class Errc : std::uint8_t {
    odd_length,     ///< an odd number of hex digits
    invalid_digit,  ///< a character that is not 0-9, a-f or A-F
    wrong_size,     ///< decode_to: the digits do not fill the output exactly
};

/// A short phrase for the code, e.g. "invalid hex digit".
std::string_view describe(Errc e) noexcept;

/// The offset counts characters of the input string, including any "0x" prefix.
using Error = InputError<Errc>;

struct EncodeOptions {
    bool prefix = false;    ///< write "0x" first
    std::size_t width = 0;  ///< minimum number of digits; shorter output is left-padded with '0'
};

/// Number of characters encode_to() writes for `n` bytes with options `o`.
constexpr std::size_t encoded_size(std::size_t n, EncodeOptions o = {}) noexcept {
    std::size_t digits = 2 * n < o.width ? o.width : 2 * n;
    return digits + (o.prefix ? 2 : 0);
}

/// Writes lower-case hex of `in` to `out`, which must hold encoded_size(in.size(), o) chars.
/// Returns the number of characters written. Does not write a terminating NUL.
std::size_t encode_to(BytesView in, char* out, EncodeOptions o = {}) noexcept;

/// Appends lower-case hex of `in` to `out` (one resize, then encode_to).
void append(std::string& out, BytesView in, EncodeOptions o = {});

/// Lower-case hex of `in` as a new string.
std::string encode(BytesView in, EncodeOptions o = {});

/// Lower-case "0x"-prefixed hex of `in` as a new string.
inline std::string encode_prefixed(BytesView in) {
    return encode(in, {.prefix = true});
}

/// Decodes hex digits, with or without a "0x"/"0X" prefix, upper or lower case.
/// On failure nothing is returned but the error; the offset names the first bad character.
[[nodiscard]] Result<Bytes, Error> decode(std::string_view in);

/// Decodes into `out`, which the digits must fill exactly (e.g. a Hash32).
/// On failure `out` may be partly written.
[[nodiscard]] Result<void, Error> decode_to(std::string_view in, MutableBytesView out) noexcept;

/// Decodes a fixed-size value such as Hash32 or Address.
template <class Fixed>
[[nodiscard]] Result<Fixed, Error> decode_fixed(std::string_view in) noexcept {
    Fixed v;
    if (auto r = decode_to(in, v.mutable_view()); !r) return unexpected(r.error());
    return v;
}

}  // namespace keel::hex
