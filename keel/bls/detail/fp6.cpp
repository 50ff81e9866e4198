#include "keel/bls/detail/fp6.hpp"

namespace keel::bls {

namespace detail {

// ξ^(i·(p^k - 1)/6) as canonical limbs (see fp6.hpp). Written out rather than computed by the
// compiler: a constexpr pow over exponents of up to 1,143 bits costs more compile time than it is
// worth. Row k = 2 lies in Fp (ξ^((p^2 - 1)/6) = norm(ξ)^((p - 1)/6)). fp12_test.cpp recomputes
// every entry with Fp2::pow.
constexpr Fp2 kFrobeniusGamma[3][6] = {
    {Fp2::one(),
     Fp2(Fp::from_canonical({0x8d0775ed92235fb8, 0xf67ea53d63e7813d, 0x7b2443d784bab9c4,
                             0x0fd603fd3cbd5f4f, 0xc231beb4202c0d1f, 0x1904d3bf02bb0667}),
         Fp::from_canonical({0x2cf78a126ddc4af3, 0x282d5ac14d6c7ec2, 0xec0c8ec971f63c5f,
                             0x54a14787b6c7b36f, 0x88e9e902231f9fb8, 0x00fc3e2b36c4e032})),
     Fp2(Fp::from_canonical({0x0000000000000000, 0x0000000000000000, 0x0000000000000000,
                             0x0000000000000000, 0x0000000000000000, 0x0000000000000000}),
         Fp::from_canonical({0x8bfd00000000aaac, 0x409427eb4f49fffd, 0x897d29650fb85f9b,
                             0xaa0d857d89759ad4, 0xec02408663d4de85, 0x1a0111ea397fe699})),
     Fp2(Fp::from_canonical({0xc81084fbede3cc09, 0xee67992f72ec05f4, 0x77f76e17009241c5,
                             0x48395dabc2d3435e, 0x6831e36d6bd17ffe, 0x06af0e0437ff400b}),
         Fp::from_canonical({0xc81084fbede3cc09, 0xee67992f72ec05f4, 0x77f76e17009241c5,
                             0x48395dabc2d3435e, 0x6831e36d6bd17ffe, 0x06af0e0437ff400b})),
     Fp2(Fp::from_canonical({0x8bfd00000000aaad, 0x409427eb4f49fffd, 0x897d29650fb85f9b,
                             0xaa0d857d89759ad4, 0xec02408663d4de85, 0x1a0111ea397fe699}),
         Fp::from_canonical({0x0000000000000000, 0x0000000000000000, 0x0000000000000000,
                             0x0000000000000000, 0x0000000000000000, 0x0000000000000000})),
     Fp2(Fp::from_canonical({0x9b18fae980078116, 0xc63a3e6e257f8732, 0x8beadf4d8e9c0566,
                             0xf39816240c0b8fee, 0xdf47fa6b48b1e045, 0x05b2cfd9013a5fd8}),
         Fp::from_canonical({0x1ee605167ff82995, 0x5871c1908bd478cd, 0xdb45f3536814f0bd,
                             0x70df3560e77982d0, 0x6bd3ad4afa99cc91, 0x144e4211384586c1}))},
    {Fp2::one(),
     Fp2(Fp::from_canonical({0x2e01fffffffeffff, 0xde17d813620a0002, 0xddb3a93be6f89688,
                             0xba69c6076a0f77ea, 0x5f19672fdf76ce51, 0x0000000000000000}),
         Fp::from_canonical({0x0000000000000000, 0x0000000000000000, 0x0000000000000000,
                             0x0000000000000000, 0x0000000000000000, 0x0000000000000000})),
     Fp2(Fp::from_canonical({0x2e01fffffffefffe, 0xde17d813620a0002, 0xddb3a93be6f89688,
                             0xba69c6076a0f77ea, 0x5f19672fdf76ce51, 0x0000000000000000}),
         Fp::from_canonical({0x0000000000000000, 0x0000000000000000, 0x0000000000000000,
                             0x0000000000000000, 0x0000000000000000, 0x0000000000000000})),
     Fp2(Fp::from_canonical({0xb9feffffffffaaaa, 0x1eabfffeb153ffff, 0x6730d2a0f6b0f624,
                             0x64774b84f38512bf, 0x4b1ba7b6434bacd7, 0x1a0111ea397fe69a}),
         Fp::from_canonical({0x0000000000000000, 0x0000000000000000, 0x0000000000000000,
                             0x0000000000000000, 0x0000000000000000, 0x0000000000000000})),
     Fp2(Fp::from_canonical({0x8bfd00000000aaac, 0x409427eb4f49fffd, 0x897d29650fb85f9b,
                             0xaa0d857d89759ad4, 0xec02408663d4de85, 0x1a0111ea397fe699}),
         Fp::from_canonical({0x0000000000000000, 0x0000000000000000, 0x0000000000000000,
                             0x0000000000000000, 0x0000000000000000, 0x0000000000000000})),
     Fp2(Fp::from_canonical({0x8bfd00000000aaad, 0x409427eb4f49fffd, 0x897d29650fb85f9b,
                             0xaa0d857d89759ad4, 0xec02408663d4de85, 0x1a0111ea397fe699}),
         Fp::from_canonical({0x0000000000000000, 0x0000000000000000, 0x0000000000000000,
                             0x0000000000000000, 0x0000000000000000, 0x0000000000000000}))},
    {Fp2::one(),
     Fp2(Fp::from_canonical({0xf1ee7b04121bdea2, 0x304466cf3e67fa0a, 0xef396489f61eb45e,
                             0x1c3dedd930b1cf60, 0xe2e9c448d77a2cd9, 0x135203e60180a68e}),
         Fp::from_canonical({0xc81084fbede3cc09, 0xee67992f72ec05f4, 0x77f76e17009241c5,
                             0x48395dabc2d3435e, 0x6831e36d6bd17ffe, 0x06af0e0437ff400b})),
     Fp2(Fp::from_canonical({0x0000000000000000, 0x0000000000000000, 0x0000000000000000,
                             0x0000000000000000, 0x0000000000000000, 0x0000000000000000}),
         Fp::from_canonical({0x0000000000000001, 0x0000000000000000, 0x0000000000000000,
                             0x0000000000000000, 0x0000000000000000, 0x0000000000000000})),
     Fp2(Fp::from_canonical({0xf1ee7b04121bdea2, 0x304466cf3e67fa0a, 0xef396489f61eb45e,
                             0x1c3dedd930b1cf60, 0xe2e9c448d77a2cd9, 0x135203e60180a68e}),
         Fp::from_canonical({0xf1ee7b04121bdea2, 0x304466cf3e67fa0a, 0xef396489f61eb45e,
                             0x1c3dedd930b1cf60, 0xe2e9c448d77a2cd9, 0x135203e60180a68e})),
     Fp2(Fp::from_canonical({0xb9feffffffffaaaa, 0x1eabfffeb153ffff, 0x6730d2a0f6b0f624,
                             0x64774b84f38512bf, 0x4b1ba7b6434bacd7, 0x1a0111ea397fe69a}),
         Fp::from_canonical({0x0000000000000000, 0x0000000000000000, 0x0000000000000000,
                             0x0000000000000000, 0x0000000000000000, 0x0000000000000000})),
     Fp2(Fp::from_canonical({0xc81084fbede3cc09, 0xee67992f72ec05f4, 0x77f76e17009241c5,
                             0x48395dabc2d3435e, 0x6831e36d6bd17ffe, 0x06af0e0437ff400b}),
         Fp::from_canonical({0xf1ee7b04121bdea2, 0x304466cf3e67fa0a, 0xef396489f61eb45e,
                             0x1c3dedd930b1cf60, 0xe2e9c448d77a2cd9, 0x135203e60180a68e}))},
};

}  // namespace detail

Fp6 operator*(const Fp6& a, const Fp6& b) noexcept {
    // Karatsuba (Devegili et al. §4): c0 = v0 + ξ((a1 + a2)(b1 + b2) - v1 - v2),
    // c1 = (a0 + a1)(b0 + b1) - v0 - v1 + ξ·v2, c2 = (a0 + a2)(b0 + b2) - v0 - v2 + v1.
    const Fp2 v0 = a.c0 * b.c0;
    const Fp2 v1 = a.c1 * b.c1;
    const Fp2 v2 = a.c2 * b.c2;
    return {v0 + ((a.c1 + a.c2) * (b.c1 + b.c2) - v1 - v2).mul_by_xi(),
            (a.c0 + a.c1) * (b.c0 + b.c1) - v0 - v1 + v2.mul_by_xi(),
            (a.c0 + a.c2) * (b.c0 + b.c2) - v0 - v2 + v1};
}

Fp6 Fp6::square() const noexcept {
    // Chung–Hasan SQR2: s0 = a0^2, s1 = 2·a0·a1, s2 = (a0 - a1 + a2)^2, s3 = 2·a1·a2, s4 = a2^2;
    // c0 = s0 + ξ·s3, c1 = s1 + ξ·s4, c2 = s1 + s2 + s3 - s0 - s4.
    const Fp2 s0 = c0.square();
    const Fp2 s1 = (c0 * c1).dbl();
    const Fp2 s2 = (c0 - c1 + c2).square();
    const Fp2 s3 = (c1 * c2).dbl();
    const Fp2 s4 = c2.square();
    return {s0 + s3.mul_by_xi(), s1 + s4.mul_by_xi(), s1 + s2 + s3 - s0 - s4};
}

Fp6 Fp6::mul_by_01(const Fp2& b0, const Fp2& b1) const noexcept {
    // (a0 + a1·v + a2·v^2)(b0 + b1·v) = (a0·b0 + ξ·a2·b1) + (a0·b1 + a1·b0)·v + (a1·b1 +
    // a2·b0)·v^2, the middle term by Karatsuba.
    const Fp2 t0 = c0 * b0;
    const Fp2 t1 = c1 * b1;
    return {t0 + (c2 * b1).mul_by_xi(), (c0 + c1) * (b0 + b1) - t0 - t1, t1 + c2 * b0};
}

Fp6 Fp6::inverse() const noexcept {
    return inverse_impl<false>();
}

Fp6 Fp6::inverse_vartime() const noexcept {
    return inverse_impl<true>();
}

template <bool kVartime>
Fp6 Fp6::inverse_impl() const noexcept {
    // The adjugate over the norm (Devegili et al. §4; also Scott, "Implementing cryptographic
    // pairings", alg. 17): t0 = a0^2 - ξ·a1·a2, t1 = ξ·a2^2 - a0·a1, t2 = a1^2 - a0·a2, and
    // a·(t0 + t1·v + t2·v^2) = a0·t0 + ξ·(a2·t1 + a1·t2), an element of Fp2.
    const Fp2 t0 = c0.square() - (c1 * c2).mul_by_xi();
    const Fp2 t1 = c2.square().mul_by_xi() - c0 * c1;
    const Fp2 t2 = c1.square() - c0 * c2;
    const Fp2 norm = c0 * t0 + (c2 * t1 + c1 * t2).mul_by_xi();
    const Fp2 inv = kVartime ? norm.inverse_vartime() : norm.inverse();
    return {t0 * inv, t1 * inv, t2 * inv};
}

Fp6 Fp6::frobenius_map(std::size_t k) const noexcept {
    // (a0 + a1·v + a2·v^2)^(p^k) = φ(a0) + φ(a1)·v^(p^k) + φ(a2)·v^(2p^k), φ the p^k-power on
    // Fp2 (conjugation for odd k), and v^(p^k) = v·ξ^((p^k - 1)/3) = v·γ[k][2] as v = w^2.
    const bool odd = (k & 1) != 0;
    const Fp2 a0 = odd ? c0.conjugate() : c0;
    const Fp2 a1 = odd ? c1.conjugate() : c1;
    const Fp2 a2 = odd ? c2.conjugate() : c2;
    const auto& g = detail::kFrobeniusGamma[k - 1];
    return {a0, a1 * g[2], a2 * g[4]};
}

}  // namespace keel::bls
