#include "keel/ssz/snappy_block.hpp"

#include <snappy.h>

namespace keel::ssz {

Result<Bytes, Error> snappy_block_decode(BytesView in, std::size_t max_size) noexcept {
    const char* src = reinterpret_cast<const char*>(in.data());
    std::size_t n = 0;
    if (!snappy::GetUncompressedLength(src, in.size(), &n)) {
        return std::unexpected(Error{Errc::snappy_invalid, 0, 0, 0, "snappy"});
    }
    if (n > max_size) {
        return std::unexpected(Error{Errc::snappy_too_large, 0, n, max_size, "snappy"});
    }
    Bytes out(n);
    char empty = 0;  // RawUncompress wants a real pointer even for an empty output
    char* dst = n == 0 ? &empty : reinterpret_cast<char*>(out.data());
    // libsnappy validates the whole block and never writes past the stated length.
    if (!snappy::RawUncompress(src, in.size(), dst)) {
        return std::unexpected(Error{Errc::snappy_invalid, 0, 0, 0, "snappy"});
    }
    return out;
}

}  // namespace keel::ssz
