#pragma once
/// e2store: a file of type-length-value records (nimbus-eth2 docs/e2store.md,
/// eth-clients/e2store-format-specs). Each record is an 8-byte header
///   type (2 bytes) | length (uint32 little-endian) | reserved (2 bytes, zero)
/// followed by `length` bytes of value. Types are given here as the two stored bytes read as a
/// little-endian uint16 (so the bytes 65 32 of a Version record are 0x3265), as go-ethereum's
/// constants are.
///
/// The reader walks a file held in memory; it allocates nothing and is noexcept.

#include <cstddef>
#include <cstdint>

#include "keel/common/bytes.hpp"
#include "keel/common/result.hpp"
#include "keel/store/errors.hpp"

namespace keel::store {

/// Size of an e2store record header.
inline constexpr std::size_t kE2HeaderSize = 8;

/// Record types of e2store files used by era1 (stored bytes read little-endian).
namespace e2type {
inline constexpr std::uint16_t kVersion = 0x3265;             ///< bytes 65 32 ("e2")
inline constexpr std::uint16_t kCompressedHeader = 0x0003;    ///< bytes 03 00
inline constexpr std::uint16_t kCompressedBody = 0x0004;      ///< bytes 04 00
inline constexpr std::uint16_t kCompressedReceipts = 0x0005;  ///< bytes 05 00
inline constexpr std::uint16_t kTotalDifficulty = 0x0006;     ///< bytes 06 00
inline constexpr std::uint16_t kAccumulator = 0x0007;         ///< bytes 07 00
inline constexpr std::uint16_t kBlockIndex = 0x3266;          ///< bytes 66 32 ("f2")
}  // namespace e2type

/// One record: a view into the file (valid while the file's bytes live).
struct E2Record {
    std::uint16_t type = 0;  ///< stored bytes as little-endian uint16
    std::size_t offset = 0;  ///< offset of the record's header in the file
    BytesView value;         ///< the `length` bytes after the header
};

/// Walks the records of a file in memory, front to back. Holds a view of `file`: the bytes must
/// outlive the reader. Not thread-safe (one reader per thread; readers are cheap).
class E2Reader {
  public:
    /// A reader at the start of `file`.
    explicit E2Reader(BytesView file) noexcept : file_(file) {}

    /// True when every byte has been read.
    [[nodiscard]] bool at_end() const noexcept { return pos_ == file_.size(); }

    /// Offset of the next record's header.
    [[nodiscard]] std::size_t position() const noexcept { return pos_; }

    /// Reads the next record and moves past it. Errors (offset: the record's header):
    /// record_header_truncated (fewer than 8 bytes left, including none), record_past_end,
    /// record_reserved_not_zero. After an error the reader does not move.
    [[nodiscard]] Result<E2Record, Error> next() noexcept;

  private:
    BytesView file_;
    std::size_t pos_ = 0;
};

}  // namespace keel::store
