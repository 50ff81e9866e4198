#pragma once
/// BLAKE2b's compression function F (RFC 7693 §3.2) with a caller-chosen number of rounds: the
/// EVM's precompile at 0x09 (EIP-152). Allocation-free and thread-safe.

#include <cstdint>

namespace keel::crypto {

/// F(h, m, t, f) with `rounds` rounds, in place on h (eight words). t = (t[0], t[1]) is the
/// offset counter, `last` the final-block flag.
void blake2b_compress(std::uint64_t h[8], const std::uint64_t m[16], const std::uint64_t t[2],
                      bool last, std::uint32_t rounds) noexcept;

}  // namespace keel::crypto
