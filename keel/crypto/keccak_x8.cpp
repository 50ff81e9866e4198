// Keccak-256 of many messages at once: eight independent Keccak-f[1600] states, one per 64-bit
// element of the AVX-512 registers (AVX-512F), selected once per process at run time.
//
// Layout ("lane-sliced"): register k holds lane k (FIPS 202 §3.1.2: k = x + 5y) of all eight
// states, element j belonging to state j. Every step of a round then treats the eight states
// alike with whole-register operations and no shuffles at all: θ's column parities are two
// three-input XORs (vpternlogq) per column, ρ is one immediate rotate (vprolq) per lane, π is
// only a renaming of registers, and χ is one vpternlogq per lane. The eight states' work is
// independent, so the round is bound by throughput, not by the latency chain that limits the
// single-state code in keccak_avx512.cpp.
//
// Messages of different lengths share the eight slots as a queue: a slot whose message has
// absorbed its final (padded) block hands its digest out after that permutation and takes the
// next message at the following one, starting from a zero state. Permutations run while any slot
// is busy, so the only idle slots are at the very end of a call.

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
#include <span>
#include <utility>

#include "keel/common/assert.hpp"
#include "keel/crypto/detail/keccak_backend.hpp"
#include "keel/crypto/detail/keccak_tables.hpp"
#include "keel/crypto/keccak.hpp"

namespace keel::crypto {
namespace detail {
namespace {

using u64 = std::uint64_t;

constexpr std::size_t kRate = Keccak256::kRate;
constexpr int kRateLanes = static_cast<int>(kRate / 8);  // 17

#define KEEL_X8 [[gnu::target("avx512f"), gnu::always_inline]] inline

// Ternary-logic truth tables (vpternlogq imm8 for inputs a, b, c).
constexpr int kXor3 = 0x96;  // a ^ b ^ c
constexpr int kChi = 0xd2;   // a ^ (~b & c)

// Every lane index below is a template argument, so each register access, rotate count and
// π destination is a compile-time constant for both compilers (vprolq takes an immediate).

// θ column parity C[x] (FIPS 202 §3.2.1).
template <int X>
KEEL_X8 __m512i parity(const __m512i (&a)[25]) {
    const __m512i t = _mm512_ternarylogic_epi64(a[X], a[X + 5], a[X + 10], kXor3);
    return _mm512_ternarylogic_epi64(t, a[X + 15], a[X + 20], kXor3);
}

// θ's D applied to lane I (A[x, y] ^ C[x-1] ^ rot(C[x+1], 1): one ternary op, given the rotated
// parities `cr`), then ρ (§3.2.2) and π (§3.2.3): lane (x, y) moves to (y, 2x + 3y).
template <int I>
KEEL_X8 void theta_rho_pi(const __m512i (&a)[25], const __m512i (&c)[5], const __m512i (&cr)[5],
                          __m512i (&b)[25]) {
    constexpr int x = I % 5, y = I / 5;
    __m512i t = _mm512_ternarylogic_epi64(a[I], c[(x + 4) % 5], cr[(x + 1) % 5], kXor3);
    constexpr int r = kRho[I];
    if constexpr (r != 0) t = _mm512_rol_epi64(t, r);
    b[lane(y, (2 * x + 3 * y) % 5)] = t;
}

// χ (§3.2.4) for lane I: A[x, y] = B[x, y] ^ (~B[x+1, y] & B[x+2, y]).
template <int I>
KEEL_X8 void chi(const __m512i (&b)[25], __m512i (&a)[25]) {
    constexpr int x = I % 5, y = I / 5;
    a[I] = _mm512_ternarylogic_epi64(b[I], b[lane((x + 1) % 5, y)], b[lane((x + 2) % 5, y)], kChi);
}

template <int... X, int... I>
KEEL_X8 void round(__m512i (&a)[25], u64 rc, std::integer_sequence<int, X...>,
                   std::integer_sequence<int, I...>) {
    const __m512i c[5] = {parity<X>(a)...};
    const __m512i cr[5] = {_mm512_rol_epi64(c[X], 1)...};
    __m512i b[25];
    (theta_rho_pi<I>(a, c, cr, b), ...);
    (chi<I>(b, a), ...);
    // ι (§3.2.5): the same constant for every state.
    a[0] = _mm512_xor_si512(a[0], _mm512_set1_epi64(static_cast<long long>(rc)));
}

// 24 rounds, two per loop iteration (the body stays small enough for the decoded-uop cache).
KEEL_X8 void permute_x8(__m512i (&a)[25]) {
#pragma GCC unroll 1
    for (int r = 0; r < 24; r += 2) {
        round(a, kRoundConstants[r], std::make_integer_sequence<int, 5>{},
              std::make_integer_sequence<int, 25>{});
        round(a, kRoundConstants[r + 1], std::make_integer_sequence<int, 5>{},
              std::make_integer_sequence<int, 25>{});
    }
}

// One slot of the queue: where its message's next block is and how many full blocks are left.
struct Slot {
    const std::uint8_t* next = nullptr;  // next full block of the message (when full_left > 0)
    std::size_t full_left = 0;           // full 136-byte blocks not yet absorbed
    std::size_t index = 0;               // which message (index into in/out)
};

// The message's final block: its last (len mod 136) bytes, then pad10*1 with Keccak's domain
// byte (Keccak submission §1.1; FIPS 202 §5.1 without the SHA-3 suffix): 0x01 after the data,
// 0x80 in the block's last byte (0x81 when the two coincide).
inline void make_final_block(BytesView msg, std::uint8_t* block) noexcept {
    const std::size_t tail = msg.size() % kRate;
    std::memset(block, 0, kRate);
    if (tail != 0) std::memcpy(block, msg.data() + (msg.size() - tail), tail);
    block[tail] ^= 0x01;
    block[kRate - 1] ^= 0x80;
}

[[gnu::target("avx512f")]] void hash_many_x8(const BytesView* in, Hash32* out,
                                             std::size_t n) noexcept {
    // Each slot's final block, built when the slot takes its message and read by the gathers
    // below. 17 lanes plus padding so that rows stay 64-byte aligned.
    alignas(64) std::uint8_t final_block[8][192];
    Slot slot[8];
    // The address each slot absorbs from at the coming permutation (a gather index vector).
    alignas(64) u64 addr[8] = {};
    std::size_t taken = 0;   // messages handed to slots so far
    unsigned busy = 0;       // slots holding a message
    unsigned restart = 0;    // slots whose message starts at the coming permutation
    unsigned finishing = 0;  // slots whose coming block is their message's final block

    const auto take = [&](int j) noexcept {
        Slot& s = slot[j];
        s.index = taken++;
        const BytesView m = in[s.index];
        s.next = m.data();
        s.full_left = m.size() / kRate;
        make_final_block(m, final_block[j]);
        busy |= 1u << j;
        restart |= 1u << j;
    };
    // Points slot j at its coming block and records whether it is the final one (`finishing` is
    // cleared before the slots are aimed).
    const auto aim = [&](int j) noexcept {
        Slot& s = slot[j];
        if (s.full_left != 0) {
            addr[j] = reinterpret_cast<std::uintptr_t>(s.next);
        } else {
            addr[j] = reinterpret_cast<std::uintptr_t>(final_block[j]);
            finishing |= 1u << j;
        }
    };

    for (int j = 0; j < 8 && taken < n; ++j) {
        take(j);
        aim(j);
    }

    __m512i a[25];
#pragma GCC unroll 25
    for (int k = 0; k < 25; ++k) a[k] = _mm512_setzero_si512();

    while (busy != 0) {
        const __mmask8 busy_mask = static_cast<__mmask8>(busy);
        const __mmask8 keep = static_cast<__mmask8>(~restart);
        // Absorb (FIPS 202 §4, SPONGE step 6: S ^ (P_i || 0^c)): word k of each busy slot's block
        // into element j of register k. A slot that starts a new message has its state zeroed
        // first; its capacity lanes 17..24 start from zero too.
        const __m512i base = _mm512_load_si512(static_cast<const void*>(addr));
#pragma GCC unroll 17
        for (int k = 0; k < kRateLanes; ++k) {
            const __m512i idx = _mm512_add_epi64(base, _mm512_set1_epi64(8 * k));
            const __m512i w =
                _mm512_mask_i64gather_epi64(_mm512_setzero_si512(), busy_mask, idx, nullptr, 1);
            a[k] = _mm512_xor_si512(_mm512_maskz_mov_epi64(keep, a[k]), w);
        }
        if (restart != 0) {
#pragma GCC unroll 8
            for (int k = kRateLanes; k < 25; ++k) a[k] = _mm512_maskz_mov_epi64(keep, a[k]);
            restart = 0;
        }
        permute_x8(a);

        // Squeeze the digests of the slots that absorbed their final block: the first 32 bytes
        // of each state are lanes 0..3.
        if (finishing != 0) {
            alignas(64) u64 lanes[4][8];
#pragma GCC unroll 4
            for (int k = 0; k < 4; ++k) _mm512_store_si512(static_cast<void*>(lanes[k]), a[k]);
            for (unsigned f = finishing; f != 0; f &= f - 1) {
                const int j = __builtin_ctz(f);
                std::uint8_t* d = out[slot[j].index].data();
                for (int k = 0; k < 4; ++k) std::memcpy(d + 8 * k, &lanes[k][j], 8);
                busy &= ~(1u << j);
                if (taken < n) take(j);
            }
            finishing = 0;
        }
        for (unsigned b = busy; b != 0; b &= b - 1) {
            const int j = __builtin_ctz(b);
            Slot& s = slot[j];
            if (!((restart >> j) & 1u)) {
                // The full block just absorbed is done.
                s.next += kRate;
                --s.full_left;
            }
            aim(j);
        }
    }
}

}  // namespace

namespace {
[[gnu::target("avx512f")]] void permute_lanes_x8(std::uint64_t lanes[25][8]) noexcept {
    __m512i a[25];
#pragma GCC unroll 25
    for (int k = 0; k < 25; ++k) a[k] = _mm512_loadu_si512(static_cast<const void*>(lanes[k]));
    permute_x8(a);
#pragma GCC unroll 25
    for (int k = 0; k < 25; ++k) _mm512_storeu_si512(static_cast<void*>(lanes[k]), a[k]);
}
}  // namespace

void keccak_f1600_x8(std::uint64_t lanes[25][8]) noexcept {
    KEEL_ASSERT(keccak_avx512_supported());
    permute_lanes_x8(lanes);
}

}  // namespace detail

namespace {

// The process-wide choice, made once during static initialisation (see keccak.cpp): the
// eight-slot code where AVX-512F is usable, one message at a time otherwise.
const bool g_many_x8 = detail::keccak_avx512_supported();

}  // namespace

void keccak256_many(std::span<const BytesView> in, std::span<Hash32> out) noexcept {
    KEEL_ASSERT(in.size() == out.size());
    if (g_many_x8) {
        detail::hash_many_x8(in.data(), out.data(), in.size());
    } else {
        for (std::size_t i = 0; i < in.size(); ++i) out[i] = keccak256(in[i]);
    }
}

void keccak256_many_with(KeccakBackend backend, std::span<const BytesView> in,
                         std::span<Hash32> out) noexcept {
    KEEL_ASSERT(in.size() == out.size());
    KEEL_ASSERT(keccak_backend_available(backend));
    if (backend == KeccakBackend::avx512) {
        detail::hash_many_x8(in.data(), out.data(), in.size());
    } else {
        for (std::size_t i = 0; i < in.size(); ++i) out[i] = keccak256_with(backend, in[i]);
    }
}

}  // namespace keel::crypto
