#pragma once
/// Zero-copy RLP decoding (Ethereum yellow paper, appendix B; ethereum.org/developers/docs/
/// data-structures-and-encoding/rlp).
///
/// Everything here reads a BytesView the caller keeps alive and returns views into it: nothing is
/// copied and nothing is allocated. Every function is noexcept. Failure guarantee: on failure
/// nothing is allocated and nothing is returned but the Error (code and absolute offset, see
/// errors.hpp); a Decoder whose read fails stays where it was.
///
/// Canonical form is enforced on every header read (YP app. B): a single byte below 0x80 is its
/// own encoding; a payload of 0-55 bytes has the one-byte short header (0x80+n / 0xc0+n); longer
/// payloads have the long header (0xb7+k / 0xf7+k followed by the length as k minimal big-endian
/// bytes, k in 1..8). Integers are minimal big-endian strings (no leading zero; 0 is 0x80).
///
/// Threading: free functions are pure; a Decoder is a small value (three words) that one thread
/// uses at a time; copies are independent cursors.

#include <bit>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

#include "keel/common/bytes.hpp"
#include "keel/common/result.hpp"
#include "keel/common/uint256.hpp"
#include "keel/rlp/errors.hpp"

namespace keel::rlp {

/// Default cap on list nesting for validate(): a top-level list is depth 1, a list inside it
/// depth 2, and so on. Ethereum structures nest at most about 6 deep (block body > txs > tx >
/// access list > entry > keys); 64 leaves room while bounding work on hostile input.
inline constexpr std::size_t kMaxDepth = 64;

/// The largest max_depth validate() accepts (its explicit stack has this many slots).
inline constexpr std::size_t kMaxDepthLimit = 1024;

/// One RLP item: a header and the payload it announces. The payload is a view into the input.
/// For a single byte below 0x80 the header is empty and the payload is that byte.
struct Item {
    bool is_list = false;         ///< a list (payload = concatenated items) or a string
    BytesView payload;            ///< string bytes, or the encoded children of a list
    std::size_t offset = 0;       ///< absolute offset of the item's first (header) byte
    std::size_t header_size = 0;  ///< 0 (single byte), 1 (short form) or 2..9 (long form)

    /// Encoded size: header plus payload.
    std::size_t size() const noexcept { return header_size + payload.size(); }
    /// Absolute offset of the first byte after the item.
    std::size_t end_offset() const noexcept { return offset + size(); }
    /// The whole encoded item (header and payload) as a view into the input.
    BytesView encoded() const noexcept { return {payload.data() - header_size, size()}; }
};

namespace detail {

/// Big-endian value of p[0..n), n in 1..8.
inline std::uint64_t read_be(const std::uint8_t* p, std::size_t n) noexcept {
    std::uint64_t v = 0;
    for (std::size_t i = 0; i < n; ++i) v = v << 8 | p[i];
    return v;
}

/// The 256-bit value of the big-endian bytes p[0..n), n <= 32: whole limbs are loaded straight
/// from the input (no staging buffer, whose byte stores would stall the word loads).
inline Uint256 uint256_from_be(const std::uint8_t* p, std::size_t n) noexcept {
    std::uint64_t limbs[4] = {0, 0, 0, 0};
    std::size_t i = 0;
    for (; n >= 8; n -= 8) {
        std::uint64_t w;
        std::memcpy(&w, p + n - 8, 8);
        if constexpr (std::endian::native == std::endian::little) w = std::byteswap(w);
        limbs[i++] = w;
    }
    if (n != 0) limbs[i] = read_be(p, n);
    return Uint256::from_limbs(limbs[0], limbs[1], limbs[2], limbs[3]);
}

/// A parsed header, kept in plain scalars so that the inlined parser's results stay in registers
/// (a Result<Item> built and read back through memory costs a store-forwarding stall per item).
struct Header {
    const std::uint8_t* payload;
    std::size_t length;       ///< payload length
    std::size_t header_size;  ///< 0, 1 or 2..9
    bool is_list;
};

/// Parses the header at p (avail > 0 bytes readable) and checks that its payload fits in those
/// bytes. Returns true and fills `h`, or false and sets `err`. Every error is about the header at
/// p. The hot path of every decoder here.
[[gnu::always_inline]] inline bool parse_header(const std::uint8_t* p, std::size_t avail, Header& h,
                                                Errc& err) noexcept {
    const std::uint8_t b = p[0];
    // YP app. B, R_b: a byte below 0x80 encodes itself.
    if (b < 0x80) {
        h = {p, 1, 0, false};
        return true;
    }
    // Strings are 0x80..0xbf, lists 0xc0..0xff; both split at +56 into short and long form, so
    // one subtraction gives the short length (0..55) or 55 + length-of-length (56..63).
    const bool is_list = b >= 0xc0;
    const std::size_t n = static_cast<std::size_t>(b) - (is_list ? 0xc0 : 0x80);
    if (n < 56) [[likely]] {
        if (n >= avail) [[unlikely]] {
            err = Errc::length_past_input;
            return false;
        }
        // YP app. B, R_b: a lone byte below 0x80 must not carry a header.
        if (n == 1 && !is_list && p[1] < 0x80) [[unlikely]] {
            err = Errc::non_canonical_single_byte;
            return false;
        }
        h = {p + 1, n, 1, is_list};
        return true;
    }
    // Long form: 0xb7+k / 0xf7+k, then the length as k bytes of BE (minimal big-endian).
    const std::size_t k = n - 55;
    if (k >= avail) [[unlikely]] {
        err = Errc::truncated;
        return false;
    }
    if (p[1] == 0) [[unlikely]] {
        err = Errc::leading_zero_in_length;
        return false;
    }
    const std::uint64_t len = read_be(p + 1, k);
    const std::size_t hs = 1 + k;
    if (len < 56) [[unlikely]] {
        err = Errc::non_canonical_size;
        return false;
    }
    if (len > std::numeric_limits<std::size_t>::max() - hs) [[unlikely]] {
        err = Errc::length_overflow;
        return false;
    }
    if (len > avail - hs) [[unlikely]] {
        err = Errc::length_past_input;
        return false;
    }
    h = {p + hs, static_cast<std::size_t>(len), hs, is_list};
    return true;
}

/// parse_header() as a Result, for the header at absolute offset `off`.
[[nodiscard]] inline Result<Item, Error> parse_item(const std::uint8_t* p, std::size_t avail,
                                                    std::size_t off) noexcept {
    Header h;
    Errc err;
    if (!parse_header(p, avail, h, err)) [[unlikely]]
        return input_error(err, off);
    return Item{h.is_list, {h.payload, h.length}, off, h.header_size};
}

}  // namespace detail

/// The first item of `in`, whose first byte is at absolute offset `base_offset`: checks the
/// header's canonical form and that the payload fits in `in`. Bytes after the item are allowed
/// and ignored; list payloads are not looked into.
/// Errors: empty_input, truncated, length_past_input, length_overflow, non_canonical_size,
/// leading_zero_in_length, non_canonical_single_byte (offset: the header).
[[nodiscard]] inline Result<Item, Error> decode_header(BytesView in,
                                                       std::size_t base_offset = 0) noexcept {
    if (in.empty()) [[unlikely]]
        return input_error(Errc::empty_input, base_offset);
    return detail::parse_item(in.data(), in.size(), base_offset);
}

/// Exactly one item covering all of `in` (trailing_bytes otherwise, at the first extra byte).
/// Does not descend into a list's payload: use validate() for that.
[[nodiscard]] Result<Item, Error> decode_single(BytesView in, std::size_t base_offset = 0) noexcept;

/// Checks that `in` is exactly one item and that every item nested in it is canonical and fits in
/// its parent, with lists nested at most `max_depth` deep (too_deep at the first list beyond).
/// Iterative, with an explicit stack: stack use does not depend on the input; time is linear in
/// the number of items. Reports the first error in encoding order.
/// Errors: the header errors of decode_header() for any item (a child that overruns its list is
/// length_past_input or truncated, offset: the child), trailing_bytes, too_deep.
/// Precondition (asserted): max_depth <= kMaxDepthLimit. Offsets start at `base_offset`.
[[nodiscard]] Result<void, Error> validate(BytesView in, std::size_t max_depth = kMaxDepth,
                                           std::size_t base_offset = 0) noexcept;

/// A cursor over a sequence of encoded items, typically the payload of a list. Each read checks
/// the header of the item it returns (canonical, fits in the sequence) and moves past it; it does
/// not look inside nested lists it only skips, so call validate() on the whole input first when
/// all of it must be canonical. On failure the cursor does not move.
class Decoder {
  public:
    /// An empty cursor (empty() is true).
    Decoder() noexcept = default;

    /// A cursor over `items`, whose first byte sits at absolute offset `base_offset` of the
    /// original input (used only to report errors and Item::offset).
    explicit Decoder(BytesView items, std::size_t base_offset = 0) noexcept
        : pos_(items.data()), end_(items.data() + items.size()), offset_(base_offset) {}

    /// True when no bytes remain.
    bool empty() const noexcept { return pos_ == end_; }

    /// Absolute offset of the next item (or of the end, when empty).
    std::size_t offset() const noexcept { return offset_; }

    /// The bytes not yet read.
    BytesView remaining() const noexcept { return {pos_, static_cast<std::size_t>(end_ - pos_)}; }

    /// The next item, string or list. Errors: missing_item when empty (offset: the end), else
    /// the header errors of decode_header().
    [[nodiscard]] Result<Item, Error> next() noexcept {
        detail::Header h;
        Errc err;
        if (!read(h, err)) [[unlikely]]
            return input_error(err, offset_);
        const std::size_t off = offset_;
        advance(h);
        return Item{h.is_list, {h.payload, h.length}, off, h.header_size};
    }

    /// The payload of the next item, which must be a string (expected_string otherwise).
    [[nodiscard]] Result<BytesView, Error> next_string() noexcept {
        detail::Header h;
        Errc err;
        if (!read_string(h, err)) [[unlikely]]
            return input_error(err, offset_);
        advance(h);
        return BytesView{h.payload, h.length};
    }

    /// A cursor over the children of the next item, which must be a list (expected_list
    /// otherwise). The children are not checked until read.
    [[nodiscard]] Result<Decoder, Error> next_list() noexcept {
        detail::Header h;
        Errc err;
        if (!read(h, err)) [[unlikely]]
            return input_error(err, offset_);
        if (!h.is_list) [[unlikely]]
            return input_error(Errc::expected_list, offset_);
        const std::size_t payload_offset = offset_ + h.header_size;
        advance(h);
        return Decoder(BytesView{h.payload, h.length}, payload_offset);
    }

    /// The next item as an unsigned integer: a string holding minimal big-endian bytes
    /// (YP app. B: a scalar is RLP of BE(x); 0 is the empty string 0x80).
    /// Errors: expected_string, leading_zero_in_integer, integer_overflow (wider than T), and
    /// the header errors; offset: the item's header.
    template <std::unsigned_integral T>
        requires(!std::same_as<T, bool>)
    [[nodiscard]] Result<T, Error> next_uint() noexcept {
        detail::Header h;
        Errc err;
        if (!read_uint(h, sizeof(T), err)) [[unlikely]]
            return input_error(err, offset_);
        advance(h);
        return static_cast<T>(detail::read_be(h.payload, h.length));
    }

    /// The next item as a minimal big-endian integer of at most `max_bytes` bytes (for values
    /// wider than 64 bits): the bytes without leading zero, empty for 0. Errors as next_uint().
    [[nodiscard]] Result<BytesView, Error> next_uint_bytes(std::size_t max_bytes) noexcept {
        detail::Header h;
        Errc err;
        if (!read_uint(h, max_bytes, err)) [[unlikely]]
            return input_error(err, offset_);
        advance(h);
        return BytesView{h.payload, h.length};
    }

    /// The next item as a 256-bit integer (EVM word: value, gas price, signature r and s).
    /// Errors as next_uint(); integer_overflow above 32 bytes.
    [[nodiscard]] Result<Uint256, Error> next_uint256() noexcept {
        detail::Header h;
        Errc err;
        if (!read_uint(h, 32, err)) [[unlikely]]
            return input_error(err, offset_);
        advance(h);
        return detail::uint256_from_be(h.payload, h.length);
    }

    /// The next item as exactly N bytes (hash, address). Errors: expected_string, wrong_size,
    /// and the header errors; offset: the item's header.
    template <std::size_t N>
    [[nodiscard]] Result<FixedBytes<N>, Error> next_fixed() noexcept {
        detail::Header h;
        Errc err;
        if (!read_string(h, err)) [[unlikely]]
            return input_error(err, offset_);
        if (h.length != N) [[unlikely]]
            return input_error(Errc::wrong_size, offset_);
        advance(h);
        FixedBytes<N> out;
        if constexpr (N != 0) std::memcpy(out.data(), h.payload, N);
        return out;
    }

    /// Number of items left, walking their headers only (nested payloads are not read).
    /// Errors: the header errors of the first bad header.
    [[nodiscard]] Result<std::size_t, Error> count() const noexcept {
        Decoder d = *this;
        std::size_t n = 0;
        while (!d.empty()) {
            auto r = d.next();
            if (!r) [[unlikely]]
                return unexpected(r.error());
            ++n;
        }
        return n;
    }

    /// Succeeds when every item has been read; trailing_bytes (offset: the next item) otherwise.
    /// Call it after reading the last expected field of a fixed-shape list.
    [[nodiscard]] Result<void, Error> finish() const noexcept {
        if (pos_ != end_) [[unlikely]]
            return input_error(Errc::trailing_bytes, offset_);
        return {};
    }

  private:
    // The next header, unconsumed; errors are all at offset_.
    [[gnu::always_inline]] bool read(detail::Header& h, Errc& err) const noexcept {
        if (pos_ == end_) [[unlikely]] {
            err = Errc::missing_item;
            return false;
        }
        return detail::parse_header(pos_, static_cast<std::size_t>(end_ - pos_), h, err);
    }

    [[gnu::always_inline]] bool read_string(detail::Header& h, Errc& err) const noexcept {
        if (!read(h, err)) [[unlikely]]
            return false;
        if (h.is_list) [[unlikely]] {
            err = Errc::expected_string;
            return false;
        }
        return true;
    }

    // A string that is a canonical integer of at most max_bytes bytes. The single-byte rule
    // (no 0x81 0x00..0x7f) is already a header rule; here: no leading zero, not too wide.
    [[gnu::always_inline]] bool read_uint(detail::Header& h, std::size_t max_bytes,
                                          Errc& err) const noexcept {
        if (!read_string(h, err)) [[unlikely]]
            return false;
        if (h.length != 0 && h.payload[0] == 0) [[unlikely]] {
            err = Errc::leading_zero_in_integer;
            return false;
        }
        if (h.length > max_bytes) [[unlikely]] {
            err = Errc::integer_overflow;
            return false;
        }
        return true;
    }

    void advance(const detail::Header& h) noexcept {
        const std::size_t n = h.header_size + h.length;
        pos_ += n;
        offset_ += n;
    }

    const std::uint8_t* pos_ = nullptr;
    const std::uint8_t* end_ = nullptr;
    std::size_t offset_ = 0;
};

/// A cursor over the children of the top-level list that must cover all of `in`.
/// Errors: those of decode_single(), expected_list (offset: base_offset).
[[nodiscard]] Result<Decoder, Error> open_list(BytesView in, std::size_t base_offset = 0) noexcept;

}  // namespace keel::rlp
