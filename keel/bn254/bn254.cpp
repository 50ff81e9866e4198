#include "keel/bn254/bn254.hpp"

#include <algorithm>
#include <vector>

#include "keel/bn254/curve.hpp"

namespace keel::bn254 {

namespace {

// `n` bytes of `in` from `at`, zero past its end (ECADD and ECMUL pad short inputs).
template <std::size_t N>
std::array<std::uint8_t, N> padded(BytesView in) {
    std::array<std::uint8_t, N> out{};
    std::copy_n(in.begin(), std::min(in.size(), N), out.begin());
    return out;
}

bool all_zero(const std::uint8_t* p, std::size_t n) {
    return std::all_of(p, p + n, [](std::uint8_t b) { return b == 0; });
}

Result<Fp, Error> coordinate(const std::uint8_t* be, std::size_t offset) {
    const auto v = Fp::from_bytes(be);
    if (!v) return input_error(Errc::coordinate_too_large, offset);
    return *v;
}

Result<G1Affine, Error> g1_point(const std::uint8_t* in, std::size_t offset) {
    if (all_zero(in, 64)) return G1Affine{};
    const auto x = coordinate(in, offset);
    if (!x) return std::unexpected(x.error());
    const auto y = coordinate(in + 32, offset + 32);
    if (!y) return std::unexpected(y.error());
    const G1Affine p{*x, *y, false};
    if (!on_curve(p)) return input_error(Errc::not_on_curve, offset);
    return p;  // G1 is the whole curve (cofactor 1)
}

Result<G2Affine, Error> g2_point(const std::uint8_t* in, std::size_t offset) {
    if (all_zero(in, 128)) return G2Affine{};
    Fp v[4];
    for (std::size_t i = 0; i < 4; ++i) {
        const auto c = coordinate(in + 32 * i, offset + 32 * i);
        if (!c) return std::unexpected(c.error());
        v[i] = *c;
    }
    const G2Affine q{Fp2{v[1], v[0]}, Fp2{v[3], v[2]}, false};  // imaginary part first
    if (!on_curve(q)) return input_error(Errc::not_on_curve, offset);
    if (!in_g2(q)) return input_error(Errc::not_in_subgroup, offset);
    return q;
}

std::array<std::uint8_t, 64> encode(const G1& p) {
    std::array<std::uint8_t, 64> out{};
    const G1Affine a = p.to_affine();
    if (!a.infinity) {
        a.x.to_bytes(out.data());
        a.y.to_bytes(out.data() + 32);
    }
    return out;
}

}  // namespace

std::string_view describe(Errc code) noexcept {
    switch (code) {
        case Errc::coordinate_too_large:
            return "coordinate is not below the field modulus";
        case Errc::not_on_curve:
            return "point is not on the curve";
        case Errc::not_in_subgroup:
            return "G2 point is not in the order-r subgroup";
        case Errc::bad_length:
            return "pairing input is not a multiple of 192 bytes";
    }
    return "unknown BN254 error";
}

Result<std::array<std::uint8_t, 64>, Error> g1_add(BytesView in) noexcept {
    const auto buf = padded<128>(in);
    const auto a = g1_point(buf.data(), 0);
    if (!a) return std::unexpected(a.error());
    const auto b = g1_point(buf.data() + 64, 64);
    if (!b) return std::unexpected(b.error());
    return encode(G1::from_affine(*a) + G1::from_affine(*b));
}

Result<std::array<std::uint8_t, 64>, Error> g1_mul(BytesView in) noexcept {
    const auto buf = padded<96>(in);
    const auto a = g1_point(buf.data(), 0);
    if (!a) return std::unexpected(a.error());
    Fp::Limbs k{};
    for (std::size_t i = 0; i < 4; ++i) {
        for (std::size_t b = 0; b < 8; ++b) k[i] = k[i] << 8 | buf[64 + (3 - i) * 8 + b];
    }
    return encode(G1::from_affine(*a).mul(k));
}

Result<bool, Error> pairing_check(BytesView in) noexcept {
    if (in.size() % 192 != 0) return input_error(Errc::bad_length, in.size());
    const std::size_t n = in.size() / 192;
    std::vector<G1Affine> ps(n);
    std::vector<G2Affine> qs(n);
    for (std::size_t i = 0; i < n; ++i) {
        const auto p = g1_point(in.data() + 192 * i, 192 * i);
        if (!p) return std::unexpected(p.error());
        const auto q = g2_point(in.data() + 192 * i + 64, 192 * i + 64);
        if (!q) return std::unexpected(q.error());
        ps[i] = *p;
        qs[i] = *q;
    }
    return pairing_product_is_one(ps.data(), qs.data(), n);
}

}  // namespace keel::bn254
