#pragma once
/// Keccak-f[1600] constants, derived at compile time from their definitions in FIPS 202 so that
/// no hand-copied table can hold a typo. Private to keel/crypto.

#include <array>
#include <cstdint>

namespace keel::crypto::detail {

/// Lane index of A[x, y] in the 25-word state (FIPS 202 §3.1.2: the state is read lane by lane,
/// x fastest).
constexpr int lane(int x, int y) noexcept {
    return x + 5 * y;
}

/// ρ offsets by lane index (FIPS 202 §3.2.2, Algorithm 2): walking (x, y) from (1, 0) by
/// (x, y) <- (y, (2x + 3y) mod 5), lane number t is rotated by (t + 1)(t + 2)/2 mod 64.
constexpr std::array<int, 25> make_rho_offsets() {
    std::array<int, 25> r{};
    int x = 1, y = 0;
    for (int t = 0; t < 24; ++t) {
        r[lane(x, y)] = ((t + 1) * (t + 2) / 2) % 64;
        const int nx = y;
        y = (2 * x + 3 * y) % 5;
        x = nx;
    }
    return r;
}
inline constexpr std::array<int, 25> kRho = make_rho_offsets();

/// rc(t) of FIPS 202 §3.2.5 (Algorithm 5): the output bit of an 8-bit LFSR with feedback
/// polynomial x^8 + x^6 + x^5 + x^4 + 1. Bit j of `r` holds R[j].
constexpr bool rc_bit(int t) {
    if (t % 255 == 0) return true;
    unsigned r = 1;
    for (int i = 1; i <= t % 255; ++i) {
        r <<= 1;  // R = 0 || R
        const unsigned r8 = (r >> 8) & 1u;
        r ^= r8 * 0x71u;  // R[0] ^= R[8], R[4] ^= R[8], R[5] ^= R[8], R[6] ^= R[8]
        r &= 0xffu;       // R = Trunc8(R)
    }
    return (r & 1u) != 0;
}

/// ι round constants (FIPS 202 §3.2.5, Algorithm 6): bit 2^j - 1 of RC[i] is rc(j + 7i).
constexpr std::array<std::uint64_t, 24> make_round_constants() {
    std::array<std::uint64_t, 24> rc{};
    for (int i = 0; i < 24; ++i)
        for (int j = 0; j <= 6; ++j)
            if (rc_bit(j + 7 * i)) rc[i] |= std::uint64_t{1} << ((1 << j) - 1);
    return rc;
}
inline constexpr std::array<std::uint64_t, 24> kRoundConstants = make_round_constants();

// Spot checks against the values printed in the Keccak reference.
static_assert(kRoundConstants[0] == 0x0000000000000001ull);
static_assert(kRoundConstants[1] == 0x0000000000008082ull);
static_assert(kRoundConstants[23] == 0x8000000080008008ull);
static_assert(kRho[lane(1, 0)] == 1 && kRho[lane(0, 1)] == 36 && kRho[lane(4, 4)] == 14);

}  // namespace keel::crypto::detail
