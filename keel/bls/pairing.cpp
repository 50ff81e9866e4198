#include "keel/bls/pairing.hpp"

#include <array>
#include <bit>
#include <cstdint>
#include <vector>

namespace keel::bls {

namespace {

/// |x| for BLS12-381's x = -0xd201000000010000; bits 63, 62, 60, 57, 48 and 16 are set.
constexpr std::uint64_t kAbsX = 0xd201000000010000;

/// A point of the twist E2 in homogeneous projective coordinates: (X/Z, Y/Z).
struct G2Projective {
    Fp2 x, y, z;
};

/// A line function's three non-zero Fp2 coefficients: a + b·w^2 + c·w^3 (Fp12::mul_by_line).
struct Line {
    Fp2 a, b, c;
};

// Lines. The twist is of M type: E2: y^2 = x^3 + b' with b' = 4ξ = b·ξ, and
// ψ(x', y') = (x'/w^2, y'/w^3) maps it into E(Fp12) (w^6 = ξ). The tangent or chord through
// ψ(T) with slope λ = λ'/w (λ' the slope on the twist), evaluated at P = (xP, yP), is
//   yP - λ'·xP/w + (λ'·x' - y')/w^3,
// and multiplied by w^3 and by the denominator of λ' (both in proper subfields of Fp12, which
// the final exponentiation sends to 1) it becomes (λ'·x' - y')·den + (-λ'·den·xP)·w^2 + den·yP·w^3.
// The point formulas are Costello, Lange and Naehrig's for a = 0 in homogeneous coordinates
// ("Faster pairing computations on curves with high-degree twists", PKC 2010), in the form of
// Aranha, Karabina, Longa, Gebotys and López ("Faster explicit formulas for computing pairings
// over ordinary curves", EUROCRYPT 2011, §4), with the line placed for the M-twist as above.

/// T = 2T; returns the tangent at T evaluated at P (neg_xp = -xP).
inline Line double_step(G2Projective& t, const Fp& neg_xp, const Fp& yp) noexcept {
    // Tangent: λ' = 3x'^2 / (2y'), x' = X/Z, y' = Y/Z. Taking den = 2y' and clearing Z^3, the
    // line is (3X^3 - 2Y^2·Z) + (-3X^2·Z·xP)·w^2 + (2Y·Z^2·yP)·w^3; the curve equation
    // X^3 = Y^2·Z - b'·Z^3 turns the constant into Z·(Y^2 - 3b'·Z^2), and dividing by Z gives
    //   (Y^2 - 3b'·Z^2) + (-3X^2·xP)·w^2 + (2Y·Z·yP)·w^3.
    const Fp2 xx = t.x.square();
    const Fp2 yy = t.y.square();
    const Fp2 zz = t.z.square();
    const Fp2 xi_zz = zz.mul_by_xi();
    const Fp2 xi_zz4 = xi_zz.dbl().dbl();
    const Fp2 e = xi_zz4 + xi_zz4.dbl();           // 3b'·Z^2 = 12ξ·Z^2
    const Fp2 f = e.dbl() + e;                     // 9b'·Z^2
    const Fp2 h = (t.y + t.z).square() - yy - zz;  // 2Y·Z
    const Line line{yy - e, (xx.dbl() + xx) * neg_xp, h * yp};
    // 2T, all three coordinates scaled by 4 to avoid halving (Aranha et al. §4):
    //   X3 = 2XY·(Y^2 - 9b'Z^2), Y3 = (Y^2 + 9b'Z^2)^2 - 108b'^2·Z^4, Z3 = 8Y^3·Z.
    const Fp2 ee = e.square();
    t.x = (t.x * t.y).dbl() * (yy - f);
    t.y = (yy + f).square() - (ee.dbl() + ee).dbl().dbl();
    t.z = (yy * h).dbl().dbl();
    return line;
}

/// T = T + Q (Q affine, T ≠ ±Q); returns the chord through T and Q evaluated at P.
inline Line add_step(G2Projective& t, const G2Affine& q, const Fp& neg_xp, const Fp& yp) noexcept {
    // With θ = Y - yQ·Z and λ = X - xQ·Z the slope is θ/λ; den = λ gives the line
    //   (θ·xQ - λ·yQ) + (-θ·xP)·w^2 + (λ·yP)·w^3.
    const Fp2 theta = t.y - q.y * t.z;
    const Fp2 lambda = t.x - q.x * t.z;
    const Line line{theta * q.x - lambda * q.y, theta * neg_xp, lambda * yp};
    // Mixed addition (Aranha et al. §4): C = θ^2, D = λ^2, E = λ^3, F = Z·C, G = X·D,
    // H = E + F - 2G; X3 = λ·H, Y3 = θ·(G - H) - Y·E, Z3 = Z·E.
    const Fp2 c = theta.square();
    const Fp2 d = lambda.square();
    const Fp2 e = lambda * d;
    const Fp2 f = t.z * c;
    const Fp2 g = t.x * d;
    const Fp2 h = e + f - g.dbl();
    t.x = lambda * h;
    t.y = theta * (g - h) - t.y * e;
    t.z = t.z * e;
    return line;
}

/// The per-pair state of the multi-Miller loop.
struct PairState {
    G2Projective t;
    G2Affine q;
    Fp neg_xp, yp;
};

/// g^x for g in the cyclotomic subgroup: g^|x| by cyclotomic squarings, then the conjugate
/// (the inverse there) because x < 0. The 63 squarings run compressed (Fp12::Compressed, six
/// Fp2 squarings instead of nine); the six powers g^(2^i) for the set bits i of |x| are
/// decompressed together and multiplied. Falls back to whole squarings when a power has no
/// compressed form (g = 1, say).
Fp12 cyclotomic_exp_by_x(const Fp12& g) noexcept {
    constexpr std::size_t kSetBits = 6;  // bits 16, 48, 57, 60, 62, 63
    static_assert(std::popcount(kAbsX) == kSetBits);
    std::array<Fp12::Compressed, kSetBits> powers;
    std::size_t n = 0;
    Fp12::Compressed c = g.compress();
    for (int bit = 1; bit <= 63; ++bit) {
        c = Fp12::compressed_square(c);
        if ((kAbsX >> bit) & 1) powers[n++] = c;
    }
    std::array<Fp12, kSetBits> whole;
    Fp12 r;
    if (Fp12::decompress_vartime(powers, whole)) {
        r = whole[0];
        for (std::size_t i = 1; i < kSetBits; ++i) r *= whole[i];
    } else {
        r = g;
        for (int bit = 62; bit >= 0; --bit) {
            r = r.cyclotomic_square();
            if ((kAbsX >> bit) & 1) r *= g;
        }
    }
    return r.conjugate();
}

}  // namespace

Fp12 miller_loop(std::span<const std::pair<G1Affine, G2Affine>> pairs) {
    std::vector<PairState> states;
    states.reserve(pairs.size());
    for (const auto& [p, q] : pairs) {
        if (p.infinity || q.infinity) continue;
        states.push_back({{q.x, q.y, Fp2::one()}, q, -p.x, p.y});
    }
    // Miller's algorithm over the bits of |x| below the top one (Vercauteren's optimal ate
    // for BLS12: f_{|x|,Q}(P)); f starts at one, so its first squaring is skipped.
    Fp12 f = Fp12::one();
    bool first = true;
    for (int bit = 62; bit >= 0; --bit) {
        if (!first) f = f.square();
        first = false;
        for (auto& s : states) {
            const Line l = double_step(s.t, s.neg_xp, s.yp);
            f = f.mul_by_line(l.a, l.b, l.c);
        }
        if ((kAbsX >> bit) & 1) {
            for (auto& s : states) {
                const Line l = add_step(s.t, s.q, s.neg_xp, s.yp);
                f = f.mul_by_line(l.a, l.b, l.c);
            }
        }
    }
    // x < 0: f_{x,Q} = 1 / f_{|x|,Q} up to factors the final exponentiation removes, and after
    // it the inverse is the conjugate; conjugating here is equivalent and cheaper.
    return f.conjugate();
}

Fp12 final_exponentiation(const Fp12& f) noexcept {
    // Easy part: f^((p^6 - 1)(p^2 + 1)), landing in the cyclotomic subgroup. Pairings here
    // only ever see public points, so the inversion may take variable time.
    const Fp12 t = f.conjugate() * f.inverse_vartime();
    const Fp12 g = t.frobenius_map(2) * t;
    // Hard part, Hayashida–Hayasaka–Teruya (ePrint 2020/875, §4 for BLS12):
    //   3·(p^4 - p^2 + 1)/r = (x - 1)^2·(x + p)·(x^2 + p^2 - 1) + 3,
    // five exponentiations by x, two Frobenius maps, conjugates for the -1s.
    const Fp12 a = cyclotomic_exp_by_x(g) * g.conjugate();       // g^(x-1)
    const Fp12 b = cyclotomic_exp_by_x(a) * a.conjugate();       // g^((x-1)^2)
    const Fp12 c = cyclotomic_exp_by_x(b) * b.frobenius_map(1);  // ·(x + p)
    const Fp12 d = cyclotomic_exp_by_x(cyclotomic_exp_by_x(c)) * c.frobenius_map(2) *
                   c.conjugate();          // ·(x^2 + p^2 - 1)
    return d * g.cyclotomic_square() * g;  // · g^3
}

Fp12 pairing(const G1Affine& p, const G2Affine& q) {
    const std::pair<G1Affine, G2Affine> pair{p, q};
    return final_exponentiation(miller_loop({&pair, 1}));
}

bool pairing_product_is_one(std::span<const std::pair<G1Affine, G2Affine>> pairs) {
    return final_exponentiation(miller_loop(pairs)).is_one();
}

}  // namespace keel::bls
