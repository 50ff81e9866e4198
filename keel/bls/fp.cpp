#include "keel/bls/fp.hpp"

#include <array>

namespace keel::bls {

#if defined(__x86_64__)
namespace detail {
const bool g_mulx_adx = __builtin_cpu_supports("bmi2") && __builtin_cpu_supports("adx");
}  // namespace detail
#endif

namespace {

using detail::Limbs;

/// 2^64 in Montgomery form: one limb shift per multiplication in from_bytes_wide.
constexpr Fp kTwo64 = Fp::from_canonical({0, 1, 0, 0, 0, 0});

/// The big-endian 8-byte word ending at p[8].
std::uint64_t load_be64(const std::uint8_t* p) noexcept {
    std::uint64_t v = 0;
    for (int i = 0; i < 8; ++i) v = v << 8 | p[i];
    return v;
}

/// a < b as integers.
bool less_than(const Limbs& a, const Limbs& b) noexcept {
    std::uint64_t borrow = 0;
    Limbs d{};
    for (std::size_t i = 0; i < 6; ++i) borrow = detail::sub_borrow(a[i], b[i], borrow, d[i]);
    return borrow != 0;
}

}  // namespace

std::optional<Fp> Fp::from_bytes(std::span<const std::uint8_t, 48> be) noexcept {
    Limbs v{};
    for (std::size_t i = 0; i < 6; ++i) v[5 - i] = load_be64(be.data() + 8 * i);
    if (!less_than(v, detail::kP)) return std::nullopt;
    return from_canonical(v);
}

void Fp::to_bytes(std::span<std::uint8_t, 48> be) const noexcept {
    const Limbs v = canonical();
    for (std::size_t i = 0; i < 6; ++i) {
        const std::uint64_t w = v[5 - i];
        for (int b = 0; b < 8; ++b) be[8 * i + b] = static_cast<std::uint8_t>(w >> (56 - 8 * b));
    }
}

Fp Fp::from_bytes_wide(std::span<const std::uint8_t> be) noexcept {
    // Horner's rule over 64-bit words, most significant first; a short first word is padded.
    Fp acc;
    std::size_t pos = 0;
    if (const std::size_t head = be.size() % 8; head != 0) {
        std::uint64_t w = 0;
        for (; pos < head; ++pos) w = w << 8 | be[pos];
        acc = from_u64(w);
    }
    for (; pos < be.size(); pos += 8) acc = acc * kTwo64 + from_u64(load_be64(be.data() + pos));
    return acc;
}

Fp Fp::pow(std::span<const std::uint64_t> exponent) const noexcept {
    // Fixed 4-bit windows: four squarings and at most one multiplication per nibble (about 490
    // operations for a 381-bit exponent instead of about 570 bit by bit). The exponent is
    // public, so its nibbles may choose the table entry and skip the multiplication; the time
    // does not depend on `a`.
    std::array<Fp, 16> table;
    table[0] = one();
    for (std::size_t k = 1; k < 16; ++k) table[k] = table[k - 1] * *this;
    Fp r = one();
    bool started = false;
    for (std::size_t i = exponent.size(); i-- > 0;) {
        for (int shift = 60; shift >= 0; shift -= 4) {
            const auto nibble = static_cast<std::size_t>((exponent[i] >> shift) & 0xf);
            if (started) r = r.square().square().square().square();
            if (nibble != 0) {
                r = started ? r * table[nibble] : table[nibble];
                started = true;
            }
        }
    }
    return r;
}

Fp Fp::inverse() const noexcept {
    return pow(detail::kPMinus2);
}

namespace {

/// a -= b (a >= b).
void sub_in_place(Limbs& a, const Limbs& b) noexcept {
    std::uint64_t borrow = 0;
    for (std::size_t i = 0; i < 6; ++i) borrow = detail::sub_borrow(a[i], b[i], borrow, a[i]);
}

/// a >>= 1.
void halve(Limbs& a) noexcept {
    a = detail::shift_right(a, 1);
}

/// x / 2 mod p for x < p: x + p is even when x is odd, and below 2^382.
void halve_mod_p(Limbs& x) noexcept {
    if ((x[0] & 1) != 0) {
        std::uint64_t carry = 0;
        for (std::size_t i = 0; i < 6; ++i)
            carry = detail::add_carry(x[i], detail::kP[i], carry, x[i]);
    }
    halve(x);
}

/// x = x - y mod p for x, y < p.
void sub_mod_p(Limbs& x, const Limbs& y) noexcept {
    if (less_than(x, y)) {
        std::uint64_t carry = 0;
        for (std::size_t i = 0; i < 6; ++i)
            carry = detail::add_carry(x[i], detail::kP[i], carry, x[i]);
    }
    sub_in_place(x, y);
}

bool is_one(const Limbs& a) noexcept {
    return a[0] == 1 && (a[1] | a[2] | a[3] | a[4] | a[5]) == 0;
}

}  // namespace

Fp Fp::inverse_vartime() const noexcept {
    if (is_zero()) return Fp();
    // Invariants: x1·a = u and x2·a = v (mod p); u and v shrink to gcd(a, p) = 1.
    Limbs u = canonical(), v = detail::kP;
    Limbs x1{1, 0, 0, 0, 0, 0}, x2{};
    while (!is_one(u) && !is_one(v)) {
        while ((u[0] & 1) == 0) {
            halve(u);
            halve_mod_p(x1);
        }
        while ((v[0] & 1) == 0) {
            halve(v);
            halve_mod_p(x2);
        }
        if (!less_than(u, v)) {
            sub_in_place(u, v);
            sub_mod_p(x1, x2);
        } else {
            sub_in_place(v, u);
            sub_mod_p(x2, x1);
        }
    }
    return from_canonical(is_one(u) ? x1 : x2);
}

std::optional<Fp> Fp::sqrt() const noexcept {
    const Fp s = pow(detail::kPPlus1Over4);
    if (s.square() != *this) return std::nullopt;
    return s;
}

bool Fp::is_square() const noexcept {
    const Fp e = pow(detail::kPMinus1Over2);
    return e.is_zero() || e == one();
}

bool Fp::lexicographically_largest() const noexcept {
    return less_than(detail::kPMinus1Over2, canonical());
}

}  // namespace keel::bls
