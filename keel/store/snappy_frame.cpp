#include "keel/store/snappy_frame.hpp"

#include <snappy.h>

#include <array>
#include <cstring>

namespace keel::store {
namespace {

// Byte-at-a-time table for the reflected Castagnoli polynomial (RFC 3720 §B.4): entry i is
// the CRC register after shifting in the 8 bits of i.
constexpr std::array<std::uint32_t, 256> make_crc_table() {
    std::array<std::uint32_t, 256> t{};
    for (std::uint32_t i = 0; i < 256; ++i) {
        std::uint32_t c = i;
        for (int k = 0; k < 8; ++k) c = (c & 1) ? (c >> 1) ^ 0x82F63B78u : c >> 1;
        t[i] = c;
    }
    return t;
}

constexpr std::array<std::uint32_t, 256> kCrcTable = make_crc_table();

constexpr std::uint8_t kStreamIdentifier[6] = {'s', 'N', 'a', 'P', 'p', 'Y'};

std::uint32_t load_le32(const std::uint8_t* p) noexcept {
    return static_cast<std::uint32_t>(p[0]) | static_cast<std::uint32_t>(p[1]) << 8 |
           static_cast<std::uint32_t>(p[2]) << 16 | static_cast<std::uint32_t>(p[3]) << 24;
}

// libsnappy's raw decoder, wrapped: it reports failure by return value; nothing may escape a
// noexcept keel function, so the call sits behind a catch-all as well.
bool raw_uncompress(BytesView in, Bytes& out, std::size_t& produced) noexcept {
    try {
        std::size_t n = 0;
        const char* src = reinterpret_cast<const char*>(in.data());
        if (!snappy::GetUncompressedLength(src, in.size(), &n)) return false;
        if (n > kMaxSnappyChunk) {
            produced = n;
            return false;
        }
        const std::size_t at = out.size();
        out.resize(at + n);
        if (!snappy::RawUncompress(src, in.size(), reinterpret_cast<char*>(out.data() + at))) {
            out.resize(at);
            return false;
        }
        produced = n;
        return true;
    } catch (...) {
        return false;
    }
}

}  // namespace

std::uint32_t crc32c(BytesView data, std::uint32_t crc) noexcept {
    std::uint32_t c = ~crc;
    for (const std::uint8_t b : data) c = kCrcTable[(c ^ b) & 0xff] ^ (c >> 8);
    return ~c;
}

Result<std::size_t, Error> decode_snappy_frames(BytesView in, Bytes& out,
                                                std::size_t base_offset) noexcept {
    const std::size_t start_size = out.size();
    auto fail = [&](Errc code, std::size_t at) {
        out.resize(start_size);
        return input_error(code, base_offset + at);
    };
    std::size_t pos = 0;
    bool seen_identifier = false;
    if (in.empty()) return fail(Errc::frame_missing_stream_identifier, 0);
    while (pos < in.size()) {
        if (in.size() - pos < 4) return fail(Errc::frame_chunk_truncated, pos);
        const std::uint8_t type = in[pos];
        const std::size_t len = static_cast<std::size_t>(in[pos + 1]) |
                                static_cast<std::size_t>(in[pos + 2]) << 8 |
                                static_cast<std::size_t>(in[pos + 3]) << 16;
        if (!seen_identifier && type != 0xff) {
            return fail(Errc::frame_missing_stream_identifier, pos);
        }
        if (in.size() - pos - 4 < len) return fail(Errc::frame_chunk_truncated, pos);
        const BytesView body = in.subspan(pos + 4, len);
        if (type == 0xff) {  // §4.1 stream identifier
            if (len != 6 || std::memcmp(body.data(), kStreamIdentifier, 6) != 0) {
                return fail(Errc::frame_bad_stream_identifier, pos);
            }
            seen_identifier = true;
        } else if (type == 0x00 || type == 0x01) {  // §4.2 compressed, §4.3 uncompressed
            if (len < 4) return fail(Errc::frame_chunk_too_short, pos);
            const std::uint32_t expected = load_le32(body.data());
            const BytesView data = body.subspan(4);
            const std::size_t at = out.size();
            if (type == 0x00) {
                std::size_t n = 0;
                if (!raw_uncompress(data, out, n)) {
                    return fail(n > kMaxSnappyChunk ? Errc::frame_chunk_too_large
                                                    : Errc::frame_corrupt_data,
                                pos);
                }
            } else {
                if (data.size() > kMaxSnappyChunk) return fail(Errc::frame_chunk_too_large, pos);
                out.insert(out.end(), data.begin(), data.end());
            }
            const BytesView produced(out.data() + at, out.size() - at);
            if (mask_crc32c(crc32c(produced)) != expected) {
                return fail(Errc::frame_checksum_mismatch, pos + 4);
            }
        } else if (type <= 0x7f) {  // §4.5 reserved unskippable
            return fail(Errc::frame_reserved_chunk, pos);
        }
        // 0x80-0xfe: reserved skippable (§4.6) and padding (§4.4): skipped.
        pos += 4 + len;
    }
    return out.size() - start_size;
}

}  // namespace keel::store
