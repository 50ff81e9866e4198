#pragma once
/// Ids of filters and subscriptions as geth makes them: "0x" and 32 hex digits, 16 bytes from
/// the OS's randomness, so that one client cannot guess another's.

#include <optional>
#include <string>

#include "keel/common/bytes.hpp"
#include "keel/common/hex.hpp"
#include "keel/crypto/random.hpp"

namespace keel::rpc {

/// A fresh id; nullopt when the OS gives no randomness.
inline std::optional<std::string> random_id() {
    FixedBytes<16> raw;
    if (!crypto::random_bytes(raw.mutable_view())) return std::nullopt;
    return hex::encode_prefixed(raw.view());
}

}  // namespace keel::rpc
