#pragma once
/// Hand-made RLP for tests: lists assembled from items that are already encoded (so a test can
/// put a malformed item inside an otherwise well-formed list). For tests that link keel::rlp.

#include <cstddef>
#include <vector>

#include "keel/common/bytes.hpp"
#include "keel/rlp/encode.hpp"

namespace keel::testutil {

/// An RLP list whose payload is `items` (each already RLP-encoded) back to back.
inline Bytes list_of(const std::vector<Bytes>& items) {
    std::size_t n = 0;
    for (const auto& i : items) n += i.size();
    rlp::Encoder e;
    e.add_list_header(n);
    for (const auto& i : items) e.add_raw(i);
    return e.take();
}

}  // namespace keel::testutil
