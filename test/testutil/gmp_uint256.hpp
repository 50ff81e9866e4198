#pragma once
/// GMP reference helpers for differential checks of keel::Uint256 (header-only: used by
/// keel/common/uint256_test.cpp and fuzz/uint256_fuzz.cpp, which both link libgmp).

#include <gmp.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "keel/common/result.hpp"
#include "keel/common/uint256.hpp"

namespace keel::testutil::gmp {

/// An owned mpz_t.
class Z {
  public:
    Z() { mpz_init(v_); }
    explicit Z(const Uint256& x) {
        mpz_init(v_);
        mpz_import(v_, 4, -1, sizeof(std::uint64_t), 0, 0, x.limbs().data());
    }
    Z(const Z&) = delete;
    Z& operator=(const Z&) = delete;
    ~Z() { mpz_clear(v_); }
    mpz_ptr get() { return v_; }
    operator mpz_ptr() { return v_; }

  private:
    mpz_t v_;
};

/// out = x read as an unsigned number.
inline void set(mpz_ptr out, const Uint256& x) {
    mpz_import(out, 4, -1, sizeof(std::uint64_t), 0, 0, x.limbs().data());
}

/// out = x read as two's complement.
inline void set_signed(mpz_ptr out, const Uint256& x) {
    set(out, x);
    if (x.is_negative()) {
        Z two256;
        mpz_setbit(two256, 256);
        mpz_sub(out, out, two256);
    }
}

/// x mod 2^256 as a Uint256 (x may be negative or larger).
inline Uint256 wrap(mpz_srcptr x) {
    Z t;
    mpz_fdiv_r_2exp(t, x, 256);
    std::array<std::uint64_t, 4> l{};
    std::size_t count = 0;
    mpz_export(l.data(), &count, -1, sizeof(std::uint64_t), 0, 0, t);
    return Uint256::from_limbs(l);
}

/// The documented parse semantics of Uint256::from_dec / from_hex, scanned digit by digit on
/// GMP: optional 0x for base 16, the first bad character from the left, overflow at the digit
/// that makes the value reach 2^256.
inline Result<Uint256, uint256::Error> reference_parse(std::string_view s, int base) {
    using uint256::Errc;
    std::size_t i = 0;
    if (base == 16 && s.size() >= 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) i = 2;
    if (i == s.size()) return input_error(Errc::empty, i);
    Z v, two256;
    mpz_setbit(two256, 256);
    for (; i < s.size(); ++i) {
        const char c = s[i];
        int d = -1;
        if (c >= '0' && c <= '9') d = c - '0';
        if (base == 16 && c >= 'a' && c <= 'f') d = c - 'a' + 10;
        if (base == 16 && c >= 'A' && c <= 'F') d = c - 'A' + 10;
        if (d < 0) return input_error(Errc::invalid_digit, i);
        mpz_mul_ui(v, v, static_cast<unsigned long>(base));
        mpz_add_ui(v, v, static_cast<unsigned long>(d));
        if (mpz_cmp(v, two256) >= 0) return input_error(Errc::overflow, i);
    }
    return wrap(v);
}

}  // namespace keel::testutil::gmp
