#include "keel/rlpx/handshake.hpp"

#include <cstring>
#include <utility>

#include "keel/common/assert.hpp"
#include "keel/common/uint256.hpp"
#include "keel/crypto/random.hpp"
#include "keel/crypto/secp256k1.hpp"
#include "keel/rlp/decode.hpp"
#include "keel/rlp/encode.hpp"

namespace keel::rlpx {

namespace {

namespace secp = crypto::secp256k1;

HandshakeErrc from_ecies(EciesErrc e) noexcept {
    switch (e) {
        case EciesErrc::too_short:
            return HandshakeErrc::too_small;
        case EciesErrc::bad_key_prefix:
            return HandshakeErrc::bad_key_prefix;
        case EciesErrc::invalid_public_key:
            return HandshakeErrc::invalid_ecies_key;
        case EciesErrc::bad_mac:
            return HandshakeErrc::bad_mac;
        case EciesErrc::invalid_secret_key:
            return HandshakeErrc::invalid_secret_key;
        case EciesErrc::random_failed:
            return HandshakeErrc::random_failed;
        case EciesErrc::cipher_failed:
            break;
    }
    return HandshakeErrc::cipher_failed;
}

// The 32-byte XOR a ^ b.
Bytes32 xor32(const Bytes32& a, const Bytes32& b) noexcept {
    Bytes32 out;
    for (std::size_t i = 0; i < 32; ++i) out[i] = a[i] ^ b[i];
    return out;
}

// keccak256(a || b) for two 32-byte values.
Hash32 keccak_pair(const Bytes32& a, const Bytes32& b) noexcept {
    crypto::Keccak256 h;
    h.update(a.view());
    h.update(b.view());
    return h.finalize();
}

// Opens the body's list: the first item of `body` must be a list, canonical throughout (EIP-8
// allows more elements, not malformed ones). Bytes after it are padding.
[[nodiscard]] Result<rlp::Decoder, HandshakeError> open_body(BytesView body,
                                                             std::size_t base) noexcept {
    auto item = rlp::decode_header(body, base);
    if (!item || !item->is_list) return input_error(HandshakeErrc::not_a_list, base);
    if (auto ok = rlp::validate(item->encoded(), rlp::kMaxDepth, base); !ok) {
        return input_error(HandshakeErrc::bad_rlp, ok.error().offset);
    }
    return rlp::Decoder(item->payload, base + item->header_size);
}

// The next field as N bytes; `code` names the field when it is missing or has another shape.
template <std::size_t N>
[[nodiscard]] Result<FixedBytes<N>, HandshakeError> next_field(rlp::Decoder& d,
                                                               HandshakeErrc code) noexcept {
    const std::size_t at = d.offset();
    auto v = d.template next_fixed<N>();
    if (!v) return input_error(code, at);
    return *v;
}

// A public-key field: 64 bytes and a point on the curve.
[[nodiscard]] Result<crypto::PublicKey, HandshakeError> next_public_key(rlp::Decoder& d) noexcept {
    const std::size_t at = d.offset();
    auto key = next_field<64>(d, HandshakeErrc::bad_public_key_field);
    if (!key) return unexpected(key.error());
    if (!secp::validate_public_key(*key)) return input_error(HandshakeErrc::invalid_public_key, at);
    return *key;
}

// The version and the elements after it (EIP-8: both ignored beyond decoding).
[[nodiscard]] Result<void, HandshakeError> read_tail(rlp::Decoder& d, std::uint64_t& version,
                                                     Bytes& rest) {
    const std::size_t at = d.offset();
    auto v = d.next_uint<std::uint64_t>();
    if (!v) return input_error(HandshakeErrc::bad_version_field, at);
    version = *v;
    const BytesView tail = d.remaining();
    rest.assign(tail.begin(), tail.end());
    return {};
}

void put_be16(std::uint8_t* p, std::size_t v) noexcept {
    p[0] = static_cast<std::uint8_t>(v >> 8);
    p[1] = static_cast<std::uint8_t>(v);
}

}  // namespace

std::string_view describe(HandshakeErrc e) noexcept {
    switch (e) {
        case HandshakeErrc::truncated:
            return "handshake packet is shorter than its size prefix says";
        case HandshakeErrc::trailing_bytes:
            return "bytes follow the handshake packet its size prefix announces";
        case HandshakeErrc::too_large:
            return "handshake size prefix is above 2048";
        case HandshakeErrc::too_small:
            return "handshake size prefix is below the 113-byte ECIES overhead";
        case HandshakeErrc::pre_eip8:
            return "pre-EIP-8 handshake packet (legacy fixed-size format) refused";
        case HandshakeErrc::bad_key_prefix:
            return "handshake ECIES packet does not start with 0x04";
        case HandshakeErrc::invalid_ecies_key:
            return "handshake ECIES ephemeral key is not a point on secp256k1";
        case HandshakeErrc::bad_mac:
            return "handshake ECIES message authentication code does not match";
        case HandshakeErrc::not_a_list:
            return "handshake body does not start with an RLP list";
        case HandshakeErrc::bad_rlp:
            return "handshake body list is not canonical RLP";
        case HandshakeErrc::bad_signature_field:
            return "auth signature field is missing or not 65 bytes";
        case HandshakeErrc::bad_public_key_field:
            return "handshake public key field is missing or not 64 bytes";
        case HandshakeErrc::bad_nonce_field:
            return "handshake nonce field is missing or not 32 bytes";
        case HandshakeErrc::bad_version_field:
            return "handshake version field is missing or not an integer below 2^64";
        case HandshakeErrc::invalid_public_key:
            return "handshake public key is not a point on secp256k1";
        case HandshakeErrc::invalid_signature:
            return "auth signature does not recover a public key";
        case HandshakeErrc::invalid_secret_key:
            return "handshake secret key is zero or not below the curve order";
        case HandshakeErrc::random_failed:
            return "handshake could not read random bytes";
        case HandshakeErrc::cipher_failed:
            return "handshake AES failed (OpenSSL)";
    }
    return "unknown handshake error";
}

[[nodiscard]] Result<std::size_t, HandshakeError> handshake_packet_size(BytesView head) noexcept {
    if (head.size() < kHandshakePrefixSize) {
        return input_error(HandshakeErrc::truncated, head.size());
    }
    const std::size_t size = std::size_t{head[0]} << 8 | head[1];
    if (size > kMaxHandshakeSize) return input_error(HandshakeErrc::too_large, 0);
    if (size < kEciesOverhead) return input_error(HandshakeErrc::too_small, 0);
    return kHandshakePrefixSize + size;
}

Bytes encode_auth_body(const AuthMessage& m) {
    rlp::Encoder e;
    const auto list = e.begin_list();
    e.add_string(m.signature.view());
    e.add_string(m.initiator_id.view());
    e.add_string(m.nonce.view());
    e.add_uint(m.version);
    e.add_raw(m.rest);
    e.end_list(list);
    return e.take();
}

Bytes encode_ack_body(const AckMessage& m) {
    rlp::Encoder e;
    const auto list = e.begin_list();
    e.add_string(m.ephemeral_key.view());
    e.add_string(m.nonce.view());
    e.add_uint(m.version);
    e.add_raw(m.rest);
    e.end_list(list);
    return e.take();
}

[[nodiscard]] Result<AuthMessage, HandshakeError> decode_auth_body(
    BytesView body, std::size_t base_offset) noexcept {
    auto d = open_body(body, base_offset);
    if (!d) return unexpected(d.error());
    AuthMessage m;
    auto sig = next_field<65>(*d, HandshakeErrc::bad_signature_field);
    if (!sig) return unexpected(sig.error());
    m.signature = *sig;
    auto key = next_public_key(*d);
    if (!key) return unexpected(key.error());
    m.initiator_id = *key;
    auto nonce = next_field<32>(*d, HandshakeErrc::bad_nonce_field);
    if (!nonce) return unexpected(nonce.error());
    m.nonce = *nonce;
    if (auto ok = read_tail(*d, m.version, m.rest); !ok) return unexpected(ok.error());
    return m;
}

[[nodiscard]] Result<AckMessage, HandshakeError> decode_ack_body(BytesView body,
                                                                 std::size_t base_offset) noexcept {
    auto d = open_body(body, base_offset);
    if (!d) return unexpected(d.error());
    AckMessage m;
    auto key = next_public_key(*d);
    if (!key) return unexpected(key.error());
    m.ephemeral_key = *key;
    auto nonce = next_field<32>(*d, HandshakeErrc::bad_nonce_field);
    if (!nonce) return unexpected(nonce.error());
    m.nonce = *nonce;
    if (auto ok = read_tail(*d, m.version, m.rest); !ok) return unexpected(ok.error());
    return m;
}

[[nodiscard]] Result<Bytes, HandshakeError> seal_handshake_packet(const crypto::PublicKey& remote,
                                                                  BytesView body, BytesView padding,
                                                                  const EciesRandom& random) {
    const std::size_t plain = body.size() + padding.size();
    const std::size_t size = plain + kEciesOverhead;
    if (size > kMaxHandshakeSize) return input_error(HandshakeErrc::too_large, 0);
    Bytes plaintext;
    plaintext.reserve(plain);
    plaintext.insert(plaintext.end(), body.begin(), body.end());
    plaintext.insert(plaintext.end(), padding.begin(), padding.end());
    Bytes packet(kHandshakePrefixSize + size);
    put_be16(packet.data(), size);
    // EIP-8: the size prefix is authenticated as ECIES shared_mac_data.
    const BytesView prefix(packet.data(), kHandshakePrefixSize);
    auto ok = ecies_encrypt_to(remote, plaintext, prefix, random,
                               MutableBytesView(packet).subspan(kHandshakePrefixSize));
    if (!ok) {
        // Encrypting, the only public key is the recipient's.
        const EciesErrc e = ok.error().code;
        return input_error(
            e == EciesErrc::invalid_public_key ? HandshakeErrc::invalid_public_key : from_ecies(e),
            0);
    }
    return packet;
}

[[nodiscard]] Result<Bytes, HandshakeError> open_handshake_packet(
    const Bytes32& secret, BytesView packet, std::size_t legacy_size) noexcept {
    // A pre-EIP-8 packet starts with ECIES's 0x04, which reads as a size of 1024 or more: far
    // more than its fixed length, so a packet of exactly that length is unambiguous.
    if (packet.size() == legacy_size && packet[0] == 0x04) {
        return input_error(HandshakeErrc::pre_eip8, 0);
    }
    auto total = handshake_packet_size(packet);
    if (!total) return unexpected(total.error());
    if (packet.size() < *total) return input_error(HandshakeErrc::truncated, packet.size());
    if (packet.size() > *total) return input_error(HandshakeErrc::trailing_bytes, *total);
    const BytesView prefix = packet.first(kHandshakePrefixSize);
    const BytesView ecies = packet.subspan(kHandshakePrefixSize);
    Bytes body(ecies_plaintext_size(ecies.size()));
    auto n = ecies_decrypt_to(secret, ecies, prefix, body);
    if (!n) {
        const std::size_t at = n.error().code == EciesErrc::invalid_secret_key
                                   ? 0
                                   : kHandshakePrefixSize + n.error().offset;
        return input_error(from_ecies(n.error().code), at);
    }
    return body;
}

[[nodiscard]] Result<AuthMessage, HandshakeError> read_auth_packet(const Bytes32& secret,
                                                                   BytesView packet) noexcept {
    auto body = open_handshake_packet(secret, packet, kLegacyAuthSize);
    if (!body) return unexpected(body.error());
    return decode_auth_body(*body, kBodyOffset);
}

[[nodiscard]] Result<AckMessage, HandshakeError> read_ack_packet(const Bytes32& secret,
                                                                 BytesView packet) noexcept {
    auto body = open_handshake_packet(secret, packet, kLegacyAckSize);
    if (!body) return unexpected(body.error());
    return decode_ack_body(*body, kBodyOffset);
}

Secrets derive_secrets(const SecretsInput& in) noexcept {
    // rlpx.md "Secrets": shared-secret = keccak(ecdhe || keccak(nonce_B || nonce_A)).
    const Hash32 nonces = keccak_pair(in.recipient_nonce, in.initiator_nonce);
    const Hash32 shared = keccak_pair(in.ecdhe, nonces);
    Secrets s;
    s.aes = keccak_pair(in.ecdhe, shared);
    s.mac = keccak_pair(in.ecdhe, s.aes);
    s.remote_id = in.remote_id;
    const bool initiator = in.role == Role::initiator;
    const Bytes32& own_nonce = initiator ? in.initiator_nonce : in.recipient_nonce;
    const Bytes32& remote_nonce = initiator ? in.recipient_nonce : in.initiator_nonce;
    const BytesView sent = initiator ? in.auth_packet : in.ack_packet;
    const BytesView received = initiator ? in.ack_packet : in.auth_packet;
    s.egress_mac.update(xor32(s.mac, remote_nonce).view());
    s.egress_mac.update(sent);
    s.ingress_mac.update(xor32(s.mac, own_nonce).view());
    s.ingress_mac.update(received);
    return s;
}

bool os_random(MutableBytesView out) noexcept {
    return crypto::random_bytes(out).has_value();
}

Result<Handshake, HandshakeError> Handshake::make(Role role, const Bytes32& static_secret,
                                                  const crypto::PublicKey* remote_id,
                                                  const Bytes32* ephemeral_secret,
                                                  const Bytes32* nonce, RandomSource random) {
    KEEL_ASSERT(random);
    if (!secp::is_valid_secret_key(static_secret)) {
        return input_error(HandshakeErrc::invalid_secret_key, 0);
    }
    Handshake h;
    h.role_ = role;
    h.static_secret_ = static_secret;
    if (remote_id != nullptr) {
        if (!secp::validate_public_key(*remote_id)) {
            return input_error(HandshakeErrc::invalid_public_key, 0);
        }
        h.remote_id_ = *remote_id;
    }
    if (ephemeral_secret != nullptr) {
        if (!secp::is_valid_secret_key(*ephemeral_secret)) {
            return input_error(HandshakeErrc::invalid_secret_key, 0);
        }
        h.ephemeral_secret_ = *ephemeral_secret;
        h.nonce_ = *nonce;
    } else {
        // A random 32-byte string is a valid key except with probability ~2^-128.
        do {
            if (!random(h.ephemeral_secret_.mutable_view())) {
                return input_error(HandshakeErrc::random_failed, 0);
            }
        } while (!secp::is_valid_secret_key(h.ephemeral_secret_));
        if (!random(h.nonce_.mutable_view())) return input_error(HandshakeErrc::random_failed, 0);
    }
    h.random_ = std::move(random);
    return h;
}

Result<Handshake, HandshakeError> Handshake::initiator(const Bytes32& static_secret,
                                                       const crypto::PublicKey& remote_id,
                                                       RandomSource random) {
    return make(Role::initiator, static_secret, &remote_id, nullptr, nullptr, std::move(random));
}

Result<Handshake, HandshakeError> Handshake::initiator(const Bytes32& static_secret,
                                                       const crypto::PublicKey& remote_id,
                                                       const Bytes32& ephemeral_secret,
                                                       const Bytes32& nonce, RandomSource random) {
    return make(Role::initiator, static_secret, &remote_id, &ephemeral_secret, &nonce,
                std::move(random));
}

Result<Handshake, HandshakeError> Handshake::recipient(const Bytes32& static_secret,
                                                       RandomSource random) {
    return make(Role::recipient, static_secret, nullptr, nullptr, nullptr, std::move(random));
}

Result<Handshake, HandshakeError> Handshake::recipient(const Bytes32& static_secret,
                                                       const Bytes32& ephemeral_secret,
                                                       const Bytes32& nonce, RandomSource random) {
    return make(Role::recipient, static_secret, nullptr, &ephemeral_secret, &nonce,
                std::move(random));
}

Result<Bytes, HandshakeError> Handshake::seal(BytesView body) {
    // Padding: a random length in [kMinPadding, kMaxPadding] of random bytes (EIP-8).
    std::uint8_t len_bytes[2];
    if (!random_(MutableBytesView(len_bytes, 2))) {
        return input_error(HandshakeErrc::random_failed, 0);
    }
    const std::size_t span = kMaxPadding - kMinPadding + 1;
    const std::size_t pad_len =
        kMinPadding + ((std::size_t{len_bytes[0]} << 8 | len_bytes[1]) % span);
    Bytes padding(pad_len);
    EciesRandom ecies;
    if (!random_(padding) || !random_(ecies.iv.mutable_view())) {
        return input_error(HandshakeErrc::random_failed, 0);
    }
    do {
        if (!random_(ecies.ephemeral_secret.mutable_view())) {
            return input_error(HandshakeErrc::random_failed, 0);
        }
    } while (!secp::is_valid_secret_key(ecies.ephemeral_secret));
    return seal_handshake_packet(remote_id_, body, padding, ecies);
}

Result<Bytes, HandshakeError> Handshake::make_auth() {
    KEEL_ASSERT(role_ == Role::initiator && state_ == State::start);
    // sig = Sign(ephemeral, static-shared-secret ^ nonce) (rlpx.md "Initial Handshake").
    auto static_shared = secp::ecdh_x(static_secret_, remote_id_);
    KEEL_ASSERT(static_shared.has_value());  // both keys were checked at construction
    auto sig = secp::sign_recoverable(xor32(*static_shared, nonce_), ephemeral_secret_);
    KEEL_ASSERT(sig.has_value());
    AuthMessage m;
    sig->r.to_be_bytes(m.signature.data());
    sig->s.to_be_bytes(m.signature.data() + 32);
    m.signature[64] = sig->recovery_id;
    m.initiator_id = secp::public_key_of(static_secret_).value();
    m.nonce = nonce_;
    auto packet = seal(encode_auth_body(m));
    if (!packet) return unexpected(packet.error());
    auth_packet_ = *packet;
    state_ = State::sent_auth;
    return packet;
}

Result<void, HandshakeError> Handshake::read_auth(BytesView packet) {
    KEEL_ASSERT(role_ == Role::recipient && state_ == State::start);
    auto m = read_auth_packet(static_secret_, packet);
    if (!m) return unexpected(m.error());
    auto static_shared = secp::ecdh_x(static_secret_, m->initiator_id);
    if (!static_shared) return input_error(HandshakeErrc::invalid_public_key, kBodyOffset);
    const Hash32 signed_hash = xor32(*static_shared, m->nonce);
    const std::uint8_t* sig = m->signature.data();
    auto ephemeral = secp::recover_public_key(signed_hash, Uint256::load_be(sig),
                                              Uint256::load_be(sig + 32), sig[64]);
    if (!ephemeral) return input_error(HandshakeErrc::invalid_signature, kBodyOffset);
    remote_id_ = m->initiator_id;
    remote_ephemeral_ = *ephemeral;
    remote_nonce_ = m->nonce;
    remote_version_ = m->version;
    auth_packet_.assign(packet.begin(), packet.end());
    state_ = State::got_auth;
    return {};
}

Result<Bytes, HandshakeError> Handshake::make_ack() {
    KEEL_ASSERT(role_ == Role::recipient && state_ == State::got_auth);
    AckMessage m;
    m.ephemeral_key = secp::public_key_of(ephemeral_secret_).value();
    m.nonce = nonce_;
    auto packet = seal(encode_ack_body(m));
    if (!packet) return unexpected(packet.error());
    ack_packet_ = *packet;
    state_ = State::done;
    return packet;
}

Result<void, HandshakeError> Handshake::read_ack(BytesView packet) {
    KEEL_ASSERT(role_ == Role::initiator && state_ == State::sent_auth);
    auto m = read_ack_packet(static_secret_, packet);
    if (!m) return unexpected(m.error());
    remote_ephemeral_ = m->ephemeral_key;
    remote_nonce_ = m->nonce;
    remote_version_ = m->version;
    ack_packet_.assign(packet.begin(), packet.end());
    state_ = State::done;
    return {};
}

Secrets Handshake::secrets() const noexcept {
    KEEL_ASSERT(state_ == State::done);
    // remote_ephemeral_ is on the curve (recovered, or validated by decode_ack_body) and our
    // ephemeral key was checked at construction, so the ECDH cannot fail.
    auto ecdhe = secp::ecdh_x(ephemeral_secret_, remote_ephemeral_);
    KEEL_ASSERT(ecdhe.has_value());
    SecretsInput in;
    in.role = role_;
    in.ecdhe = *ecdhe;
    const bool initiator = role_ == Role::initiator;
    in.initiator_nonce = initiator ? nonce_ : remote_nonce_;
    in.recipient_nonce = initiator ? remote_nonce_ : nonce_;
    in.auth_packet = auth_packet_;
    in.ack_packet = ack_packet_;
    in.remote_id = remote_id_;
    return derive_secrets(in);
}

}  // namespace keel::rlpx
