// FpX8 on AVX-512 IFMA (see fp_x8.hpp).

// GCC 12's AVX-512 intrinsics initialise their "undefined" pass-through operand from itself, which
// -Wuninitialized reports wherever they are inlined (GCC bug 105593, fixed in GCC 13).
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wuninitialized"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif

#include "keel/bls/detail/fp_x8.hpp"

#include <array>
#include <cstdlib>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace keel::bls {

namespace {

using detail::Limbs;
using Radix52 = std::array<std::uint64_t, 8>;

constexpr std::uint64_t kMask52 = (std::uint64_t{1} << 52) - 1;

/// A value below 2^416 in eight 52-bit limbs.
constexpr Radix52 to_radix52(const Limbs& v) noexcept {
    Radix52 r{};
    for (std::size_t j = 0; j < 8; ++j) {
        const std::size_t bit = 52 * j, word = bit / 64, shift = bit % 64;
        std::uint64_t x = word < 6 ? v[word] >> shift : 0;
        if (shift > 12 && word + 1 < 6) x |= v[word + 1] << (64 - shift);
        r[j] = x & kMask52;
    }
    return r;
}

constexpr Radix52 kP52 = to_radix52(detail::kP);
/// -p^-1 mod 2^52 (the low bits of -p^-1 mod 2^64).
constexpr std::uint64_t kPInv52 = detail::kPInv & kMask52;
/// 2^448 mod p: multiplying a 2^384-Montgomery value by it gives the 2^416-Montgomery one.
constexpr Radix52 kToX8 = to_radix52(detail::pow2_mod_p(448));
/// 2^384 mod p: multiplying back gives the 2^384-Montgomery value (below 2p).
constexpr Radix52 kFromX8 = to_radix52(detail::kR);
/// 1 in 2^416-Montgomery form.
constexpr Radix52 kOneX8 = to_radix52(detail::pow2_mod_p(416));

/// 2^k·p for k = 2..17 with each limb but the top one raised by 2^52 - 1 (the first by 2^52)
/// and the next one lowered by one to match: the same value, and c_j - b_j >= 0 for every limb
/// b_j < 2^52, so a + c - b never goes negative below the top limb.
constexpr std::size_t kMinSubLog2 = 2, kMaxSubLog2 = 17;
constexpr auto kMultiplesBiased = [] {
    std::array<Radix52, kMaxSubLog2 + 1> out{};
    for (std::size_t k = kMinSubLog2; k <= kMaxSubLog2; ++k) {
        Radix52 c = to_radix52(detail::kP);  // shifted left by k bits in radix 52 (2^k·p < 2^416)
        std::uint64_t carry = 0;
        for (std::size_t j = 0; j < 8; ++j) {
            const std::uint64_t w = (c[j] << k) | carry;
            carry = c[j] >> (52 - k);
            c[j] = j < 7 ? (w & kMask52) : w;
        }
        c[0] += std::uint64_t{1} << 52;
        for (std::size_t j = 1; j < 7; ++j) c[j] += (std::uint64_t{1} << 52) - 1;
        c[7] -= 1;  // the top limb of 2^k·p is at least 2^19: no wrap
        out[k] = c;
    }
    return out;
}();

}  // namespace

#if defined(__x86_64__)

bool fp_x8_supported() noexcept {
    static const bool supported =
        __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512ifma");
    return supported;
}

namespace {

#define KEEL_IFMA [[gnu::target("avx512f,avx512ifma"), gnu::always_inline]] inline

using V = __m512i;

KEEL_IFMA V load_limb(const FpX8& a, std::size_t j) {
    return _mm512_loadu_si512(a.limb[j]);
}
KEEL_IFMA void store_limb(FpX8& a, std::size_t j, V v) {
    _mm512_storeu_si512(a.limb[j], v);
}
KEEL_IFMA V splat(std::uint64_t x) {
    return _mm512_set1_epi64(static_cast<long long>(x));
}

/// Carries of limbs 0..6 into the next one; every limb below 2^52 after (the top keeps the rest).
KEEL_IFMA void normalize(V (&t)[8]) {
    const V mask = splat(kMask52);
    for (std::size_t j = 0; j < 7; ++j) {
        t[j + 1] = _mm512_add_epi64(t[j + 1], _mm512_srli_epi64(t[j], 52));
        t[j] = _mm512_and_si512(t[j], mask);
    }
}

KEEL_IFMA void mul_v(const V (&a)[8], const V (&b)[8], V (&r)[8]) {
    // Operand scanning, one limb of b per round: t += a·b_i, then t += m·p with m making the
    // lowest limb vanish mod 2^52, its carry moved up and the window shifted by one limb. The
    // 64-bit lanes absorb each round's four additions of < 2^52 without normalising in between.
    const V zero = _mm512_setzero_si512();
    V p[8];
    for (std::size_t j = 0; j < 8; ++j) p[j] = splat(kP52[j]);
    const V pinv = splat(kPInv52);
    V t[9];
    for (auto& v : t) v = zero;
    for (std::size_t i = 0; i < 8; ++i) {
        const V bi = b[i];
        for (std::size_t j = 0; j < 8; ++j) t[j] = _mm512_madd52lo_epu64(t[j], a[j], bi);
        for (std::size_t j = 0; j < 8; ++j) t[j + 1] = _mm512_madd52hi_epu64(t[j + 1], a[j], bi);
        const V m = _mm512_madd52lo_epu64(zero, t[0], pinv);
        for (std::size_t j = 0; j < 8; ++j) t[j] = _mm512_madd52lo_epu64(t[j], m, p[j]);
        for (std::size_t j = 0; j < 8; ++j) t[j + 1] = _mm512_madd52hi_epu64(t[j + 1], m, p[j]);
        t[1] = _mm512_add_epi64(t[1], _mm512_srli_epi64(t[0], 52));
        for (std::size_t j = 0; j < 8; ++j) t[j] = t[j + 1];
        t[8] = zero;
    }
    V out[8];
    for (std::size_t j = 0; j < 8; ++j) out[j] = t[j];
    normalize(out);
    for (std::size_t j = 0; j < 8; ++j) r[j] = out[j];
}

KEEL_IFMA void load_v(const FpX8& a, V (&v)[8]) {
    for (std::size_t j = 0; j < 8; ++j) v[j] = load_limb(a, j);
}
KEEL_IFMA FpX8 store_v(const V (&v)[8]) {
    FpX8 r;
    for (std::size_t j = 0; j < 8; ++j) store_limb(r, j, v[j]);
    return r;
}
KEEL_IFMA void splat_v(const Radix52& c, V (&v)[8]) {
    for (std::size_t j = 0; j < 8; ++j) v[j] = splat(c[j]);
}

}  // namespace

namespace x8 {

[[gnu::target("avx512f,avx512ifma")]] FpX8 mul(const FpX8& a, const FpX8& b) noexcept {
    V va[8], vb[8], vr[8];
    load_v(a, va);
    load_v(b, vb);
    mul_v(va, vb, vr);
    return store_v(vr);
}

[[gnu::target("avx512f,avx512ifma")]] FpX8 add(const FpX8& a, const FpX8& b) noexcept {
    V t[8];
    for (std::size_t j = 0; j < 8; ++j) t[j] = _mm512_add_epi64(load_limb(a, j), load_limb(b, j));
    normalize(t);
    return store_v(t);
}

[[gnu::target("avx512f,avx512ifma")]] FpX8 sub(const FpX8& a, const FpX8& b,
                                               unsigned log2_multiple) noexcept {
    const Radix52& c = kMultiplesBiased[log2_multiple];
    V t[8];
    for (std::size_t j = 0; j < 8; ++j)
        t[j] = _mm512_sub_epi64(_mm512_add_epi64(load_limb(a, j), splat(c[j])), load_limb(b, j));
    normalize(t);
    return store_v(t);
}

[[gnu::target("avx512f,avx512ifma")]] FpX8 pow(const FpX8& a,
                                               std::span<const std::uint64_t> exponent) noexcept {
    // As Fp::pow: fixed 4-bit windows over the public exponent, 16 powers of a in a table.
    std::array<FpX8, 16> table;
    V one[8], base[8], acc[8];
    splat_v(kOneX8, one);
    load_v(a, base);
    table[0] = store_v(one);
    table[1] = a;
    for (std::size_t k = 2; k < 16; ++k) {
        V prev[8], next[8];
        load_v(table[k - 1], prev);
        mul_v(prev, base, next);
        table[k] = store_v(next);
    }
    for (std::size_t j = 0; j < 8; ++j) acc[j] = one[j];
    bool started = false;
    for (std::size_t i = exponent.size(); i-- > 0;) {
        for (int shift = 60; shift >= 0; shift -= 4) {
            const auto nibble = static_cast<std::size_t>((exponent[i] >> shift) & 0xf);
            if (started) {
                for (int s = 0; s < 4; ++s) mul_v(acc, acc, acc);
            }
            if (nibble != 0) {
                V entry[8];
                load_v(table[nibble], entry);
                if (started) {
                    mul_v(acc, entry, acc);
                } else {
                    for (std::size_t j = 0; j < 8; ++j) acc[j] = entry[j];
                }
                started = true;
            }
        }
    }
    return store_v(acc);
}

}  // namespace x8

#else  // not x86-64: never supported, and callers check before calling

bool fp_x8_supported() noexcept {
    return false;
}

namespace x8 {
FpX8 mul(const FpX8&, const FpX8&) noexcept {
    std::abort();
}
FpX8 add(const FpX8&, const FpX8&) noexcept {
    std::abort();
}
FpX8 sub(const FpX8&, const FpX8&, unsigned) noexcept {
    std::abort();
}
FpX8 pow(const FpX8&, std::span<const std::uint64_t>) noexcept {
    std::abort();
}
}  // namespace x8

#endif

namespace {

/// `c` in every lane.
FpX8 lanes_of(const Radix52& c) noexcept {
    FpX8 out;
    for (std::size_t j = 0; j < 8; ++j)
        for (std::size_t lane = 0; lane < 8; ++lane) out.limb[j][lane] = c[j];
    return out;
}

}  // namespace

namespace x8 {

FpX8 load(std::span<const Fp, 8> in) noexcept {
    FpX8 raw{};
    for (std::size_t lane = 0; lane < 8; ++lane) {
        const Radix52 r = to_radix52(in[lane].montgomery());
        for (std::size_t j = 0; j < 8; ++j) raw.limb[j][lane] = r[j];
    }
    static const FpX8 c = lanes_of(kToX8);
    return mul(raw, c);  // x·2^384 · 2^448 · 2^-416 = x·2^416
}

void store(const FpX8& a, std::span<Fp, 8> out) noexcept {
    static const FpX8 c = lanes_of(kFromX8);
    const FpX8 m = mul(a, c);  // x·2^384, below 2p
    for (std::size_t lane = 0; lane < 8; ++lane) {
        Limbs v{};
        for (std::size_t j = 0; j < 8; ++j) {
            const std::size_t bit = 52 * j, word = bit / 64, shift = bit % 64;
            const std::uint64_t x = m.limb[j][lane];
            if (word < 6) v[word] |= x << shift;
            if (shift > 12 && word + 1 < 6) v[word + 1] |= x >> (64 - shift);
        }
        out[lane] = Fp::from_montgomery(detail::reduce_once(v));
    }
}

FpX8 broadcast(const Fp& a) noexcept {
    std::array<Fp, 8> lanes;
    lanes.fill(a);
    return load(lanes);
}

}  // namespace x8

}  // namespace keel::bls
