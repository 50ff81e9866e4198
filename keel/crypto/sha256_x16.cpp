// SHA-256 of sixteen 64-byte messages at once (AVX-512F), one message per 32-bit element of the
// zmm registers, selected once per process at run time (see sha256.cpp).
//
// Layout ("lane-sliced"): state register k holds working variable k (a..h, FIPS 180-4 §6.2.2) of
// all sixteen messages, element i belonging to message i; message-schedule register t holds W[t]
// of all sixteen. Every step of a round then treats the sixteen messages alike with
// whole-register operations: each Σ/σ is three immediate rotates (vprord) or shifts joined by one
// three-input XOR (vpternlogd), and Ch and Maj are one vpternlogd each. The messages are
// independent, so the rounds are bound by vector throughput, not by the latency chain of a single
// hash.
//
// A 64-byte message is two compressions: its data block, then the constant padding block
// (§5.1.1), whose W[t] + K[t] is precomputed (detail::kPad64WK), so the second compression needs
// no message schedule at all.

// GCC 12's AVX-512 intrinsics initialise their "undefined" pass-through operand from itself, which
// -Wuninitialized reports wherever they are inlined (GCC bug 105593, fixed in GCC 13).
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wuninitialized"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif

#include <immintrin.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <utility>

#include "keel/common/assert.hpp"
#include "keel/crypto/detail/sha256_backend.hpp"
#include "keel/crypto/sha256.hpp"

namespace keel::crypto {
namespace {

#define KEEL_X16 [[gnu::target("avx512f"), gnu::always_inline]] inline

// Ternary-logic truth tables (vpternlogd imm8 for inputs a, b, c).
constexpr int kXor3 = 0x96;  // a ^ b ^ c
constexpr int kCh = 0xca;    // a ? b : c        (FIPS 180-4 §4.1.2 Ch(x, y, z))
constexpr int kMaj = 0xe8;   // majority of a, b, c (§4.1.2 Maj(x, y, z))

// Every rotate count and register index below is a compile-time constant for both compilers
// (vprord and the shuffles take immediates).

template <int A, int B, int C>
KEEL_X16 __m512i rot3(__m512i x) {
    return _mm512_ternarylogic_epi32(_mm512_ror_epi32(x, A), _mm512_ror_epi32(x, B),
                                     _mm512_ror_epi32(x, C), kXor3);
}

template <int A, int B, int S>
KEEL_X16 __m512i rot2_shr(__m512i x) {
    return _mm512_ternarylogic_epi32(_mm512_ror_epi32(x, A), _mm512_ror_epi32(x, B),
                                     _mm512_srli_epi32(x, S), kXor3);
}

// Big-endian words to host order (and back): AVX-512F has no byte shuffle, so the two byte pairs
// come from two rotates, merged under a mask by one vpternlogd (mask ? b : c).
KEEL_X16 __m512i bswap32(__m512i x) {
    const __m512i mask = _mm512_set1_epi32(static_cast<int>(0x00ff00ffu));
    return _mm512_ternarylogic_epi32(mask, _mm512_rol_epi32(x, 8), _mm512_ror_epi32(x, 8), kCh);
}

// Round t (§6.2.2 step 3) with R = t mod 8. The working variables are not moved between
// registers: at round t, variable a is s[(0 - t) mod 8], b is s[(1 - t) mod 8], ..., h is
// s[(7 - t) mod 8]. The round writes the new e over d and the new a over h.
template <int R>
KEEL_X16 void round(__m512i (&s)[8], __m512i wk) {
    __m512i& a = s[(8 - R) % 8];
    const __m512i b = s[(9 - R) % 8];
    const __m512i c = s[(10 - R) % 8];
    __m512i& d = s[(11 - R) % 8];
    const __m512i e = s[(12 - R) % 8];
    const __m512i f = s[(13 - R) % 8];
    const __m512i g = s[(14 - R) % 8];
    __m512i& h = s[(15 - R) % 8];
    const __m512i ch = _mm512_ternarylogic_epi32(e, f, g, kCh);
    __m512i t1 = _mm512_add_epi32(_mm512_add_epi32(h, wk), ch);
    t1 = _mm512_add_epi32(t1, rot3<6, 11, 25>(e));
    const __m512i t2 =
        _mm512_add_epi32(rot3<2, 13, 22>(a), _mm512_ternarylogic_epi32(a, b, c, kMaj));
    d = _mm512_add_epi32(d, t1);
    h = _mm512_add_epi32(t1, t2);
}

KEEL_X16 __m512i bcast(std::uint32_t v) {
    return _mm512_set1_epi32(static_cast<int>(v));
}

// Rounds t0 + I, I = 0..15, of the data block. For t0 >= 16 each computes W[t0 + I] (§6.2.2 step
// 1) into w[I] first, overwriting W[t0 + I - 16], which no later round needs.
template <bool Schedule, int I>
KEEL_X16 void data_round(__m512i (&s)[8], __m512i (&w)[16], int t0) {
    if constexpr (Schedule) {
        const __m512i s1 = rot2_shr<17, 19, 10>(w[(I + 14) % 16]);
        const __m512i s0 = rot2_shr<7, 18, 3>(w[(I + 1) % 16]);
        w[I] = _mm512_add_epi32(_mm512_add_epi32(w[I], w[(I + 9) % 16]), _mm512_add_epi32(s0, s1));
    }
    round<I % 8>(s, _mm512_add_epi32(w[I], bcast(detail::kSha256K[t0 + I])));
}

template <bool Schedule, int... I>
KEEL_X16 void sixteen_data_rounds(__m512i (&s)[8], __m512i (&w)[16], int t0,
                                  std::integer_sequence<int, I...>) {
    (data_round<Schedule, I>(s, w, t0), ...);
}

template <int... I>
KEEL_X16 void sixteen_pad_rounds(__m512i (&s)[8], int t0, std::integer_sequence<int, I...>) {
    (round<I % 8>(s, bcast(detail::kPad64WK[t0 + I])), ...);
}

// Transposes sixteen rows of sixteen 32-bit words in place (r[i][k] -> r[k][i]): 32-bit and
// 64-bit unpacks within 128-bit lanes, then a 4x4 transpose of the 128-bit lanes.
KEEL_X16 void transpose16(__m512i (&r)[16]) {
    __m512i a[16], b[16];
#pragma GCC unroll 8
    for (int i = 0; i < 16; i += 2) {
        a[i] = _mm512_unpacklo_epi32(r[i], r[i + 1]);
        a[i + 1] = _mm512_unpackhi_epi32(r[i], r[i + 1]);
    }
    // b[4g + c], 128-bit lane j: word 4j + c of rows 4g .. 4g + 3.
#pragma GCC unroll 4
    for (int g = 0; g < 4; ++g) {
        b[4 * g + 0] = _mm512_unpacklo_epi64(a[4 * g], a[4 * g + 2]);
        b[4 * g + 1] = _mm512_unpackhi_epi64(a[4 * g], a[4 * g + 2]);
        b[4 * g + 2] = _mm512_unpacklo_epi64(a[4 * g + 1], a[4 * g + 3]);
        b[4 * g + 3] = _mm512_unpackhi_epi64(a[4 * g + 1], a[4 * g + 3]);
    }
    // Row 4j + c of the result takes 128-bit lane j of b[c], b[4 + c], b[8 + c], b[12 + c].
#pragma GCC unroll 4
    for (int c = 0; c < 4; ++c) {
        const __m512i x0 = _mm512_shuffle_i32x4(b[c], b[4 + c], 0x44);
        const __m512i x1 = _mm512_shuffle_i32x4(b[c], b[4 + c], 0xee);
        const __m512i y0 = _mm512_shuffle_i32x4(b[8 + c], b[12 + c], 0x44);
        const __m512i y1 = _mm512_shuffle_i32x4(b[8 + c], b[12 + c], 0xee);
        r[c] = _mm512_shuffle_i32x4(x0, y0, 0x88);
        r[4 + c] = _mm512_shuffle_i32x4(x0, y0, 0xdd);
        r[8 + c] = _mm512_shuffle_i32x4(x1, y1, 0x88);
        r[12 + c] = _mm512_shuffle_i32x4(x1, y1, 0xdd);
    }
}

// Writes the sixteen digests: h[k] element i is word k of message i's digest. Transposes to two
// digests per register (messages 2m and 2m + 1 in register m), then stores big-endian.
KEEL_X16 void store_digests(const __m512i (&h)[8], std::uint8_t* out) {
    __m512i a[8], b[8];
#pragma GCC unroll 4
    for (int k = 0; k < 8; k += 2) {
        a[k] = _mm512_unpacklo_epi32(h[k], h[k + 1]);
        a[k + 1] = _mm512_unpackhi_epi32(h[k], h[k + 1]);
    }
    // b[4q + c], 128-bit lane j: words 4q .. 4q + 3 of message 4j + c.
#pragma GCC unroll 2
    for (int q = 0; q < 2; ++q) {
        b[4 * q + 0] = _mm512_unpacklo_epi64(a[4 * q], a[4 * q + 2]);
        b[4 * q + 1] = _mm512_unpackhi_epi64(a[4 * q], a[4 * q + 2]);
        b[4 * q + 2] = _mm512_unpacklo_epi64(a[4 * q + 1], a[4 * q + 3]);
        b[4 * q + 3] = _mm512_unpackhi_epi64(a[4 * q + 1], a[4 * q + 3]);
    }
    // u[c]: lanes 0, 1 of b[c] then of b[4 + c]; v[c]: lanes 2, 3 likewise.
    __m512i u[4], v[4];
#pragma GCC unroll 4
    for (int c = 0; c < 4; ++c) {
        u[c] = _mm512_shuffle_i32x4(b[c], b[4 + c], 0x44);
        v[c] = _mm512_shuffle_i32x4(b[c], b[4 + c], 0xee);
    }
    // Messages 4j + c and 4j + c + 1 (c = 0, 2): lane j of b[c], b[4 + c], b[c + 1], b[5 + c].
    const __m512i o[8] = {
        _mm512_shuffle_i32x4(u[0], u[1], 0x88), _mm512_shuffle_i32x4(u[2], u[3], 0x88),
        _mm512_shuffle_i32x4(u[0], u[1], 0xdd), _mm512_shuffle_i32x4(u[2], u[3], 0xdd),
        _mm512_shuffle_i32x4(v[0], v[1], 0x88), _mm512_shuffle_i32x4(v[2], v[3], 0x88),
        _mm512_shuffle_i32x4(v[0], v[1], 0xdd), _mm512_shuffle_i32x4(v[2], v[3], 0xdd),
    };
#pragma GCC unroll 8
    for (int m = 0; m < 8; ++m)
        _mm512_storeu_si512(static_cast<void*>(out + 64 * m), bswap32(o[m]));
}

// Sixteen 64-byte messages at `in` (1,024 bytes) to sixteen digests at `out` (512 bytes). All
// input is read before any output is written, so `out` may overlap `in` as sha256_64_many allows.
[[gnu::target("avx512f")]] void hash16(const std::uint8_t* in, std::uint8_t* out) noexcept {
    __m512i w[16];
#pragma GCC unroll 16
    for (int i = 0; i < 16; ++i) w[i] = _mm512_loadu_si512(static_cast<const void*>(in + 64 * i));
    transpose16(w);
#pragma GCC unroll 16
    for (int t = 0; t < 16; ++t) w[t] = bswap32(w[t]);

    // First compression: the data block from H(0).
    __m512i s[8];
#pragma GCC unroll 8
    for (int k = 0; k < 8; ++k) s[k] = bcast(detail::kSha256H0[k]);
    sixteen_data_rounds<false>(s, w, 0, std::make_integer_sequence<int, 16>{});
#pragma GCC unroll 1
    for (int t0 = 16; t0 < 64; t0 += 16)
        sixteen_data_rounds<true>(s, w, t0, std::make_integer_sequence<int, 16>{});
    __m512i h1[8];
#pragma GCC unroll 8
    for (int k = 0; k < 8; ++k) {
        h1[k] = _mm512_add_epi32(s[k], bcast(detail::kSha256H0[k]));
        s[k] = h1[k];
    }

    // Second compression: the padding block, W[t] + K[t] precomputed.
#pragma GCC unroll 1
    for (int t0 = 0; t0 < 64; t0 += 16)
        sixteen_pad_rounds(s, t0, std::make_integer_sequence<int, 16>{});
#pragma GCC unroll 8
    for (int k = 0; k < 8; ++k) h1[k] = _mm512_add_epi32(s[k], h1[k]);
    store_digests(h1, out);
}

}  // namespace

bool sha256_x16_available() noexcept {
    // libgcc/compiler-rt report avx512f only when the OS also saves the ZMM state (XCR0).
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx512f");
}

void sha256_64_many_x16(const std::uint8_t* in, std::uint8_t* out, std::size_t n) noexcept {
    KEEL_ASSERT(sha256_x16_available());
    std::size_t i = 0;
    // Group g reads in[1024g, 1024g + 1024) and then writes out[512g, 512g + 512): with out == in
    // that is at or below input already read, so in-place reduction stays correct.
    for (; i + 16 <= n; i += 16) hash16(in + 64 * i, out + 32 * i);
    if (i == n) return;
    // The remainder (at most 15 messages), from a copy: its output lies below its input and may
    // overlap it. One kernel call costs about as much as eight SHA-NI hashes (0.54 us against
    // 67 ns each here), so from kSha256X16MinMessages on the kernel runs with lanes idle; fewer
    // go to the single-message backend.
    const std::size_t rest_n = n - i;
    alignas(64) std::uint8_t rest[64 * 16];
    std::memcpy(rest, in + 64 * i, 64 * rest_n);
    if (rest_n >= kSha256X16MinMessages) {
        std::memset(rest + 64 * rest_n, 0, 64 * (16 - rest_n));
        alignas(64) std::uint8_t digests[32 * 16];
        hash16(rest, digests);
        std::memcpy(out + 32 * i, digests, 32 * rest_n);
        return;
    }
    sha256_64_many_with(sha256_active_backend(), rest, out + 32 * i, rest_n);
}

}  // namespace keel::crypto
