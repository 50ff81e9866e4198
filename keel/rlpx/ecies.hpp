#pragma once
/// ECIES as devp2p uses it (RLPx handshake, https://github.com/ethereum/devp2p/blob/master/rlpx.md
/// "ECIES Encryption"; go-ethereum crypto/ecies with ECIES_AES128_SHA256):
///
///   R = r * G for a fresh ephemeral key r;  z = x of r * K_B (32 bytes, unhashed);
///   K = concat-KDF-SHA256(z, 32);  kE = K[0..16);  kM = SHA-256(K[16..32));
///   c = AES-128-CTR(kE, iv, m);  d = HMAC-SHA256(kM, iv || c || shared_mac_data);
///   packet = 0x04 || R.x || R.y || iv || c || d   (113 bytes more than m).
///
/// Decryption checks, in this order: the length, the 0x04 tag, that R is a point on secp256k1
/// (before any ECDH with it: the invalid-curve attack), and the tag (compared in constant time)
/// before anything is decrypted. EIP-8 handshake packets pass their 2-byte size prefix as
/// `shared_mac_data`.
///
/// Every function is thread-safe. The noexcept functions do not allocate except for one OpenSSL
/// cipher context per call; the convenience overloads that return Bytes allocate the result.

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "keel/common/bytes.hpp"
#include "keel/common/result.hpp"
#include "keel/crypto/random.hpp"
#include "keel/crypto/signature.hpp"

namespace keel::rlpx {

/// Bytes an ECIES packet adds to its plaintext: 65 (0x04 || R) + 16 (iv) + 32 (HMAC tag).
inline constexpr std::size_t kEciesOverhead = 65 + 16 + 32;

/// Offset of the ciphertext in a packet (after 0x04 || R || iv); plaintext byte i is at
/// kEciesCiphertextOffset + i (CTR mode keeps positions).
inline constexpr std::size_t kEciesCiphertextOffset = 65 + 16;

/// What was wrong with an ECIES packet or with the keys given to encrypt one. The offset of an
/// EciesError counts bytes of the ECIES packet (0 for key errors of ecies_encrypt).
enum class EciesErrc : std::uint8_t {
    too_short,           ///< fewer than kEciesOverhead bytes; offset: the end of the packet
    bad_key_prefix,      ///< the first byte is not 0x04 (uncompressed R); offset 0
    invalid_public_key,  ///< R (decrypt; offset 1) or the recipient key (encrypt) is not a point
                         ///< on secp256k1
    bad_mac,             ///< the HMAC-SHA256 tag does not match; offset: the tag
    invalid_secret_key,  ///< our secret key (decrypt) or the ephemeral key (encrypt) is zero or
                         ///< not below the curve order; offset 0
    random_failed,       ///< getrandom(2) failed while drawing the ephemeral key or iv; offset 0
    cipher_failed,       ///< OpenSSL's AES-128-CTR failed (an environment failure); offset 0
};

/// A short phrase for the code, e.g. "ECIES message authentication code does not match".
std::string_view describe(EciesErrc e) noexcept;

/// An ECIES error: the code and the byte offset in the packet. keel::to_string() gives
/// "<phrase> at offset <n>".
using EciesError = InputError<EciesErrc>;

/// The random inputs of one encryption, drawn by random_ecies_inputs() or fixed by a test.
struct EciesRandom {
    Bytes32 ephemeral_secret;  ///< r: a valid secp256k1 secret key
    FixedBytes<16> iv;         ///< the initial AES-CTR counter block
};

/// Fresh inputs from getrandom(2): a valid secret key and a random iv.
[[nodiscard]] Result<EciesRandom, crypto::RandomError> random_ecies_inputs() noexcept;

/// The NIST SP 800-56A (rev. 1, §5.8.1) concatenation KDF with SHA-256 and no OtherInfo:
/// out = SHA-256(be32(1) || z) || SHA-256(be32(2) || z) || ..., cut to out.size() bytes.
void concat_kdf_sha256(BytesView z, MutableBytesView out) noexcept;

/// The two keys ECIES derives from an ECDH x: kE (AES-128) and kM (HMAC-SHA256).
struct EciesKeys {
    FixedBytes<16> enc;  ///< K[0..16)
    Hash32 mac;          ///< SHA-256(K[16..32))
};

/// concat_kdf_sha256(shared_x, 32), split and hashed as above.
EciesKeys ecies_keys(const Bytes32& shared_x) noexcept;

/// Writes the packet for `plaintext` to `out`, which must be exactly plaintext.size() +
/// kEciesOverhead bytes (asserted) and must not overlap `plaintext`. Errors (offset 0):
/// invalid_secret_key (random.ephemeral_secret), invalid_public_key (remote), cipher_failed.
/// On failure `out` is partly written and must not be sent.
[[nodiscard]] Result<void, EciesError> ecies_encrypt_to(const crypto::PublicKey& remote,
                                                        BytesView plaintext,
                                                        BytesView shared_mac_data,
                                                        const EciesRandom& random,
                                                        MutableBytesView out) noexcept;

/// As ecies_encrypt_to(), into a new buffer.
[[nodiscard]] Result<Bytes, EciesError> ecies_encrypt(const crypto::PublicKey& remote,
                                                      BytesView plaintext,
                                                      BytesView shared_mac_data,
                                                      const EciesRandom& random);

/// As ecies_encrypt(), with fresh random inputs; also random_failed.
[[nodiscard]] Result<Bytes, EciesError> ecies_encrypt(const crypto::PublicKey& remote,
                                                      BytesView plaintext,
                                                      BytesView shared_mac_data);

/// Plaintext size of an ECIES packet of `packet_size` bytes (0 when shorter than the overhead).
constexpr std::size_t ecies_plaintext_size(std::size_t packet_size) noexcept {
    return packet_size < kEciesOverhead ? 0 : packet_size - kEciesOverhead;
}

/// Authenticates and decrypts `packet` with our `secret` into `out`, which must hold at least
/// ecies_plaintext_size(packet.size()) bytes (asserted once the length is checked) and must not
/// overlap `packet`; returns the plaintext size. Errors: too_short, bad_key_prefix,
/// invalid_public_key, invalid_secret_key, bad_mac, cipher_failed (see EciesErrc for offsets).
/// On failure nothing has been written to `out` except with cipher_failed.
[[nodiscard]] Result<std::size_t, EciesError> ecies_decrypt_to(const Bytes32& secret,
                                                               BytesView packet,
                                                               BytesView shared_mac_data,
                                                               MutableBytesView out) noexcept;

/// As ecies_decrypt_to(), into a new buffer.
[[nodiscard]] Result<Bytes, EciesError> ecies_decrypt(const Bytes32& secret, BytesView packet,
                                                      BytesView shared_mac_data);

}  // namespace keel::rlpx
