#include "keel/bls/eip2537.hpp"

#include <algorithm>
#include <span>
#include <utility>
#include <vector>

#include "keel/bls/g1.hpp"
#include "keel/bls/g2.hpp"
#include "keel/bls/hash_to_curve.hpp"
#include "keel/bls/msm.hpp"
#include "keel/bls/pairing.hpp"
#include "keel/bls/scalar.hpp"

namespace keel::bls::eip2537 {

namespace {

// The discount tables of EIP-2537 (per mille, k = 1..128).
constexpr std::uint16_t kG1Discount[128] = {
    1000, 949, 848, 797, 764, 750, 738, 728, 719, 712, 705, 698, 692, 687, 682, 677, 673, 669, 665,
    661,  658, 654, 651, 648, 645, 642, 640, 637, 635, 632, 630, 627, 625, 623, 621, 619, 617, 615,
    613,  611, 609, 608, 606, 604, 603, 601, 599, 598, 596, 595, 593, 592, 591, 589, 588, 586, 585,
    584,  582, 581, 580, 579, 577, 576, 575, 574, 573, 572, 570, 569, 568, 567, 566, 565, 564, 563,
    562,  561, 560, 559, 558, 557, 556, 555, 554, 553, 552, 551, 550, 549, 548, 547, 547, 546, 545,
    544,  543, 542, 541, 540, 540, 539, 538, 537, 536, 536, 535, 534, 533, 532, 532, 531, 530, 529,
    528,  528, 527, 526, 525, 525, 524, 523, 522, 522, 521, 520, 520, 519};
constexpr std::uint16_t kG2Discount[128] = {
    1000, 1000, 923, 884, 855, 832, 812, 796, 782, 770, 759, 749, 740, 732, 724, 717, 711, 704, 699,
    693,  688,  683, 679, 674, 670, 666, 663, 659, 655, 652, 649, 646, 643, 640, 637, 634, 632, 629,
    627,  624,  622, 620, 618, 615, 613, 611, 609, 607, 606, 604, 602, 600, 598, 597, 595, 593, 592,
    590,  589,  587, 586, 584, 583, 582, 580, 579, 578, 576, 575, 574, 573, 571, 570, 569, 568, 567,
    566,  565,  563, 562, 561, 560, 559, 558, 557, 556, 555, 554, 553, 552, 552, 551, 550, 549, 548,
    547,  546,  545, 545, 544, 543, 542, 541, 541, 540, 539, 538, 537, 537, 536, 535, 535, 534, 533,
    532,  532,  531, 530, 530, 529, 528, 528, 527, 526, 526, 525, 524, 524};

constexpr std::size_t kFp = 64, kG1 = 128, kG2 = 256, kScalar = 32;

bool all_zero(const std::uint8_t* p, std::size_t n) {
    return std::all_of(p, p + n, [](std::uint8_t b) { return b == 0; });
}

Result<Fp, Error> fp_at(BytesView in, std::size_t at) {
    if (!all_zero(in.data() + at, 16)) return input_error(Errc::bad_padding, at);
    const auto v = Fp::from_bytes(std::span<const std::uint8_t, 48>(in.data() + at + 16, 48));
    if (!v) return input_error(Errc::not_in_field, at);
    return *v;
}

Result<Fp2, Error> fp2_at(BytesView in, std::size_t at) {
    const auto c0 = fp_at(in, at);
    if (!c0) return std::unexpected(c0.error());
    const auto c1 = fp_at(in, at + kFp);
    if (!c1) return std::unexpected(c1.error());
    return Fp2{*c0, *c1};
}

Result<G1Affine, Error> g1_at(BytesView in, std::size_t at, bool subgroup) {
    if (all_zero(in.data() + at, kG1)) return G1Affine{Fp{}, Fp{}, true};
    const auto x = fp_at(in, at);
    if (!x) return std::unexpected(x.error());
    const auto y = fp_at(in, at + kFp);
    if (!y) return std::unexpected(y.error());
    const G1Affine p{*x, *y, false};
    if (!p.on_curve()) return input_error(Errc::not_on_curve, at);
    if (subgroup && !in_g1(p)) return input_error(Errc::not_in_subgroup, at);
    return p;
}

Result<G2Affine, Error> g2_at(BytesView in, std::size_t at, bool subgroup) {
    if (all_zero(in.data() + at, kG2)) return G2Affine{Fp2{}, Fp2{}, true};
    const auto x = fp2_at(in, at);
    if (!x) return std::unexpected(x.error());
    const auto y = fp2_at(in, at + 2 * kFp);
    if (!y) return std::unexpected(y.error());
    const G2Affine q{*x, *y, false};
    if (!q.on_curve()) return input_error(Errc::not_on_curve, at);
    if (subgroup && !in_g2(q)) return input_error(Errc::not_in_subgroup, at);
    return q;
}

// A 256-bit big-endian scalar, reduced mod r (the points it multiplies are in the subgroup).
Scalar scalar_at(BytesView in, std::size_t at) {
    std::array<std::uint64_t, 4> l{};
    for (std::size_t i = 0; i < 4; ++i) {
        for (std::size_t b = 0; b < 8; ++b) l[3 - i] = l[3 - i] << 8 | in[at + 8 * i + b];
    }
    return Scalar(l).reduced();
}

void put_fp(const Fp& v, std::uint8_t* out) {
    std::fill(out, out + 16, 0);
    v.to_bytes(std::span<std::uint8_t, 48>(out + 16, 48));
}

G1Bytes encode(const G1Jacobian& p) {
    G1Bytes out{};
    if (p.is_identity()) return out;
    const G1Affine a = p.to_affine_vartime();
    put_fp(a.x, out.data());
    put_fp(a.y, out.data() + kFp);
    return out;
}

G2Bytes encode(const G2Jacobian& p) {
    G2Bytes out{};
    if (p.is_identity()) return out;
    const G2Affine a = p.to_affine_vartime();
    put_fp(a.x.c0, out.data());
    put_fp(a.x.c1, out.data() + kFp);
    put_fp(a.y.c0, out.data() + 2 * kFp);
    put_fp(a.y.c1, out.data() + 3 * kFp);
    return out;
}

// Two points of `point_size` bytes, not checked for the subgroup (the EIP's addition), summed.
template <class Jacobian, class Bytes, class Decode>
Result<Bytes, Error> add(BytesView in, std::size_t point_size, Decode decode) {
    if (in.size() != 2 * point_size) return input_error(Errc::bad_length, in.size());
    const auto a = decode(in, 0, false);
    if (!a) return std::unexpected(a.error());
    const auto b = decode(in, point_size, false);
    if (!b) return std::unexpected(b.error());
    return encode(Jacobian::from_affine(*a).add_mixed_vartime(*b));
}

template <class Affine, class Jacobian, class Bytes, class Decode, class Msm>
Result<Bytes, Error> msm(BytesView in, std::size_t point_size, Decode decode, Msm run) {
    const std::size_t item = point_size + kScalar;
    if (in.empty() || in.size() % item != 0) return input_error(Errc::bad_length, in.size());
    std::vector<Affine> points;
    std::vector<Scalar> scalars;
    for (std::size_t at = 0; at < in.size(); at += item) {
        const auto p = decode(in, at, true);
        if (!p) return std::unexpected(p.error());
        const Scalar k = scalar_at(in, at + point_size);
        if (p->infinity || k.is_zero()) continue;  // contributes nothing
        points.push_back(*p);
        scalars.push_back(k);
    }
    if (points.empty()) return Bytes{};
    return encode(run(std::span<const Affine>(points), std::span<const Scalar>(scalars)));
}

}  // namespace

std::string_view describe(Errc code) noexcept {
    switch (code) {
        case Errc::bad_length:
            return "input has the wrong length";
        case Errc::bad_padding:
            return "Fp element padding is not zero";
        case Errc::not_in_field:
            return "Fp element is not below the modulus";
        case Errc::not_on_curve:
            return "point is not on the curve";
        case Errc::not_in_subgroup:
            return "point is not in the subgroup";
    }
    return "unknown EIP-2537 error";
}

std::uint64_t msm_discount(std::size_t k, bool g2) noexcept {
    const std::uint16_t* t = g2 ? kG2Discount : kG1Discount;
    if (k == 0) return 0;
    return t[std::min<std::size_t>(k, 128) - 1];
}

Result<G1Bytes, Error> g1_add(BytesView in) noexcept {
    return add<G1Jacobian, G1Bytes>(in, kG1, g1_at);
}

Result<G2Bytes, Error> g2_add(BytesView in) noexcept {
    return add<G2Jacobian, G2Bytes>(in, kG2, g2_at);
}

Result<G1Bytes, Error> g1_msm(BytesView in) noexcept {
    return msm<G1Affine, G1Jacobian, G1Bytes>(in, kG1, g1_at,
                                              [](auto p, auto k) { return bls::g1_msm(p, k); });
}

Result<G2Bytes, Error> g2_msm(BytesView in) noexcept {
    return msm<G2Affine, G2Jacobian, G2Bytes>(in, kG2, g2_at,
                                              [](auto p, auto k) { return bls::g2_msm(p, k); });
}

Result<bool, Error> pairing_check(BytesView in) noexcept {
    const std::size_t item = kG1 + kG2;
    if (in.empty() || in.size() % item != 0) return input_error(Errc::bad_length, in.size());
    std::vector<std::pair<G1Affine, G2Affine>> pairs;
    for (std::size_t at = 0; at < in.size(); at += item) {
        const auto p = g1_at(in, at, true);
        if (!p) return std::unexpected(p.error());
        const auto q = g2_at(in, at + kG1, true);
        if (!q) return std::unexpected(q.error());
        pairs.emplace_back(*p, *q);
    }
    return pairing_product_is_one(pairs);
}

Result<G1Bytes, Error> map_fp_to_g1(BytesView in) noexcept {
    if (in.size() != kFp) return input_error(Errc::bad_length, in.size());
    const auto u = fp_at(in, 0);
    if (!u) return std::unexpected(u.error());
    return encode(clear_cofactor_g1(G1Jacobian::from_affine(map_to_curve_g1(*u))));
}

Result<G2Bytes, Error> map_fp2_to_g2(BytesView in) noexcept {
    if (in.size() != 2 * kFp) return input_error(Errc::bad_length, in.size());
    const auto u = fp2_at(in, 0);
    if (!u) return std::unexpected(u.error());
    return encode(clear_cofactor_g2(G2Jacobian::from_affine(map_to_curve_g2(*u))));
}

}  // namespace keel::bls::eip2537
