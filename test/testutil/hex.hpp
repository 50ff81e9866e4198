#pragma once
/// Literals in tests: fixed-size values from hex, 256-bit numbers from text, hashes as hex.

#include <stdexcept>
#include <string>
#include <string_view>

#include "keel/common/bytes.hpp"
#include "keel/common/hex.hpp"
#include "keel/common/uint256.hpp"

namespace keel::testutil {

/// A fixed-size value such as Hash32 or Address from hex (with or without 0x); throws
/// std::invalid_argument naming the text on bad input.
template <class Fixed>
Fixed fixed_from_hex(std::string_view text) {
    auto v = hex::decode_fixed<Fixed>(text);
    if (!v) throw std::invalid_argument(std::string(text));
    return *v;
}

/// A Uint256 from decimal, or hex with a 0x prefix (Uint256::from_string); throws
/// std::invalid_argument naming the text on bad input.
inline Uint256 uint256_from_string(std::string_view text) {
    auto v = Uint256::from_string(text);
    if (!v) throw std::invalid_argument(std::string(text));
    return *v;
}

/// Lower-case hex of a hash, without 0x.
inline std::string hex_of(const Hash32& h) {
    return hex::encode(h.view());
}

}  // namespace keel::testutil
