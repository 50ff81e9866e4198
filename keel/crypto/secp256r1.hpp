#pragma once
/// ECDSA on secp256r1 (NIST P-256, SEC 2 v2 §2.4.2, https://www.secg.org/sec2-v2.pdf) through
/// OpenSSL 3, for private networks that sign transactions on P-256 (as Besu's `ecCurve`).
///
/// Public-key recovery is not an OpenSSL primitive: keel builds it from OpenSSL's EC_POINT and
/// BIGNUM arithmetic (SEC 1 v2 §4.1.6): R = the point with x = r (+ n when bit 1 of the recovery
/// id is set) and y parity = bit 0, e = the hash as an integer, Q = r^-1 (sR - eG), computed as
/// one double multiplication u1 G + u2 R with u1 = -e r^-1 and u2 = s r^-1 (mod n). The address
/// is keccak256(x || y)[12..32), as on secp256k1 (and as Besu derives it).
///
/// The curve group (OpenSSL's P-256 implementation, with its fixed-base table for G) is set up
/// once per process during static initialisation and only read afterwards. Each thread keeps its
/// own BIGNUM/EC_POINT scratch (allocated on its first recovery), so keel allocates nothing per
/// recovery; OpenSSL itself still makes about 7 small allocations inside point decompression and
/// EC_POINT_mul (measured with OpenSSL 3.0: well under 1% of the ~100 us a recovery takes),
/// which its public API cannot avoid. Every function here is thread-safe and noexcept.

#include <cstdint>

#include "keel/common/bytes.hpp"
#include "keel/common/result.hpp"
#include "keel/common/uint256.hpp"
#include "keel/crypto/signature.hpp"

namespace keel::crypto::secp256r1 {

/// The group order n.
inline constexpr Uint256 kOrder = Uint256::from_limbs(0xF3B9CAC2FC632551, 0xBCE6FAADA7179E84,
                                                      0xFFFFFFFFFFFFFFFF, 0xFFFFFFFF00000000);
/// floor(n / 2).
inline constexpr Uint256 kHalfOrder = kOrder >> 1;
/// The field prime p = 2^256 - 2^224 + 2^192 + 2^96 - 1.
inline constexpr Uint256 kPrime = Uint256::from_limbs(0xFFFFFFFFFFFFFFFF, 0x00000000FFFFFFFF,
                                                      0x0000000000000000, 0xFFFFFFFF00000001);

/// Recovers the public key that signed the 32-byte hash `msg` with (r, s, recovery_id)
/// (SEC 1 §4.1.6). Errors, checked in this order: invalid_r (r == 0 or r >= n), invalid_s
/// (s == 0 or s >= n), invalid_recovery_id (> 3), no_public_key (r (+ n) is not below p or is
/// not the x of a curve point, or the result is the point at infinity).
[[nodiscard]] Result<PublicKey, SigError> recover_public_key(const Hash32& msg, const Uint256& r,
                                                             const Uint256& s,
                                                             std::uint8_t recovery_id) noexcept;

/// recover_public_key(), then the address: keccak256(x || y)[12..32).
[[nodiscard]] Result<Address, SigError> recover_address(const Hash32& msg, const Uint256& r,
                                                        const Uint256& s,
                                                        std::uint8_t recovery_id) noexcept;

/// Signs the 32-byte hash `msg` with `secret` through OpenSSL's ECDSA (random nonce), turns s
/// into the low s (EIP-2, as Besu normalises it) and finds the recovery id by recovering each
/// candidate and comparing with the signer's key. For tests and tools; allocates. Error:
/// invalid_secret_key (secret == 0 or secret >= n).
[[nodiscard]] Result<RecoverableSignature, SigError> sign_recoverable(
    const Hash32& msg, const Bytes32& secret) noexcept;

/// ECDSA verification (SEC 1 §4.1.4) of (r, s) over the 32-byte hash `msg` with the public key
/// (x, y): true when r and s are in [1, n-1], (x, y) is a point of the curve (coordinates below
/// p; the point at infinity has no affine form and is refused), and the x of
/// u1 G + u2 Q (u1 = e s^-1, u2 = r s^-1 mod n) is r mod n. High s is accepted. This is
/// EIP-7951's P256VERIFY check.
bool verify(const Hash32& msg, const Uint256& r, const Uint256& s, const Uint256& x,
            const Uint256& y) noexcept;

/// The public key of `secret` (secret * G). Error: invalid_secret_key.
[[nodiscard]] Result<PublicKey, SigError> public_key_of(const Bytes32& secret) noexcept;

/// The address of `secret`. Error: invalid_secret_key.
[[nodiscard]] Result<Address, SigError> address_of(const Bytes32& secret) noexcept;

}  // namespace keel::crypto::secp256r1
