#include "keel/bls/hash_to_curve.hpp"

#include <algorithm>
#include <array>
#include <optional>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "keel/bls/detail/fp_x8.hpp"
#include "keel/common/assert.hpp"
#include "keel/common/batch_inverse.hpp"
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

/// E1' of G1's simplified SWU map (RFC 9380 §8.8.1): y^2 = x^3 + A'x + B', Z = 11.
constexpr Fp kA1 = Fp::from_hex(
    "0x144698a3b8e9433d693a02c96d4982b0ea985383ee66a8d8e8981aefd881ac98936f8da0e0f97f5cf428082d584c"
    "1d");
constexpr Fp kB1Iso = Fp::from_hex(
    "0x12e2908d11688030018b12e8753eee3b2016c1f0f24f4070a0b9c14fcef35ef55a23215a316ceaa5d1cc48e98e17"
    "2be0");
constexpr Fp kZ1 = Fp::from_hex("0xb");

/// The 11-isogeny map's coefficients, lowest degree first (RFC 9380 appendix E.2).
constexpr std::array<Fp, 12> kXNum1{
    Fp::from_hex("0x11a05f2b1e833340b809101dd99815856b303e88a2d7005ff2627b56cdb4e2c85610c2d5f2e62d6"
                 "eaeac1662734649b7"),
    Fp::from_hex("0x17294ed3e943ab2f0588bab22147a81c7c17e75b2f6a8417f565e33c70d1e86b4838f2a6f318c35"
                 "6e834eef1b3cb83bb"),
    Fp::from_hex("0x0d54005db97678ec1d1048c5d10a9a1bce032473295983e56878e501ec68e25c958c3e3d2a09729"
                 "fe0179f9dac9edcb0"),
    Fp::from_hex("0x1778e7166fcc6db74e0609d307e55412d7f5e4656a8dbf25f1b33289f1b330835336e25ce310719"
                 "3c5b388641d9b6861"),
    Fp::from_hex("0x0e99726a3199f4436642b4b3e4118e5499db995a1257fb3f086eeb65982fac18985a286f301e77c"
                 "451154ce9ac8895d9"),
    Fp::from_hex("0x1630c3250d7313ff01d1201bf7a74ab5db3cb17dd952799b9ed3ab9097e68f90a0870d2dcae73d1"
                 "9cd13c1c66f652983"),
    Fp::from_hex("0x0d6ed6553fe44d296a3726c38ae652bfb11586264f0f8ce19008e218f9c86b2a8da25128c1052ec"
                 "addd7f225a139ed84"),
    Fp::from_hex("0x17b81e7701abdbe2e8743884d1117e53356de5ab275b4db1a682c62ef0f2753339b7c8f8c8f475a"
                 "f9ccb5618e3f0c88e"),
    Fp::from_hex("0x080d3cf1f9a78fc47b90b33563be990dc43b756ce79f5574a2c596c928c5d1de4fa295f296b74e9"
                 "56d71986a8497e317"),
    Fp::from_hex("0x169b1f8e1bcfa7c42e0c37515d138f22dd2ecb803a0c5c99676314baf4bb1b7fa3190b2edc03277"
                 "97f241067be390c9e"),
    Fp::from_hex("0x10321da079ce07e272d8ec09d2565b0dfa7dccdde6787f96d50af36003b14866f69b771f8c285de"
                 "cca67df3f1605fb7b"),
    Fp::from_hex("0x06e08c248e260e70bd1e962381edee3d31d79d7e22c837bc23c0bf1bc24c6b68c24b1b80b64d391"
                 "fa9c8ba2e8ba2d229")};
constexpr std::array<Fp, 11> kXDen1{
    Fp::from_hex("0x08ca8d548cff19ae18b2e62f4bd3fa6f01d5ef4ba35b48ba9c9588617fc8ac62b558d681be343df"
                 "8993cf9fa40d21b1c"),
    Fp::from_hex("0x12561a5deb559c4348b4711298e536367041e8ca0cf0800c0126c2588c48bf5713daa8846cb026e"
                 "9e5c8276ec82b3bff"),
    Fp::from_hex("0x0b2962fe57a3225e8137e629bff2991f6f89416f5a718cd1fca64e00b11aceacd6a3d0967c94fed"
                 "cfcc239ba5cb83e19"),
    Fp::from_hex("0x03425581a58ae2fec83aafef7c40eb545b08243f16b1655154cca8abc28d6fd04976d5243eecf5c"
                 "4130de8938dc62cd8"),
    Fp::from_hex("0x13a8e162022914a80a6f1d5f43e7a07dffdfc759a12062bb8d6b44e833b306da9bd29ba81f35781"
                 "d539d395b3532a21e"),
    Fp::from_hex("0x0e7355f8e4e667b955390f7f0506c6e9395735e9ce9cad4d0a43bcef24b8982f7400d24bc4228f1"
                 "1c02df9a29f6304a5"),
    Fp::from_hex("0x0772caacf16936190f3e0c63e0596721570f5799af53a1894e2e073062aede9cea73b3538f0de06"
                 "cec2574496ee84a3a"),
    Fp::from_hex("0x14a7ac2a9d64a8b230b3f5b074cf01996e7f63c21bca68a81996e1cdf9822c580fa5b9489d11e2d"
                 "311f7d99bbdcc5a5e"),
    Fp::from_hex("0x0a10ecf6ada54f825e920b3dafc7a3cce07f8d1d7161366b74100da67f39883503826692abba437"
                 "04776ec3a79a1d641"),
    Fp::from_hex("0x095fc13ab9e92ad4476d6e3eb3a56680f682b4ee96f7d03776df533978f31c1593174e4b4b78650"
                 "02d6384d168ecdd0a"),
    Fp::from_hex("0x1")};
constexpr std::array<Fp, 16> kYNum1{
    Fp::from_hex("0x090d97c81ba24ee0259d1f094980dcfa11ad138e48a869522b52af6c956543d3cd0c7aee9b3ba3c"
                 "2be9845719707bb33"),
    Fp::from_hex("0x134996a104ee5811d51036d776fb46831223e96c254f383d0f906343eb67ad34d6c56711962fa8b"
                 "fe097e75a2e41c696"),
    Fp::from_hex("0x00cc786baa966e66f4a384c86a3b49942552e2d658a31ce2c344be4b91400da7d26d521628b0052"
                 "3b8dfe240c72de1f6"),
    Fp::from_hex("0x01f86376e8981c217898751ad8746757d42aa7b90eeb791c09e4a3ec03251cf9de405aba9ec61de"
                 "ca6355c77b0e5f4cb"),
    Fp::from_hex("0x08cc03fdefe0ff135caf4fe2a21529c4195536fbe3ce50b879833fd221351adc2ee7f8dc099040a"
                 "841b6daecf2e8fedb"),
    Fp::from_hex("0x16603fca40634b6a2211e11db8f0a6a074a7d0d4afadb7bd76505c3d3ad5544e203f6326c95a807"
                 "299b23ab13633a5f0"),
    Fp::from_hex("0x04ab0b9bcfac1bbcb2c977d027796b3ce75bb8ca2be184cb5231413c4d634f3747a87ac2460f415"
                 "ec961f8855fe9d6f2"),
    Fp::from_hex("0x0987c8d5333ab86fde9926bd2ca6c674170a05bfe3bdd81ffd038da6c26c842642f64550fedfe93"
                 "5a15e4ca31870fb29"),
    Fp::from_hex("0x09fc4018bd96684be88c9e221e4da1bb8f3abd16679dc26c1e8b6e6a1f20cabe69d65201c78607a"
                 "360370e577bdba587"),
    Fp::from_hex("0x0e1bba7a1186bdb5223abde7ada14a23c42a0ca7915af6fe06985e7ed1e4d43b9b3f7055dd4eba6"
                 "f2bafaaebca731c30"),
    Fp::from_hex("0x19713e47937cd1be0dfd0b8f1d43fb93cd2fcbcb6caf493fd1183e416389e61031bf3a5cce3fbaf"
                 "ce813711ad011c132"),
    Fp::from_hex("0x18b46a908f36f6deb918c143fed2edcc523559b8aaf0c2462e6bfe7f911f643249d9cdf41b44d60"
                 "6ce07c8a4d0074d8e"),
    Fp::from_hex("0x0b182cac101b9399d155096004f53f447aa7b12a3426b08ec02710e807b4633f06c851c1919211f"
                 "20d4c04f00b971ef8"),
    Fp::from_hex("0x0245a394ad1eca9b72fc00ae7be315dc757b3b080d4c158013e6632d3c40659cc6cf90ad1c232a6"
                 "442d9d3f5db980133"),
    Fp::from_hex("0x05c129645e44cf1102a159f748c4a3fc5e673d81d7e86568d9ab0f5d396a7ce46ba1049b6579afb"
                 "7866b1e715475224b"),
    Fp::from_hex("0x15e6be4e990f03ce4ea50b3b42df2eb5cb181d8f84965a3957add4fa95af01b2b665027efec01c7"
                 "704b456be69c8b604")};
constexpr std::array<Fp, 16> kYDen1{
    Fp::from_hex("0x16112c4c3a9c98b252181140fad0eae9601a6de578980be6eec3232b5be72e7a07f3688ef60c206"
                 "d01479253b03663c1"),
    Fp::from_hex("0x1962d75c2381201e1a0cbd6c43c348b885c84ff731c4d59ca4a10356f453e01f78a4260763529e3"
                 "532f6102c2e49a03d"),
    Fp::from_hex("0x058df3306640da276faaae7d6e8eb15778c4855551ae7f310c35a5dd279cd2eca6757cd636f96f8"
                 "91e2538b53dbf67f2"),
    Fp::from_hex("0x16b7d288798e5395f20d23bf89edb4d1d115c5dbddbcd30e123da489e726af41727364f2c28297a"
                 "da8d26d98445f5416"),
    Fp::from_hex("0x0be0e079545f43e4b00cc912f8228ddcc6d19c9f0f69bbb0542eda0fc9dec916a20b15dc0fd2ede"
                 "dda39142311a5001d"),
    Fp::from_hex("0x08d9e5297186db2d9fb266eaac783182b70152c65550d881c5ecd87b6f0f5a6449f38db9dfa9cce"
                 "202c6477faaf9b7ac"),
    Fp::from_hex("0x166007c08a99db2fc3ba8734ace9824b5eecfdfa8d0cf8ef5dd365bc400a0051d5fa9c01a58b1fb"
                 "93d1a1399126a775c"),
    Fp::from_hex("0x16a3ef08be3ea7ea03bcddfabba6ff6ee5a4375efa1f4fd7feb34fd206357132b920f5b00801dee"
                 "460ee415a15812ed9"),
    Fp::from_hex("0x1866c8ed336c61231a1be54fd1d74cc4f9fb0ce4c6af5920abc5750c4bf39b4852cfe2f7bb92488"
                 "36b233d9d55535d4a"),
    Fp::from_hex("0x167a55cda70a6e1cea820597d94a84903216f763e13d87bb5308592e7ea7d4fbc7385ea3d529b35"
                 "e346ef48bb8913f55"),
    Fp::from_hex("0x04d2f259eea405bd48f010a01ad2911d9c6dd039bb61a6290e591b36e636a5c871a5c29f4f83060"
                 "400f8b49cba8f6aa8"),
    Fp::from_hex("0x0accbb67481d033ff5852c1e48c50c477f94ff8aefce42d28c0f9a88cea7913516f968986f7ebbe"
                 "a9684b529e2561092"),
    Fp::from_hex("0x0ad6b9514c767fe3c3613144b45f1496543346d98adf02267d5ceef9a00d9b8693000763e3b90ac"
                 "11e99b138573345cc"),
    Fp::from_hex("0x02660400eb2e4f3b628bdd0d53cd76f2bf565b94e72927c1cb748df27942480e420517bd8714cc8"
                 "0d1fadc1326ed06f7"),
    Fp::from_hex("0x0e0fa1d816ddc03e6b24255e0d7819c171c40f65e273b853324efcd6356caa205ca2f570f134978"
                 "04415473a1d634b8f"),
    Fp::from_hex("0x1")};

/// sum(k[i] · x^i) by Horner's rule.
template <class F, std::size_t N>
F horner(const std::array<F, N>& k, const F& x) noexcept {
    F acc = k[N - 1];
    for (std::size_t i = N - 1; i-- > 0;) acc = acc * x + k[i];
    return acc;
}

/// A curve y^2 = x^3 + A·x + B over F (Fp or Fp2) for the simplified SWU map, with its Z and
/// the two constants the map divides by, computed once.
template <class F>
struct SwuCurve {
    F a, b, z;
    F minus_b_over_a, b_over_za;
    SwuCurve(const F& a_, const F& b_, const F& z_) noexcept
        : a(a_),
          b(b_),
          z(z_),
          minus_b_over_a(-b_ * a_.inverse()),
          b_over_za(b_ * (z_ * a_).inverse()) {}
    F g(const F& x) const noexcept { return (x.square() + a) * x + b; }
};

/// Every value raised to a public exponent: eight at a time on AVX-512 IFMA where the CPU has it
/// and there are at least two values (one 8-lane exponentiation costs about two scalar ones), else
/// one by one.
void pow_all(std::span<Fp> v, const detail::Limbs& exponent) noexcept {
    if (fp_x8_supported() && v.size() >= 2) {
        for (std::size_t i = 0; i < v.size(); i += 8) {
            std::array<Fp, 8> lanes;
            lanes.fill(Fp::one());
            const std::size_t n = std::min<std::size_t>(8, v.size() - i);
            std::copy_n(v.begin() + static_cast<std::ptrdiff_t>(i), n, lanes.begin());
            x8::store(x8::pow(x8::load(lanes), exponent), lanes);
            std::copy_n(lanes.begin(), n, v.begin() + static_cast<std::ptrdiff_t>(i));
        }
        return;
    }
    for (Fp& x : v) x = x.pow(exponent);
}

/// Simplified SWU (§6.6.2) over Fp2 for many u at once: out[i] = (x, y) of E2' for us[i]. Two
/// Fp exponentiations per u whichever x is taken, each batch of them raised together
/// (pow_all): g(x1)'s norm root n1^((p+1)/4) also gives g(x2)'s, as
/// g(x2) = (Z u^2)^3 g(x1). When n1 is not a square the power is a root of -n1, and
/// norm(g(x2)) = N^3 n1 (N = norm(Z u^2) = norm(Z) norm(u)^2) has the root
/// N norm(u) sqrt(-norm(Z)) times it. Then Fp2::sqrt_radicand / sqrt_finish around the second,
/// d^((p-3)/4), which also gives the inverse the root's other half needs.
void sswu_fp2_many(const SwuCurve<Fp2>& c, std::span<const Fp2> us,
                   std::span<std::pair<Fp2, Fp2>> out) {
    static const Fp kRootMinusNormZ = *(-c.z.norm()).sqrt();
    struct State {
        Fp2 zu2, x1, x, gx;
        Fp n1, d;
    };
    std::vector<State> st(us.size());
    std::vector<Fp> powers(us.size());
    std::vector<Fp2> inv_den(us.size());
    for (std::size_t i = 0; i < us.size(); ++i) {
        st[i].zu2 = c.z * us[i].square();
        inv_den[i] = st[i].zu2.square() + st[i].zu2;  // Z^2 u^4 + Z u^2
    }
    invert_all_vartime(std::span(inv_den));
    for (std::size_t i = 0; i < us.size(); ++i) {
        State& s = st[i];
        s.x1 = inv_den[i].is_zero() ? c.b_over_za : c.minus_b_over_a * (Fp2::one() + inv_den[i]);
        s.gx = c.g(s.x1);
        s.x = s.x1;
        s.n1 = s.gx.norm();
        powers[i] = s.n1;
    }
    pow_all(powers, detail::kPPlus1Over4);
    for (std::size_t i = 0; i < us.size(); ++i) {
        State& s = st[i];
        const Fp r1 = powers[i];
        Fp g = r1;
        if (r1.square() != s.n1) {
            s.x = s.zu2 * s.x1;
            s.gx = s.zu2.square() * s.zu2 * s.gx;
            g = s.zu2.norm() * us[i].norm() * kRootMinusNormZ * r1;
        }
        // c1 = 0 (probability ~1/p) takes the plain square root below instead.
        s.d = s.gx.c1.is_zero() ? Fp::one() : s.gx.sqrt_radicand(g);
        powers[i] = s.d;
    }
    pow_all(powers, detail::kPMinus3Over4);
    for (std::size_t i = 0; i < us.size(); ++i) {
        const State& s = st[i];
        const auto y = s.gx.c1.is_zero() ? s.gx.sqrt() : s.gx.sqrt_finish(s.d, powers[i]);
        KEEL_ASSERT(y.has_value());  // g(x1) or g(x2) is a square (Z is a non-square)
        out[i] = {s.x, us[i].sgn0() != y->sgn0() ? -*y : *y};
    }
}

/// Simplified SWU (§6.6.2) over Fp, straight from the definition: the point (x, y) of E1'.
std::pair<Fp, Fp> sswu_fp(const SwuCurve<Fp>& c, const Fp& u) noexcept {
    const Fp zu2 = c.z * u.square();
    const Fp den = zu2.square() + zu2;  // Z^2 u^4 + Z u^2
    const Fp x1 =
        den.is_zero() ? c.b_over_za : c.minus_b_over_a * (Fp::one() + den.inverse_vartime());
    Fp x = x1;
    auto y = c.g(x1).sqrt();
    if (!y) {
        x = zu2 * x1;
        y = c.g(x).sqrt();  // exists: g(x2) = Z^3 u^6 g(x1), and Z is a non-square
    }
    const Fp yv = *y;
    return {x, u.sgn0() != yv.sgn0() ? -yv : yv};
}

/// The isogeny (x, y) -> (xnum/xden, y·ynum/yden); a vanishing denominator (the isogeny's
/// kernel) maps to the point at infinity, as inv0 makes it in the RFC. One inversion for both
/// denominators.
template <class Affine, class F, std::size_t XN, std::size_t XD, std::size_t YN, std::size_t YD>
Affine isogeny(const F& x, const F& y, const std::array<F, XN>& xnum, const std::array<F, XD>& xden,
               const std::array<F, YN>& ynum, const std::array<F, YD>& yden) noexcept {
    const F x_den = horner(xden, x);
    const F y_den = horner(yden, x);
    Affine p;
    if (x_den.is_zero() || y_den.is_zero()) {
        p.infinity = true;
        return p;
    }
    const F inv = (x_den * y_den).inverse_vartime();
    p.x = horner(xnum, x) * y_den * inv;
    p.y = y * horner(ynum, x) * x_den * inv;
    return p;
}

/// The isogeny as isogeny(), straight into Jacobian coordinates with Z = xden·yden:
/// X = xnum·xden·yden^2 and Y = y·ynum·xden^3·yden^2 stand for (xnum/xden, y·ynum/yden) with no
/// inversion, and a vanishing denominator gives Z = 0, the point at infinity.
template <class Jac, class F, std::size_t XN, std::size_t XD, std::size_t YN, std::size_t YD>
Jac isogeny_jacobian(const F& x, const F& y, const std::array<F, XN>& xnum,
                     const std::array<F, XD>& xden, const std::array<F, YN>& ynum,
                     const std::array<F, YD>& yden) noexcept {
    const F x_den = horner(xden, x);
    const F y_den = horner(yden, x);
    const F y_den2 = y_den.square();
    return {horner(xnum, x) * x_den * y_den2, y * horner(ynum, x) * x_den.square() * x_den * y_den2,
            x_den * y_den};
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

const SwuCurve<Fp2>& swu_curve_g2() {
    static const SwuCurve<Fp2> curve(kA, kB, kZ);
    return curve;
}

G2Affine map_to_curve_g2(const Fp2& u) noexcept {
    std::pair<Fp2, Fp2> xy;
    sswu_fp2_many(swu_curve_g2(), {&u, 1}, {&xy, 1});
    return isogeny<G2Affine>(xy.first, xy.second, kXNum, kXDen, kYNum, kYDen);  // appendix E.3
}

G1Affine map_to_curve_g1(const Fp& u) noexcept {
    static const SwuCurve<Fp> curve(kA1, kB1Iso, kZ1);
    const auto [x, y] = sswu_fp(curve, u);
    return isogeny<G1Affine>(x, y, kXNum1, kXDen1, kYNum1, kYDen1);  // appendix E.2
}

G2Jacobian hash_to_g2(BytesView msg, std::string_view dst) {
    G2Jacobian out;
    hash_to_g2_many({&msg, 1}, {&out, 1}, dst);
    return out;
}

void hash_to_g2_many(std::span<const BytesView> msgs, std::span<G2Jacobian> out,
                     std::string_view dst) {
    KEEL_ASSERT(out.size() == msgs.size());
    std::vector<Fp2> us;
    us.reserve(2 * msgs.size());
    for (const BytesView msg : msgs) {
        const auto u = hash_to_field_fp2(msg, as_bytes(dst), 2);
        KEEL_ASSERT(u.size() == 2);
        us.insert(us.end(), u.begin(), u.end());
    }
    std::vector<std::pair<Fp2, Fp2>> xy(us.size());
    sswu_fp2_many(swu_curve_g2(), us, xy);
    for (std::size_t i = 0; i < msgs.size(); ++i) {
        const auto& [x0, y0] = xy[2 * i];
        const auto& [x1, y1] = xy[2 * i + 1];
        out[i] = isogeny_jacobian<G2Jacobian>(x0, y0, kXNum, kXDen, kYNum, kYDen) +
                 isogeny_jacobian<G2Jacobian>(x1, y1, kXNum, kXDen, kYNum, kYDen);
    }
    clear_cofactor_g2_many(out);
}

G1Jacobian hash_to_g1(BytesView msg, std::string_view dst) {
    const auto u = hash_to_field_fp(msg, as_bytes(dst), 2);
    KEEL_ASSERT(u.size() == 2);
    const G1Jacobian q = G1Jacobian::from_affine(map_to_curve_g1(u[0])) +
                         G1Jacobian::from_affine(map_to_curve_g1(u[1]));
    return clear_cofactor_g1(q);
}

}  // namespace keel::bls
