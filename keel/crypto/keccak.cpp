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

// One round of Keccak-f[1600] (FIPS 202 §3.3: Rnd = ι ∘ χ ∘ π ∘ ρ ∘ θ) on lanes held in a local
// array. Every index is a compile-time constant after unrolling, so the compiler keeps the 25
// lanes in registers (and spill slots) instead of memory: the array is only notation.
[[gnu::always_inline]] inline void round(u64 (&a)[25], u64 rc) noexcept {
    // θ (§3.2.1): C[x] = parity of column x; D[x] = C[x-1] ^ rot(C[x+1], 1).
    u64 c[5], d[5], b[25];
#pragma GCC unroll 5
    for (int x = 0; x < 5; ++x) c[x] = a[x] ^ a[x + 5] ^ a[x + 10] ^ a[x + 15] ^ a[x + 20];
#pragma GCC unroll 5
    for (int x = 0; x < 5; ++x) d[x] = c[(x + 4) % 5] ^ std::rotl(c[(x + 1) % 5], 1);
    // ρ (§3.2.2) and π (§3.2.3) together: lane (x, y) is rotated and moves to (y, 2x + 3y).
#pragma GCC unroll 25
    for (int i = 0; i < 25; ++i) {
        const int x = i % 5, y = i / 5;
        b[lane(y, (2 * x + 3 * y) % 5)] = std::rotl(a[i] ^ d[x], kRho[i]);
    }
    // χ (§3.2.4): A[x, y] = B[x, y] ^ (~B[x+1, y] & B[x+2, y]); with BMI1 this is andn + xor.
#pragma GCC unroll 25
    for (int i = 0; i < 25; ++i) {
        const int x = i % 5, y = i / 5;
        a[i] = b[i] ^ (~b[lane((x + 1) % 5, y)] & b[lane((x + 2) % 5, y)]);
    }
    // ι (§3.2.5).
    a[0] ^= rc;
}

// 24 rounds, two per loop iteration: two and four measured fastest with g++ 12; fully unrolling
// all 24 (a loop body of about 14 KiB) measured a third slower.
[[gnu::always_inline]] inline void permute_lanes(u64 (&a)[25]) noexcept {
#pragma GCC unroll 1
    for (int r = 0; r < 24; r += 2) {
        round(a, kRoundConstants[r]);
        round(a, kRoundConstants[r + 1]);
    }
}

[[gnu::always_inline]] inline void permute_scalar(u64* state) noexcept {
    u64 a[25];
    std::memcpy(a, state, sizeof a);
    permute_lanes(a);
    std::memcpy(state, a, sizeof a);
}

[[gnu::always_inline]] inline void absorb_scalar(u64* state, const std::uint8_t* in,
                                                 std::size_t nblocks) noexcept {
    u64 a[25];
    std::memcpy(a, state, sizeof a);
    for (std::size_t k = 0; k < nblocks; ++k, in += 136) {
        // Lanes straight from the input (FIPS 202 §4, step 6 of SPONGE: S ^ (P_i || 0^c)).
#pragma GCC unroll 17
        for (int i = 0; i < 17; ++i) {
            u64 w;
            std::memcpy(&w, in + 8 * i, 8);
            a[i] ^= w;
        }
        permute_lanes(a);
    }
    std::memcpy(state, a, sizeof a);
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
    if (detail::keccak_avx512_supported()) return KeccakBackend::avx512;
    if (detail::keccak_bmi2_supported()) return KeccakBackend::bmi2;
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
