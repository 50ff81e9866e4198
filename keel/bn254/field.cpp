#include "keel/bn254/field.hpp"

#include <cstring>

#include "keel/common/mont256.hpp"

namespace keel::bn254 {

namespace {

using Limbs = Fp::Limbs;

constexpr mont256::Modulus kMod = mont256::make_modulus(
    {0x3c208c16d87cfd47, 0x97816a916871ca8d, 0xb85045b68181585d, 0x30644e72e131a029});
constexpr Limbs kP = kMod.p;
constexpr Limbs kR = kMod.r;
constexpr Limbs kR2 = kMod.r2;

constexpr Limbs mont_mul(const Limbs& a, const Limbs& b) {
    return mont256::mul(a, b, kMod);
}

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
    if (mont256::geq(v, kP)) return std::nullopt;
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
    r.m_ = mont256::add_mod(m_, b.m_, kP);
    return r;
}

Fp Fp::operator-(const Fp& b) const noexcept {
    Fp r;
    r.m_ = mont256::sub_mod(m_, b.m_, kP);
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
    return pow(mont256::sub_raw(kP, Limbs{2, 0, 0, 0}));
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
        Limbs e = mont256::sub_raw(kP, Limbs{1, 0, 0, 0});
        std::uint64_t rem = 0;
        for (int k = 3; k >= 0; --k) {  // divide by 6
            const mont256::u128 cur =
                (static_cast<mont256::u128>(rem) << 64) | e[static_cast<std::size_t>(k)];
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
