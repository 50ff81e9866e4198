#include "keel/crypto/sha256.hpp"

// The OpenSSL backend uses the low-level SHA256_* functions: they hash on a stack context with no
// allocation and no per-call algorithm fetch, which the EVP interface cannot offer for 64-byte
// messages. OpenSSL 3 marks them deprecated (not removed); this file asks for the 1.1.1 API.
#define OPENSSL_API_COMPAT 0x10101000L
#include <openssl/sha.h>

#include <cstring>

#include "keel/common/assert.hpp"
#include "keel/crypto/detail/sha256_backend.hpp"

namespace keel::crypto {
namespace detail {
namespace {

void compress_openssl(std::uint32_t h[8], const std::uint8_t* p, std::size_t nblocks) noexcept {
    SHA256_CTX ctx;
    std::memset(&ctx, 0, sizeof ctx);
    static_assert(sizeof(ctx.h) == 8 * sizeof(std::uint32_t));
    std::memcpy(ctx.h, h, sizeof ctx.h);
    for (std::size_t i = 0; i < nblocks; ++i, p += 64) SHA256_Transform(&ctx, p);
    std::memcpy(h, ctx.h, sizeof ctx.h);
}

void hash64_openssl(const std::uint8_t* in, std::uint8_t* out) noexcept {
    std::uint8_t digest[SHA256_DIGEST_LENGTH];
    SHA256_CTX ctx;
    SHA256_Init(&ctx);
    SHA256_Update(&ctx, in, 64);
    SHA256_Final(digest, &ctx);
    std::memcpy(out, digest, sizeof digest);
}

void hash64_many_openssl(const std::uint8_t* in, std::uint8_t* out, std::size_t n) noexcept {
    for (std::size_t i = 0; i < n; ++i) hash64_openssl(in + 64 * i, out + 32 * i);
}

}  // namespace

const Sha256Impl kSha256OpenSsl{compress_openssl, hash64_openssl, hash64_many_openssl};

}  // namespace detail

namespace {

static_assert(detail::kSha256H0[0] == 0x6a09e667 && detail::kSha256H0[1] == 0xbb67ae85 &&
                  detail::kSha256H0[2] == 0x3c6ef372 && detail::kSha256H0[3] == 0xa54ff53a &&
                  detail::kSha256H0[4] == 0x510e527f && detail::kSha256H0[5] == 0x9b05688c &&
                  detail::kSha256H0[6] == 0x1f83d9ab && detail::kSha256H0[7] == 0x5be0cd19,
              "Sha256's initial value in sha256.hpp must be FIPS 180-4 H(0)");

const detail::Sha256Impl* impl_for(Sha256Backend b) noexcept {
    switch (b) {
        case Sha256Backend::shani:
            return detail::sha256_shani_supported() ? &detail::kSha256Shani : nullptr;
        case Sha256Backend::openssl:
            return &detail::kSha256OpenSsl;
    }
    return nullptr;
}

// The process-wide choice: constant-initialised to OpenSSL (correct everywhere, so a static
// initialiser elsewhere that hashes before this file's runs still gets the right digest), replaced
// once by SHA-NI during static initialisation where the CPU has it, then only read.
constinit Sha256Backend g_backend = Sha256Backend::openssl;
constinit const detail::Sha256Impl* g_impl = &detail::kSha256OpenSsl;

// Whether sha256_64_many() runs the 16-lane AVX-512F kernel: set once, with g_backend, where the
// CPU has AVX-512F and kX16ByDefault holds (it measured faster than SHA-NI; sha256_bench.cpp).
constexpr bool kX16ByDefault = true;
constinit bool g_many_x16 = false;

[[maybe_unused]] const bool g_chosen = [] {
    if (detail::sha256_shani_supported()) {
        g_backend = Sha256Backend::shani;
        g_impl = &detail::kSha256Shani;
    }
    g_many_x16 = kX16ByDefault && sha256_x16_available();
    return true;
}();

inline void store_be32(std::uint8_t* p, std::uint32_t v) noexcept {
    p[0] = static_cast<std::uint8_t>(v >> 24);
    p[1] = static_cast<std::uint8_t>(v >> 16);
    p[2] = static_cast<std::uint8_t>(v >> 8);
    p[3] = static_cast<std::uint8_t>(v);
}

// FIPS 180-4 §5.1.1: append 0x80, zeros to 56 mod 64, then the message length in bits as a
// 64-bit big-endian integer; one or two final blocks. `tail` holds the last length % 64 bytes.
void finish(const detail::Sha256Impl& impl, std::uint32_t h[8], const std::uint8_t* tail,
            std::uint64_t length, std::uint8_t* out32) noexcept {
    std::uint8_t last[128];
    const std::size_t rem = static_cast<std::size_t>(length % 64);
    const std::size_t total = rem < 56 ? 64 : 128;
    if (rem != 0) std::memcpy(last, tail, rem);
    last[rem] = 0x80;
    std::memset(last + rem + 1, 0, total - 8 - rem - 1);
    const std::uint64_t bits = length * 8;
    store_be32(last + total - 8, static_cast<std::uint32_t>(bits >> 32));
    store_be32(last + total - 4, static_cast<std::uint32_t>(bits));
    impl.compress(h, last, total / 64);
    for (int i = 0; i < 8; ++i) store_be32(out32 + 4 * i, h[i]);
}

void sha256_impl(const detail::Sha256Impl& impl, BytesView data, std::uint8_t* out32) noexcept {
    std::uint32_t h[8];
    std::memcpy(h, detail::kSha256H0.data(), sizeof h);
    const std::size_t nblocks = data.size() / 64;
    if (nblocks != 0) impl.compress(h, data.data(), nblocks);
    finish(impl, h, data.data() + 64 * nblocks, data.size(), out32);
}

}  // namespace

Hash32 sha256(BytesView data) noexcept {
    Hash32 out;
    sha256_impl(*g_impl, data, out.data());
    return out;
}

void sha256_64(const std::uint8_t* in, std::uint8_t* out) noexcept {
    g_impl->hash64(in, out);
}

void sha256_64_many(const std::uint8_t* in, std::uint8_t* out, std::size_t n) noexcept {
    if (g_many_x16 && n >= kSha256X16MinMessages)
        sha256_64_many_x16(in, out, n);
    else
        g_impl->hash64_many(in, out, n);
}

bool sha256_64_many_uses_x16() noexcept {
    return g_many_x16;
}

void Sha256::update(BytesView data) noexcept {
    if (data.empty()) return;  // (an empty view may hold a null pointer: no memcpy from it)
    const std::uint8_t* p = data.data();
    std::size_t n = data.size();
    std::size_t used = static_cast<std::size_t>(length_ % 64);
    length_ += n;
    if (used != 0) {
        const std::size_t take = n < 64 - used ? n : 64 - used;
        std::memcpy(block_ + used, p, take);
        p += take;
        n -= take;
        if (used + take < 64) return;
        g_impl->compress(h_, block_, 1);
    }
    // Whole blocks straight from the caller's buffer.
    if (n >= 64) {
        g_impl->compress(h_, p, n / 64);
        p += n / 64 * 64;
        n %= 64;
    }
    if (n != 0) std::memcpy(block_, p, n);
}

void Sha256::finalize_to(std::uint8_t* out32) const noexcept {
    std::uint32_t h[8];
    std::memcpy(h, h_, sizeof h);
    finish(*g_impl, h, block_, length_, out32);
}

Hash32 Sha256::finalize() const noexcept {
    Hash32 out;
    finalize_to(out.data());
    return out;
}

bool sha256_backend_available(Sha256Backend backend) noexcept {
    return impl_for(backend) != nullptr;
}

Sha256Backend sha256_active_backend() noexcept {
    return g_backend;
}

const char* sha256_backend_name(Sha256Backend backend) noexcept {
    return backend == Sha256Backend::shani ? "shani" : "openssl";
}

const char* sha256_backend_name() noexcept {
    return sha256_backend_name(g_backend);
}

Hash32 sha256_with(Sha256Backend backend, BytesView data) noexcept {
    const detail::Sha256Impl* impl = impl_for(backend);
    KEEL_ASSERT(impl != nullptr);
    Hash32 out;
    if (backend == Sha256Backend::openssl) {
        // OpenSSL's own buffering and padding, so tests compare two independent code paths.
        SHA256_CTX ctx;
        SHA256_Init(&ctx);
        SHA256_Update(&ctx, data.data(), data.size());
        SHA256_Final(out.data(), &ctx);
    } else {
        sha256_impl(*impl, data, out.data());
    }
    return out;
}

void sha256_64_with(Sha256Backend backend, const std::uint8_t* in, std::uint8_t* out) noexcept {
    const detail::Sha256Impl* impl = impl_for(backend);
    KEEL_ASSERT(impl != nullptr);
    impl->hash64(in, out);
}

void sha256_64_many_with(Sha256Backend backend, const std::uint8_t* in, std::uint8_t* out,
                         std::size_t n) noexcept {
    const detail::Sha256Impl* impl = impl_for(backend);
    KEEL_ASSERT(impl != nullptr);
    impl->hash64_many(in, out, n);
}

}  // namespace keel::crypto
