#pragma once
/// ECDSA public-key recovery as Ethereum uses it, and the process-wide signature algorithm.
///
/// An Ethereum signature is (r, s, y parity) over a 32-byte message hash; the signer's address is
/// the last 20 bytes of keccak256(x || y) of the recovered public key (Yellow Paper, Appendix F).
/// Public mainnet uses secp256k1; private networks may run on secp256r1 (NIST P-256), as Besu
/// allows. The curve is a process-wide choice (DESIGN.md §4.3): made once at start-up with
/// set_signature_algorithm() (from `--signature-algorithm`), then only read, as a plain pointer,
/// by every recovery. Both curves' own functions are in secp256k1.hpp and secp256r1.hpp.
///
/// Recovery follows SEC 1 v2 §4.1.6 (https://www.secg.org/sec1-v2.pdf): R is the curve point
/// with x = r (+ n when bit 1 of the recovery id is set) and the y parity of bit 0, and the key is
/// Q = r^-1 (sR - eG). Values are checked before any curve arithmetic: r and s must lie in
/// [1, n-1] (SEC 1 §4.1.4 step 1). The "low s" rule of EIP-2 (s <= n/2) is a transaction-validity
/// rule, not part of recovery: see is_low_s().
///
/// Every function here is thread-safe (after start-up), allocation-free on the recovery path and
/// noexcept; failures are crypto::Errc values (errors.hpp).

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

#include "keel/common/bytes.hpp"
#include "keel/common/result.hpp"
#include "keel/common/uint256.hpp"
#include "keel/crypto/errors.hpp"

namespace keel::crypto {

/// An uncompressed public key without its 0x04 prefix: x || y, 32 big-endian bytes each.
using PublicKey = FixedBytes<64>;

/// A signature with the id that selects R among the candidates (SEC 1 §4.1.6): bit 0 is the
/// parity of R.y, bit 1 says R.x = r + n. Ethereum transactions carry only bit 0 (y parity).
struct RecoverableSignature {
    Uint256 r;                     ///< x of R, reduced mod n
    Uint256 s;                     ///< the proof scalar
    std::uint8_t recovery_id = 0;  ///< 0-3 (bit 0: R.y parity; bit 1: R.x = r + n)

    friend constexpr bool operator==(const RecoverableSignature&,
                                     const RecoverableSignature&) = default;
};

/// One item of a batch recovery: the signed 32-byte hash and the signature over it.
struct RecoverInput {
    Hash32 msg;                    ///< the 32-byte hash that was signed
    Uint256 r;                     ///< signature r
    Uint256 s;                     ///< signature s
    std::uint8_t recovery_id = 0;  ///< 0-3; Ethereum's y parity is 0 or 1
};

/// The Ethereum address of a public key: keccak256(x || y)[12..32) (Yellow Paper, Appendix F).
Address public_key_to_address(const PublicKey& key) noexcept;

/// The curves keel can recover signatures on.
enum class SignatureAlgorithm : std::uint8_t {
    secp256k1,  ///< SEC 2 §2.4.1; Ethereum mainnet and every public network (the default)
    secp256r1,  ///< NIST P-256 (SEC 2 §2.4.2); private networks, as Besu's `ecCurve` option
};

/// "secp256k1" or "secp256r1".
std::string_view signature_algorithm_name(SignatureAlgorithm a) noexcept;

/// Parses a `--signature-algorithm` value: "secp256k1" or "secp256r1", ASCII case-insensitive
/// (Besu's genesis `ecCurve` spells them in capitals). std::nullopt for anything else.
std::optional<SignatureAlgorithm> parse_signature_algorithm(std::string_view name) noexcept;

/// One curve's operations, as plain function pointers. The active scheme is read through one
/// pointer per call (no lock, no lookup); a batch reads it once.
struct SignatureScheme {
    SignatureAlgorithm algorithm;  ///< which curve
    std::string_view name;         ///< signature_algorithm_name(algorithm)
    Uint256 order;                 ///< the group order n
    Uint256 half_order;            ///< floor(n / 2): the EIP-2 bound for s

    /// The signer's public key; see secp256k1::recover_public_key.
    Result<PublicKey, SigError> (*recover_public_key)(const Hash32& msg, const Uint256& r,
                                                      const Uint256& s,
                                                      std::uint8_t recovery_id) noexcept;
    /// The signer's address; see secp256k1::recover_address.
    Result<Address, SigError> (*recover_address)(const Hash32& msg, const Uint256& r,
                                                 const Uint256& s,
                                                 std::uint8_t recovery_id) noexcept;
    /// Signs a 32-byte hash (tests and tools; low s); see secp256k1::sign_recoverable.
    Result<RecoverableSignature, SigError> (*sign_recoverable)(const Hash32& msg,
                                                               const Bytes32& secret) noexcept;
    /// The public key of a secret key.
    Result<PublicKey, SigError> (*public_key_of)(const Bytes32& secret) noexcept;
};

/// The scheme of one curve (a static object; valid for the life of the process).
const SignatureScheme& signature_scheme(SignatureAlgorithm a) noexcept;

/// Chooses the process-wide curve. Call it once at start-up, before any thread recovers a
/// signature: it is a plain write, not synchronised with readers. The default, without a call, is
/// secp256k1. Tests that switch it must restore the previous value before they return (see
/// ScopedSignatureAlgorithm in signature_test.cpp).
void set_signature_algorithm(SignatureAlgorithm a) noexcept;

/// The process-wide curve.
SignatureAlgorithm signature_algorithm() noexcept;

/// The process-wide curve's scheme.
const SignatureScheme& signature_scheme() noexcept;

/// Recovers the signer's public key on the process-wide curve (SEC 1 §4.1.6).
/// Errors: invalid_r, invalid_s, invalid_recovery_id, no_public_key.
[[nodiscard]] Result<PublicKey, SigError> recover_public_key(const Hash32& msg, const Uint256& r,
                                                             const Uint256& s,
                                                             std::uint8_t recovery_id) noexcept;

/// Recovers the signer's address on the process-wide curve: keccak256 of the recovered key's
/// x || y, last 20 bytes. Errors as recover_public_key().
[[nodiscard]] Result<Address, SigError> recover_address(const Hash32& msg, const Uint256& r,
                                                        const Uint256& s,
                                                        std::uint8_t recovery_id) noexcept;

/// Recovers every item of `in` into the same position of `out` (sizes must match; asserted), on
/// the process-wide curve, spread over the oneTBB pool in chunks of several signatures (one
/// recovery costs tens of microseconds, so the per-chunk scheduling cost is well under 1%).
/// Returns when all are done. Small batches run on the calling thread.
void recover_addresses(std::span<const RecoverInput> in,
                       std::span<Result<Address, SigError>> out) noexcept;

/// True when s <= n/2 on the process-wide curve: the EIP-2 rule for transaction signatures
/// (https://eips.ethereum.org/EIPS/eip-2), which makes a signature's (r, s) unique.
bool is_low_s(const Uint256& s) noexcept;

}  // namespace keel::crypto
