#pragma once
/// A whole file mapped read-only into memory (mmap), for importers that walk archives of
/// hundreds of megabytes without copying them. The mapping lives as long as the MappedFile.

#include <cstddef>
#include <filesystem>

#include "keel/common/bytes.hpp"
#include "keel/common/result.hpp"
#include "keel/store/chain_store.hpp"

namespace keel::store {

class MappedFile {
  public:
    /// Maps `path` read-only. An empty file gives an empty view. Errors (one line naming the
    /// path and the system's reason): the file cannot be opened, is not a regular file, or
    /// cannot be mapped.
    [[nodiscard]] static Result<MappedFile, StoreError> open(const std::filesystem::path& path);

    MappedFile(MappedFile&& other) noexcept;
    MappedFile& operator=(MappedFile&& other) noexcept;
    MappedFile(const MappedFile&) = delete;
    MappedFile& operator=(const MappedFile&) = delete;
    ~MappedFile();

    /// The file's bytes.
    [[nodiscard]] BytesView bytes() const noexcept { return {data_, size_}; }

  private:
    MappedFile(const std::uint8_t* data, std::size_t size) noexcept : data_(data), size_(size) {}
    void release() noexcept;

    const std::uint8_t* data_ = nullptr;
    std::size_t size_ = 0;
};

}  // namespace keel::store
