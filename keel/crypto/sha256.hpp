#pragma once
/// SHA-256 (FIPS 180-4, https://nvlpubs.nist.gov/nistpubs/FIPS/NIST.FIPS.180-4.pdf, §6.2).
///
/// Two implementations: the x86 SHA extensions (SHA-NI: sha256rnds2/msg1/msg2), and OpenSSL's
/// libcrypto for CPUs without them. The choice is made once per process at start-up from CPUID;
/// every function here is thread-safe and allocation-free. For many 64-byte messages there is
/// also a 16-lane AVX-512F kernel (sha256_64_many_x16()), which sha256_64_many() uses where the
/// CPU has AVX-512F (see sha256_64_many_uses_x16()).
///
/// The 64-byte entry points are the hot path of SSZ merkleization (hash of two 32-byte nodes):
/// the second compression of a 64-byte message always runs on the same padding block, whose
/// message schedule is precomputed.

#include <cstddef>
#include <cstdint>

#include "keel/common/bytes.hpp"

namespace keel::crypto {

/// SHA-256 of `data`.
Hash32 sha256(BytesView data) noexcept;

/// SHA-256 of exactly 64 bytes at `in`, written to `out` (32 bytes). `in` and `out` may overlap.
void sha256_64(const std::uint8_t* in, std::uint8_t* out) noexcept;

/// `n` independent 64-byte hashes: out[32*i .. 32*i+32) = SHA-256(in[64*i .. 64*i+64)), e.g. one
/// level of a Merkle tree. Independent messages are interleaved to hide instruction latency.
/// `out` may equal `in` (in-place level reduction) but must not otherwise overlap it.
void sha256_64_many(const std::uint8_t* in, std::uint8_t* out, std::size_t n) noexcept;

/// Incremental SHA-256. Trivially copyable (state, byte count and one 64-byte block); a copy
/// continues independently. Not thread-safe: one object per thread, or external locking.
class Sha256 {
  public:
    /// An empty hash, ready for update().
    Sha256() noexcept = default;

    /// Absorbs `data`; any split of a message into update() calls gives the same digest.
    void update(BytesView data) noexcept;

    /// Digest of everything absorbed so far (FIPS 180-4 §5.1.1 padding, §6.2.2). Does not change
    /// this object: more update() calls may follow.
    [[nodiscard]] Hash32 finalize() const noexcept;

    /// As finalize(), writing the 32-byte digest to `out32`.
    void finalize_to(std::uint8_t* out32) const noexcept;

    /// Forgets all input: back to the state of a new object.
    void reset() noexcept { *this = Sha256{}; }

  private:
    /// FIPS 180-4 §5.3.3 initial hash value H(0).
    std::uint32_t h_[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                           0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
    std::uint64_t length_ = 0;  ///< bytes absorbed in total
    std::uint8_t block_[64]{};  ///< the incomplete block: length_ % 64 bytes are valid
};

/// The SHA-256 implementations keel carries (for tests, fuzzing and benchmarks; normal callers
/// use the functions above, which run the fastest available one).
enum class Sha256Backend : std::uint8_t {
    shani,    ///< x86 SHA extensions (needs CPUID sha + sse4.1)
    openssl,  ///< OpenSSL libcrypto's low-level SHA-256
};

/// True when this CPU can run `backend`.
bool sha256_backend_available(Sha256Backend backend) noexcept;

/// The backend the functions above use, chosen once at start-up.
Sha256Backend sha256_active_backend() noexcept;

/// "shani" or "openssl".
const char* sha256_backend_name(Sha256Backend backend) noexcept;

/// The name of sha256_active_backend(), e.g. for `keel version`.
const char* sha256_backend_name() noexcept;

/// sha256() with a given backend; `backend` must be available (asserted).
Hash32 sha256_with(Sha256Backend backend, BytesView data) noexcept;

/// sha256_64() with a given backend; `backend` must be available (asserted).
void sha256_64_with(Sha256Backend backend, const std::uint8_t* in, std::uint8_t* out) noexcept;

/// sha256_64_many() with a given backend; `backend` must be available (asserted).
void sha256_64_many_with(Sha256Backend backend, const std::uint8_t* in, std::uint8_t* out,
                         std::size_t n) noexcept;

/// True when this CPU (and OS) can run the 16-lane AVX-512F kernel: CPUID avx512f, with the ZMM
/// state enabled in XCR0.
bool sha256_x16_available() noexcept;

/// Fewest messages worth one 16-lane kernel call: a call costs about as much as eight SHA-NI
/// hashes, so from eight on the kernel wins even with lanes idle.
inline constexpr std::size_t kSha256X16MinMessages = 8;

/// sha256_64_many() on the 16-lane AVX-512F kernel (sha256_x16.cpp): sixteen messages per kernel
/// call, one per 32-bit lane; a last n % 16 of at least kSha256X16MinMessages in one more call
/// with lanes idle, fewer on sha256_active_backend(). Same contract as sha256_64_many() (`out`
/// may equal `in`); needs sha256_x16_available() (asserted).
void sha256_64_many_x16(const std::uint8_t* in, std::uint8_t* out, std::size_t n) noexcept;

/// True when sha256_64_many() runs sha256_64_many_x16() (chosen once at start-up: wherever
/// sha256_x16_available(), because it measured faster than SHA-NI; see sha256_bench.cpp).
bool sha256_64_many_uses_x16() noexcept;

}  // namespace keel::crypto
