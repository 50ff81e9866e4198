#pragma once
/// The group law of the two BLS12-381 curves, written once for both: E1 over Fp (G1, g1.hpp) and
/// E2 over Fp2 (G2, g2.hpp). Both are short Weierstrass curves y^2 = x^3 + b with a = 0, so one
/// template over the coordinate field carries every formula.
///
/// Points are in Jacobian coordinates (X, Y, Z) <-> affine (X/Z^2, Y/Z^3); Z = 0 is the point at
/// infinity (kept as (1, 1, 0)). Formulas are those of the Explicit-Formulas Database for
/// a = 0 (https://hyperelliptic.org/EFD/g1p/auto-shortw-jacobian-0.html): dbl-2009-l,
/// add-2007-bl, madd-2007-bl.
///
/// Constant-time vs variable-time:
///   - `operator+`, `add_mixed`, `dbl`, `operator-`, `select`, `lookup_ct`, `mul_ct`,
///     `to_affine` and `operator==` branch on no coordinate: they are for secret data (SkToPk,
///     Sign). mul_ct works in the projective coordinates of projective.hpp, whose complete
///     formulas (Renes–Costello–Batina) are cheaper than `operator+` here.
///   - Everything named `*_vartime`, and `mul_by_x_abs`, branch on their inputs: public data only
///     (verification, decoding, hashing to the curve).
///
/// Neither curve has a point of order 2 (both group orders are odd), so doubling is complete:
/// dbl-2009-l maps the point at infinity to itself and never meets y = 0 otherwise.

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

#include "keel/bls/affine.hpp"
#include "keel/bls/detail/projective.hpp"
#include "keel/bls/scalar.hpp"
#include "keel/common/assert.hpp"

namespace keel::bls {

/// |x| for the BLS parameter x = -0xd201000000010000 that generates the curve family.
inline constexpr std::uint64_t kBlsXAbs = 0xd201000000010000;

namespace detail {

/// The width-5 non-adjacent form of the little-endian number k: digits odd in (-16, 16) or zero,
/// any nonzero digit followed by four zeros, least significant first. Writes them to `naf`
/// (at least 64·k.size() + 1 entries) and returns how many there are. Variable time.
inline std::size_t wnaf(std::span<const std::uint64_t> k, std::span<std::int8_t> naf) noexcept {
    constexpr int kW = 5;
    constexpr std::size_t kMax = 13;
    KEEL_ASSERT(k.size() < kMax && naf.size() >= 64 * k.size() + 1);
    // The number shrinks as digits are taken off; one spare limb takes the carry of n - d.
    std::array<std::uint64_t, kMax> n{};
    const std::size_t limbs = k.size() + 1;
    for (std::size_t i = 0; i < k.size(); ++i) n[i] = k[i];
    auto nonzero = [&n, limbs] {
        for (std::size_t i = 0; i < limbs; ++i)
            if (n[i] != 0) return true;
        return false;
    };
    std::size_t len = 0;
    while (nonzero()) {
        std::int64_t d = 0;
        if (n[0] & 1) {
            d = static_cast<std::int64_t>(n[0] & ((1u << kW) - 1));
            if (d >= (1 << (kW - 1))) d -= (1 << kW);
            // n -= d, so that n becomes divisible by 2^kW.
            if (d > 0) {
                std::uint64_t borrow = static_cast<std::uint64_t>(d);
                for (std::size_t i = 0; i < limbs && borrow != 0; ++i) {
                    const std::uint64_t old = n[i];
                    n[i] = old - borrow;
                    borrow = old < borrow ? 1 : 0;
                }
            } else {
                std::uint64_t carry = static_cast<std::uint64_t>(-d);
                for (std::size_t i = 0; i < limbs && carry != 0; ++i) {
                    n[i] += carry;
                    carry = n[i] < carry ? 1 : 0;
                }
            }
        }
        naf[len++] = static_cast<std::int8_t>(d);
        for (std::size_t i = 0; i + 1 < limbs; ++i) n[i] = (n[i] >> 1) | (n[i + 1] << 63);
        n[limbs - 1] >>= 1;
    }
    return len;
}

/// Divides the little-endian number n in place by d and returns the remainder.
inline std::uint64_t divmod_u64(std::span<std::uint64_t> n, std::uint64_t d) noexcept {
    std::uint64_t rem = 0;
    for (std::size_t i = n.size(); i-- > 0;) {
        const u128 cur = (static_cast<u128>(rem) << 64) | n[i];
        n[i] = static_cast<std::uint64_t>(cur / d);
        rem = static_cast<std::uint64_t>(cur % d);
    }
    return rem;
}

}  // namespace detail

/// A point of E1 or E2 in Jacobian coordinates. `Traits` supplies `Field` (Fp or Fp2), `Affine`
/// (G1Affine or G2Affine) and `b()`. g1.hpp and g2.hpp name the two instances G1Jacobian and
/// G2Jacobian; the members are public values, like Fp2's c0 and c1.
template <class Traits>
class Jacobian {
  public:
    using Field = typename Traits::Field;
    using Affine = typename Traits::Affine;

    Field x = Field::one(), y = Field::one(), z = Field::zero();

    /// The point at infinity.
    constexpr Jacobian() noexcept = default;
    constexpr Jacobian(const Field& x0, const Field& y0, const Field& z0) noexcept
        : x(x0), y(y0), z(z0) {}

    static constexpr Jacobian identity() noexcept { return {}; }

    /// The same point; infinity maps to (1, 1, 0). Constant time.
    static constexpr Jacobian from_affine(const Affine& a) noexcept {
        return {Field::select(a.infinity, Field::one(), a.x),
                Field::select(a.infinity, Field::one(), a.y),
                Field::select(a.infinity, Field::zero(), Field::one())};
    }

    /// The affine point, with one field inversion (zero's inverse is zero, so infinity comes out
    /// with zero coordinates and `infinity` set, as affine.hpp wants). Constant time.
    Affine to_affine() const noexcept { return affine_with(z.inverse()); }

    /// As to_affine(), with a variable-time inversion: for public points only (hashes of
    /// messages, keys and signatures being verified), never for results of secret scalars.
    Affine to_affine_vartime() const noexcept { return affine_with(z.inverse_vartime()); }

    /// True for the point at infinity.
    constexpr bool is_identity() const noexcept { return z.is_zero(); }

    /// Y^2 = X^3 + b·Z^6 (the curve equation in Jacobian form); true for infinity.
    bool on_curve() const noexcept {
        const Field z2 = z.square();
        const Field z6 = z2.square() * z2;
        return y.square() == x.square() * x + Traits::b() * z6;
    }

    /// a if `flag` else b, without a branch.
    static constexpr Jacobian select(bool flag, const Jacobian& a, const Jacobian& b) noexcept {
        return {Field::select(flag, a.x, b.x), Field::select(flag, a.y, b.y),
                Field::select(flag, a.z, b.z)};
    }

    friend constexpr Jacobian operator-(const Jacobian& p) noexcept { return {p.x, -p.y, p.z}; }

    /// [2]P (dbl-2009-l: 2M + 5S). Complete on these curves (see the file comment).
    constexpr Jacobian dbl() const noexcept {
        const Field a = x.square();
        const Field b = y.square();
        const Field c = b.square();
        const Field d = ((x + b).square() - a - c).dbl();
        const Field e = a.dbl() + a;
        const Field f = e.square();
        const Field x3 = f - d.dbl();
        const Field y3 = e * (d - x3) - c.dbl().dbl().dbl();
        return {x3, y3, (y * z).dbl()};
    }

    /// P + Q for all inputs (equal points, inverses, infinity), in constant time: it computes
    /// the general sum and the doubling and picks by mask (add-2007-bl + dbl-2009-l).
    friend Jacobian operator+(const Jacobian& p, const Jacobian& q) noexcept {
        bool h_zero = false, r_zero = false;
        const Jacobian sum = add_general(p, q, h_zero, r_zero);
        // h = 0 and r != 0 means q = -p: `sum` already has Z = 0 (Z3 carries a factor h).
        const Jacobian twice = p.dbl();
        const Jacobian r = select(h_zero & r_zero, twice, sum);
        return select(p.is_identity(), q, select(q.is_identity(), p, r));
    }
    friend Jacobian operator-(const Jacobian& p, const Jacobian& q) noexcept { return p + (-q); }
    Jacobian& operator+=(const Jacobian& q) noexcept { return *this = *this + q; }

    /// P + Q with branches on the inputs (public data only); complete.
    Jacobian add_vartime(const Jacobian& q) const noexcept {
        if (is_identity()) return q;
        if (q.is_identity()) return *this;
        bool h_zero = false, r_zero = false;
        const Jacobian sum = add_general(*this, q, h_zero, r_zero);
        if (h_zero && r_zero) return dbl();
        return sum;  // for q = -p, Z3 = 0 already
    }

    /// P + Q for an affine Q (madd-2007-bl: 7M + 4S), complete and constant time.
    Jacobian add_mixed(const Affine& q) const noexcept {
        bool h_zero = false, r_zero = false;
        const Jacobian sum = add_mixed_general(q, h_zero, r_zero);
        const Jacobian r = select(both(h_zero, r_zero), dbl(), sum);
        return select(is_identity(), from_affine(q), select(q.infinity, *this, r));
    }

    /// add_mixed with branches on the inputs (public data only, e.g. summing public keys): the
    /// doubling is computed only when P = Q.
    Jacobian add_mixed_vartime(const Affine& q) const noexcept {
        if (q.infinity) return *this;
        if (is_identity()) return from_affine(q);
        bool h_zero = false, r_zero = false;
        const Jacobian sum = add_mixed_general(q, h_zero, r_zero);
        if (h_zero && r_zero) return dbl();
        return sum;  // for Q = -P, Z3 = 0 already
    }

    /// Equality of the points the coordinates stand for (X1·Z2^2 = X2·Z1^2, Y1·Z2^3 = Y2·Z1^3),
    /// in constant time.
    friend bool operator==(const Jacobian& p, const Jacobian& q) noexcept {
        const Field z1z1 = p.z.square();
        const Field z2z2 = q.z.square();
        const bool same_x = p.x * z2z2 == q.x * z1z1;
        const bool same_y = p.y * z2z2 * q.z == q.y * z1z1 * p.z;
        const bool pi = p.is_identity(), qi = q.is_identity();
        return either(both(pi, qi), both(both(!pi, !qi), both(same_x, same_y)));
    }

    /// [k]P in constant time for a secret k (any 256-bit value, not only < r): a fixed 4-bit window
    /// over all 256 bits, the table entry read by scanning the whole table with masks, and the
    /// complete projective formulas of projective.hpp (RCB16 Algorithms 7 and 9), which need no
    /// case for the identity (table[0], and the accumulator while the top digits are zero) or for
    /// an entry equal to the accumulator or its inverse. 252 doublings and 63 additions whatever
    /// k is; P = O gives O.
    Jacobian mul_ct(const Scalar& k) const noexcept {
        using Point = Projective<Traits>;
        const Point p = Point::from_jacobian(*this);
        std::array<Point, 16> table;  // table[0] is the identity
        table[1] = p;
        for (std::size_t i = 2; i < 16; ++i)
            table[i] = (i % 2 == 0) ? table[i / 2].dbl() : table[i - 1] + p;
        Point acc;
        for (std::size_t w = 64; w-- > 0;) {
            const std::uint64_t digit = (k.limbs()[w / 16] >> ((w % 16) * 4)) & 15;
            const Point t = Point::lookup_ct(table, digit);
            acc = w == 63 ? t : acc.dbl().dbl().dbl().dbl() + t;  // w is public
        }
        return acc.to_jacobian();
    }

    /// table[index] (index < table.size(), at most 2^63), read by scanning every entry with
    /// masks so that neither branches nor memory addresses depend on `index`
    /// (detail::lookup_ct, shared with Projective::lookup_ct).
    static Jacobian lookup_ct(std::span<const Jacobian> table, std::uint64_t index) noexcept {
        return detail::lookup_ct(table, index);
    }

    /// The most limbs mul_vartime accepts (G2's h_eff has 636 bits).
    static constexpr std::size_t kMaxVartimeLimbs = 12;

    /// [k]P for a public scalar.
    Jacobian mul_vartime(const Scalar& k) const noexcept { return mul_vartime(k.limbs()); }

    /// [k]P for a public k of any length up to kMaxVartimeLimbs limbs (little-endian), with a
    /// width-5 NAF: about one addition per six bits instead of one per two.
    Jacobian mul_vartime(std::span<const std::uint64_t> k) const noexcept {
        KEEL_ASSERT(k.size() <= kMaxVartimeLimbs);
        std::array<std::int8_t, 64 * kMaxVartimeLimbs + 1> naf{};
        const std::size_t len = detail::wnaf(k, naf);
        const auto table = odd_multiples();
        Jacobian acc;
        for (std::size_t i = len; i-- > 0;) {
            acc = acc.dbl();
            acc = add_digit(acc, table, naf[i]);
        }
        return acc;
    }

    /// The most terms sum_of_products_vartime accepts.
    static constexpr std::size_t kMaxTerms = 5;

    /// Σ [k_i]P_i for up to kMaxTerms points and public scalars below 2^128, their width-5 NAFs
    /// interleaved over one chain of doublings (Straus–Shamir): the engine of the endomorphism
    /// multiplications (g1.hpp's GLV, g2.hpp's GLS), which split a 255-bit scalar into short ones.
    static Jacobian sum_of_products_vartime(
        std::span<const Jacobian> points,
        std::span<const std::array<std::uint64_t, 2>> scalars) noexcept {
        KEEL_ASSERT(points.size() == scalars.size() && points.size() <= kMaxTerms);
        std::array<std::array<std::int8_t, 129>, kMaxTerms> nafs{};
        std::array<std::size_t, kMaxTerms> lens{};
        std::array<std::array<Jacobian, kWnafTable>, kMaxTerms> tables;
        std::size_t len = 0;
        for (std::size_t t = 0; t < points.size(); ++t) {
            lens[t] = detail::wnaf(scalars[t], nafs[t]);
            len = lens[t] > len ? lens[t] : len;
            if (lens[t] != 0) tables[t] = points[t].odd_multiples();
        }
        Jacobian acc;
        for (std::size_t i = len; i-- > 0;) {
            acc = acc.dbl();
            for (std::size_t t = 0; t < points.size(); ++t)
                if (i < lens[t]) acc = add_digit(acc, tables[t], nafs[t][i]);
        }
        return acc;
    }

    /// [|x|]P for the BLS parameter |x| = 0xd201000000010000 (six set bits), by double and add
    /// on the public constant: the building block of subgroup checks and cofactor clearing.
    Jacobian mul_by_x_abs() const noexcept {
        Jacobian acc = *this;
        for (int bit = 62; bit >= 0; --bit) {
            acc = acc.dbl();
            if ((kBlsXAbs >> bit) & 1) acc = acc.add_vartime(*this);
        }
        return acc;
    }

    /// [r]P == O, the definition of subgroup membership (slow; g1.hpp and g2.hpp have faster
    /// checks that agree with it).
    bool in_subgroup_by_order() const noexcept { return mul_vartime(kR).is_identity(); }

  private:
    /// Entries of a width-5 NAF table: P, 3P, ..., 15P.
    static constexpr std::size_t kWnafTable = 8;

    std::array<Jacobian, kWnafTable> odd_multiples() const noexcept {
        std::array<Jacobian, kWnafTable> table;
        table[0] = *this;
        const Jacobian twice = dbl();
        for (std::size_t i = 1; i < table.size(); ++i) table[i] = table[i - 1].add_vartime(twice);
        return table;
    }

    /// acc + [d]P for a NAF digit d (odd, |d| < 16, or zero) and P's odd-multiple table.
    static Jacobian add_digit(const Jacobian& acc, const std::array<Jacobian, kWnafTable>& table,
                              int d) noexcept {
        if (d > 0) return acc.add_vartime(table[static_cast<std::size_t>(d / 2)]);
        if (d < 0) return acc.add_vartime(-table[static_cast<std::size_t>(-d / 2)]);
        return acc;
    }

    /// The affine point for a given 1/Z.
    Affine affine_with(const Field& zinv) const noexcept {
        const Field zinv2 = zinv.square();
        return Affine{x * zinv2, y * zinv2 * zinv, z.is_zero()};
    }

    /// madd-2007-bl (7M + 4S) without the special cases; reports h = U2 - X1 = 0 (same x) and
    /// r = 2(S2 - Y1) = 0 (same y), as add_general does.
    Jacobian add_mixed_general(const Affine& q, bool& h_zero, bool& r_zero) const noexcept {
        const Field z1z1 = z.square();
        const Field u2 = q.x * z1z1;
        const Field s2 = q.y * z * z1z1;
        const Field h = u2 - x;
        const Field hh = h.square();
        const Field i = hh.dbl().dbl();
        const Field j = h * i;
        const Field rr = (s2 - y).dbl();
        const Field v = x * i;
        const Field x3 = rr.square() - j - v.dbl();
        const Field y3 = rr * (v - x3) - (y * j).dbl();
        const Field z3 = (z + h).square() - z1z1 - hh;
        h_zero = h.is_zero();
        r_zero = rr.is_zero();
        return {x3, y3, z3};
    }

    /// add-2007-bl (11M + 5S) without the special cases; reports h = U2 - U1 = 0 (same x) and
    /// r = 2(S2 - S1) = 0 (same y) so callers can handle P = Q and P = -Q.
    static Jacobian add_general(const Jacobian& p, const Jacobian& q, bool& h_zero,
                                bool& r_zero) noexcept {
        const Field z1z1 = p.z.square();
        const Field z2z2 = q.z.square();
        const Field u1 = p.x * z2z2;
        const Field u2 = q.x * z1z1;
        const Field s1 = p.y * q.z * z2z2;
        const Field s2 = q.y * p.z * z1z1;
        const Field h = u2 - u1;
        const Field i = h.dbl().square();
        const Field j = h * i;
        const Field rr = (s2 - s1).dbl();
        const Field v = u1 * i;
        const Field x3 = rr.square() - j - v.dbl();
        const Field y3 = rr * (v - x3) - (s1 * j).dbl();
        const Field z3 = ((p.z + q.z).square() - z1z1 - z2z2) * h;
        h_zero = h.is_zero();
        r_zero = rr.is_zero();
        return {x3, y3, z3};
    }
};

}  // namespace keel::bls
