#include "keel/crypto/keccak.hpp"

#include <bit>
#include <cstring>

#include "keel/common/assert.hpp"
#include "keel/crypto/detail/keccak_backend.hpp"
#include "keel/crypto/detail/keccak_tables.hpp"

// Input bytes are XORed straight into the lanes through a byte view of the state, and lanes are
// loaded from input with memcpy: both are only right on a little-endian machine.
static_assert(std::endian::native == std::endian::little, "keel/crypto assumes little-endian");

namespace keel::crypto {
namespace detail {
namespace {

using u64 = std::uint64_t;

// Keccak-f[1600] (FIPS 202 §3.3: Rnd = ι ∘ χ ∘ π ∘ ρ ∘ θ), scalar, formulated for a core with
// 16 general registers and 25 lanes of state.
//
// Why this shape: holding the lanes in registers (a local array the compiler promotes) leaves it
// spilling and reloading lanes in no useful order; on the AMD EPYC this was tuned on that code
// ran about 140 moves per round beside its 130 logic operations. Here the state stays in memory
// and each round reads it from one buffer and writes the next round's lanes to another (ping-
// pong), one output row at a time: a row of χ needs five lanes of B, and by π each of them comes
// from a different column of A, so a row is five loads (folded into the θ XOR), five rotates,
// five andn + xor, five stores. The column parities for the next θ are accumulated in registers
// while the rows are stored, so no round reads the state twice. Measured 6-8% faster than the
// register formulation with g++ 12 on that machine (keccak_bench.cpp, BM_Keccak256Backend), and
// no slower on the baseline build.

// One round from lanes `a` into `e`, given the column parities `c` of `a` (θ, FIPS 202
// §3.2.1); on return `c` holds the column parities of `e` unless Last.
template <bool Last>
[[gnu::always_inline]] inline void round(const u64* a, u64* e, u64 (&c)[5], u64 rc) noexcept {
    // θ: D[x] = C[x-1] ^ rot(C[x+1], 1).
    u64 d[5];
#pragma GCC unroll 5
    for (int x = 0; x < 5; ++x) d[x] = c[(x + 4) % 5] ^ std::rotl(c[(x + 1) % 5], 1);
#pragma GCC unroll 5
    for (int y = 0; y < 5; ++y) {
        // ρ and π (§3.2.2, §3.2.3): lane (x, y') moves to (y', 2x + 3y'), so B[X, y] comes from
        // A[x, X] with x = 3(y - 3X) mod 5 (2 and 3 are inverses mod 5).
        u64 b[5];
#pragma GCC unroll 5
        for (int X = 0; X < 5; ++X) {
            const int x = ((3 * (y - 3 * X)) % 5 + 15) % 5;
            b[X] = std::rotl(a[lane(x, X)] ^ d[x], kRho[lane(x, X)]);
        }
        // χ (§3.2.4): B[X] ^ (~B[X+1] & B[X+2]), one andn + xor with BMI1; ι (§3.2.5) on lane 0.
#pragma GCC unroll 5
        for (int X = 0; X < 5; ++X) {
            u64 v = b[X] ^ (~b[(X + 1) % 5] & b[(X + 2) % 5]);
            if (X == 0 && y == 0) v ^= rc;
            e[lane(X, y)] = v;
            if constexpr (!Last) c[X] = y == 0 ? v : c[X] ^ v;
        }
    }
}

// 24 rounds, ping-ponging between `state` and a stack buffer, two rounds per loop iteration so
// that the state is back in `state` at the end.
[[gnu::always_inline]] inline void permute_scalar(u64* state) noexcept {
    alignas(64) u64 e[25];
    // The buffer escapes: without this the compiler promotes its 25 lanes to registers, which is
    // the spilling this formulation exists to avoid.
    asm("" : : "r"(e) : "memory");
    u64 c[5];
#pragma GCC unroll 5
    for (int x = 0; x < 5; ++x)
        c[x] = state[x] ^ state[x + 5] ^ state[x + 10] ^ state[x + 15] ^ state[x + 20];
#pragma GCC unroll 1
    for (int r = 0; r < 22; r += 2) {
        round<false>(state, e, c, kRoundConstants[r]);
        round<false>(e, state, c, kRoundConstants[r + 1]);
    }
    round<false>(state, e, c, kRoundConstants[22]);
    round<true>(e, state, c, kRoundConstants[23]);
}

[[gnu::always_inline]] inline void absorb_scalar(u64* state, const std::uint8_t* in,
                                                 std::size_t nblocks) noexcept {
    for (std::size_t k = 0; k < nblocks; ++k, in += 136) {
        // Lanes straight from the input (FIPS 202 §4, step 6 of SPONGE: S ^ (P_i || 0^c)).
#pragma GCC unroll 17
        for (int i = 0; i < 17; ++i) {
            u64 w;
            std::memcpy(&w, in + 8 * i, 8);
            state[i] ^= w;
        }
        permute_scalar(state);
    }
}

void permute_portable(u64* state) noexcept {
    permute_scalar(state);
}
void absorb_portable(u64* state, const std::uint8_t* in, std::size_t nblocks) noexcept {
    absorb_scalar(state, in, nblocks);
}

// The same code compiled for BMI1/BMI2: andn makes χ two instructions per lane and rorx rotates
// without a register copy, which matters with 25 live lanes on 16 registers.
[[gnu::target("bmi,bmi2")]] void permute_bmi2(u64* state) noexcept {
    permute_scalar(state);
}
[[gnu::target("bmi,bmi2")]] void absorb_bmi2(u64* state, const std::uint8_t* in,
                                             std::size_t nblocks) noexcept {
    absorb_scalar(state, in, nblocks);
}

}  // namespace

const KeccakImpl kKeccakPortable{permute_portable, absorb_portable};
const KeccakImpl kKeccakBmi2{permute_bmi2, absorb_bmi2};

bool keccak_bmi2_supported() noexcept {
    __builtin_cpu_init();
    return __builtin_cpu_supports("bmi") && __builtin_cpu_supports("bmi2");
}

bool keccak_avx512_supported() noexcept {
    // libgcc/compiler-rt report avx512f only when the OS also saves the ZMM state (XCR0).
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx512f");
}

}  // namespace detail

namespace {

const detail::KeccakImpl* impl_for(KeccakBackend b) noexcept {
    switch (b) {
        case KeccakBackend::portable:
            return &detail::kKeccakPortable;
        case KeccakBackend::bmi2:
            return detail::keccak_bmi2_supported() ? &detail::kKeccakBmi2 : nullptr;
        case KeccakBackend::avx512:
            return detail::keccak_avx512_supported() ? &detail::kKeccakAvx512 : nullptr;
    }
    return nullptr;
}

KeccakBackend best_backend() noexcept {
    // One permutation at a time, the AVX-512 code wins on Intel (Xeon: 0.56 GB/s at 1 MiB
    // against 0.40 for BMI2) and loses on AMD, whose scalar cores retire more of Keccak's
    // 64-bit XOR/rotate/ANDN work per cycle (Zen 5, family 26: BMI2 0.51-0.56 GB/s against
    // AVX-512 0.45-0.46; Zen 4 executes 512-bit operations in two halves). The 8-way
    // multi-buffer code (keccak_x8.cpp) uses AVX-512 on both.
    __builtin_cpu_init();
    const bool avx512 = detail::keccak_avx512_supported();
    const bool bmi2 = detail::keccak_bmi2_supported();
    if (avx512 && !(bmi2 && __builtin_cpu_is("amd"))) return KeccakBackend::avx512;
    if (bmi2) return KeccakBackend::bmi2;
    return KeccakBackend::portable;
}

// The process-wide choice. Constant-initialised to the portable code, so a hash computed by some
// other static initialiser that runs before this file's is still right; replaced once by the best
// implementation during static initialisation, then only read.
constinit KeccakBackend g_backend = KeccakBackend::portable;
constinit const detail::KeccakImpl* g_impl = &detail::kKeccakPortable;

[[maybe_unused]] const bool g_chosen = [] {
    g_backend = best_backend();
    g_impl = impl_for(g_backend);
    return true;
}();

// XORs `n` bytes into the state starting at byte `pos` (the state is little-endian lanes).
inline void xor_bytes(std::uint64_t* state, std::size_t pos, const std::uint8_t* in,
                      std::size_t n) noexcept {
    auto* s = reinterpret_cast<std::uint8_t*>(state) + pos;
    for (std::size_t i = 0; i < n; ++i) s[i] ^= in[i];
}

// pad10*1 with the Keccak domain byte (Keccak submission §1.1; FIPS 202 §5.1 without the SHA-3
// suffix): 0x01 after the message, 0x80 in the last byte of the block (0x81 when they coincide),
// then the final permutation and the first 32 bytes of the state.
inline void pad_and_squeeze(const detail::KeccakImpl& impl, std::uint64_t* state, std::size_t pos,
                            std::uint8_t* out32, std::uint8_t domain = 0x01) noexcept {
    auto* s = reinterpret_cast<std::uint8_t*>(state);
    s[pos] ^= domain;
    s[Keccak256::kRate - 1] ^= 0x80;
    impl.permute(state);
    std::memcpy(out32, state, 32);
}

void keccak256_impl(const detail::KeccakImpl& impl, BytesView data, std::uint8_t* out32,
                    std::uint8_t domain = 0x01) noexcept {
    std::uint64_t state[25] = {};
    const std::size_t nblocks = data.size() / Keccak256::kRate;
    const std::size_t tail = data.size() % Keccak256::kRate;
    const std::uint8_t* p = data.data();
    if (nblocks == 0) {
        // The common short input (32- and 64-byte keys): the zero state XOR the data is the data.
        if (tail != 0) std::memcpy(state, p, tail);
    } else {
        impl.absorb136(state, p, nblocks);
        xor_bytes(state, 0, p + nblocks * Keccak256::kRate, tail);
    }
    pad_and_squeeze(impl, state, tail, out32, domain);
}

}  // namespace

void keccak_f1600(std::uint64_t state[25]) noexcept {
    g_impl->permute(state);
}

Hash32 keccak256(BytesView data) noexcept {
    Hash32 h;
    keccak256_impl(*g_impl, data, h.data());
    return h;
}

void Keccak256::update(BytesView data) noexcept {
    const std::uint8_t* p = data.data();
    std::size_t n = data.size();
    if (pos_ != 0) {
        const std::size_t take = n < kRate - pos_ ? n : kRate - pos_;
        xor_bytes(state_, pos_, p, take);
        pos_ += take;
        p += take;
        n -= take;
        if (pos_ < kRate) return;
        g_impl->permute(state_);
        pos_ = 0;
    }
    if (n >= kRate) {
        const std::size_t nblocks = n / kRate;
        g_impl->absorb136(state_, p, nblocks);
        p += nblocks * kRate;
        n -= nblocks * kRate;
    }
    xor_bytes(state_, 0, p, n);
    pos_ = n;
}

void Keccak256::finalize_to(std::uint8_t* out32) const noexcept {
    std::uint64_t state[25];
    std::memcpy(state, state_, sizeof state);
    pad_and_squeeze(*g_impl, state, pos_, out32);
}

Hash32 Keccak256::finalize() const noexcept {
    Hash32 h;
    finalize_to(h.data());
    return h;
}

bool keccak_backend_available(KeccakBackend backend) noexcept {
    return impl_for(backend) != nullptr;
}

KeccakBackend keccak_active_backend() noexcept {
    return g_backend;
}

const char* keccak_backend_name(KeccakBackend backend) noexcept {
    switch (backend) {
        case KeccakBackend::portable:
            return "portable";
        case KeccakBackend::bmi2:
            return "bmi2";
        case KeccakBackend::avx512:
            return "avx512";
    }
    return "unknown";
}

const char* keccak_backend_name() noexcept {
    return keccak_backend_name(g_backend);
}

void keccak_f1600_with(KeccakBackend backend, std::uint64_t state[25]) noexcept {
    const detail::KeccakImpl* impl = impl_for(backend);
    KEEL_ASSERT(impl != nullptr);
    impl->permute(state);
}

Hash32 keccak256_with(KeccakBackend backend, BytesView data) noexcept {
    const detail::KeccakImpl* impl = impl_for(backend);
    KEEL_ASSERT(impl != nullptr);
    Hash32 h;
    keccak256_impl(*impl, data, h.data());
    return h;
}

void detail::keccak_sponge256_with(KeccakBackend backend, BytesView data, std::uint8_t domain,
                                   std::uint8_t* out32) noexcept {
    const detail::KeccakImpl* impl = impl_for(backend);
    KEEL_ASSERT(impl != nullptr);
    keccak256_impl(*impl, data, out32, domain);
}

}  // namespace keel::crypto
