#include "keel/bls/detail/fp_inverse.hpp"

#include <array>
#include <cstddef>
#include <cstdint>

namespace keel::bls::detail {

namespace {

__extension__ typedef __int128 i128;

/// A signed number in seven 62-bit limbs, least significant first: limbs 0..5 in [0, 2^62),
/// limb 6 signed, value = Σ limb_i · 2^(62·i). 434 bits: room for p and for the matrix steps.
using S62 = std::array<std::int64_t, 7>;

constexpr int kSteps = 62;    // divsteps per batch: the matrix entries stay within ±2^62
constexpr int kBatches = 18;  // 18 · 62 = 1116 >= 1101, the bound for 381-bit inputs
constexpr std::int64_t kMask62 = (std::int64_t{1} << 62) - 1;

constexpr S62 to_s62(const Limbs& a) noexcept {
    S62 s{};
    u128 acc = 0;
    int bits = 0;
    std::size_t word = 0;
    for (std::size_t i = 0; i < 6; ++i) {
        acc |= static_cast<u128>(a[word++]) << bits;  // bits < 62 before each load
        bits += 64;
        s[i] = static_cast<std::int64_t>(static_cast<std::uint64_t>(acc)) & kMask62;
        acc >>= 62;
        bits -= 62;
    }
    s[6] = static_cast<std::int64_t>(static_cast<std::uint64_t>(acc));  // the top 12 bits
    return s;
}

/// The inverse of to_s62 for a value in [0, 2^384) with normalized limbs.
constexpr Limbs from_s62(const S62& s) noexcept {
    Limbs a{};
    u128 acc = 0;
    int bits = 0;
    std::size_t word = 0;
    for (std::size_t i = 0; i < 7; ++i) {
        acc |= static_cast<u128>(static_cast<std::uint64_t>(s[i])) << bits;
        bits += 62;
        if (bits >= 64 && word < 6) {
            a[word++] = static_cast<std::uint64_t>(acc);
            acc >>= 64;
            bits -= 64;
        }
    }
    return a;
}

constexpr S62 kP62 = to_s62(kP);

/// The transition matrix of kSteps divsteps, scaled by 2^kSteps: after them
/// 2^62·f' = u·f + v·g and 2^62·g' = q·f + r·g.
struct Matrix {
    std::int64_t u, v, q, r;
};

/// kSteps divsteps on the low 64 bits of f (odd) and g, which decide them all. δ carries over
/// from batch to batch. Masks only: the swap when δ > 0 and g is odd, the addition of f when g is
/// odd, all without a branch.
Matrix divsteps(std::int64_t& delta, std::uint64_t f, std::uint64_t g) noexcept {
    std::int64_t u = 1, v = 0, q = 0, r = 1;
    for (int i = 0; i < kSteps; ++i) {
        // (δ, f, g) -> (-δ, g, -f) when δ > 0 and g is odd; then g odd in both cases.
        const std::uint64_t swap = static_cast<std::uint64_t>((-delta) >> 63) & (0 - (g & 1));
        const auto sm = static_cast<std::int64_t>(swap);
        const std::uint64_t tf = (f ^ g) & swap;
        f ^= tf;
        g ^= tf;
        const std::int64_t tu = (u ^ q) & sm, tv = (v ^ r) & sm;
        u ^= tu;
        q ^= tu;
        v ^= tv;
        r ^= tv;
        g = (g ^ swap) - swap;
        q = (q ^ sm) - sm;
        r = (r ^ sm) - sm;
        delta = (delta ^ sm) - sm;
        // g += f when g is odd, then g /= 2 (exact): the f row doubles instead.
        const std::uint64_t odd = 0 - (g & 1);
        const auto om = static_cast<std::int64_t>(odd);
        g += f & odd;
        q += u & om;
        r += v & om;
        g >>= 1;
        u = static_cast<std::int64_t>(static_cast<std::uint64_t>(u) << 1);
        v = static_cast<std::int64_t>(static_cast<std::uint64_t>(v) << 1);
        delta += 1;
    }
    return {u, v, q, r};
}

/// (f, g) = (u·f + v·g, q·f + r·g) / 2^62, exact by construction of the matrix.
void apply_to_fg(const Matrix& m, S62& f, S62& g) noexcept {
    i128 cf = static_cast<i128>(m.u) * f[0] + static_cast<i128>(m.v) * g[0];
    i128 cg = static_cast<i128>(m.q) * f[0] + static_cast<i128>(m.r) * g[0];
    cf >>= 62;
    cg >>= 62;
    for (std::size_t i = 1; i < 7; ++i) {
        cf += static_cast<i128>(m.u) * f[i] + static_cast<i128>(m.v) * g[i];
        cg += static_cast<i128>(m.q) * f[i] + static_cast<i128>(m.r) * g[i];
        f[i - 1] = static_cast<std::int64_t>(cf) & kMask62;
        g[i - 1] = static_cast<std::int64_t>(cg) & kMask62;
        cf >>= 62;
        cg >>= 62;
    }
    f[6] = static_cast<std::int64_t>(cf);
    g[6] = static_cast<std::int64_t>(cg);
}

/// x + (p if `mask` else 0), limbs renormalized (x's top limb signed).
void add_p_masked(S62& x, std::int64_t mask) noexcept {
    std::int64_t carry = 0;
    for (std::size_t i = 0; i < 6; ++i) {
        const std::int64_t t = x[i] + (kP62[i] & mask) + carry;  // < 2^63
        x[i] = t & kMask62;
        carry = t >> 62;
    }
    x[6] += (kP62[6] & mask) + carry;
}

/// x in [-p, 2p) to [0, p): add p when negative, then subtract it when the result is >= p.
void normalize(S62& x) noexcept {
    add_p_masked(x, x[6] >> 63);
    S62 t{};
    std::int64_t borrow = 0;
    for (std::size_t i = 0; i < 6; ++i) {
        const std::int64_t d = x[i] - kP62[i] + borrow;
        t[i] = d & kMask62;
        borrow = d >> 62;  // 0 or -1
    }
    t[6] = x[6] - kP62[6] + borrow;
    const std::int64_t keep = t[6] >> 63;  // x < p
    for (std::size_t i = 0; i < 7; ++i) x[i] = (x[i] & keep) | (t[i] & ~keep);
}

/// (d, e) = (u·d + v·e, q·d + r·e) / 2^62 mod p for d, e in [0, p), result in [0, p): the
/// multiple of p added to each numerator clears its low 62 bits, so the shift is exact.
void apply_to_de(const Matrix& m, S62& d, S62& e) noexcept {
    const auto lo = [](std::int64_t a, std::int64_t x, std::int64_t b, std::int64_t y) {
        return static_cast<std::uint64_t>(a) * static_cast<std::uint64_t>(x) +
               static_cast<std::uint64_t>(b) * static_cast<std::uint64_t>(y);
    };
    // kPInv = -p^-1 mod 2^64: numerator + k·p = 0 mod 2^62 for k = numerator·kPInv mod 2^62.
    const auto md = static_cast<std::int64_t>((lo(m.u, d[0], m.v, e[0]) * kPInv) &
                                              static_cast<std::uint64_t>(kMask62));
    const auto me = static_cast<std::int64_t>((lo(m.q, d[0], m.r, e[0]) * kPInv) &
                                              static_cast<std::uint64_t>(kMask62));
    i128 cd = static_cast<i128>(m.u) * d[0] + static_cast<i128>(m.v) * e[0] +
              static_cast<i128>(md) * kP62[0];
    i128 ce = static_cast<i128>(m.q) * d[0] + static_cast<i128>(m.r) * e[0] +
              static_cast<i128>(me) * kP62[0];
    cd >>= 62;
    ce >>= 62;
    for (std::size_t i = 1; i < 7; ++i) {
        cd += static_cast<i128>(m.u) * d[i] + static_cast<i128>(m.v) * e[i] +
              static_cast<i128>(md) * kP62[i];
        ce += static_cast<i128>(m.q) * d[i] + static_cast<i128>(m.r) * e[i] +
              static_cast<i128>(me) * kP62[i];
        d[i - 1] = static_cast<std::int64_t>(cd) & kMask62;
        e[i - 1] = static_cast<std::int64_t>(ce) & kMask62;
        cd >>= 62;
        ce >>= 62;
    }
    d[6] = static_cast<std::int64_t>(cd);
    e[6] = static_cast<std::int64_t>(ce);
    // |u| + |v| <= 2^62 and k < 2^62: each result lies in (-p, 2p).
    normalize(d);
    normalize(e);
}

}  // namespace

Limbs inverse_mod_p(const Limbs& a) noexcept {
    // Invariants (mod p): f = d·a, g = e·a. Start f = p, g = a, d = 0, e = 1, δ = 1; at the end
    // g = 0 and f = ±gcd(p, a) = ±1 for a != 0, so a^-1 = ±d. For a = 0, f = p and d = 0.
    S62 f = kP62, g = to_s62(a), d{}, e{};
    e[0] = 1;
    std::int64_t delta = 1;
    for (int batch = 0; batch < kBatches; ++batch) {
        const Matrix m = divsteps(
            delta, static_cast<std::uint64_t>(f[0]) | (static_cast<std::uint64_t>(f[1]) << 62),
            static_cast<std::uint64_t>(g[0]) | (static_cast<std::uint64_t>(g[1]) << 62));
        apply_to_fg(m, f, g);
        apply_to_de(m, d, e);
    }
    // d = p - d where f = -1 (then d != 0); d in [0, p).
    S62 neg{};
    std::int64_t borrow = 0;
    for (std::size_t i = 0; i < 6; ++i) {
        const std::int64_t t = kP62[i] - d[i] + borrow;
        neg[i] = t & kMask62;
        borrow = t >> 62;
    }
    neg[6] = kP62[6] - d[6] + borrow;
    const std::int64_t negative = f[6] >> 63;
    for (std::size_t i = 0; i < 7; ++i) d[i] = (neg[i] & negative) | (d[i] & ~negative);
    return from_s62(d);
}

}  // namespace keel::bls::detail
