#pragma once
/// ECDSA on secp256k1 (SEC 2 v2 §2.4.1, https://www.secg.org/sec2-v2.pdf) through libsecp256k1:
/// public-key and address recovery for Ethereum signatures, signing for tests, tools and the RLPx
/// handshake, public-key validation and ECDH (SEC 1 v2 §3.3.1) for RLPx's ECIES.
///
/// The process has ONE libsecp256k1 context (DESIGN.md §4.3), created during static
/// initialisation (before other static initialisers, by init_priority) and randomised once with
/// 32 bytes from getrandom(2) (secp256k1_context_randomize: blinding for signing); afterwards it
/// is only read, which libsecp256k1 documents as thread-safe for every function used here.
///
/// Every function here is thread-safe and noexcept; the recovery functions do not allocate.

#include <cstdint>
#include <string_view>

#include "keel/common/bytes.hpp"
#include "keel/common/result.hpp"
#include "keel/common/uint256.hpp"
#include "keel/crypto/random.hpp"
#include "keel/crypto/signature.hpp"

namespace keel::crypto::secp256k1 {

/// The group order n.
inline constexpr Uint256 kOrder = Uint256::from_limbs(0xBFD25E8CD0364141, 0xBAAEDCE6AF48A03B,
                                                      0xFFFFFFFFFFFFFFFE, 0xFFFFFFFFFFFFFFFF);
/// floor(n / 2): the largest s EIP-2 allows in a transaction signature.
inline constexpr Uint256 kHalfOrder = kOrder >> 1;
/// The field prime p = 2^256 - 2^32 - 977.
inline constexpr Uint256 kPrime = Uint256::from_limbs(0xFFFFFFFEFFFFFC2F, 0xFFFFFFFFFFFFFFFF,
                                                      0xFFFFFFFFFFFFFFFF, 0xFFFFFFFFFFFFFFFF);

/// Recovers the public key that signed the 32-byte hash `msg` with (r, s, recovery_id)
/// (SEC 1 §4.1.6). Errors, checked in this order: invalid_r (r == 0 or r >= n), invalid_s
/// (s == 0 or s >= n), invalid_recovery_id (> 3), no_public_key (no point with x = r (+ n), or
/// the result is the point at infinity). High s is accepted (see is_low_s()).
[[nodiscard]] Result<PublicKey, SigError> recover_public_key(const Hash32& msg, const Uint256& r,
                                                             const Uint256& s,
                                                             std::uint8_t recovery_id) noexcept;

/// recover_public_key(), then the address: keccak256(x || y)[12..32).
[[nodiscard]] Result<Address, SigError> recover_address(const Hash32& msg, const Uint256& r,
                                                        const Uint256& s,
                                                        std::uint8_t recovery_id) noexcept;

/// Signs the 32-byte hash `msg` with `secret` (RFC 6979 deterministic nonce, libsecp256k1's
/// default): low s (EIP-2) and a recovery id of 0 or 1 (2 and 3 occur with probability ~2^-128).
/// For tests and tools; a node does not sign transactions. Error: invalid_secret_key
/// (secret == 0 or secret >= n).
[[nodiscard]] Result<RecoverableSignature, SigError> sign_recoverable(
    const Hash32& msg, const Bytes32& secret) noexcept;

/// The public key of `secret` (secret * G). Error: invalid_secret_key.
[[nodiscard]] Result<PublicKey, SigError> public_key_of(const Bytes32& secret) noexcept;

/// The address of `secret`. Error: invalid_secret_key.
[[nodiscard]] Result<Address, SigError> address_of(const Bytes32& secret) noexcept;

/// Why a key or a key agreement was refused (the same type as crypto::Errc: invalid_public_key,
/// invalid_secret_key).
using KeyError = Errc;

/// True when 0 < secret < n.
bool is_valid_secret_key(const Bytes32& secret) noexcept;

/// Checks that the 64 bytes x || y (an uncompressed key without its 0x04 tag) are a point on
/// secp256k1: both coordinates below p and y^2 = x^3 + 7 (SEC 1 v2 §3.2.2.1). The point at
/// infinity has no such encoding. An ECDH with a point off the curve leaks the secret key
/// (invalid-curve attack), so every key from the network goes through this (or parse_public_key)
/// first. Error: invalid_public_key.
[[nodiscard]] Result<void, KeyError> validate_public_key(const PublicKey& key) noexcept;

/// A public key from the wire: 64 bytes x || y, or 65 bytes 0x04 || x || y; validated as
/// validate_public_key() does. Error: invalid_public_key (also for any other length or tag).
[[nodiscard]] Result<PublicKey, KeyError> parse_public_key(BytesView in) noexcept;

/// ECDH (SEC 1 v2 §3.3.1): the x-coordinate of secret * key, 32 big-endian bytes (left-padded
/// with zeros: a short x is never shortened), unhashed, as devp2p's ECIES and RLPx use it.
/// `key` is validated before any multiplication. Errors, in this order: invalid_secret_key,
/// invalid_public_key.
/// The secret is used through libsecp256k1's constant-time multiplication.
[[nodiscard]] Result<Bytes32, KeyError> ecdh_x(const Bytes32& secret,
                                               const PublicKey& key) noexcept;

/// A fresh random secret key (0 < k < n) from getrandom(2), drawing again in the ~2^-128 case
/// that 32 random bytes are not a valid key. Error: the getrandom(2) failure.
[[nodiscard]] Result<Bytes32, RandomError> generate_secret_key() noexcept;

}  // namespace keel::crypto::secp256k1
