#pragma once
/// Snappy framing format (github.com/google/snappy, framing_format.txt): a stream of chunks,
/// each a 1-byte type, a 3-byte little-endian length and that many bytes:
///   0xff        stream identifier, exactly "sNaPpY" (must come first; may repeat)
///   0x00        compressed data: masked CRC-32C (4 bytes LE) of the uncompressed data, then
///               snappy raw-format data (format_description.txt) of at most 65536 bytes
///   0x01        uncompressed data: masked CRC-32C, then at most 65536 bytes
///   0x02-0x7f   reserved unskippable: an error
///   0x80-0xfe   reserved skippable and padding (0xfe): skipped
/// era1 files store headers, bodies and receipts this way (e2store-format-specs era1.md).
///
/// Everything here is noexcept and thread-safe; no libsnappy type appears in this header.

#include <cstddef>
#include <cstdint>

#include "keel/common/bytes.hpp"
#include "keel/common/result.hpp"
#include "keel/store/errors.hpp"

namespace keel::store {

/// Largest uncompressed size of one data chunk (framing_format.txt §4.2, §4.3).
inline constexpr std::size_t kMaxSnappyChunk = 65536;

/// CRC-32C (Castagnoli, reflected polynomial 0x82F63B78, init and final xor 0xFFFFFFFF) of
/// `data`, table-driven. Continue a running CRC by passing the previous result as `crc`.
std::uint32_t crc32c(BytesView data, std::uint32_t crc = 0) noexcept;

/// The framing format's checksum mask: ((crc >> 15) | (crc << 17)) + 0xa282ead8 (§3).
constexpr std::uint32_t mask_crc32c(std::uint32_t crc) noexcept {
    return ((crc >> 15) | (crc << 17)) + 0xa282ead8u;
}

/// Decodes a whole snappy frame stream `in`, appending the uncompressed data to `out` (a
/// caller's buffer, reused: it only grows). Every data chunk's masked CRC-32C is verified.
/// Returns the number of bytes appended. Offsets in errors are absolute: the chunk's position
/// in `in` plus `base_offset` (for a checksum mismatch, the chunk's checksum field).
/// Errors: frame_missing_stream_identifier (also for empty input), frame_bad_stream_identifier,
/// frame_chunk_truncated, frame_reserved_chunk, frame_chunk_too_short, frame_chunk_too_large,
/// frame_corrupt_data, frame_checksum_mismatch. On failure `out` is restored to its size on
/// entry (its capacity may have grown).
[[nodiscard]] Result<std::size_t, Error> decode_snappy_frames(BytesView in, Bytes& out,
                                                              std::size_t base_offset = 0) noexcept;

}  // namespace keel::store
