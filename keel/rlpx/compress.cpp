#include "keel/rlpx/compress.hpp"

#include <snappy.h>

#include "keel/common/assert.hpp"

namespace keel::rlpx {

namespace {

const char* chars(const std::uint8_t* p) noexcept {
    return reinterpret_cast<const char*>(p);
}

std::uint64_t load_le(const std::uint8_t* p, std::size_t n) noexcept {
    std::uint64_t v = 0;
    for (std::size_t i = 0; i < n; ++i) v |= std::uint64_t{p[i]} << (8 * i);
    return v;
}

// Says why snappy refused `in`, whose declared length (`declared`, a varint of `header` bytes)
// already passed the limit. Only runs after RawUncompress failed, so it may be slow; it walks
// the elements (google/snappy format_description.txt §2) without writing anything:
//   tag & 3 == 0: literal, length-1 in tag >> 2, or (60..63) in the next 1..4 bytes (LE);
//   tag & 3 == 1: copy, length 4 + ((tag >> 2) & 7), offset ((tag >> 5) << 8) | next byte;
//   tag & 3 == 2: copy, length (tag >> 2) + 1, offset in the next 2 bytes (LE);
//   tag & 3 == 3: copy, length (tag >> 2) + 1, offset in the next 4 bytes (LE);
// a copy's offset must be in 1..bytes produced so far.
SnappyError classify(BytesView in, std::size_t header, std::uint64_t declared) noexcept {
    const std::uint8_t* p = in.data();
    const std::size_t n = in.size();
    std::size_t pos = header;
    std::uint64_t produced = 0;
    auto corrupt = [&](std::size_t at) {
        return SnappyError{SnappyErrc::corrupt, declared, 0, at};
    };
    while (pos < n) {
        const std::size_t at = pos;
        const std::uint8_t tag = p[pos++];
        std::uint64_t len = 0;
        std::uint64_t offset = 0;
        switch (tag & 3) {
            case 0: {
                len = (tag >> 2) + std::uint64_t{1};
                if (len > 60) {
                    const std::size_t extra = len - 60;  // 1..4 length bytes
                    if (extra > n - pos) return corrupt(at);
                    len = load_le(p + pos, extra) + 1;
                    pos += extra;
                }
                if (len > n - pos) return corrupt(at);
                pos += static_cast<std::size_t>(len);
                break;
            }
            case 1:
                if (n - pos < 1) return corrupt(at);
                len = 4 + ((tag >> 2) & 7);
                offset = std::uint64_t{static_cast<std::uint8_t>(tag >> 5)} << 8 | p[pos];
                pos += 1;
                break;
            case 2:
                if (n - pos < 2) return corrupt(at);
                len = (tag >> 2) + std::uint64_t{1};
                offset = load_le(p + pos, 2);
                pos += 2;
                break;
            default:
                if (n - pos < 4) return corrupt(at);
                len = (tag >> 2) + std::uint64_t{1};
                offset = load_le(p + pos, 4);
                pos += 4;
                break;
        }
        if ((tag & 3) != 0 && (offset == 0 || offset > produced)) return corrupt(at);
        produced += len;
        if (produced > declared) return {SnappyErrc::length_mismatch, declared, produced, at};
    }
    if (produced != declared) return {SnappyErrc::length_mismatch, declared, produced, n};
    // The walk found nothing wrong, yet snappy refused: report it as corrupt all the same.
    return corrupt(n);
}

}  // namespace

std::string_view describe(SnappyErrc e) noexcept {
    switch (e) {
        case SnappyErrc::bad_length_header:
            return "malformed uncompressed-length header";
        case SnappyErrc::too_large:
            return "declared length exceeds the limit";
        case SnappyErrc::length_mismatch:
            return "data does not match the declared length";
        case SnappyErrc::corrupt:
            return "corrupt compressed data";
    }
    return "unknown snappy error";
}

std::string to_string(const SnappyError& e) {
    std::string out = "snappy: ";
    out += describe(e.code);
    switch (e.code) {
        case SnappyErrc::bad_length_header:
            break;
        case SnappyErrc::too_large:
            out += " (declared " + std::to_string(e.declared) + ", limit " +
                   std::to_string(e.actual) + ")";
            break;
        case SnappyErrc::length_mismatch:
            out += " (declared " + std::to_string(e.declared) + ", data holds " +
                   (e.actual > e.declared ? "more" : std::to_string(e.actual)) + ")";
            break;
        case SnappyErrc::corrupt:
            break;
    }
    out += " at offset ";
    out += std::to_string(e.offset);
    return out;
}

std::size_t snappy_max_compressed_length(std::size_t n) noexcept {
    return snappy::MaxCompressedLength(n);
}

std::size_t snappy_compress_into(BytesView in, MutableBytesView out) {
    KEEL_ASSERT(out.size() >= snappy::MaxCompressedLength(in.size()));
    std::size_t n = 0;
    snappy::RawCompress(chars(in.data()), in.size(), reinterpret_cast<char*>(out.data()), &n);
    return n;
}

BytesView snappy_compress(BytesView in, Bytes& buf) {
    const std::size_t max = snappy::MaxCompressedLength(in.size());
    if (buf.size() < max) buf.resize(max);
    const std::size_t n = snappy_compress_into(in, buf);
    return {buf.data(), n};
}

[[nodiscard]] Result<std::size_t, SnappyError> snappy_declared_length(BytesView in,
                                                                      std::size_t limit) noexcept {
    std::size_t declared = 0;
    if (!snappy::GetUncompressedLength(chars(in.data()), in.size(), &declared)) [[unlikely]]
        return std::unexpected(SnappyError{SnappyErrc::bad_length_header, 0, 0, 0});
    if (declared > limit) [[unlikely]]
        return std::unexpected(SnappyError{SnappyErrc::too_large, declared, limit, 0});
    return declared;
}

[[nodiscard]] Result<BytesView, SnappyError> snappy_decompress(BytesView in, Bytes& buf,
                                                               std::size_t limit) {
    // The declared length is checked before anything is allocated.
    auto declared = snappy_declared_length(in, limit);
    if (!declared) [[unlikely]]
        return std::unexpected(declared.error());
    const std::size_t n = *declared;
    if (buf.size() < n) buf.resize(n);
    // RawUncompress writes at most the declared length and fails unless the elements produce
    // exactly that many bytes (no separate IsValidCompressedBuffer pass needed).
    char empty = 0;
    char* out = n == 0 ? &empty : reinterpret_cast<char*>(buf.data());
    if (!snappy::RawUncompress(chars(in.data()), in.size(), out)) [[unlikely]] {
        std::size_t header = 0;
        while (header < in.size() && (in[header] & 0x80) != 0) ++header;
        return std::unexpected(classify(in, header + 1, n));
    }
    return BytesView{buf.data(), n};
}

}  // namespace keel::rlpx
