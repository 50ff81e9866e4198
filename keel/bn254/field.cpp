#include "keel/bn254/field.hpp"

#include <cstring>

namespace keel::bn254 {

namespace {

__extension__ typedef unsigned __int128 u128;
using Limbs = Fp::Limbs;

constexpr Limbs kP = {0x3c208c16d87cfd47, 0x97816a916871ca8d, 0xb85045b68181585d,
                      0x30644e72e131a029};

// -p^-1 mod 2^64, by Newton's iteration (each step doubles the correct low bits).
constexpr std::uint64_t neg_inv(std::uint64_t p0) {
    std::uint64_t x = 1;
    for (int i = 0; i < 7; ++i) x *= 2 - p0 * x;
    return ~x + 1;
}
constexpr std::uint64_t kPInv = neg_inv(kP[0]);

constexpr bool geq(const Limbs& a, const Limbs& b) {
    for (int i = 3; i >= 0; --i) {
        if (a[static_cast<std::size_t>(i)] != b[static_cast<std::size_t>(i)])
            return a[static_cast<std::size_t>(i)] > b[static_cast<std::size_t>(i)];
    }
    return true;
}

constexpr Limbs sub_raw(const Limbs& a, const Limbs& b) {
    Limbs r{};
    std::uint64_t borrow = 0;
    for (std::size_t i = 0; i < 4; ++i) {
        const u128 d = static_cast<u128>(a[i]) - b[i] - borrow;
        r[i] = static_cast<std::uint64_t>(d);
        borrow = static_cast<std::uint64_t>(d >> 64) & 1;
    }
    return r;
}

// a + b mod p for a, b < p (p < 2^254: the sum never carries out of 256 bits).
constexpr Limbs add_mod(const Limbs& a, const Limbs& b) {
    Limbs r{};
    std::uint64_t carry = 0;
    for (std::size_t i = 0; i < 4; ++i) {
        const u128 s = static_cast<u128>(a[i]) + b[i] + carry;
        r[i] = static_cast<std::uint64_t>(s);
        carry = static_cast<std::uint64_t>(s >> 64);
    }
    return geq(r, kP) ? sub_raw(r, kP) : r;
}

constexpr Limbs sub_mod(const Limbs& a, const Limbs& b) {
    if (geq(a, b)) return sub_raw(a, b);
    return add_mod(a, sub_raw(kP, b));  // a + (p - b), both below p
}

// Montgomery multiplication (CIOS): a·b·2^-256 mod p.
constexpr Limbs mont_mul(const Limbs& a, const Limbs& b) {
    std::uint64_t t[6] = {};
    for (std::size_t i = 0; i < 4; ++i) {
        std::uint64_t carry = 0;
        for (std::size_t j = 0; j < 4; ++j) {
            const u128 s = static_cast<u128>(a[j]) * b[i] + t[j] + carry;
            t[j] = static_cast<std::uint64_t>(s);
            carry = static_cast<std::uint64_t>(s >> 64);
        }
        u128 s = static_cast<u128>(t[4]) + carry;
        t[4] = static_cast<std::uint64_t>(s);
        t[5] = static_cast<std::uint64_t>(s >> 64);
        const std::uint64_t m = t[0] * kPInv;
        s = static_cast<u128>(m) * kP[0] + t[0];
        carry = static_cast<std::uint64_t>(s >> 64);
        for (std::size_t j = 1; j < 4; ++j) {
            s = static_cast<u128>(m) * kP[j] + t[j] + carry;
            t[j - 1] = static_cast<std::uint64_t>(s);
            carry = static_cast<std::uint64_t>(s >> 64);
        }
        s = static_cast<u128>(t[4]) + carry;
        t[3] = static_cast<std::uint64_t>(s);
        t[4] = t[5] + static_cast<std::uint64_t>(s >> 64);
    }
    Limbs r{t[0], t[1], t[2], t[3]};
    if (t[4] != 0 || geq(r, kP)) r = sub_raw(r, kP);
    return r;
}

// R mod p and R^2 mod p (R = 2^256), by doubling from 1.
constexpr Limbs r_pow(int doublings) {
    Limbs x{1, 0, 0, 0};
    for (int i = 0; i < doublings; ++i) x = add_mod(x, x);
    return x;
}
constexpr Limbs kR = r_pow(256);
constexpr Limbs kR2 = r_pow(512);

}  // namespace

// ---- Fp -----------------------------------------------------------------------------------------

Fp Fp::one() noexcept {
    Fp r;
    r.m_ = kR;
    return r;
}

Fp Fp::from_u64(std::uint64_t v) noexcept {
    Fp r;
    r.m_ = mont_mul(Limbs{v, 0, 0, 0}, kR2);
    return r;
}

std::optional<Fp> Fp::from_bytes(const std::uint8_t* be) noexcept {
    Limbs v{};
    for (std::size_t i = 0; i < 4; ++i) {
        std::uint64_t w = 0;
        for (std::size_t b = 0; b < 8; ++b) w = w << 8 | be[(3 - i) * 8 + b];
        v[i] = w;
    }
    if (geq(v, kP)) return std::nullopt;
    Fp r;
    r.m_ = mont_mul(v, kR2);
    return r;
}

void Fp::to_bytes(std::uint8_t* be) const noexcept {
    const Limbs v = mont_mul(m_, Limbs{1, 0, 0, 0});
    for (std::size_t i = 0; i < 4; ++i) {
        for (std::size_t b = 0; b < 8; ++b)
            be[(3 - i) * 8 + b] = static_cast<std::uint8_t>(v[i] >> (56 - 8 * b));
    }
}

Fp Fp::operator+(const Fp& b) const noexcept {
    Fp r;
    r.m_ = add_mod(m_, b.m_);
    return r;
}

Fp Fp::operator-(const Fp& b) const noexcept {
    Fp r;
    r.m_ = sub_mod(m_, b.m_);
    return r;
}

Fp Fp::operator-() const noexcept {
    return Fp() - *this;
}

Fp Fp::operator*(const Fp& b) const noexcept {
    Fp r;
    r.m_ = mont_mul(m_, b.m_);
    return r;
}

Fp Fp::pow(const Limbs& e) const noexcept {
    Fp r = one();
    for (int i = 255; i >= 0; --i) {
        r = r.square();
        if ((e[static_cast<std::size_t>(i / 64)] >> (i % 64)) & 1) r = r * *this;
    }
    return r;
}

Fp Fp::inverse() const noexcept {
    return pow(sub_raw(kP, Limbs{2, 0, 0, 0}));
}

// ---- Fp2 ----------------------------------------------------------------------------------------

Fp2 Fp2::operator*(const Fp2& b) const noexcept {
    // Karatsuba: (a0 + a1 u)(b0 + b1 u) = a0b0 - a1b1 + ((a0 + a1)(b0 + b1) - a0b0 - a1b1) u
    const Fp t0 = c0 * b.c0;
    const Fp t1 = c1 * b.c1;
    return {t0 - t1, (c0 + c1) * (b.c0 + b.c1) - t0 - t1};
}

Fp2 Fp2::square() const noexcept {
    // (a0 + a1)(a0 - a1) + 2 a0 a1 u
    return {(c0 + c1) * (c0 - c1), (c0 * c1).dbl()};
}

Fp2 Fp2::inverse() const noexcept {
    const Fp t = (c0.square() + c1.square()).inverse();
    return {c0 * t, -(c1 * t)};
}

Fp2 Fp2::mul_by_xi() const noexcept {
    // (c0 + c1 u)(9 + u) = 9c0 - c1 + (c0 + 9c1) u
    const Fp nine = Fp::from_u64(9);
    return {c0 * nine - c1, c0 + c1 * nine};
}

Fp2 Fp2::pow(const Fp::Limbs& e) const noexcept {
    Fp2 r = one();
    for (int i = 255; i >= 0; --i) {
        r = r.square();
        if ((e[static_cast<std::size_t>(i / 64)] >> (i % 64)) & 1) r = r * *this;
    }
    return r;
}

// ---- Fp12 ---------------------------------------------------------------------------------------

Fp12 Fp12::operator*(const Fp12& b) const noexcept {
    // Schoolbook product of two degree-5 polynomials in w, then w^6 = ξ.
    std::array<Fp2, 11> t{};
    for (std::size_t i = 0; i < 6; ++i) {
        if (c[i].is_zero()) continue;  // line functions are sparse
        for (std::size_t j = 0; j < 6; ++j) t[i + j] = t[i + j] + c[i] * b.c[j];
    }
    Fp12 r;
    for (std::size_t k = 0; k < 6; ++k) r.c[k] = k + 6 < 11 ? t[k] + t[k + 6].mul_by_xi() : t[k];
    return r;
}

Fp12 Fp12::conj() const noexcept {
    Fp12 r = *this;
    for (std::size_t i = 1; i < 6; i += 2) r.c[i] = -r.c[i];
    return r;
}

Fp12 Fp12::frobenius(int n) const noexcept {
    // (c_i w^i)^p = conj(c_i) · ξ^(i(p-1)/6) · w^i.
    Fp12 r = *this;
    for (int k = 0; k < n; ++k) {
        for (std::size_t i = 0; i < 6; ++i)
            r.c[i] = r.c[i].conj() * frobenius_gamma(static_cast<int>(i));
    }
    return r;
}

Fp12 Fp12::inverse() const noexcept {
    // f · conj(f) = N lies in Fp6 = Fp2[v], v = w^2 (odd coefficients cancel): invert N there,
    // then f^-1 = conj(f) · N^-1.
    const Fp12 cf = conj();
    const Fp12 n = *this * cf;
    const Fp2 a0 = n.c[0], a1 = n.c[2], a2 = n.c[4];  // a0 + a1 v + a2 v^2, v^3 = ξ
    const Fp2 t0 = a0.square() - (a1 * a2).mul_by_xi();
    const Fp2 t1 = a2.square().mul_by_xi() - a0 * a1;
    const Fp2 t2 = a1.square() - a0 * a2;
    const Fp2 det = a0 * t0 + (a2 * t1 + a1 * t2).mul_by_xi();
    const Fp2 d = det.inverse();
    Fp12 ninv;
    ninv.c[0] = t0 * d;
    ninv.c[2] = t1 * d;
    ninv.c[4] = t2 * d;
    return cf * ninv;
}

const Fp2& frobenius_gamma(int i) noexcept {
    static const std::array<Fp2, 6> gamma = [] {
        // (p - 1) / 6, then multiples of it; ξ^e by square-and-multiply.
        Limbs e = sub_raw(kP, Limbs{1, 0, 0, 0});
        std::uint64_t rem = 0;
        for (int k = 3; k >= 0; --k) {  // divide by 6
            const u128 cur = (static_cast<u128>(rem) << 64) | e[static_cast<std::size_t>(k)];
            e[static_cast<std::size_t>(k)] = static_cast<std::uint64_t>(cur / 6);
            rem = static_cast<std::uint64_t>(cur % 6);
        }
        const Fp2 xi{Fp::from_u64(9), Fp::one()};
        const Fp2 g1 = xi.pow(e);
        std::array<Fp2, 6> g{};
        g[0] = Fp2::one();
        for (std::size_t k = 1; k < 6; ++k) g[k] = g[k - 1] * g1;
        return g;
    }();
    return gamma[static_cast<std::size_t>(i)];
}

}  // namespace keel::bn254
