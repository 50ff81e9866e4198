// BLS12-381 field arithmetic against GMP. The input is read as two 48-byte big-endian integers
// a and b (short inputs are zero-padded): Fp::from_bytes must accept exactly those below p, and
// for accepted values +, -, ·, square, inverse, sqrt and the Legendre symbol must agree with
// GMP's arithmetic mod p; the same pairs as Fp2 elements must agree with GMP's (a0 + a1·u) rules.
#include <gmp.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>

#include "keel/bls/detail/fp2.hpp"
#include "keel/bls/detail/fp_x8.hpp"

namespace {

using namespace keel::bls;

void check(bool ok) {
    if (!ok) std::abort();
}

struct Gmp {
    mpz_t p, x, y, r, t;
    Gmp() {
        mpz_inits(p, x, y, r, t, nullptr);
        mpz_import(p, 6, -1, 8, 0, 0, detail::kP.data());
    }
};

/// The field element's canonical value equals the mpz.
void expect(const Fp& f, const mpz_t want) {
    const auto limbs = f.canonical();
    mpz_t got;
    mpz_init(got);
    mpz_import(got, 6, -1, 8, 0, 0, limbs.data());
    check(mpz_cmp(got, want) == 0);
    mpz_clear(got);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    static Gmp g;
    std::array<std::uint8_t, 96> in{};
    std::memcpy(in.data(), data, size < 96 ? size : 96);
    mpz_import(g.x, 48, 1, 1, 0, 0, in.data());
    mpz_import(g.y, 48, 1, 1, 0, 0, in.data() + 48);
    const auto a = Fp::from_bytes(std::span<const std::uint8_t, 48>(in.data(), 48));
    const auto b = Fp::from_bytes(std::span<const std::uint8_t, 48>(in.data() + 48, 48));
    check(a.has_value() == (mpz_cmp(g.x, g.p) < 0));
    check(b.has_value() == (mpz_cmp(g.y, g.p) < 0));
    if (!a || !b) return 0;

    mpz_add(g.r, g.x, g.y);
    mpz_mod(g.r, g.r, g.p);
    expect(*a + *b, g.r);
    mpz_sub(g.r, g.x, g.y);
    mpz_mod(g.r, g.r, g.p);
    expect(*a - *b, g.r);
    mpz_mul(g.r, g.x, g.y);
    mpz_mod(g.r, g.r, g.p);
    expect(*a * *b, g.r);
    mpz_mul(g.r, g.x, g.x);
    mpz_mod(g.r, g.r, g.p);
    expect(a->square(), g.r);
    if (!a->is_zero()) {
        check(mpz_invert(g.r, g.x, g.p) != 0);
        expect(a->inverse(), g.r);
        expect(a->inverse_vartime(), g.r);
    }
    const bool square = mpz_legendre(g.x, g.p) >= 0;
    check(a->is_square() == square);
    const auto root = a->sqrt();
    check(root.has_value() == square);
    if (root) check(root->square() == *a);

    // (a + b·u)^2 = a^2 - b^2 + 2ab·u, and the Fp2 square root agrees with squaring.
    const Fp2 z(*a, *b);
    const Fp2 z2 = z.square();
    mpz_mul(g.r, g.x, g.x);
    mpz_mul(g.t, g.y, g.y);
    mpz_sub(g.r, g.r, g.t);
    mpz_mod(g.r, g.r, g.p);
    expect(z2.c0, g.r);
    mpz_mul(g.r, g.x, g.y);
    mpz_mul_ui(g.r, g.r, 2);
    mpz_mod(g.r, g.r, g.p);
    expect(z2.c1, g.r);
    const auto z2_root = z2.sqrt();
    check(z2_root.has_value() && z2_root->square() == z2);
    if (!z.is_zero()) check(z * z.inverse() == Fp2::one());

    // FpX8 (AVX-512 IFMA, where the CPU has it): eight lanes built from a and b agree with the
    // scalar products, sums and differences, also on lazily reduced intermediate values.
    if (fp_x8_supported()) {
        const std::array<Fp, 8> la{*a, *b, *a, -*a, *a + *b, Fp::one(), -Fp::one(), *b};
        const std::array<Fp, 8> lb{*b, *a, *a, *b, *a - *b, *b, *a, -*b};
        const FpX8 va = x8::load(la), vb = x8::load(lb);
        std::array<Fp, 8> prod, mixed;
        x8::store(x8::mul(va, vb), prod);
        x8::store(x8::mul(x8::add(va, vb), x8::sub(va, vb, 3)), mixed);
        for (std::size_t i = 0; i < 8; ++i) {
            check(prod[i] == la[i] * lb[i]);
            check(mixed[i] == (la[i] + lb[i]) * (la[i] - lb[i]));
        }
    }
    return 0;
}
