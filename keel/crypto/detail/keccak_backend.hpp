#pragma once
/// The Keccak-f[1600] implementations behind keel/crypto/keccak.hpp. Private to keel/crypto.

#include <cstddef>
#include <cstdint>

#include "keel/crypto/keccak.hpp"

namespace keel::crypto::detail {

/// One implementation of the permutation, plus a sponge absorb loop that keeps the state in
/// registers across blocks (the 1 MiB case is one call, not 7,710 load/store round trips).
struct KeccakImpl {
    /// Keccak-f[1600] in place on the standard lane order (lane x + 5y).
    void (*permute)(std::uint64_t state[25]) noexcept;
    /// For each of `nblocks` consecutive 136-byte blocks of `in`: XOR the block into lanes 0..16
    /// (little-endian), then permute.
    void (*absorb136)(std::uint64_t state[25], const std::uint8_t* in,
                      std::size_t nblocks) noexcept;
};

/// Scalar, baseline x86-64 (or any 64-bit target).
extern const KeccakImpl kKeccakPortable;
/// Scalar, compiled for BMI1/BMI2 (andn, rorx); needs keccak_bmi2_supported().
extern const KeccakImpl kKeccakBmi2;
/// AVX-512F single-state implementation (keccak_avx512.cpp); needs keccak_avx512_supported().
extern const KeccakImpl kKeccakAvx512;

/// Keccak-f[1600] on eight independent states at once (keccak_x8.cpp), lane-sliced:
/// lanes[k][j] is lane k (= x + 5y) of state j. Needs keccak_avx512_supported() (asserted).
void keccak_f1600_x8(std::uint64_t lanes[25][8]) noexcept;

/// CPU (and, for AVX-512, OS) support, from CPUID.
bool keccak_bmi2_supported() noexcept;
bool keccak_avx512_supported() noexcept;

/// The rate-136, 256-bit-output sponge of keccak256_with() with the first padding byte `domain`
/// instead of Keccak's 0x01: 0x06 gives FIPS 202 SHA3-256 (§6.1, §B.2), which tests compare with
/// OpenSSL's independent SHA3-256 to check each backend's permutation and absorb loop.
void keccak_sponge256_with(KeccakBackend backend, BytesView data, std::uint8_t domain,
                           std::uint8_t* out32) noexcept;

}  // namespace keel::crypto::detail
