#pragma once
/// Deterministic test and benchmark data.

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <random>

#include "keel/common/bytes.hpp"
#include "keel/common/uint256.hpp"

namespace keel::testutil {

/// n bytes of a fixed, cheap pattern (byte i = i*131+7): the same input in every bench run and
/// in the side-by-side peers (bench/peers/peers.mjs uses the same formula).
inline Bytes pattern_bytes(std::size_t n) {
    Bytes b(n);
    for (std::size_t i = 0; i < n; ++i) b[i] = static_cast<std::uint8_t>(i * 131 + 7);
    return b;
}

/// n pseudo-random bytes from std::mt19937 seeded with `seed`: reproducible across runs.
inline Bytes seeded_bytes(std::size_t n, std::uint32_t seed = 1) {
    Bytes b(n);
    std::mt19937 rng(seed);
    for (auto& x : b) x = static_cast<std::uint8_t>(rng());
    return b;
}

/// n copies of byte v (RLP strings of a chosen length).
inline Bytes filler(std::size_t n, std::uint8_t v = 0xaa) {
    return Bytes(n, v);
}

/// The parts one after the other, as one new buffer.
inline Bytes concat(std::initializer_list<BytesView> parts) {
    Bytes out;
    for (auto p : parts) out.insert(out.end(), p.begin(), p.end());
    return out;
}

/// Marsaglia's xorshift64 (shifts 13, 7, 17): a tiny, fast generator for benchmark data whose
/// output must stay the same across runs, compilers and standard libraries. Every value is
/// derived from the next 64-bit output in call order, so a given sequence of calls on a given
/// seed always builds the same data.
class Xorshift64 {
  public:
    explicit constexpr Xorshift64(std::uint64_t seed) noexcept : s_(seed) {}

    /// The next 64-bit output.
    constexpr std::uint64_t operator()() noexcept {
        s_ ^= s_ << 13;
        s_ ^= s_ >> 7;
        s_ ^= s_ << 17;
        return s_;
    }
    /// One output reduced modulo n (n > 0; the slight bias is irrelevant for bench data).
    constexpr std::uint64_t below(std::uint64_t n) noexcept { return (*this)() % n; }
    /// One output mapped into [lo, hi] (lo <= hi, hi - lo < 2^64 - 1).
    constexpr std::uint64_t between(std::uint64_t lo, std::uint64_t hi) noexcept {
        return lo + below(hi - lo + 1);
    }
    /// N bytes, each the low byte of one output.
    template <std::size_t N>
    constexpr FixedBytes<N> fixed() noexcept {
        FixedBytes<N> out;
        for (auto& b : out.bytes) b = static_cast<std::uint8_t>((*this)());
        return out;
    }
    /// n bytes, each the low byte of one output.
    Bytes bytes(std::size_t n) {
        Bytes out(n);
        for (auto& b : out) b = static_cast<std::uint8_t>((*this)());
        return out;
    }

  private:
    std::uint64_t s_;
};

/// A reproducible secret key in [1, order-1]: rejection sampling on four outputs of `rng`.
inline Bytes32 random_secret(std::mt19937_64& rng, const Uint256& order) {
    for (;;) {
        const Uint256 k = Uint256::from_limbs(rng(), rng(), rng(), rng());
        if (!k.is_zero() && k < order) return k.to_bytes32();
    }
}

/// A reproducible 32-byte hash: four outputs of `rng`.
inline Hash32 random_hash(std::mt19937_64& rng) {
    return Uint256::from_limbs(rng(), rng(), rng(), rng()).to_bytes32();
}

}  // namespace keel::testutil
