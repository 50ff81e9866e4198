#include "keel/store/set_digest.hpp"

#include <cstring>
#include <vector>

#include "keel/common/assert.hpp"
#include "keel/common/parallel.hpp"
#include "keel/crypto/keccak.hpp"

namespace keel::store {
namespace {

// Records hashed per flush, and per task within a flush.
constexpr std::size_t kBatchRecords = 16384;
constexpr std::size_t kTaskRecords = 1024;

}  // namespace

SetDigest::SetDigest(std::size_t record_size)
    : record_size_(record_size), buffer_(record_size * kBatchRecords) {}

void SetDigest::add(BytesView head, BytesView tail) {
    KEEL_ASSERT(head.size() + tail.size() == record_size_);
    std::uint8_t* out = buffer_.data() + buffered_ * record_size_;
    if (!head.empty()) std::memcpy(out, head.data(), head.size());
    if (!tail.empty()) std::memcpy(out + head.size(), tail.data(), tail.size());
    ++count_;
    if (++buffered_ == kBatchRecords) flush();
}

void SetDigest::merge(const Uint256& sum, std::uint64_t count) noexcept {
    sum_ += sum;
    count_ += count;
}

void SetDigest::flush() {
    const BytesView all(buffer_.data(), buffered_ * record_size_);
    const std::size_t size = record_size_;
    sum_ += parallel::map_reduce(
        buffered_, kTaskRecords, Uint256{},
        [all, size](std::size_t begin, std::size_t end) {
            return sum_of(all.subspan(begin * size, (end - begin) * size), size);
        },
        [](Uint256 a, const Uint256& b) { return a + b; });
    buffered_ = 0;
}

Uint256 SetDigest::sum_of(BytesView records, std::size_t record_size) {
    const std::size_t count = records.size() / record_size;
    std::vector<BytesView> views(count);
    for (std::size_t i = 0; i < count; ++i) {
        views[i] = records.subspan(i * record_size, record_size);
    }
    std::vector<Hash32> digests(count);
    crypto::keccak256_many(views, digests);
    Uint256 sum;
    for (const Hash32& d : digests) sum += Uint256::from_be_bytes(d);
    return sum;
}

}  // namespace keel::store
