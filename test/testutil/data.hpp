#pragma once
/// Deterministic test and benchmark data.

#include <cstddef>
#include <cstdint>
#include <random>

#include "keel/common/bytes.hpp"

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

}  // namespace keel::testutil
