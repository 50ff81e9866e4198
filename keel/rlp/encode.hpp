#pragma once
/// RLP encoding (Ethereum yellow paper, appendix B; ethereum.org/developers/docs/
/// data-structures-and-encoding/rlp) into one buffer sized up front.
///
/// The constexpr length functions give the exact encoded size of every item, so a caller can
/// sum them, reserve() once, and then append without reallocating. Output is canonical RLP as long
/// as the calls that trust the caller (add_raw, add_string_header, add_list_header) are given
/// what they expect.
///
/// Errors: encoding cannot fail on input; the only failure is allocation (std::bad_alloc from the
/// buffer, as with any std::vector). Programming errors (end_list() out of order) are asserted.
/// Threading: an Encoder is used by one thread at a time.

#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>

#include "keel/common/bytes.hpp"
#include "keel/common/uint256.hpp"

namespace keel::rlp {

/// Number of bytes of BE(v), the minimal big-endian form of v (0 for 0). YP app. B, BE.
constexpr std::size_t be_length(std::uint64_t v) noexcept {
    return static_cast<std::size_t>((std::bit_width(v) + 7) / 8);
}

/// Size of the header of a string or list with a `payload_length`-byte payload: 1 below 56,
/// else 1 + BE length (YP app. B, R_b and R_l). Not for the single-byte string case.
constexpr std::size_t header_length(std::size_t payload_length) noexcept {
    return payload_length < 56 ? 1 : 1 + be_length(payload_length);
}

/// Encoded size of a string of `payload_length` bytes whose first byte is `first_byte`
/// (ignored unless the length is 1: a single byte below 0x80 encodes as itself).
constexpr std::size_t string_length_for(std::size_t payload_length,
                                        std::uint8_t first_byte) noexcept {
    return payload_length == 1 && first_byte < 0x80
               ? 1
               : header_length(payload_length) + payload_length;
}

/// Encoded size of the string `s`.
constexpr std::size_t string_length(BytesView s) noexcept {
    return string_length_for(s.size(), s.empty() ? std::uint8_t{0} : s[0]);
}

/// Encoded size of a list whose items encode to `payload_length` bytes in total.
constexpr std::size_t list_length(std::size_t payload_length) noexcept {
    return header_length(payload_length) + payload_length;
}

/// Encoded size of the integer v (a string holding BE(v); 0 is 0x80).
constexpr std::size_t uint_length(std::uint64_t v) noexcept {
    return v < 0x80 ? 1 : 1 + be_length(v);
}

/// `be` without its leading zero bytes (empty for zero).
constexpr BytesView strip_leading_zeros(BytesView be) noexcept {
    std::size_t i = 0;
    while (i < be.size() && be[i] == 0) ++i;
    return be.subspan(i);
}

/// Encoded size of the big-endian integer `be` (leading zeros are stripped, as add_uint_bytes
/// does).
constexpr std::size_t uint_bytes_length(BytesView be) noexcept {
    return string_length(strip_leading_zeros(be));
}

/// Encoded size of the 256-bit integer v (as add_uint256 writes it).
inline std::size_t uint256_length(const Uint256& v) noexcept {
    const Bytes32 be = v.to_bytes32();
    return uint_bytes_length(be.view());
}

namespace detail {

/// Writes the 8 bytes of `v << (64 - 8k)` big-endian at p: BE(v) in the first k bytes (k =
/// be_length(v) > 0) and zeros after them, with one unaligned store instead of a byte loop.
inline void store_be_prefix(std::uint8_t* p, std::uint64_t v, std::size_t k) noexcept {
    std::uint64_t x = v << (64 - 8 * k);
    if constexpr (std::endian::native == std::endian::little) x = std::byteswap(x);
    std::memcpy(p, &x, 8);
}

}  // namespace detail

/// Appends RLP items to one byte buffer: either its own, or a caller's Bytes (appending after
/// what is there). Buffers are reused and only grow: clear() keeps the capacity.
///
/// Fast use: compute the total size with the *_length functions, reserve() it, then add items;
/// lists whose payload length is known are written with add_list_header() followed by their items.
/// begin_list()/end_list() are the convenient form when the length is not known in advance.
///
/// The encoded bytes are view() (or take()). The underlying vector is grown ahead in steps, so
/// while the encoder writes into it, its size() may exceed the encoded size; the encoder cuts it
/// back to exactly the encoded bytes in trim(), take() and its destructor. So with a caller's
/// buffer, read the result through view(), or from the buffer once the encoder is gone.
class Encoder {
  public:
    /// Marks an open list; returned by begin_list(), consumed by end_list().
    struct ListMarker {
        std::size_t start;  ///< buffer index of the list's header slot
        std::size_t outer;  ///< header slot of the enclosing open list (kNone: none)
    };

    /// An encoder over its own, empty buffer.
    Encoder() noexcept : out_(&own_) {}

    /// An encoder that appends to `out`, which must outlive it. Existing bytes are kept.
    explicit Encoder(Bytes& out) noexcept : out_(&out), size_(out.size()) {}

    /// Moves the buffer (or, for a caller's buffer, the reference to it).
    Encoder(Encoder&& other) noexcept;
    Encoder& operator=(Encoder&& other) noexcept;
    Encoder(const Encoder&) = delete;
    Encoder& operator=(const Encoder&) = delete;

    /// Cuts a caller's buffer back to the encoded bytes.
    ~Encoder() { trim(); }

    /// Makes room for `n` more bytes, so that adding up to n bytes does not reallocate.
    void reserve(std::size_t n) { room(n); }

    /// Empties the buffer, keeping its capacity, and forgets open lists.
    void clear() noexcept {
        size_ = 0;
        open_ = kNone;
    }

    /// Bytes written so far (in a caller's buffer: including what was there before).
    std::size_t size() const noexcept { return size_; }

    /// The encoded bytes; valid until the next add, clear or reserve.
    BytesView view() const noexcept { return {out_->data(), size_}; }

    /// Makes the buffer's size() exactly the encoded bytes now (never reallocates).
    void trim() noexcept {
        if (out_->size() != size_) out_->resize(size_);
    }

    /// Moves the bytes out, leaving the buffer empty (a caller's buffer too). Asserts that no
    /// list is open.
    Bytes take() noexcept;

    /// A string (YP app. B, R_b): a single byte below 0x80 as itself, else header + bytes.
    Encoder& add_string(BytesView s) {
        const std::size_t n = s.size();
        if (n == 1 && s[0] < 0x80) return add_byte(s[0]);
        std::uint8_t* p = room(header_length(n) + n);
        const std::size_t h = write_header(p, n, 0x80);
        if (n != 0) std::memcpy(p + h, s.data(), n);
        size_ += h + n;
        return *this;
    }

    /// An integer: the string BE(v), so 0 is 0x80 and 1..127 a single byte.
    Encoder& add_uint(std::uint64_t v) {
        if (v < 0x80) return add_byte(v == 0 ? std::uint8_t{0x80} : static_cast<std::uint8_t>(v));
        const std::size_t k = be_length(v);
        std::uint8_t* p = room(1 + k);
        p[0] = static_cast<std::uint8_t>(0x80 + k);
        detail::store_be_prefix(p + 1, v, k);
        size_ += 1 + k;
        return *this;
    }

    /// An integer given as big-endian bytes of any width: leading zeros are stripped first, so
    /// the output is canonical (all zeros or empty: 0x80).
    Encoder& add_uint_bytes(BytesView be) { return add_string(strip_leading_zeros(be)); }

    /// A 256-bit integer (EVM word): the string BE(v), as add_uint().
    Encoder& add_uint256(const Uint256& v) {
        const Bytes32 be = v.to_bytes32();
        return add_uint_bytes(be.view());
    }

    /// The header of a string whose `payload_length` bytes the caller adds next (add_raw), e.g. a
    /// typed transaction 0x02 || rlp([...]) written in place. Writes the header for any length,
    /// so a lone byte below 0x80 must go through add_string() instead to stay canonical.
    Encoder& add_string_header(std::size_t payload_length) {
        size_ += write_header(room(header_length(payload_length)), payload_length, 0x80);
        return *this;
    }

    /// The header of a list whose items, added next, encode to exactly `payload_length` bytes
    /// (YP app. B, R_l). The encoder does not check that they do.
    Encoder& add_list_header(std::size_t payload_length) {
        size_ += write_header(room(header_length(payload_length)), payload_length, 0xc0);
        return *this;
    }

    /// Bytes that already are RLP (one or more encoded items), copied as they are.
    Encoder& add_raw(BytesView encoded) {
        if (!encoded.empty()) std::memcpy(room(encoded.size()), encoded.data(), encoded.size());
        size_ += encoded.size();
        return *this;
    }

    /// Opens a list whose length is not known yet; add its items, then call end_list() with the
    /// marker. Lists nest; close them innermost first (asserted).
    /// Cost: a one-byte header slot is written now; if the payload turns out to be 56 bytes or
    /// more, end_list() moves it once (a memmove of the payload) to fit the 2..9-byte long header.
    /// Nested long lists thus move their bytes once per enclosing long list: when the payload
    /// length is cheap to compute, add_list_header() costs nothing extra.
    [[nodiscard]] ListMarker begin_list();

    /// Closes the list opened by `m` (the innermost open one) and writes its header.
    void end_list(ListMarker m);

    /// No open list.
    static constexpr std::size_t kNone = std::numeric_limits<std::size_t>::max();

  private:
    // Writers store up to 8 bytes past what they keep (one 8-byte store for a length), so the
    // vector always has kSlack spare bytes beyond the n requested.
    static constexpr std::size_t kSlack = 8;

    // Space for n more bytes (plus the slack) after the encoded bytes; grows the vector if needed.
    std::uint8_t* room(std::size_t n) {
        if (out_->size() < size_ + n + kSlack) [[unlikely]]
            grow(n);
        return out_->data() + size_;
    }

    Encoder& add_byte(std::uint8_t b) {
        *room(1) = b;
        ++size_;
        return *this;
    }

    // YP app. B: payload below 56 bytes: one byte base + length; else base + 55 + k, then the
    // length as k = be_length(length) big-endian bytes. Writes 1 or 9 bytes. Returns the size.
    static std::size_t write_header(std::uint8_t* p, std::size_t payload_length,
                                    std::uint8_t short_base) noexcept {
        if (payload_length < 56) {
            p[0] = static_cast<std::uint8_t>(short_base + payload_length);
            return 1;
        }
        const std::size_t k = be_length(payload_length);
        p[0] = static_cast<std::uint8_t>(short_base + 55 + k);
        detail::store_be_prefix(p + 1, payload_length, k);
        return 1 + k;
    }

    void grow(std::size_t n);

    Bytes own_;
    Bytes* out_;
    std::size_t size_ = 0;      // encoded bytes at the front of *out_
    std::size_t open_ = kNone;  // header slot of the innermost open list
};

}  // namespace keel::rlp
