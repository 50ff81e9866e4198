#pragma once
/// Keccak-256 as Ethereum uses it: the Keccak[c=512] sponge with the original Keccak padding
/// (pad10*1 with domain byte 0x01), rate 136 bytes, 32-byte output. This is NOT FIPS 202 SHA3-256,
/// which appends the domain bits 01 (first padding byte 0x06).
///
/// Spec: FIPS 202 (https://nvlpubs.nist.gov/nistpubs/FIPS/NIST.FIPS.202.pdf) §3 for
/// Keccak-p[1600, 24] = Keccak-f[1600], §4 for the sponge and §5.1 for pad10*1; the Ethereum
/// variant is the Keccak submission (https://keccak.team/files/Keccak-submission-3.pdf), which
/// pads with 0x01 ... 0x80.
///
/// The permutation is chosen once per process at start-up (an AVX-512 single-state
/// implementation where the CPU and OS support it, otherwise a scalar one that uses BMI1/BMI2 when
/// available); every function here is thread-safe and allocation-free.

#include <cstddef>
#include <cstdint>
#include <span>

#include "keel/common/bytes.hpp"

namespace keel::crypto {

/// Applies Keccak-f[1600] (FIPS 202 §3.3, 24 rounds of θ ρ π χ ι) in place. Lane i of `state`
/// is A[x, y] with i = x + 5y (FIPS 202 §3.1.2), each lane a native little-endian 64-bit word.
void keccak_f1600(std::uint64_t state[25]) noexcept;

/// Keccak-256 of `data` (Ethereum's hash: 0x01 padding, not SHA3-256).
Hash32 keccak256(BytesView data) noexcept;

/// Keccak-256 of each message: out[i] = keccak256(in[i]). `out.size()` must equal `in.size()`
/// (asserted) and `out` must not overlap any input's bytes (digests are written while later
/// messages are still being read).
///
/// Where the CPU supports AVX-512F (chosen once per process, with the other backends) the
/// messages are hashed eight at a time, one independent Keccak-f[1600] state per 64-bit element
/// of the ZMM registers; a slot that finishes its message takes the next one, so messages of
/// any mix of lengths keep all eight busy until the last few. Without AVX-512F, one keccak256()
/// per message. For throughput on many short messages (transaction hashes, trie nodes); for
/// one message it is no faster than keccak256(). Allocation-free and thread-safe.
void keccak256_many(std::span<const BytesView> in, std::span<Hash32> out) noexcept;

/// Incremental Keccak-256.
///
/// Trivially copyable (208 bytes: the 25-lane state plus the position in the current block; input
/// bytes are XORed straight into the state, there is no separate block buffer), so a caller such as
/// an RLPx MAC can copy a running hash and continue both copies independently. Not thread-safe:
/// one object per thread, or external locking.
class Keccak256 {
  public:
    /// Bytes absorbed per permutation (the sponge rate r = 1600 - 2*256 bits).
    static constexpr std::size_t kRate = 136;

    /// An empty hash, ready for update().
    Keccak256() noexcept = default;

    /// Absorbs `data`; any split of a message into update() calls gives the same digest.
    void update(BytesView data) noexcept;

    /// Digest of everything absorbed so far. Does not change this object: more update() calls
    /// may follow, and a later finalize() covers all of them.
    [[nodiscard]] Hash32 finalize() const noexcept;

    /// As finalize(), writing the 32-byte digest to `out32` (which must hold 32 bytes).
    void finalize_to(std::uint8_t* out32) const noexcept;

    /// Forgets all input: back to the state of a new object.
    void reset() noexcept { *this = Keccak256{}; }

  private:
    std::uint64_t state_[25]{};
    std::size_t pos_ = 0;  ///< bytes of the current (incomplete) block already XORed into state_
};

/// The Keccak-f[1600] implementations keel carries. The process uses the fastest one the CPU
/// supports (keccak_active_backend()); the others exist for tests, fuzzing and benchmarks.
enum class KeccakBackend : std::uint8_t {
    portable,  ///< scalar C++ for any 64-bit target
    bmi2,      ///< the scalar code compiled for BMI1/BMI2 (andn, rorx)
    avx512,    ///< one state in five ZMM registers (AVX-512F)
};

/// True when this CPU (and OS) can run `backend`.
bool keccak_backend_available(KeccakBackend backend) noexcept;

/// The implementation keccak_f1600(), keccak256() and Keccak256 use, chosen once at start-up.
KeccakBackend keccak_active_backend() noexcept;

/// "portable", "bmi2" or "avx512".
const char* keccak_backend_name(KeccakBackend backend) noexcept;

/// The name of keccak_active_backend(), e.g. for `keel version`.
const char* keccak_backend_name() noexcept;

/// keccak_f1600() with a given implementation; `backend` must be available (asserted).
void keccak_f1600_with(KeccakBackend backend, std::uint64_t state[25]) noexcept;

/// keccak256() with a given implementation; `backend` must be available (asserted).
Hash32 keccak256_with(KeccakBackend backend, BytesView data) noexcept;

/// keccak256_many() with a given implementation; `backend` must be available (asserted).
/// KeccakBackend::avx512 selects the eight-state code; the others hash one message at a time.
void keccak256_many_with(KeccakBackend backend, std::span<const BytesView> in,
                         std::span<Hash32> out) noexcept;

}  // namespace keel::crypto
