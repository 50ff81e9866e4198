#pragma once
/// Snappy *block* decompression for `.ssz_snappy` files (consensus-spec-tests store SSZ bytes
/// compressed as one raw snappy block,
/// https://github.com/google/snappy/blob/main/format_description.txt; not the framed format).

#include <cstddef>

#include "keel/common/bytes.hpp"
#include "keel/common/result.hpp"
#include "keel/ssz/errors.hpp"

namespace keel::ssz {

/// Decompresses one snappy block. The uncompressed length in the block's header is checked
/// against `max_size` before anything is allocated (Errc::snappy_too_large); a corrupt block
/// gives Errc::snappy_invalid. On failure nothing is returned but the error.
[[nodiscard]] Result<Bytes, Error> snappy_block_decode(BytesView in, std::size_t max_size) noexcept;

}  // namespace keel::ssz
