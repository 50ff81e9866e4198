// SHA-256 with the x86 SHA extensions (Intel SDM vol. 2: SHA256RNDS2, SHA256MSG1, SHA256MSG2;
// Intel, "New Instructions Supporting the Secure Hash Algorithm on Intel Architecture
// Processors", 2013). Compiled for sha + sse4.1 per function; reached only after the CPUID check.
#include <immintrin.h>

#include <cstring>

#include "keel/crypto/detail/sha256_backend.hpp"

namespace keel::crypto::detail {
namespace {

#define KEEL_SHANI [[gnu::target("sha,sse4.1,ssse3"), gnu::always_inline]] inline

// SHA256RNDS2 keeps the eight working variables in two registers, {A, B, E, F} and {C, D, G, H}
// (dword 3 down to 0), and runs two rounds per instruction on W[t] + K[t] from XMM0's low half.
struct State {
    __m128i abef;
    __m128i cdgh;
};

// Byte order of the message words: FIPS 180-4 §3.1 reads them big-endian.
KEEL_SHANI __m128i byteswap_words(__m128i v) {
    return _mm_shuffle_epi8(v, _mm_set_epi64x(0x0c0d0e0f08090a0bLL, 0x0405060700010203LL));
}

KEEL_SHANI State load_state(const std::uint32_t h[8]) {
    const __m128i abcd = _mm_loadu_si128(reinterpret_cast<const __m128i*>(h));      // d, c, b, a
    const __m128i efgh = _mm_loadu_si128(reinterpret_cast<const __m128i*>(h + 4));  // h, g, f, e
    const __m128i cdab = _mm_shuffle_epi32(abcd, 0xb1);                             // c, d, a, b
    const __m128i efgh_rev = _mm_shuffle_epi32(efgh, 0x1b);                         // e, f, g, h
    return {_mm_alignr_epi8(cdab, efgh_rev, 8), _mm_blend_epi16(efgh_rev, cdab, 0xf0)};
}

KEEL_SHANI void store_state(State s, std::uint32_t h[8]) {
    const __m128i feba = _mm_shuffle_epi32(s.abef, 0x1b);  // f, e, b, a
    const __m128i dchg = _mm_shuffle_epi32(s.cdgh, 0xb1);  // d, c, h, g
    _mm_storeu_si128(reinterpret_cast<__m128i*>(h), _mm_blend_epi16(feba, dchg, 0xf0));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(h + 4), _mm_alignr_epi8(dchg, feba, 8));
}

// Rounds t..t+3 given W[t..t+3] + K[t..t+3]. The first SHA256RNDS2 leaves the new {A, B, E, F} in
// the {C, D, G, H} register, and the old {A, B, E, F} is exactly the new {C, D, G, H}; the
// second swaps back, so the roles are the same after every four rounds.
KEEL_SHANI void four_rounds(State& s, __m128i wk) {
    s.cdgh = _mm_sha256rnds2_epu32(s.cdgh, s.abef, wk);
    s.abef = _mm_sha256rnds2_epu32(s.abef, s.cdgh, _mm_shuffle_epi32(wk, 0x0e));
}

KEEL_SHANI __m128i k4(int t) {
    return _mm_loadu_si128(reinterpret_cast<const __m128i*>(kSha256K.data() + t));
}

// W[t..t+3] from the previous sixteen words (FIPS 180-4 §6.2.2 step 1) held as four groups:
// SHA256MSG1 adds σ0, the middle term W[t-7..t-4] straddles two groups, SHA256MSG2 adds σ1.
KEEL_SHANI __m128i next_words(__m128i w16, __m128i w12, __m128i w8, __m128i w4) {
    const __m128i partial =
        _mm_add_epi32(_mm_sha256msg1_epu32(w16, w12), _mm_alignr_epi8(w4, w8, 4));
    return _mm_sha256msg2_epu32(partial, w4);
}

// One compression (FIPS 180-4 §6.2.2) of the 64-byte block at `p`.
KEEL_SHANI void compress_block(State& s, const std::uint8_t* p) {
    const State saved = s;
    __m128i w[4];
#pragma GCC unroll 4
    for (int i = 0; i < 4; ++i)
        w[i] = byteswap_words(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 16 * i)));
#pragma GCC unroll 4
    for (int i = 0; i < 4; ++i) four_rounds(s, _mm_add_epi32(w[i], k4(4 * i)));
    // Rounds 16..63; w[i % 4] holds the group of words four groups back, which is overwritten.
#pragma GCC unroll 12
    for (int g = 4; g < 16; ++g) {
        w[g % 4] = next_words(w[g % 4], w[(g + 1) % 4], w[(g + 2) % 4], w[(g + 3) % 4]);
        four_rounds(s, _mm_add_epi32(w[g % 4], k4(4 * g)));
    }
    s.abef = _mm_add_epi32(s.abef, saved.abef);
    s.cdgh = _mm_add_epi32(s.cdgh, saved.cdgh);
}

// The second compression of a 64-byte message: the padding block's W + K is a constant table.
KEEL_SHANI void compress_pad64(State& s) {
    const State saved = s;
#pragma GCC unroll 16
    for (int g = 0; g < 16; ++g)
        four_rounds(s, _mm_loadu_si128(reinterpret_cast<const __m128i*>(kPad64WK.data() + 4 * g)));
    s.abef = _mm_add_epi32(s.abef, saved.abef);
    s.cdgh = _mm_add_epi32(s.cdgh, saved.cdgh);
}

// H(0) in register form.
KEEL_SHANI State initial_state() {
    return load_state(kSha256H0.data());
}

// The digest is H(N) big-endian (FIPS 180-4 §6.2.2 last step).
KEEL_SHANI void store_digest(State s, std::uint8_t* out) {
    alignas(16) std::uint32_t h[8];
    store_state(s, h);
    _mm_storeu_si128(reinterpret_cast<__m128i*>(out),
                     byteswap_words(_mm_load_si128(reinterpret_cast<const __m128i*>(h))));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(out + 16),
                     byteswap_words(_mm_load_si128(reinterpret_cast<const __m128i*>(h + 4))));
}

[[gnu::target("sha,sse4.1,ssse3")]] void compress_shani(std::uint32_t h[8], const std::uint8_t* p,
                                                        std::size_t nblocks) noexcept {
    State s = load_state(h);
    for (std::size_t i = 0; i < nblocks; ++i, p += 64) compress_block(s, p);
    store_state(s, h);
}

[[gnu::target("sha,sse4.1,ssse3")]] void hash64_shani(const std::uint8_t* in,
                                                      std::uint8_t* out) noexcept {
    State s = initial_state();
    compress_block(s, in);
    compress_pad64(s);
    store_digest(s, out);
}

[[gnu::target("sha,sse4.1,ssse3")]] void hash64_many_shani(const std::uint8_t* in,
                                                           std::uint8_t* out,
                                                           std::size_t n) noexcept {
    // Two messages at a time: SHA256RNDS2's latency exceeds its issue interval, so two
    // independent dependency chains keep the unit busier (about 20% on the machine this was
    // measured on). Both inputs are read before either output is written, so that an in-place
    // level reduction (out == in) works: out[i] overlaps only in[i / 2].
    std::size_t i = 0;
    for (; i + 2 <= n; i += 2) {
        State a = initial_state(), b = initial_state();
        const State a0 = a, b0 = b;
        __m128i wa[4], wb[4];
#pragma GCC unroll 4
        for (int k = 0; k < 4; ++k) {
            wa[k] = byteswap_words(
                _mm_loadu_si128(reinterpret_cast<const __m128i*>(in + 64 * i + 16 * k)));
            wb[k] = byteswap_words(
                _mm_loadu_si128(reinterpret_cast<const __m128i*>(in + 64 * (i + 1) + 16 * k)));
        }
#pragma GCC unroll 4
        for (int g = 0; g < 4; ++g) {
            four_rounds(a, _mm_add_epi32(wa[g], k4(4 * g)));
            four_rounds(b, _mm_add_epi32(wb[g], k4(4 * g)));
        }
#pragma GCC unroll 12
        for (int g = 4; g < 16; ++g) {
            wa[g % 4] = next_words(wa[g % 4], wa[(g + 1) % 4], wa[(g + 2) % 4], wa[(g + 3) % 4]);
            wb[g % 4] = next_words(wb[g % 4], wb[(g + 1) % 4], wb[(g + 2) % 4], wb[(g + 3) % 4]);
            four_rounds(a, _mm_add_epi32(wa[g % 4], k4(4 * g)));
            four_rounds(b, _mm_add_epi32(wb[g % 4], k4(4 * g)));
        }
        a = {_mm_add_epi32(a.abef, a0.abef), _mm_add_epi32(a.cdgh, a0.cdgh)};
        b = {_mm_add_epi32(b.abef, b0.abef), _mm_add_epi32(b.cdgh, b0.cdgh)};
        const State a1 = a, b1 = b;
#pragma GCC unroll 16
        for (int g = 0; g < 16; ++g) {
            const __m128i wk =
                _mm_loadu_si128(reinterpret_cast<const __m128i*>(kPad64WK.data() + 4 * g));
            four_rounds(a, wk);
            four_rounds(b, wk);
        }
        a = {_mm_add_epi32(a.abef, a1.abef), _mm_add_epi32(a.cdgh, a1.cdgh)};
        b = {_mm_add_epi32(b.abef, b1.abef), _mm_add_epi32(b.cdgh, b1.cdgh)};
        store_digest(a, out + 32 * i);
        store_digest(b, out + 32 * (i + 1));
    }
    if (i < n) hash64_shani(in + 64 * i, out + 32 * i);
}

}  // namespace

const Sha256Impl kSha256Shani{compress_shani, hash64_shani, hash64_many_shani};

bool sha256_shani_supported() noexcept {
    __builtin_cpu_init();
    return __builtin_cpu_supports("sha") && __builtin_cpu_supports("sse4.1") &&
           __builtin_cpu_supports("ssse3");
}

}  // namespace keel::crypto::detail
