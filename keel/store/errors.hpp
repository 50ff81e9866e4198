#pragma once
/// Error codes of the store module's file readers: snappy framing, e2store records and era1
/// archives (DESIGN.md §3, docs/errors.md).
///
/// The framing and record readers return keel::InputError<store::Errc> (code + absolute byte
/// offset). The era1 reader returns store::Era1Error, which adds the block number and the offset
/// of the e2store record at fault, and keeps the eth::Error of a header, body or receipt that
/// failed to decode, so one line names everything:
///   "era1 block 5 (record at offset 1200): snappy chunk checksum mismatch at offset 1234"

#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <string_view>

#include "keel/common/result.hpp"
#include "keel/eth/errors.hpp"

namespace keel::store {

/// What was wrong with a snappy frame stream, an e2store file or an era1 archive.
enum class Errc : std::uint8_t {
    // ---- snappy framing (snappy_frame.hpp) ----------------------------------------------------
    frame_missing_stream_identifier,  ///< the stream does not start with a 0xff chunk
    frame_bad_stream_identifier,      ///< a 0xff chunk that is not exactly "sNaPpY"
    frame_chunk_truncated,            ///< a chunk header or body runs past the end of the input
    frame_reserved_chunk,             ///< a reserved unskippable chunk type (0x02-0x7f)
    frame_chunk_too_short,            ///< a data chunk shorter than its 4-byte checksum
    frame_chunk_too_large,            ///< a data chunk holding more than 65536 bytes
    frame_corrupt_data,               ///< compressed data that libsnappy rejects
    frame_checksum_mismatch,          ///< masked CRC-32C differs from the chunk's data
    // ---- e2store records (e2store.hpp) --------------------------------------------------------
    record_header_truncated,   ///< fewer than 8 bytes left for a record header
    record_past_end,           ///< a record's value runs past the end of the file
    record_reserved_not_zero,  ///< the header's 2 reserved bytes are not zero
    // ---- era1 (era1.hpp) ----------------------------------------------------------------------
    missing_version,        ///< the file does not start with a Version record
    unexpected_record,      ///< a record out of order (header, body, receipts, TD, ...)
    missing_record,         ///< the file ends before an expected record
    bad_record_size,        ///< TD or accumulator value not 32 bytes, version not empty
    too_many_blocks,        ///< more than 8192 blocks in one archive
    bad_block_index,        ///< block index record of the wrong size or count
    index_mismatch,         ///< the index's start or an offset disagrees with the records
    trailing_records,       ///< records after the block index
    accumulator_mismatch,   ///< recomputed accumulator root differs from the Accumulator record
    block_number_mismatch,  ///< a header's number is not start + position
    block_out_of_range,     ///< block(i) with i >= count()
    eth,                    ///< header, body or receipts failed to decode; Era1Error::eth says how
};

/// A short human phrase for the code, e.g. "snappy chunk checksum mismatch".
std::string_view describe(Errc e) noexcept;

/// Framing and record errors: code + absolute byte offset in the caller's input.
using Error = keel::InputError<Errc>;

/// An era1 error: what, where in the file, and which block.
struct Era1Error {
    /// Block number meaning "not about one block" (version, accumulator, index).
    static constexpr std::uint64_t kNoBlock = std::numeric_limits<std::uint64_t>::max();

    Errc code = Errc::missing_version;
    std::uint64_t block = kNoBlock;  ///< block number, or kNoBlock
    /// True when `block` is the block's position in the file (0 = first block) instead of its
    /// number: Era1::open() finds structural faults before it has read the block index.
    bool block_is_position = false;
    std::size_t record = 0;  ///< offset of the e2store record's header in the file
    std::size_t offset = 0;  ///< absolute offset of the fault in the file
    /// For Errc::eth: the decoder's error (its offset counts in the decompressed payload).
    eth::Error eth{};

    friend constexpr bool operator==(const Era1Error&, const Era1Error&) = default;
};

/// One line: "era1[ block <n>| block #<position> of the file] (record at offset <r>): <phrase> at
/// offset <o>"; for Errc::eth the phrase is eth::to_string() of the decoder's error (its offset
/// within the decompressed header, body or receipts).
std::string to_string(const Era1Error& e);

}  // namespace keel::store
