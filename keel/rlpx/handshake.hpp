#pragma once
/// The RLPx v4 handshake in its EIP-8 form (https://eips.ethereum.org/EIPS/eip-8; devp2p
/// rlpx.md "Initial Handshake"), and the session secrets it yields.
///
///   auth = size || ECIES(K_B, rlp([sig, K_A, nonce_A, 4, ...]) || padding, size)
///   ack  = size || ECIES(K_A, rlp([E_B, nonce_B, 4, ...]) || padding, size)
///
/// `size` is the 2-byte big-endian length of the ECIES packet after it, and also ECIES's
/// shared_mac_data. sig is the initiator's ephemeral key signing ECDH-x(k_A, K_B) XOR nonce_A, so
/// the recipient recovers the initiator's ephemeral public key E_A from it. Decoders accept extra
/// list elements and any version (EIP-8 forward compatibility), refuse the pre-EIP-8 fixed-size
/// packets (307-byte auth, 210-byte ack) and any size prefix above 2048 (as go-ethereum).
///
/// Secrets (rlpx.md "Secrets"), with ecdhe = ECDH-x(own ephemeral, remote ephemeral):
///   shared = keccak(ecdhe || keccak(nonce_B || nonce_A));  aes = keccak(ecdhe || shared);
///   mac = keccak(ecdhe || aes);
///   egress MAC = keccak state over (mac ^ remote nonce) || the packet we sent;
///   ingress MAC = keccak state over (mac ^ own nonce) || the packet we received;
/// packets including their size prefix.
///
/// Errors are HandshakeError values whose offset counts bytes of the whole packet, size prefix
/// included; an error inside the decrypted body is reported at the position of the ciphertext byte
/// that carried it (kBodyOffset + offset in the body). Decoders are noexcept; functions that build
/// packets allocate them. A Handshake is used by one thread at a time.

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string_view>

#include "keel/common/bytes.hpp"
#include "keel/common/result.hpp"
#include "keel/crypto/keccak.hpp"
#include "keel/crypto/signature.hpp"
#include "keel/rlpx/ecies.hpp"

namespace keel::rlpx {

/// The largest size prefix accepted: handshake packets are capped at 2 KiB of ECIES data
/// (go-ethereum p2p/rlpx: "message too big" above 2048).
inline constexpr std::size_t kMaxHandshakeSize = 2048;
/// Bytes of the big-endian size prefix.
inline constexpr std::size_t kHandshakePrefixSize = 2;
/// Where the encrypted body starts in a packet: after the size prefix, 0x04 || R and the iv.
inline constexpr std::size_t kBodyOffset = kHandshakePrefixSize + kEciesCiphertextOffset;
/// The version this side writes (EIP-8: "version = 4"; any version is accepted).
inline constexpr std::uint64_t kHandshakeVersion = 4;
/// Fewest bytes of random padding after the body of our packets (EIP-8 asks for "at least 100
/// bytes of junk data", so that no EIP-8 packet has a pre-EIP-8 size).
inline constexpr std::size_t kMinPadding = 100;
/// Most bytes of padding: the length is drawn at random from [kMinPadding, kMaxPadding].
inline constexpr std::size_t kMaxPadding = 300;
/// Sizes of the pre-EIP-8 packets (plain ECIES, no prefix), refused with pre_eip8.
inline constexpr std::size_t kLegacyAuthSize = 307;
inline constexpr std::size_t kLegacyAckSize = 210;

/// What was wrong with a handshake packet, or why one could not be made.
enum class HandshakeErrc : std::uint8_t {
    truncated,             ///< fewer bytes than the size prefix announces (or than the prefix
                           ///< itself); offset: the end of the input
    trailing_bytes,        ///< bytes after the packet its size prefix announces; offset: the first
    too_large,             ///< the size prefix is above kMaxHandshakeSize; offset 0
    too_small,             ///< the size prefix is below the ECIES overhead (113); offset 0
    pre_eip8,              ///< a pre-EIP-8 packet (307-byte auth or 210-byte ack); offset 0
    bad_key_prefix,        ///< the ECIES packet does not start with 0x04; offset 2
    invalid_ecies_key,     ///< the ECIES ephemeral key R is not a point on secp256k1; offset 3
    bad_mac,               ///< the ECIES tag does not match; offset: the tag
    not_a_list,            ///< the decrypted body does not start with an RLP list (or with valid
                           ///< RLP); offset: its first byte
    bad_rlp,               ///< the body's list is not canonical RLP; offset: the item at fault
    bad_signature_field,   ///< auth: the signature is missing or not 65 bytes; offset: the field
    bad_public_key_field,  ///< the public key is missing or not 64 bytes; offset: the field
    bad_nonce_field,       ///< the nonce is missing or not 32 bytes; offset: the field
    bad_version_field,     ///< the version is missing or not an integer below 2^64
    invalid_public_key,    ///< the message's public key is not a point on secp256k1; offset: the
                           ///< field (for a Handshake's remote id: 0)
    invalid_signature,     ///< auth: the signature recovers no public key; offset: the body
    invalid_secret_key,    ///< one of our keys is zero or not below the curve order; offset 0
    random_failed,         ///< getrandom(2) (or the injected source) failed; offset 0
    cipher_failed,         ///< OpenSSL's AES failed (an environment failure); offset 0
};

/// A short phrase for the code, e.g. "handshake size prefix is above 2048".
std::string_view describe(HandshakeErrc e) noexcept;

/// A handshake error: the code and the byte offset in the packet (see HandshakeErrc).
/// keel::to_string() gives "<phrase> at offset <n>".
using HandshakeError = InputError<HandshakeErrc>;

/// The total size (prefix included) of the packet whose first bytes are `head`, for a reader that
/// reads incrementally: read 2 bytes, then this many in all. Errors: truncated (fewer than 2
/// bytes), too_large, too_small. A pre-EIP-8 peer's first bytes (0x04 ...) read as a size of
/// 1024-1279, so such a peer is noticed only when it stops sending: callers need a timeout.
[[nodiscard]] Result<std::size_t, HandshakeError> handshake_packet_size(BytesView head) noexcept;

/// The auth message's fields (EIP-8: [sig, initiator-pubk, initiator-nonce, auth-vsn, ...]).
struct AuthMessage {
    FixedBytes<65> signature;        ///< r || s || recovery id (0 or 1)
    crypto::PublicKey initiator_id;  ///< the initiator's static public key
    Bytes32 nonce;                   ///< the initiator's nonce
    std::uint64_t version = kHandshakeVersion;
    Bytes rest;  ///< the encoded list elements after the version (ignored; kept for tests)
};

/// The ack message's fields (EIP-8: [recipient-ephemeral-pubk, recipient-nonce, ack-vsn, ...]).
struct AckMessage {
    crypto::PublicKey ephemeral_key;  ///< the recipient's ephemeral public key
    Bytes32 nonce;                    ///< the recipient's nonce
    std::uint64_t version = kHandshakeVersion;
    Bytes rest;  ///< the encoded list elements after the version (ignored; kept for tests)
};

/// RLP of the auth list (no padding): the fields, then `rest` as raw encoded items.
Bytes encode_auth_body(const AuthMessage& m);
/// RLP of the ack list (no padding).
Bytes encode_ack_body(const AckMessage& m);

/// The auth message in a decrypted body (an RLP list followed by padding, which is ignored).
/// Errors: not_a_list, bad_rlp, bad_signature_field, bad_public_key_field, bad_nonce_field,
/// bad_version_field, invalid_public_key (not on the curve); offsets start at `base_offset`.
[[nodiscard]] Result<AuthMessage, HandshakeError> decode_auth_body(
    BytesView body, std::size_t base_offset = 0) noexcept;
/// The ack message in a decrypted body. Errors as decode_auth_body() (no signature).
[[nodiscard]] Result<AckMessage, HandshakeError> decode_ack_body(
    BytesView body, std::size_t base_offset = 0) noexcept;

/// Builds a packet: size prefix || ECIES(remote, body || padding, size prefix).
/// Errors: too_large (body + padding + 113 above kMaxHandshakeSize), and the ECIES errors
/// mapped to invalid_secret_key, invalid_public_key, cipher_failed.
[[nodiscard]] Result<Bytes, HandshakeError> seal_handshake_packet(const crypto::PublicKey& remote,
                                                                  BytesView body, BytesView padding,
                                                                  const EciesRandom& random);

/// Checks the size prefix against the input and decrypts a packet with our static `secret`,
/// returning the body (list and padding). Errors: pre_eip8 (`legacy_size` bytes starting with
/// 0x04), truncated, too_large, too_small, trailing_bytes, bad_key_prefix, invalid_ecies_key,
/// bad_mac, invalid_secret_key, cipher_failed.
[[nodiscard]] Result<Bytes, HandshakeError> open_handshake_packet(const Bytes32& secret,
                                                                  BytesView packet,
                                                                  std::size_t legacy_size) noexcept;

/// open_handshake_packet() and decode_auth_body() (offsets in the packet).
[[nodiscard]] Result<AuthMessage, HandshakeError> read_auth_packet(const Bytes32& secret,
                                                                   BytesView packet) noexcept;
/// open_handshake_packet() and decode_ack_body() (offsets in the packet).
[[nodiscard]] Result<AckMessage, HandshakeError> read_ack_packet(const Bytes32& secret,
                                                                 BytesView packet) noexcept;

/// Which end of the connection a side is.
enum class Role : std::uint8_t { initiator, recipient };

/// What a session needs after the handshake: the frame secrets and the MAC states.
struct Secrets {
    Bytes32 aes;                    ///< AES-256-CTR key of the frame codec
    Bytes32 mac;                    ///< MAC secret (AES-256-ECB key of the MAC step)
    crypto::Keccak256 egress_mac;   ///< seeded with (mac ^ remote nonce) || sent packet
    crypto::Keccak256 ingress_mac;  ///< seeded with (mac ^ own nonce) || received packet
    crypto::PublicKey remote_id;    ///< the peer's static public key (its node id)
};

/// Everything the secrets derive from.
struct SecretsInput {
    Role role = Role::initiator;  ///< our end
    Bytes32 ecdhe;                ///< ECDH-x(own ephemeral secret, remote ephemeral key)
    Bytes32 initiator_nonce;
    Bytes32 recipient_nonce;
    BytesView auth_packet;  ///< the whole auth packet, size prefix included
    BytesView ack_packet;   ///< the whole ack packet, size prefix included
    crypto::PublicKey remote_id;
};

/// The secrets as rlpx.md "Secrets" defines them (see the top of this file).
Secrets derive_secrets(const SecretsInput& in) noexcept;

/// Fills its argument with random bytes; false on failure. Handshakes draw their ephemeral key,
/// nonce, padding and ECIES inputs from one; tests inject a deterministic one.
using RandomSource = std::function<bool(MutableBytesView)>;

/// The operating system's source: crypto::random_bytes (getrandom(2)).
bool os_random(MutableBytesView out) noexcept;

/// One side of one handshake, driven by a session:
///   initiator: make_auth() -> send; receive -> read_ack(); secrets()
///   recipient: receive -> read_auth(); make_ack() -> send; secrets()
/// Calls out of this order are programming errors (asserted). A failed read leaves the object as
/// it was; the session then closes the connection.
class Handshake {
  public:
    /// The side that dials `remote_id`, with a fresh ephemeral key and nonce from `random`.
    /// Errors: invalid_secret_key (static_secret), invalid_public_key (remote_id, offset 0),
    /// random_failed.
    [[nodiscard]] static Result<Handshake, HandshakeError> initiator(
        const Bytes32& static_secret, const crypto::PublicKey& remote_id,
        RandomSource random = os_random);
    /// As above with a given ephemeral key and nonce (tests, deterministic vectors).
    [[nodiscard]] static Result<Handshake, HandshakeError> initiator(
        const Bytes32& static_secret, const crypto::PublicKey& remote_id,
        const Bytes32& ephemeral_secret, const Bytes32& nonce, RandomSource random = os_random);
    /// The side that accepts a connection. Errors: invalid_secret_key, random_failed.
    [[nodiscard]] static Result<Handshake, HandshakeError> recipient(
        const Bytes32& static_secret, RandomSource random = os_random);
    /// As above with a given ephemeral key and nonce.
    [[nodiscard]] static Result<Handshake, HandshakeError> recipient(
        const Bytes32& static_secret, const Bytes32& ephemeral_secret, const Bytes32& nonce,
        RandomSource random = os_random);

    /// Initiator, first call: the auth packet to send (kept for the MAC seeds). Errors:
    /// random_failed, cipher_failed.
    [[nodiscard]] Result<Bytes, HandshakeError> make_auth();
    /// Recipient, first call: checks and records the peer's auth packet (exactly one packet, as
    /// handshake_packet_size() delimits it). Errors: those of read_auth_packet(),
    /// invalid_signature.
    [[nodiscard]] Result<void, HandshakeError> read_auth(BytesView packet);
    /// Recipient, after read_auth(): the ack packet to send; the handshake is then done.
    /// Errors: random_failed, cipher_failed.
    [[nodiscard]] Result<Bytes, HandshakeError> make_ack();
    /// Initiator, after make_auth(): checks the peer's ack packet; the handshake is then done.
    /// Errors: those of read_ack_packet().
    [[nodiscard]] Result<void, HandshakeError> read_ack(BytesView packet);

    /// Our end.
    Role role() const noexcept { return role_; }
    /// True once both packets have been exchanged.
    bool done() const noexcept { return state_ == State::done; }
    /// The peer's static public key (initiator: from the start; recipient: after read_auth()).
    const crypto::PublicKey& remote_id() const noexcept { return remote_id_; }
    /// The version number the peer wrote (after its packet was read).
    std::uint64_t remote_version() const noexcept { return remote_version_; }
    /// The session secrets; asserts done().
    Secrets secrets() const noexcept;

  private:
    enum class State : std::uint8_t { start, sent_auth, got_auth, done };

    Handshake() = default;
    [[nodiscard]] static Result<Handshake, HandshakeError> make(
        Role role, const Bytes32& static_secret, const crypto::PublicKey* remote_id,
        const Bytes32* ephemeral_secret, const Bytes32* nonce, RandomSource random);
    [[nodiscard]] Result<Bytes, HandshakeError> seal(BytesView body);

    Role role_ = Role::initiator;
    State state_ = State::start;
    Bytes32 static_secret_;
    Bytes32 ephemeral_secret_;
    Bytes32 nonce_;
    crypto::PublicKey remote_id_;
    crypto::PublicKey remote_ephemeral_;
    Bytes32 remote_nonce_;
    std::uint64_t remote_version_ = 0;
    Bytes auth_packet_;
    Bytes ack_packet_;
    RandomSource random_;
};

}  // namespace keel::rlpx
