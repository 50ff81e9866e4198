#pragma once
/// A counter-based pseudo-random stream for the devnet generator: the values drawn for
/// (seed, domain, a, b) are a pure function of those four numbers, so work split over threads in
/// any way draws exactly the same values. SplitMix64 (Steele, Lea, Flood, "Fast splittable
/// pseudorandom number generators", OOPSLA 2014): a Weyl sequence through a 64-bit finalizer.
/// Not cryptographic; only reproducible.

#include <cstddef>
#include <cstdint>

#include "keel/common/bytes.hpp"

namespace keel::devnet::detail {

__extension__ typedef unsigned __int128 U128;

/// The SplitMix64 finalizer: a bijection of 64-bit words with good avalanche.
constexpr std::uint64_t mix64(std::uint64_t z) noexcept {
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/// What a stream is for; each use draws from its own stream so that changing one kind of content
/// does not shift the others.
enum class Domain : std::uint64_t {
    plan = 1,        ///< per transaction: type, sender, blob and authorization counts
    content = 2,     ///< per transaction: recipient, value, data, fees, gas, access list
    header = 3,      ///< per block: difficulty, PoW nonce, mix hash, roots that are arbitrary
    withdrawal = 4,  ///< per block: the withdrawals
    ommer = 5,       ///< per block: the ommer header's arbitrary fields
    // The beacon generators' streams (beacon_values.hpp), numbered apart from the chain's.
    beacon_block = 0x100,        ///< (block part, 0)
    beacon_attestation = 0x101,  ///< (attestation index, 0)
    beacon_tx = 0x102,           ///< (tx index, 0), (sender, 1)
    beacon_validator = 0x103,    ///< (validator index, 0)
    beacon_state = 0x104,        ///< (state part, index)
    beacon_history = 0x105,      ///< (kind, slot)
};

/// One stream. Plain value; copies continue independently.
class Rng {
  public:
    /// The stream of (seed, domain, a, b), e.g. (seed, content, block number, tx index).
    constexpr Rng(std::uint64_t seed, Domain domain, std::uint64_t a, std::uint64_t b = 0) noexcept
        : state_(mix64(mix64(mix64(seed + kGamma) ^ static_cast<std::uint64_t>(domain)) + a) ^
                 mix64(b + kGamma)) {}

    /// The next 64-bit value.
    constexpr std::uint64_t next() noexcept {
        state_ += kGamma;
        return mix64(state_);
    }

    /// A value in [0, n) (n > 0), by the multiply-shift reduction (bias below 2^-32 for the
    /// ranges used here).
    constexpr std::uint64_t below(std::uint64_t n) noexcept {
        return static_cast<std::uint64_t>((static_cast<U128>(next()) * n) >> 64);
    }

    /// A value in [lo, hi] (lo <= hi < 2^64 - 1).
    constexpr std::uint64_t between(std::uint64_t lo, std::uint64_t hi) noexcept {
        return lo + below(hi - lo + 1);
    }

    /// True with probability percent / 100.
    constexpr bool chance(std::uint64_t percent) noexcept { return below(100) < percent; }

    /// Fills `out` with stream bytes.
    void fill(MutableBytesView out) noexcept {
        std::size_t i = 0;
        while (i < out.size()) {
            std::uint64_t w = next();
            for (std::size_t k = 0; k < 8 && i < out.size(); ++k, ++i, w >>= 8) {
                out[i] = static_cast<std::uint8_t>(w);
            }
        }
    }

    /// N stream bytes.
    template <std::size_t N>
    FixedBytes<N> fixed() noexcept {
        FixedBytes<N> out;
        fill(out.mutable_view());
        return out;
    }

  private:
    static constexpr std::uint64_t kGamma = 0x9e3779b97f4a7c15ull;  // 2^64 / golden ratio
    std::uint64_t state_;
};

}  // namespace keel::devnet::detail
