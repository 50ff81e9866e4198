#include "keel/crypto/hmac.hpp"

#include <openssl/evp.h>
#include <openssl/hmac.h>

#include <algorithm>

#include "keel/common/assert.hpp"

namespace keel::crypto {

Hash32 hmac_sha256(BytesView key, BytesView data) noexcept {
    Hash32 out;
    unsigned len = 0;
    // One-shot HMAC: OpenSSL keeps no state between calls, so this is thread-safe.
    const unsigned char* r = HMAC(EVP_sha256(), key.data(), static_cast<int>(key.size()),
                                  data.data(), data.size(), out.data(), &len);
    KEEL_ASSERT(r != nullptr && len == 32);
    return out;
}

Hash32 hkdf_sha256_extract(BytesView salt, BytesView ikm) noexcept {
    return hmac_sha256(salt, ikm);
}

void hkdf_sha256_expand(BytesView prk, BytesView info, std::span<std::uint8_t> out) noexcept {
    KEEL_ASSERT(out.size() <= 255 * 32);
    // T(i) = HMAC(PRK, T(i-1) || info || i), T(0) empty; OKM = T(1) || T(2) || ...
    Bytes block;
    Hash32 t;
    for (std::size_t pos = 0, i = 1; pos < out.size(); ++i) {
        block.clear();
        if (i > 1) block.insert(block.end(), t.begin(), t.end());
        block.insert(block.end(), info.begin(), info.end());
        block.push_back(static_cast<std::uint8_t>(i));
        t = hmac_sha256(prk, block);
        const std::size_t n = std::min<std::size_t>(32, out.size() - pos);
        std::copy_n(t.begin(), n, out.begin() + static_cast<std::ptrdiff_t>(pos));
        pos += n;
    }
}

}  // namespace keel::crypto
