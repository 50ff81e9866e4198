#pragma once
/// Snappy for devp2p p2p v5 (https://github.com/ethereum/devp2p/blob/master/rlpx.md, "Message
/// Snappy Compression"): after Hello, every message payload is one snappy block in the raw
/// format (no framing format): a varint of the uncompressed length, then literal and copy
/// elements (google/snappy format_description.txt). The library is Debian's libsnappy.
///
/// Buffers are the caller's and only grow: a Bytes given here is resized up when it is too
/// small and never shrunk, so after warm-up nothing is allocated for decompression. (Snappy's
/// compressor allocates its own working memory on each call; that is inside the library.)
///
/// Decompression is bounded: the declared length is read and checked against the limit (16 MiB
/// by default, the devp2p message cap) before any byte is allocated or written, and the output
/// must be exactly the declared length. Errors: SnappyError, to_string() gives one line.
/// Threading: the functions are pure apart from the buffers passed in.

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "keel/common/bytes.hpp"
#include "keel/common/result.hpp"

namespace keel::rlpx {

/// The largest decompressed message accepted (devp2p: 16 MiB; go-ethereum uses the same cap).
inline constexpr std::size_t kMaxDecompressedSize = std::size_t{16} << 20;

/// What was wrong with a snappy payload.
enum class SnappyErrc : std::uint8_t {
    bad_length_header,  ///< the leading varint (uncompressed length) is malformed or truncated
    too_large,          ///< the declared uncompressed length exceeds the limit
    length_mismatch,    ///< the elements decode to more or fewer bytes than declared
    corrupt,            ///< a truncated element, or a copy reaching before the start
};

/// A short human phrase for the code, e.g. "declared length exceeds the limit".
std::string_view describe(SnappyErrc e) noexcept;

/// A snappy error with the numbers that make it concrete.
struct SnappyError {
    SnappyErrc code = SnappyErrc::corrupt;
    /// The declared uncompressed length (0 for bad_length_header).
    std::uint64_t declared = 0;
    /// too_large: the limit; length_mismatch: the bytes the elements produce (when they
    /// produce more than declared: up to the first element that goes past); 0 otherwise.
    std::uint64_t actual = 0;
    /// Offset in the compressed input of the element at fault (corrupt), or of the end.
    std::size_t offset = 0;

    friend constexpr bool operator==(const SnappyError&, const SnappyError&) = default;
};

/// One line, e.g. "snappy: declared length exceeds the limit (declared 20000000, limit
/// 16777216)".
std::string to_string(const SnappyError& e);

/// The most bytes snappy_compress_into() may write for `n` input bytes.
std::size_t snappy_max_compressed_length(std::size_t n) noexcept;

/// Compresses `in` into the front of `out`, which must hold snappy_max_compressed_length()
/// bytes (asserted); returns the compressed size. For compressing straight into a frame's
/// payload slot (FrameWriter::begin()).
std::size_t snappy_compress_into(BytesView in, MutableBytesView out);

/// Compresses `in` into `buf` (grown if too small, never shrunk); returns a view of the
/// compressed bytes in `buf`, valid until `buf` is touched.
BytesView snappy_compress(BytesView in, Bytes& buf);

/// The uncompressed length `in` declares, checked against `limit`.
/// Errors: bad_length_header, too_large.
[[nodiscard]] Result<std::size_t, SnappyError> snappy_declared_length(
    BytesView in, std::size_t limit = kMaxDecompressedSize) noexcept;

/// Decompresses `in` into `buf` (grown to the declared length only after it passed the limit;
/// never shrunk); returns a view of the message in `buf`, valid until `buf` is touched. On
/// failure the contents of `buf` are unspecified (its size may have grown).
/// Errors: bad_length_header, too_large, length_mismatch, corrupt.
[[nodiscard]] Result<BytesView, SnappyError> snappy_decompress(
    BytesView in, Bytes& buf, std::size_t limit = kMaxDecompressedSize);

}  // namespace keel::rlpx
