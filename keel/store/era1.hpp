#pragma once
/// era1 archives: 8192 pre-merge blocks with their receipts and total difficulties in one
/// e2store file (eth-clients/e2store-format-specs formats/era1.md; go-ethereum internal/era).
///
///   era1       := Version | block-tuple* | other-entries* | Accumulator | BlockIndex
///   block-tuple := CompressedHeader | CompressedBody | CompressedReceipts | TotalDifficulty
///
/// Header, body and receipts are snappy-framed (snappy_frame.hpp) RLP: the header, the body
/// [transactions, ommers], and the list of full consensus receipts (typed ones wrapped in RLP
/// strings, as eth::decode_receipt_item() reads them). TotalDifficulty is a 32-byte
/// little-endian uint256. Accumulator is the 32-byte SSZ hash_tree_root of
/// List[HeaderRecord, 8192], HeaderRecord = {block_hash: Bytes32, total_difficulty: uint256}
/// (consensus-specs ssz/simple-serialize.md, "Merkleization"). BlockIndex is
///   starting-number u64 LE | count x i64 LE offsets | count u64 LE
/// each offset being relative to the start of the BlockIndex record (its header) and pointing at
/// the block's CompressedHeader record.
///
/// Era1::open() checks the structure only (cheap: no decompression); block() decompresses and
/// decodes one block, verify_accumulator() hashes every header. An Era1 holds a view of the
/// file's bytes: they must outlive it. All const members are thread-safe.

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "keel/common/bytes.hpp"
#include "keel/common/result.hpp"
#include "keel/common/uint256.hpp"
#include "keel/eth/block.hpp"
#include "keel/eth/header.hpp"
#include "keel/eth/receipt.hpp"
#include "keel/store/errors.hpp"

namespace keel::store {

/// Most blocks one era1 file holds (SLOTS_PER_HISTORICAL_ROOT), and the accumulator list limit.
inline constexpr std::size_t kEra1MaxBlocks = 8192;

/// One decoded block of an era1 archive.
struct Era1Block {
    eth::Header header;
    eth::BlockBody body;
    std::vector<eth::Receipt> receipts;  ///< one per transaction, in order
    Uint256 total_difficulty;            ///< sum of difficulties up to and including this block
    Hash32 hash;                         ///< keccak256 of the header's RLP as stored
};

/// The decompressed payloads of one block's records, as stored (RLP), e.g. to store them as they
/// are. Buffers are reused across calls.
struct Era1RawBlock {
    Bytes header;    ///< rlp(header)
    Bytes body;      ///< rlp([transactions, ommers])
    Bytes receipts;  ///< rlp(list of receipts), typed ones as RLP strings
};

/// The accumulator root: SSZ hash_tree_root of List[HeaderRecord, 8192] of (hashes[i], tds[i]).
/// Leaf i = sha256(hashes[i] || tds[i] as 32 bytes LE); the leaves, padded with zero hashes to
/// 8192, are merkleized, then mixed with the length: sha256(root || uint256_le(n)).
/// Preconditions (asserted): equal sizes, at most 8192.
Hash32 accumulator_root(std::span<const Hash32> hashes, std::span<const Uint256> tds) noexcept;

/// A parsed era1 archive over a file held in memory.
class Era1 {
  public:
    /// Parses the record structure of `file` (which must outlive the result): version first,
    /// whole block tuples, the accumulator and the block index last, the index agreeing with the
    /// records. Does not decompress. Errors (record and offset in the file; block when one is at
    /// fault): the e2store reader's (record_header_truncated, record_past_end,
    /// record_reserved_not_zero), missing_version, unexpected_record, missing_record,
    /// bad_record_size, too_many_blocks, bad_block_index, index_mismatch, trailing_records.
    [[nodiscard]] static Result<Era1, Era1Error> open(BytesView file) noexcept;

    /// Number of the first block.
    [[nodiscard]] std::uint64_t start_block() const noexcept { return start_; }

    /// Number of blocks.
    [[nodiscard]] std::size_t count() const noexcept { return blocks_.size(); }

    /// The root stored in the Accumulator record (check it with verify_accumulator()).
    [[nodiscard]] const Hash32& accumulator() const noexcept { return accumulator_; }

    /// Offset of the BlockIndex record in the file.
    [[nodiscard]] std::size_t index_offset() const noexcept { return index_offset_; }

    /// Offset of block i's CompressedHeader record. Precondition (asserted): i < count().
    [[nodiscard]] std::size_t header_offset(std::size_t i) const noexcept;

    /// Total difficulty of block i (read from its record). Precondition (asserted): i < count().
    [[nodiscard]] Uint256 total_difficulty(std::size_t i) const noexcept;

    /// Decompresses and decodes block i: header (its number must be start_block() + i), body,
    /// receipts, total difficulty, and hashes the header. `scratch` is a caller's buffer, reused
    /// for the decompressed payloads (contents unspecified afterwards). Errors: block_out_of_range,
    /// the framing errors (offset in the file), eth (the decoder's error, offsets within the
    /// decompressed payload; Era1Error::record says which record), block_number_mismatch.
    [[nodiscard]] Result<Era1Block, Era1Error> block(std::size_t i, Bytes& scratch) const noexcept;

    /// As above with a fresh buffer.
    [[nodiscard]] Result<Era1Block, Era1Error> block(std::size_t i) const noexcept;

    /// Decompresses block i's header, body and receipts records into `out` without decoding
    /// them. Errors: block_out_of_range and the framing errors.
    [[nodiscard]] Result<void, Era1Error> raw_block(std::size_t i,
                                                    Era1RawBlock& out) const noexcept;

    /// keccak256 of block i's decompressed header (no RLP decoding). Errors: block_out_of_range
    /// and the framing errors.
    [[nodiscard]] Result<Hash32, Era1Error> header_hash(std::size_t i,
                                                        Bytes& scratch) const noexcept;

    /// Hashes every header and recomputes the accumulator root; returns it when it equals the
    /// Accumulator record. Errors: those of header_hash(), accumulator_mismatch (record and
    /// offset: the Accumulator record's).
    [[nodiscard]] Result<Hash32, Era1Error> verify_accumulator() const noexcept;

  private:
    struct Entry {
        std::size_t header = 0;  ///< record offsets in the file
        std::size_t body = 0;
        std::size_t receipts = 0;
        std::size_t td = 0;
    };

    Era1() = default;
    [[nodiscard]] Result<void, Era1Error> decompress(std::size_t i, std::size_t record,
                                                     Bytes& out) const noexcept;

    BytesView file_;
    std::vector<Entry> blocks_;
    std::uint64_t start_ = 0;
    Hash32 accumulator_;
    std::size_t accumulator_offset_ = 0;
    std::size_t index_offset_ = 0;
};

}  // namespace keel::store
