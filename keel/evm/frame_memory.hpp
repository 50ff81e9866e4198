#pragma once
/// A call frame's memory: a byte buffer that only grows while the frame runs and whose bytes
/// past size() are always zero, so growing by a word is a size update, not a zero fill. Solidity
/// code allocates memory and never frees it: snailtracer's frame grows 215,000 times, one word
/// at a time, and each growth through std::vector::resize cost a call and a 32-byte fill.
/// clear() zeroes what was used, so a buffer reused by the next frame at the same depth starts
/// as fresh memory.

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <new>

#include "keel/common/bytes.hpp"

namespace keel::evm {

class FrameMemory {
  public:
    FrameMemory() = default;
    ~FrameMemory() { std::free(data_); }
    FrameMemory(const FrameMemory&) = delete;
    FrameMemory& operator=(const FrameMemory&) = delete;

    std::uint8_t* data() noexcept { return data_; }
    const std::uint8_t* data() const noexcept { return data_; }
    std::size_t size() const noexcept { return size_; }
    std::size_t capacity() const noexcept { return capacity_; }
    operator BytesView() const noexcept { return {data_, size_}; }

    /// Grows to n bytes when n > size(); the new bytes read as zero.
    void grow_to(std::size_t n) {
        if (n <= size_) return;
        if (n > capacity_) reserve(n);
        size_ = n;
    }
    /// Size 0, every byte used so far zeroed again.
    void clear() noexcept {
        if (size_ != 0) std::memset(data_, 0, size_);
        size_ = 0;
    }
    /// Gives the buffer back (a pooled frame that grew large).
    void release() noexcept {
        std::free(data_);
        data_ = nullptr;
        size_ = capacity_ = 0;
    }

  private:
    [[gnu::noinline]] void reserve(std::size_t n) {
        std::size_t cap = capacity_ < 4096 ? 4096 : 2 * capacity_;
        if (cap < n) cap = (n + 4095) & ~std::size_t{4095};
        // 64-byte aligned: a 32-byte word at a multiple of 32 never straddles two cache lines.
        auto* p = static_cast<std::uint8_t*>(std::aligned_alloc(64, cap));
        if (p == nullptr) throw std::bad_alloc();
        if (size_ != 0) std::memcpy(p, data_, size_);
        std::memset(p + size_, 0, cap - size_);  // the invariant: zero past size()
        std::free(data_);
        data_ = p;
        capacity_ = cap;
    }

    std::uint8_t* data_ = nullptr;
    std::size_t size_ = 0;
    std::size_t capacity_ = 0;
};

}  // namespace keel::evm
