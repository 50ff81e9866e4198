#include "keel/bls/hash_to_curve.hpp"

#include <algorithm>
#include <array>
#include <string_view>

#include "keel/crypto/sha256.hpp"

namespace keel::bls {

namespace {

constexpr std::size_t kHashBytes = 32;   // b_in_bytes of SHA-256
constexpr std::size_t kBlockBytes = 64;  // s_in_bytes of SHA-256
constexpr std::size_t kFieldBytes = 64;  // L = ceil((ceil(log2(p)) + k) / 8), k = 128

BytesView as_bytes(std::string_view s) noexcept {
    return {reinterpret_cast<const std::uint8_t*>(s.data()), s.size()};
}

/// E2' of the simplified SWU map, and its Z (RFC 9380 §8.8.2).
constexpr Fp2 kA{Fp::zero(), Fp::from_hex("0xf0")};              // 240·u
constexpr Fp2 kB{Fp::from_hex("0x3f4"), Fp::from_hex("0x3f4")};  // 1012·(1 + u)
constexpr Fp2 kZ{-Fp::from_hex("0x2"), -Fp::one()};              // -(2 + u)

/// The 3-isogeny map's coefficients, lowest degree first (RFC 9380 appendix E.3, k_(i,j)).
constexpr std::array<Fp2, 4> kXNum{
    Fp2{Fp::from_hex("0x5c759507e8e333ebb5b7a9a47d7ed8532c52d39fd3a042a88b58423c50ae15d5c2638e343d9"
                     "c71c6238aaaaaaaa97d6"),
        Fp::from_hex("0x5c759507e8e333ebb5b7a9a47d7ed8532c52d39fd3a042a88b58423c50ae15d5c2638e343d9"
                     "c71c6238aaaaaaaa97d6")},
    Fp2{Fp::zero(), Fp::from_hex("0x11560bf17baa99bc32126fced787c88f984f87adf7ae0c7f9a208c6b4f20a41"
                                 "81472aaa9cb8d555526a9ffffffffc71a")},
    Fp2{Fp::from_hex("0x11560bf17baa99bc32126fced787c88f984f87adf7ae0c7f9a208c6b4f20a4181472aaa9cb8"
                     "d555526a9ffffffffc71e"),
        Fp::from_hex("0x8ab05f8bdd54cde190937e76bc3e447cc27c3d6fbd7063fcd104635a790520c0a395554e5c6"
                     "aaaa9354ffffffffe38d")},
    Fp2{Fp::from_hex("0x171d6541fa38ccfaed6dea691f5fb614cb14b4e7f4e810aa22d6108f142b85757098e38d0f6"
                     "71c7188e2aaaaaaaa5ed1"),
        Fp::zero()}};
constexpr std::array<Fp2, 3> kXDen{
    Fp2{Fp::zero(), Fp::from_hex("0x1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f62"
                                 "41eabfffeb153ffffb9feffffffffaa63")},
    Fp2{Fp::from_hex("0xc"), Fp::from_hex("0x1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2"
                                          "a0f6b0f6241eabfffeb153ffffb9feffffffffaa9f")},
    Fp2::one()};
constexpr std::array<Fp2, 4> kYNum{
    Fp2{Fp::from_hex("0x1530477c7ab4113b59a4c18b076d11930f7da5d4a07f649bf54439d87d27e500fc8c25ebf8c"
                     "92f6812cfc71c71c6d706"),
        Fp::from_hex("0x1530477c7ab4113b59a4c18b076d11930f7da5d4a07f649bf54439d87d27e500fc8c25ebf8c"
                     "92f6812cfc71c71c6d706")},
    Fp2{Fp::zero(), Fp::from_hex("0x5c759507e8e333ebb5b7a9a47d7ed8532c52d39fd3a042a88b58423c50ae15d"
                                 "5c2638e343d9c71c6238aaaaaaaa97be")},
    Fp2{Fp::from_hex("0x11560bf17baa99bc32126fced787c88f984f87adf7ae0c7f9a208c6b4f20a4181472aaa9cb8"
                     "d555526a9ffffffffc71c"),
        Fp::from_hex("0x8ab05f8bdd54cde190937e76bc3e447cc27c3d6fbd7063fcd104635a790520c0a395554e5c6"
                     "aaaa9354ffffffffe38f")},
    Fp2{Fp::from_hex("0x124c9ad43b6cf79bfbf7043de3811ad0761b0f37a1e26286b0e977c69aa274524e79097a56d"
                     "c4bd9e1b371c71c718b10"),
        Fp::zero()}};
constexpr std::array<Fp2, 4> kYDen{
    Fp2{Fp::from_hex("0x1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb15"
                     "3ffffb9feffffffffa8fb"),
        Fp::from_hex("0x1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb15"
                     "3ffffb9feffffffffa8fb")},
    Fp2{Fp::zero(), Fp::from_hex("0x1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f62"
                                 "41eabfffeb153ffffb9feffffffffa9d3")},
    Fp2{Fp::from_hex("0x12"), Fp::from_hex("0x1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d"
                                           "2a0f6b0f6241eabfffeb153ffffb9feffffffffaa99")},
    Fp2::one()};

/// sum(k[i] · x^i) by Horner's rule.
template <std::size_t N>
Fp2 horner(const std::array<Fp2, N>& k, const Fp2& x) noexcept {
    Fp2 acc = k[N - 1];
    for (std::size_t i = N - 1; i-- > 0;) acc = acc * x + k[i];
    return acc;
}

/// g(x) = x^3 + A·x + B on E2'.
Fp2 g_iso(const Fp2& x) noexcept {
    return (x.square() + kA) * x + kB;
}

}  // namespace

std::optional<Bytes> expand_message_xmd(BytesView msg, BytesView dst, std::size_t len_in_bytes) {
    const std::size_t ell = (len_in_bytes + kHashBytes - 1) / kHashBytes;
    if (len_in_bytes == 0 || ell > 255 || len_in_bytes > 65535) return std::nullopt;
    // §5.3.3: an oversize DST is replaced by H("H2C-OVERSIZE-DST-" || DST).
    Hash32 short_dst;
    if (dst.size() > 255) {
        crypto::Sha256 h;
        h.update(as_bytes("H2C-OVERSIZE-DST-"));
        h.update(dst);
        short_dst = h.finalize();
        dst = short_dst.view();
    }
    const std::uint8_t dst_len = static_cast<std::uint8_t>(dst.size());
    const std::array<std::uint8_t, kBlockBytes> z_pad{};
    const std::array<std::uint8_t, 3> lib_and_zero{static_cast<std::uint8_t>(len_in_bytes >> 8),
                                                   static_cast<std::uint8_t>(len_in_bytes), 0};
    // b_0 = H(Z_pad || msg || I2OSP(len, 2) || I2OSP(0, 1) || DST_prime)
    crypto::Sha256 h0;
    h0.update(z_pad);
    h0.update(msg);
    h0.update(lib_and_zero);
    h0.update(dst);
    h0.update(BytesView(&dst_len, 1));
    const Hash32 b0 = h0.finalize();

    Bytes out(ell * kHashBytes);
    Hash32 prev;  // b_(i-1); b_1 hashes b_0 itself (strxor with an all-zero b_0 is b_0)
    for (std::size_t i = 1; i <= ell; ++i) {
        std::array<std::uint8_t, kHashBytes> x;
        for (std::size_t j = 0; j < kHashBytes; ++j) x[j] = b0[j] ^ (i == 1 ? 0 : prev[j]);
        const std::uint8_t index = static_cast<std::uint8_t>(i);
        crypto::Sha256 h;
        h.update(x);
        h.update(BytesView(&index, 1));
        h.update(dst);
        h.update(BytesView(&dst_len, 1));
        prev = h.finalize();
        std::copy(prev.begin(), prev.end(),
                  out.begin() + static_cast<std::ptrdiff_t>((i - 1) * kHashBytes));
    }
    out.resize(len_in_bytes);
    return out;
}

std::vector<Fp2> hash_to_field_fp2(BytesView msg, BytesView dst, std::size_t count) {
    const auto bytes = expand_message_xmd(msg, dst, count * 2 * kFieldBytes);
    std::vector<Fp2> out;
    if (!bytes) return out;
    for (std::size_t i = 0; i < count; ++i) {
        const std::uint8_t* e = bytes->data() + 2 * kFieldBytes * i;
        out.emplace_back(Fp::from_bytes_wide({e, kFieldBytes}),
                         Fp::from_bytes_wide({e + kFieldBytes, kFieldBytes}));
    }
    return out;
}

std::vector<Fp> hash_to_field_fp(BytesView msg, BytesView dst, std::size_t count) {
    const auto bytes = expand_message_xmd(msg, dst, count * kFieldBytes);
    std::vector<Fp> out;
    if (!bytes) return out;
    for (std::size_t i = 0; i < count; ++i) {
        out.push_back(Fp::from_bytes_wide({bytes->data() + kFieldBytes * i, kFieldBytes}));
    }
    return out;
}

G2Affine map_to_curve_g2(const Fp2& u) noexcept {
    // Simplified SWU (§6.6.2), straight from the definition.
    const Fp2 zu2 = kZ * u.square();
    const Fp2 den = zu2.square() + zu2;  // Z^2 u^4 + Z u^2
    // -B/A and B/(Z·A) are constants: computed once (inversion is not constexpr).
    static const Fp2 minus_b_over_a = -kB * kA.inverse();
    static const Fp2 b_over_za = kB * (kZ * kA).inverse();
    const Fp2 x1 =
        den.is_zero() ? b_over_za : minus_b_over_a * (Fp2::one() + den.inverse_vartime());
    Fp2 x = x1;
    auto y = g_iso(x1).sqrt();
    if (!y) {
        x = zu2 * x1;
        y = g_iso(x).sqrt();  // exists: g(x2) = Z^3 u^6 g(x1), and Z is a non-square
    }
    Fp2 yv = *y;
    if (u.sgn0() != yv.sgn0()) yv = -yv;
    // The 3-isogeny E2' -> E2 (appendix E.3); a vanishing denominator (the isogeny's kernel)
    // maps to the point at infinity, as inv0 makes it in the RFC.
    const Fp2 x_den = horner(kXDen, x);
    const Fp2 y_den = horner(kYDen, x);
    G2Affine p;
    if (x_den.is_zero() || y_den.is_zero()) {
        p.infinity = true;
        return p;
    }
    // One inversion for both denominators: 1/x_den = y_den / (x_den·y_den), and alike.
    const Fp2 inv = (x_den * y_den).inverse_vartime();
    p.x = horner(kXNum, x) * y_den * inv;
    p.y = yv * horner(kYNum, x) * x_den * inv;
    return p;
}

}  // namespace keel::bls
