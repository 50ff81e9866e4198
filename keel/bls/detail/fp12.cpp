#include "keel/bls/detail/fp12.hpp"

#include <array>

#include "keel/common/batch_inverse.hpp"

namespace keel::bls {

Fp12 operator*(const Fp12& a, const Fp12& b) noexcept {
    // Karatsuba with w^2 = v: (a0 + a1·w)(b0 + b1·w) = (t0 + v·t1) + ((a0 + a1)(b0 + b1) - t0 -
    // t1)·w.
    const Fp6 t0 = a.c0 * b.c0;
    const Fp6 t1 = a.c1 * b.c1;
    return {t0 + t1.mul_by_v(), (a.c0 + a.c1) * (b.c0 + b.c1) - t0 - t1};
}

Fp12 Fp12::square() const noexcept {
    // Complex squaring (Devegili et al., ePrint 2006/471, §3): with t = a0·a1,
    // a0^2 + v·a1^2 = (a0 + a1)(a0 + v·a1) - t - v·t and the w-part is 2t.
    const Fp6 t = c0 * c1;
    const Fp6 s = (c0 + c1) * (c0 + c1.mul_by_v());
    return {s - t - t.mul_by_v(), t.dbl()};
}

Fp12 Fp12::inverse() const noexcept {
    // (a0 + a1·w)^-1 = (a0 - a1·w) / (a0^2 - v·a1^2), the denominator in Fp6.
    const Fp6 inv = (c0.square() - c1.square().mul_by_v()).inverse();
    return {c0 * inv, -(c1 * inv)};
}

Fp12 Fp12::inverse_vartime() const noexcept {
    const Fp6 inv = (c0.square() - c1.square().mul_by_v()).inverse_vartime();
    return {c0 * inv, -(c1 * inv)};
}

Fp12 Fp12::frobenius_map(std::size_t k) const noexcept {
    // (a0 + a1·w)^(p^k) = a0^(p^k) + a1^(p^k)·w^(p^k), and w^(p^k) = w·ξ^((p^k - 1)/6) = w·γ[k][1].
    const Fp6 a1 = c1.frobenius_map(k);
    return {c0.frobenius_map(k), a1 * detail::kFrobeniusGamma[k - 1][1]};
}

namespace {

/// (x + y·s)^2 in Fp4 = Fp2[s] / (s^2 - ξ): returns x^2 + ξ·y^2 and 2xy, by three squarings.
struct Fp4Square {
    Fp2 x, y;
};
inline Fp4Square fp4_square(const Fp2& x, const Fp2& y) noexcept {
    const Fp2 x2 = x.square();
    const Fp2 y2 = y.square();
    return {x2 + y2.mul_by_xi(), (x + y).square() - x2 - y2};
}

}  // namespace

Fp12 Fp12::cyclotomic_square() const noexcept {
    // Granger–Scott §3.2: write Fp12 = Fp4[w] / (w^3 - s) with s = w^3 and Fp4 = Fp2[s], so
    // f = A + B·w + C·w^2 with A = g0 + g3·s, B = g1 + g4·s, C = g2 + g5·s. For f in the
    // cyclotomic subgroup,
    //   f^2 = (3A^2 - 2·conj(A)) + (3s·C^2 + 2·conj(B))·w + (3B^2 - 2·conj(C))·w^2,
    // conj being s -> -s. Each 3t ± 2g is computed as 2(t ± g) + t.
    const Fp2 &g0 = c0.c0, &g1 = c1.c0, &g2 = c0.c1, &g3 = c1.c1, &g4 = c0.c2, &g5 = c1.c2;
    const Fp4Square a2 = fp4_square(g0, g3);
    const Fp4Square b2 = fp4_square(g1, g4);
    const Fp4Square c2 = fp4_square(g2, g5);
    const Fp2 sc2x = c2.y.mul_by_xi();  // s·C^2 = ξ·(C^2).y + (C^2).x·s

    const Fp2 h0 = (a2.x - g0).dbl() + a2.x;  // A'.x
    const Fp2 h3 = (a2.y + g3).dbl() + a2.y;  // A'.y
    const Fp2 h1 = (sc2x + g1).dbl() + sc2x;  // B'.x
    const Fp2 h4 = (c2.x - g4).dbl() + c2.x;  // B'.y
    const Fp2 h2 = (b2.x - g2).dbl() + b2.x;  // C'.x
    const Fp2 h5 = (b2.y + g5).dbl() + b2.y;  // C'.y
    return {Fp6(h0, h2, h4), Fp6(h1, h3, h5)};
}

Fp12::Compressed Fp12::compressed_square(const Compressed& a) noexcept {
    // The B' and C' halves of cyclotomic_square().
    const Fp4Square b2 = fp4_square(a.g1, a.g4);
    const Fp4Square c2 = fp4_square(a.g2, a.g5);
    const Fp2 sc2x = c2.y.mul_by_xi();
    return {(sc2x + a.g1).dbl() + sc2x, (c2.x - a.g4).dbl() + c2.x, (b2.x - a.g2).dbl() + b2.x,
            (b2.y + a.g5).dbl() + b2.y};
}

bool Fp12::decompress_vartime(std::span<const Compressed> in, std::span<Fp12> out) noexcept {
    // f·f^(p^6) = 1 with f^(p^6) = conj(A) - conj(B)·w + conj(C)·w^2 (conj: s -> -s). Its w^1
    // and w^2 coefficients are linear in A = a0 + a1·s:
    //   c0·a0 - ξ·c1·a1 = N(B) / 2,   b1·a0 - b0·a1 = -N(C) / 2,
    // with B = b0 + b1·s, C = c0 + c1·s and N(X) = x0^2 - ξ·x1^2. With D = ξ·b1·c1 - b0·c0,
    //   a0 = -(b0·N(B) + ξ·c1·N(C)) / 2D,   a1 = -(c0·N(C) + b1·N(B)) / 2D.
    // The 2D of all elements are inverted together (Montgomery's trick).
    constexpr std::size_t kMax = 8;
    if (in.size() != out.size() || in.size() > kMax) return false;
    std::array<Fp2, kMax> inv_den;
    for (std::size_t i = 0; i < in.size(); ++i) {
        const Compressed& e = in[i];
        inv_den[i] = ((e.g4 * e.g5).mul_by_xi() - e.g1 * e.g2).dbl();
        if (inv_den[i].is_zero()) return false;
    }
    invert_all_vartime(std::span(inv_den.data(), in.size()));
    for (std::size_t i = 0; i < in.size(); ++i) {
        const Fp2& inv_i = inv_den[i];  // 1 / 2D
        const Compressed& e = in[i];
        const Fp2 nb = e.g1.square() - e.g4.square().mul_by_xi();
        const Fp2 nc = e.g2.square() - e.g5.square().mul_by_xi();
        const Fp2 a0 = -(e.g1 * nb + (e.g5 * nc).mul_by_xi()) * inv_i;
        const Fp2 a1 = -(e.g2 * nc + e.g4 * nb) * inv_i;
        out[i] = Fp12(Fp6(a0, e.g2, e.g4), Fp6(e.g1, a1, e.g5));
    }
    return true;
}

Fp12 Fp12::mul_by_line(const Fp2& a, const Fp2& b, const Fp2& c) const noexcept {
    // With L0 = a + b·v and L1 = c·v: f·L = f0·L0 + v·f1·L1 + ((f0 + f1)(L0 + L1) - f0·L0 -
    // f1·L1)·w, and L0 + L1 = a + (b + c)·v is again of the (·, ·, 0) shape.
    const Fp6 t0 = c0.mul_by_01(a, b);
    const Fp6 t1 = c1.mul_by_1(c);
    const Fp6 t2 = (c0 + c1).mul_by_01(a, b + c);
    return {t0 + t1.mul_by_v(), t2 - t0 - t1};
}

Fp12 Fp12::pow(std::span<const std::uint64_t> exponent) const noexcept {
    Fp12 r = one();
    for (std::size_t i = exponent.size(); i-- > 0;) {
        for (int bit = 63; bit >= 0; --bit) {
            r = r.square();
            if ((exponent[i] >> bit) & 1) r *= *this;
        }
    }
    return r;
}

}  // namespace keel::bls
