#pragma once
/// SHA-256 constants and the implementations behind keel/crypto/sha256.hpp. Private to
/// keel/crypto.

#include <array>
#include <cstddef>
#include <cstdint>

namespace keel::crypto::detail {

/// One SHA-256 implementation.
struct Sha256Impl {
    /// FIPS 180-4 §6.2.2 steps 1-4 for `nblocks` consecutive 64-byte blocks, updating `h`.
    void (*compress)(std::uint32_t h[8], const std::uint8_t* blocks, std::size_t nblocks) noexcept;
    /// SHA-256 of one 64-byte message.
    void (*hash64)(const std::uint8_t* in, std::uint8_t* out) noexcept;
    /// `n` independent 64-byte messages.
    void (*hash64_many)(const std::uint8_t* in, std::uint8_t* out, std::size_t n) noexcept;
};

extern const Sha256Impl kSha256Shani;    ///< sha256_shani.cpp; needs sha256_shani_supported()
extern const Sha256Impl kSha256OpenSsl;  ///< sha256.cpp

/// CPUID reports the SHA extensions and SSE4.1 (which the SHA-NI code also uses).
bool sha256_shani_supported() noexcept;

// ----- Constants, computed from their definitions (FIPS 180-4 §4.2.2, §5.3.3) -----------------

__extension__ typedef unsigned __int128 Uint128;

/// The first n primes.
template <int N>
constexpr std::array<std::uint32_t, N> first_primes() {
    std::array<std::uint32_t, N> p{};
    int found = 0;
    for (std::uint32_t c = 2; found < N; ++c) {
        bool prime = true;
        for (std::uint32_t d = 2; d * d <= c; ++d)
            if (c % d == 0) prime = false;
        if (prime) p[found++] = c;
    }
    return p;
}

/// floor(v^(1/k)) for k = 2 or 3, by bisection.
constexpr std::uint64_t integer_root(Uint128 v, int k) {
    std::uint64_t lo = 0, hi = std::uint64_t{1} << 43;  // roots here stay below 2^36
    while (lo < hi) {
        const std::uint64_t mid = lo + (hi - lo + 1) / 2;
        Uint128 p = mid;
        for (int i = 1; i < k; ++i) p *= mid;
        if (p <= v)
            lo = mid;
        else
            hi = mid - 1;
    }
    return lo;
}

/// K: the first 32 bits of the fractional parts of the cube roots of the first 64 primes
/// (FIPS 180-4 §4.2.2): floor(cbrt(p) * 2^32) mod 2^32 = floor(cbrt(p * 2^96)) mod 2^32.
constexpr std::array<std::uint32_t, 64> make_sha256_k() {
    std::array<std::uint32_t, 64> k{};
    const auto primes = first_primes<64>();
    for (int i = 0; i < 64; ++i)
        k[i] = static_cast<std::uint32_t>(integer_root(Uint128{primes[i]} << 96, 3));
    return k;
}
inline constexpr std::array<std::uint32_t, 64> kSha256K = make_sha256_k();

/// H(0): the first 32 bits of the fractional parts of the square roots of the first 8 primes
/// (FIPS 180-4 §5.3.3).
constexpr std::array<std::uint32_t, 8> make_sha256_h0() {
    std::array<std::uint32_t, 8> h{};
    const auto primes = first_primes<8>();
    for (int i = 0; i < 8; ++i)
        h[i] = static_cast<std::uint32_t>(integer_root(Uint128{primes[i]} << 64, 2));
    return h;
}
inline constexpr std::array<std::uint32_t, 8> kSha256H0 = make_sha256_h0();

static_assert(kSha256K[0] == 0x428a2f98 && kSha256K[63] == 0xc67178f2);
static_assert(kSha256H0[0] == 0x6a09e667 && kSha256H0[7] == 0x5be0cd19);

constexpr std::uint32_t rotr32(std::uint32_t x, int n) {
    return (x >> n) | (x << (32 - n));
}

/// W[t] + K[t] for the block that pads every 64-byte message (FIPS 180-4 §5.1.1: 0x80, zeros,
/// and the 64-bit bit length 512), message schedule per §6.2.2 step 1. The second compression of
/// a 64-byte hash needs nothing else.
constexpr std::array<std::uint32_t, 64> make_pad64_wk() {
    std::array<std::uint32_t, 64> w{};
    w[0] = 0x80000000u;
    w[15] = 512;
    for (int t = 16; t < 64; ++t) {
        const std::uint32_t s0 = rotr32(w[t - 15], 7) ^ rotr32(w[t - 15], 18) ^ (w[t - 15] >> 3);
        const std::uint32_t s1 = rotr32(w[t - 2], 17) ^ rotr32(w[t - 2], 19) ^ (w[t - 2] >> 10);
        w[t] = w[t - 16] + s0 + w[t - 7] + s1;
    }
    for (int t = 0; t < 64; ++t) w[t] += kSha256K[t];
    return w;
}
inline constexpr std::array<std::uint32_t, 64> kPad64WK = make_pad64_wk();

}  // namespace keel::crypto::detail
