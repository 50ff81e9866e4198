#pragma once
/// HMAC-SHA256 (RFC 2104) and HKDF-SHA256 (RFC 5869), on OpenSSL: BLS key generation
/// (draft-irtf-cfrg-bls-signature §2.3) and the RLPx handshake's MACs need them.

#include <cstddef>
#include <cstdint>
#include <span>

#include "keel/common/bytes.hpp"

namespace keel::crypto {

/// HMAC-SHA256(key, data).
Hash32 hmac_sha256(BytesView key, BytesView data) noexcept;

/// HKDF-Extract(salt, IKM) = HMAC-SHA256(salt, IKM).
Hash32 hkdf_sha256_extract(BytesView salt, BytesView ikm) noexcept;

/// HKDF-Expand(PRK, info, L) into `out` (L = out.size() <= 255 * 32, asserted).
void hkdf_sha256_expand(BytesView prk, BytesView info, std::span<std::uint8_t> out) noexcept;

}  // namespace keel::crypto
