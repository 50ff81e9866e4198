// The optimal ate pairing of BN254 (Vercauteren, "Optimal pairings", 2010; the BN254 parameters
// of EIP-197): Miller loop over 6u + 2 in signed binary with affine line functions, the two
// Frobenius steps, and the final exponentiation (p^12 - 1)/r as the easy part
// (p^6 - 1)(p^2 + 1) by conjugation, inversion and Frobenius, then (p^4 - p^2 + 1)/r by
// square-and-multiply. A first, plain version: correct before fast (docs/evm.md).
#include <gmp.h>

#include <vector>

#include "keel/bn254/curve.hpp"

namespace keel::bn254 {

namespace {

__extension__ typedef unsigned __int128 u128;

constexpr std::uint64_t kU = 4965661367192848881ull;  // the BN parameter u (x)

// 6u + 2 in signed binary (non-adjacent form), least significant digit first.
std::vector<int> ate_loop_naf() {
    u128 n = static_cast<u128>(kU) * 6 + 2;
    std::vector<int> d;
    while (n != 0) {
        if (n & 1) {
            const int digit = 2 - static_cast<int>(n & 3);  // n mod 4 == 1: +1, == 3: -1
            d.push_back(digit);
            n = digit > 0 ? n - 1 : n + 1;
        } else {
            d.push_back(0);
        }
        n >>= 1;
    }
    return d;
}

// The bits of (p^4 - p^2 + 1)/r, most significant first.
std::vector<bool> hard_exponent() {
    mpz_t p, r, e, t;
    mpz_inits(p, r, e, t, nullptr);
    mpz_set_str(p, "30644e72e131a029b85045b68181585d97816a916871ca8d3c208c16d87cfd47", 16);
    mpz_set_str(r, "30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f0000001", 16);
    mpz_pow_ui(e, p, 4);
    mpz_pow_ui(t, p, 2);
    mpz_sub(e, e, t);
    mpz_add_ui(e, e, 1);
    mpz_divexact(e, e, r);
    std::vector<bool> bits;
    for (auto i = static_cast<long>(mpz_sizeinbase(e, 2)) - 1; i >= 0; --i)
        bits.push_back(mpz_tstbit(e, static_cast<mp_bitcnt_t>(i)) != 0);
    mpz_clears(p, r, e, t, nullptr);
    return bits;
}

// The line through T and Q (the tangent when `tangent`), both on the twist, evaluated at P
// after untwisting (x, y) -> (x w^2, y w^3): yP - λ·xP·w + (λ·xT - yT)·w^3. Moves T to T + Q
// (or 2T). A vertical line (T = -Q) lies in a subfield that the final exponentiation kills: 1.
Fp12 line_step(G2Affine& t, const G2Affine& q, const G1Affine& p, bool tangent) {
    Fp2 lambda;
    if (tangent) {
        const Fp2 x2 = t.x.square();
        lambda = (x2.dbl() + x2) * t.y.dbl().inverse();
    } else {
        if (t.x == q.x) {
            if (t.y == q.y) return line_step(t, q, p, true);
            t = G2Affine{};
            return Fp12::one();
        }
        lambda = (q.y - t.y) * (q.x - t.x).inverse();
    }
    Fp12 l;
    l.c[0] = Fp2{p.y, Fp()};
    l.c[1] = -(lambda * p.x);
    l.c[3] = lambda * t.x - t.y;
    const Fp2 x3 = lambda.square() - t.x - (tangent ? t.x : q.x);
    const Fp2 y3 = lambda * (t.x - x3) - t.y;
    t = G2Affine{x3, y3, false};
    return l;
}

// The twist's Frobenius: π(x, y) = (conj(x)·ξ^((p-1)/3), conj(y)·ξ^((p-1)/2)).
G2Affine twist_frobenius(const G2Affine& q) {
    return {q.x.conj() * frobenius_gamma(2), q.y.conj() * frobenius_gamma(3), q.infinity};
}

Fp12 miller_loop(const G1Affine& p, const G2Affine& q) {
    static const std::vector<int> naf = ate_loop_naf();
    const G2Affine neg_q{q.x, -q.y, false};
    G2Affine t = q;
    Fp12 f = Fp12::one();
    for (auto i = static_cast<long>(naf.size()) - 2; i >= 0; --i) {
        f = f.square() * line_step(t, t, p, true);
        const int d = naf[static_cast<std::size_t>(i)];
        if (d == 1) f = f * line_step(t, q, p, false);
        if (d == -1) f = f * line_step(t, neg_q, p, false);
    }
    const G2Affine q1 = twist_frobenius(q);
    G2Affine q2 = twist_frobenius(q1);
    q2.y = -q2.y;
    f = f * line_step(t, q1, p, false);
    f = f * line_step(t, q2, p, false);
    return f;
}

Fp12 final_exponentiation(const Fp12& f) {
    static const std::vector<bool> hard = hard_exponent();
    Fp12 m = f.conj() * f.inverse();  // f^(p^6 - 1)
    m = m.frobenius(2) * m;           // ^(p^2 + 1)
    Fp12 r = Fp12::one();
    for (const bool bit : hard) {
        r = r.square();
        if (bit) r = r * m;
    }
    return r;
}

}  // namespace

template <>
const Fp& curve_b<Fp>() noexcept {
    static const Fp b = Fp::from_u64(3);
    return b;
}

template <>
const Fp2& curve_b<Fp2>() noexcept {
    static const Fp2 b = Fp2{Fp::from_u64(3), Fp()} * Fp2{Fp::from_u64(9), Fp::one()}.inverse();
    return b;
}

bool in_g2(const G2Affine& q) noexcept {
    return G2::from_affine(q).mul(kOrder).is_infinity();
}

bool pairing_product_is_one(const G1Affine* p, const G2Affine* q, std::size_t n) noexcept {
    Fp12 f = Fp12::one();
    bool any = false;
    for (std::size_t i = 0; i < n; ++i) {
        if (p[i].infinity || q[i].infinity) continue;
        f = f * miller_loop(p[i], q[i]);
        any = true;
    }
    return !any || final_exponentiation(f).is_one();
}

}  // namespace keel::bn254
