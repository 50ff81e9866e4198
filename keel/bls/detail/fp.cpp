#include "keel/bls/detail/fp.hpp"

#include <array>

#include "keel/bls/detail/fp_inverse.hpp"

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
    // Sliding windows of up to 5 bits over the odd powers a, a^3, ..., a^31: every window starts
    // and ends on a set bit, so a 381-bit exponent costs its ~380 squarings plus about one
    // multiplication per 6 bits (about 460 operations, against about 490 with fixed 4-bit
    // windows; the exponentiations of inversion and square roots are a fifth of BLS Sign). The
    // exponent is public, so its bits may choose the windows and the table entries; the time
    // does not depend on `a`.
    const auto bit = [&](std::size_t k) { return ((exponent[k / 64] >> (k % 64)) & 1) != 0; };
    std::size_t top = exponent.size() * 64;
    while (top > 0 && !bit(top - 1)) --top;
    if (top == 0) return one();
    std::array<Fp, 16> odd;  // odd[k] = a^(2k + 1)
    odd[0] = *this;
    const Fp a2 = square();
    for (std::size_t k = 1; k < odd.size(); ++k) odd[k] = odd[k - 1] * a2;
    Fp r = one();
    bool started = false;
    for (std::size_t i = top; i > 0;) {
        if (!bit(i - 1)) {
            r = r.square();
            --i;
            continue;
        }
        // The window: bits i-1 down to j, at most 5 wide, ending on a set bit.
        std::size_t j = i >= 5 ? i - 5 : 0;
        while (!bit(j)) ++j;
        std::uint64_t value = 0;
        for (std::size_t k = i; k-- > j;) {
            value = value << 1 | static_cast<std::uint64_t>(bit(k));
            if (started) r = r.square();
        }
        r = started ? r * odd[value >> 1] : odd[value >> 1];
        started = true;
        i = j;
    }
    return r;
}

Fp Fp::inverse() const noexcept {
    // The stored integer is A = a·R; inverse_mod_p gives A^-1 = a^-1·R^-1, and one Montgomery
    // multiplication by R^3 makes it a^-1·R, the Montgomery form of 1/a.
    constexpr Limbs kR3 = detail::mont_mul(detail::kR2, detail::kR2);
    return Fp(detail::mont_mul_dispatch(detail::inverse_mod_p(m_), kR3));
}

namespace {

/// a -= b (a >= b).
void sub_in_place(Limbs& a, const Limbs& b) noexcept {
    std::uint64_t borrow = 0;
    for (std::size_t i = 0; i < 6; ++i) borrow = detail::sub_borrow(a[i], b[i], borrow, a[i]);
}

/// a += b (no carry out).
void add_in_place(Limbs& a, const Limbs& b) noexcept {
    std::uint64_t carry = 0;
    for (std::size_t i = 0; i < 6; ++i) carry = detail::add_carry(a[i], b[i], carry, a[i]);
}

/// a >>= n (n < 384).
void shift_right_by(Limbs& a, unsigned n) noexcept {
    const unsigned words = n / 64, bits = n % 64;
    for (std::size_t i = 0; i < 6; ++i) {
        const std::size_t k = i + words;
        std::uint64_t w = k < 6 ? a[k] >> bits : 0;
        if (bits != 0 && k + 1 < 6) w |= a[k + 1] << (64 - bits);
        a[i] = w;
    }
}

/// a <<= n (n < 384; the result fits).
void shift_left_by(Limbs& a, unsigned n) noexcept {
    const unsigned words = n / 64, bits = n % 64;
    for (std::size_t i = 6; i-- > 0;) {
        std::uint64_t w = i >= words ? a[i - words] << bits : 0;
        if (bits != 0 && i >= words + 1) w |= a[i - words - 1] >> (64 - bits);
        a[i] = w;
    }
}

/// The number of trailing zero bits of a non-zero a.
unsigned trailing_zeros(const Limbs& a) noexcept {
    unsigned n = 0;
    for (std::size_t i = 0; i < 6; ++i, n += 64)
        if (a[i] != 0) return n + static_cast<unsigned>(__builtin_ctzll(a[i]));
    return n;
}

bool is_zero_limbs(const Limbs& a) noexcept {
    return (a[0] | a[1] | a[2] | a[3] | a[4] | a[5]) == 0;
}

/// 2^j mod p for j < 390, in canonical form: the last step of inverse_vartime.
constexpr std::array<Limbs, 390> kPow2 = [] {
    std::array<Limbs, 390> t{};
    t[0] = Limbs{1, 0, 0, 0, 0, 0};
    for (std::size_t j = 1; j < t.size(); ++j) t[j] = detail::add_mod(t[j - 1], t[j - 1]);
    return t;
}();

}  // namespace

Fp Fp::inverse_vartime() const noexcept {
    if (is_zero()) return Fp();
    // Kaliski's almost inverse on the Montgomery representation A = a·R: with u·s + v·r = p
    // throughout (so r, s <= p), each subtraction of the smaller odd value from the larger is
    // followed by all the halvings it allows at once (a shift by the trailing zeros), the
    // other cofactor doubling as often. It ends with X = -r = A^-1 · 2^k mod p, 381 <= k <= 762.
    Limbs u = detail::kP, v = m_, r{}, s{1, 0, 0, 0, 0, 0};
    unsigned k = trailing_zeros(v);
    shift_right_by(v, k);
    while (true) {
        if (less_than(v, u)) {
            sub_in_place(u, v);
            add_in_place(r, s);
            const unsigned z = trailing_zeros(u);
            shift_right_by(u, z);
            shift_left_by(s, z);
            k += z;
        } else {
            sub_in_place(v, u);
            add_in_place(s, r);
            if (is_zero_limbs(v)) break;
            const unsigned z = trailing_zeros(v);
            shift_right_by(v, z);
            shift_left_by(r, z);
            k += z;
        }
    }
    // The last step (v = u = 1) also doubles r.
    shift_left_by(r, 1);
    k += 1;
    if (!less_than(r, detail::kP)) sub_in_place(r, detail::kP);
    Limbs x = detail::kP;
    sub_in_place(x, r);  // X = A^-1 · 2^k = a^-1 · R^-1 · 2^k
    // a^-1 · R = X · 2^(768 - k): mont_mul by R^2 gives X · 2^384, then by 2^(768 - k) (a
    // canonical value, 6 <= 768 - k <= 387) divides by R again and multiplies by it.
    const Limbs y = detail::mont_mul_dispatch(x, detail::kR2);
    return Fp(detail::mont_mul_dispatch(y, kPow2[768 - k]));
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
