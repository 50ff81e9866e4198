#pragma once
// JSON-RPC encodings shared by the commands that print Ethereum objects.

#include <cstdint>
#include <string>

#include "keel/common/bytes.hpp"
#include "keel/common/hex.hpp"
#include "keel/common/uint256.hpp"

namespace keel::cli {

/// A QUANTITY: 0x-prefixed, no leading zeros ("0x0" for zero).
inline std::string json_quantity(const Uint256& v) {
    return v.to_hex();
}
inline std::string json_quantity(std::uint64_t v) {
    return Uint256(v).to_hex();
}

/// DATA: 0x-prefixed, two digits per byte.
inline std::string json_data(BytesView b) {
    return hex::encode_prefixed(b);
}

}  // namespace keel::cli
