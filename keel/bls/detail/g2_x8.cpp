#include "keel/bls/detail/g2_x8.hpp"

#include <array>

#include "keel/bls/detail/fp_x8.hpp"

namespace keel::bls {

namespace {

/// Eight Fp2 elements: the c0 halves in one FpX8, the c1 halves in another.
struct Fp2X8 {
    FpX8 c0, c1;
};

// Bounds (values as multiples of p; x8::mul returns below 2p and needs (a/p)(b/p) < 2^35): the
// comments give each result's bound for inputs within the loop's invariant x < 68p, y < 74p,
// z < 20p, which the doubling below re-establishes.

Fp2X8 add(const Fp2X8& a, const Fp2X8& b) noexcept {
    return {x8::add(a.c0, b.c0), x8::add(a.c1, b.c1)};
}
/// a - b + 2^k·p per half, for b below 2^k·p.
Fp2X8 sub(const Fp2X8& a, const Fp2X8& b, unsigned k) noexcept {
    return {x8::sub(a.c0, b.c0, k), x8::sub(a.c1, b.c1, k)};
}
/// Karatsuba: c0 < 6p, c1 < 10p.
Fp2X8 mul(const Fp2X8& a, const Fp2X8& b) noexcept {
    const FpX8 v0 = x8::mul(a.c0, b.c0), v1 = x8::mul(a.c1, b.c1);
    const FpX8 cross = x8::mul(x8::add(a.c0, a.c1), x8::add(b.c0, b.c1));
    return {x8::sub(v0, v1), x8::sub(x8::sub(cross, v0), v1)};
}
/// (c0 + c1)(c0 - c1) + 2·c0·c1·u for c1 < 256p: c0 < 2p, c1 < 4p.
Fp2X8 square(const Fp2X8& a) noexcept {
    const FpX8 t = x8::mul(a.c0, a.c1);
    return {x8::mul(x8::add(a.c0, a.c1), x8::sub(a.c0, a.c1, 8)), x8::add(t, t)};
}

Fp2X8 load(std::span<const G2Jacobian, 8> pts, Fp2 G2Jacobian::* coord) noexcept {
    std::array<Fp, 8> c0, c1;
    for (std::size_t i = 0; i < 8; ++i) {
        c0[i] = (pts[i].*coord).c0;
        c1[i] = (pts[i].*coord).c1;
    }
    return {x8::load(c0), x8::load(c1)};
}

void store(const Fp2X8& v, std::span<G2Jacobian, 8> pts, Fp2 G2Jacobian::* coord) noexcept {
    std::array<Fp, 8> c0, c1;
    x8::store(v.c0, c0);
    x8::store(v.c1, c1);
    for (std::size_t i = 0; i < 8; ++i) pts[i].*coord = Fp2(c0[i], c1[i]);
}

}  // namespace

void g2_double_x8(std::span<G2Jacobian, 8> points, unsigned n) noexcept {
    Fp2X8 x = load(points, &G2Jacobian::x), y = load(points, &G2Jacobian::y),
          z = load(points, &G2Jacobian::z);  // each below 2p
    for (unsigned i = 0; i < n; ++i) {
        // dbl-2009-l as Jacobian::dbl (curve.hpp), with the bounds of each value.
        const Fp2X8 a = square(x);                                       // < 4p
        const Fp2X8 b = square(y);                                       // < 4p
        const Fp2X8 c = square(b);                                       // < 4p
        const Fp2X8 t = sub(sub(square(add(x, b)), a, 2), c, 2);         // < 12p
        const Fp2X8 d = add(t, t);                                       // < 24p
        const Fp2X8 e = add(add(a, a), a);                               // < 12p
        const Fp2X8 f = square(e);                                       // < 4p
        const Fp2X8 x3 = sub(f, add(d, d), 6);                           // < 68p
        const Fp2X8 c2 = add(c, c), c4 = add(c2, c2), c8 = add(c4, c4);  // < 32p
        const Fp2X8 y3 = sub(mul(e, sub(d, x3, 7)), c8, 6);              // < 74p
        const Fp2X8 yz = mul(y, z);                                      // < 10p
        z = add(yz, yz);                                                 // < 20p
        x = x3;
        y = y3;
    }
    store(x, points, &G2Jacobian::x);
    store(y, points, &G2Jacobian::y);
    store(z, points, &G2Jacobian::z);
}

}  // namespace keel::bls
