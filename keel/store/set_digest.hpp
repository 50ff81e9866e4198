#pragma once
/// An order-independent digest of a multiset of fixed-size records: their count and the sum mod
/// 2^256 of keccak256(record). Two sides of an index (e.g. every body transaction's (hash,
/// block, index) and every tx lookup entry) read in different orders have equal digests exactly
/// when they hold the same records, but for a chance of about 2^-256 for records that were not
/// chosen to collide: a consistency check for damage, not a defence against an adversary.
///
/// Records are buffered and hashed in batches with crypto::keccak256_many(), spread over keel's
/// thread pool. One thread uses a SetDigest at a time.

#include <cstddef>
#include <cstdint>

#include "keel/common/bytes.hpp"
#include "keel/common/uint256.hpp"

namespace keel::store {

class SetDigest {
  public:
    /// Records of `record_size` bytes.
    explicit SetDigest(std::size_t record_size);

    /// Adds the record `head ‖ tail`. Precondition (asserted): head.size() + tail.size() is the
    /// record size.
    void add(BytesView head, BytesView tail);

    /// Adds `count` records whose keccak256 sum was computed elsewhere (see sum_of()).
    void merge(const Uint256& sum, std::uint64_t count) noexcept;

    /// Hashes the buffered records; count() and sum() are final until the next add().
    void flush();

    /// Records added.
    std::uint64_t count() const noexcept { return count_; }

    /// The sum of the flushed records' keccak256 (call flush() first).
    const Uint256& sum() const noexcept { return sum_; }

    /// The sum mod 2^256 of keccak256 over `records`, laid end to end `record_size` bytes each.
    static Uint256 sum_of(BytesView records, std::size_t record_size);

  private:
    std::size_t record_size_;
    Bytes buffer_;
    std::size_t buffered_ = 0;
    std::uint64_t count_ = 0;
    Uint256 sum_;
};

}  // namespace keel::store
