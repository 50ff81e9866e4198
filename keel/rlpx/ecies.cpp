#include "keel/rlpx/ecies.hpp"

#include <openssl/crypto.h>
#include <openssl/evp.h>

#include <algorithm>
#include <cstring>
#include <memory>

#include "keel/common/assert.hpp"
#include "keel/crypto/secp256k1.hpp"
#include "keel/crypto/sha256.hpp"

namespace keel::rlpx {

namespace {

namespace secp = crypto::secp256k1;

constexpr std::size_t kTagSize = 32;

// AES-128-CTR, fetched from OpenSSL's default provider once per process (DESIGN.md §4.3) instead
// of by name on every EVP_EncryptInit_ex. Never freed: handshakes may run while statics die.
const EVP_CIPHER* aes_128_ctr() noexcept {
    static const EVP_CIPHER* const cipher = EVP_CIPHER_fetch(nullptr, "AES-128-CTR", nullptr);
    return cipher;
}

struct CipherCtxFree {
    void operator()(EVP_CIPHER_CTX* c) const noexcept { EVP_CIPHER_CTX_free(c); }
};

// AES-128-CTR of `in` into `out` (same size; may be the same buffer). The 16-byte iv is the
// initial counter block, incremented as one 128-bit big-endian number, as Go's cipher.NewCTR does.
bool aes_128_ctr(const FixedBytes<16>& key, const FixedBytes<16>& iv, BytesView in,
                 std::uint8_t* out) noexcept {
    const EVP_CIPHER* cipher = aes_128_ctr();
    if (cipher == nullptr) return false;
    std::unique_ptr<EVP_CIPHER_CTX, CipherCtxFree> ctx(EVP_CIPHER_CTX_new());
    if (!ctx) return false;
    if (EVP_EncryptInit_ex(ctx.get(), cipher, nullptr, key.data(), iv.data()) != 1) return false;
    // One update per packet; handshake packets are capped far below INT_MAX, but stay safe for
    // any caller by feeding at most 1 GiB at a time.
    std::size_t done = 0;
    while (done < in.size()) {
        const std::size_t n = std::min<std::size_t>(in.size() - done, std::size_t{1} << 30);
        int written = 0;
        if (EVP_EncryptUpdate(ctx.get(), out + done, &written, in.data() + done,
                              static_cast<int>(n)) != 1 ||
            static_cast<std::size_t>(written) != n) {
            return false;
        }
        done += n;
    }
    return true;
}

// HMAC-SHA256 (RFC 2104) of the concatenation a || b under a 32-byte key, on the incremental
// SHA-256: the iv || ciphertext part stays where it is in the packet and the shared MAC data is
// absorbed after it, without copying both into one buffer.
Hash32 hmac_sha256_2(const Hash32& key, BytesView a, BytesView b) noexcept {
    std::uint8_t pad[64];
    std::memset(pad, 0x36, sizeof pad);
    for (std::size_t i = 0; i < key.size(); ++i) pad[i] ^= key[i];
    crypto::Sha256 inner;
    inner.update(BytesView(pad, sizeof pad));
    inner.update(a);
    inner.update(b);
    const Hash32 inner_digest = inner.finalize();
    std::memset(pad, 0x5c, sizeof pad);
    for (std::size_t i = 0; i < key.size(); ++i) pad[i] ^= key[i];
    crypto::Sha256 outer;
    outer.update(BytesView(pad, sizeof pad));
    outer.update(inner_digest.view());
    return outer.finalize();
}

EciesErrc key_errc(secp::KeyError e) noexcept {
    return e == secp::KeyError::invalid_public_key ? EciesErrc::invalid_public_key
                                                   : EciesErrc::invalid_secret_key;
}

}  // namespace

std::string_view describe(EciesErrc e) noexcept {
    switch (e) {
        case EciesErrc::too_short:
            return "ECIES packet is shorter than its 113-byte overhead";
        case EciesErrc::bad_key_prefix:
            return "ECIES packet does not start with 0x04 (uncompressed ephemeral public key)";
        case EciesErrc::invalid_public_key:
            return "ECIES public key is not a point on secp256k1";
        case EciesErrc::bad_mac:
            return "ECIES message authentication code does not match";
        case EciesErrc::invalid_secret_key:
            return "ECIES secret key is zero or not below the curve order";
        case EciesErrc::random_failed:
            return "ECIES could not read random bytes (getrandom)";
        case EciesErrc::cipher_failed:
            return "ECIES AES-128-CTR failed (OpenSSL)";
    }
    return "unknown ECIES error";
}

[[nodiscard]] Result<EciesRandom, crypto::RandomError> random_ecies_inputs() noexcept {
    EciesRandom r;
    auto key = secp::generate_secret_key();
    if (!key) return unexpected(key.error());
    r.ephemeral_secret = *key;
    if (auto ok = crypto::random_bytes(r.iv.mutable_view()); !ok) return unexpected(ok.error());
    return r;
}

void concat_kdf_sha256(BytesView z, MutableBytesView out) noexcept {
    // NIST SP 800-56A rev. 1 §5.8.1.1: K(i) = H(counter_i || Z || OtherInfo), counter a 32-bit
    // big-endian number from 1; OtherInfo (go-ethereum's s1) is empty for devp2p.
    std::uint32_t counter = 1;
    for (std::size_t pos = 0; pos < out.size(); ++counter) {
        const std::uint8_t be[4] = {
            static_cast<std::uint8_t>(counter >> 24), static_cast<std::uint8_t>(counter >> 16),
            static_cast<std::uint8_t>(counter >> 8), static_cast<std::uint8_t>(counter)};
        crypto::Sha256 h;
        h.update(BytesView(be, 4));
        h.update(z);
        const Hash32 block = h.finalize();
        const std::size_t n = std::min<std::size_t>(32, out.size() - pos);
        std::memcpy(out.data() + pos, block.data(), n);
        pos += n;
    }
}

EciesKeys ecies_keys(const Bytes32& shared_x) noexcept {
    std::uint8_t k[32];
    concat_kdf_sha256(shared_x.view(), MutableBytesView(k, 32));
    EciesKeys keys;
    std::memcpy(keys.enc.data(), k, 16);
    keys.mac = crypto::sha256(BytesView(k + 16, 16));
    return keys;
}

[[nodiscard]] Result<void, EciesError> ecies_encrypt_to(const crypto::PublicKey& remote,
                                                        BytesView plaintext,
                                                        BytesView shared_mac_data,
                                                        const EciesRandom& random,
                                                        MutableBytesView out) noexcept {
    KEEL_ASSERT(out.size() == plaintext.size() + kEciesOverhead);
    auto ephemeral = secp::public_key_of(random.ephemeral_secret);
    if (!ephemeral) return input_error(EciesErrc::invalid_secret_key, 0);
    auto shared = secp::ecdh_x(random.ephemeral_secret, remote);
    if (!shared) return input_error(key_errc(shared.error()), 0);
    const EciesKeys keys = ecies_keys(*shared);

    std::uint8_t* p = out.data();
    p[0] = 0x04;
    std::memcpy(p + 1, ephemeral->data(), 64);
    std::memcpy(p + 65, random.iv.data(), 16);
    if (!aes_128_ctr(keys.enc, random.iv, plaintext, p + kEciesCiphertextOffset)) {
        return input_error(EciesErrc::cipher_failed, 0);
    }
    // The tag covers iv || ciphertext || shared_mac_data (go-ethereum messageTag).
    const BytesView iv_and_ciphertext(p + 65, 16 + plaintext.size());
    const Hash32 tag = hmac_sha256_2(keys.mac, iv_and_ciphertext, shared_mac_data);
    std::memcpy(p + kEciesCiphertextOffset + plaintext.size(), tag.data(), kTagSize);
    return {};
}

[[nodiscard]] Result<Bytes, EciesError> ecies_encrypt(const crypto::PublicKey& remote,
                                                      BytesView plaintext,
                                                      BytesView shared_mac_data,
                                                      const EciesRandom& random) {
    Bytes out(plaintext.size() + kEciesOverhead);
    auto ok = ecies_encrypt_to(remote, plaintext, shared_mac_data, random, out);
    if (!ok) return unexpected(ok.error());
    return out;
}

[[nodiscard]] Result<Bytes, EciesError> ecies_encrypt(const crypto::PublicKey& remote,
                                                      BytesView plaintext,
                                                      BytesView shared_mac_data) {
    auto random = random_ecies_inputs();
    if (!random) return input_error(EciesErrc::random_failed, 0);
    return ecies_encrypt(remote, plaintext, shared_mac_data, *random);
}

[[nodiscard]] Result<std::size_t, EciesError> ecies_decrypt_to(const Bytes32& secret,
                                                               BytesView packet,
                                                               BytesView shared_mac_data,
                                                               MutableBytesView out) noexcept {
    if (packet.size() < kEciesOverhead) return input_error(EciesErrc::too_short, packet.size());
    const std::size_t n = ecies_plaintext_size(packet.size());
    KEEL_ASSERT(out.size() >= n);
    if (packet[0] != 0x04) return input_error(EciesErrc::bad_key_prefix, 0);
    // ecdh_x validates R (on the curve, coordinates below p) before multiplying by our key:
    // go-ethereum c974722dc0 "crypto/ecies: fix ECIES invalid-curve handling".
    const auto r = *crypto::PublicKey::from(packet.subspan(1, 64));
    auto shared = secp::ecdh_x(secret, r);
    if (!shared) {
        const bool bad_r = shared.error() == secp::KeyError::invalid_public_key;
        return input_error(key_errc(shared.error()), bad_r ? 1 : 0);
    }
    const EciesKeys keys = ecies_keys(*shared);

    const std::size_t tag_offset = kEciesCiphertextOffset + n;
    const Hash32 tag = hmac_sha256_2(keys.mac, packet.subspan(65, 16 + n), shared_mac_data);
    // Constant time: the comparison must not tell an attacker how many leading bytes matched.
    if (CRYPTO_memcmp(tag.data(), packet.data() + tag_offset, kTagSize) != 0) {
        return input_error(EciesErrc::bad_mac, tag_offset);
    }
    const auto iv = *FixedBytes<16>::from(packet.subspan(65, 16));
    if (!aes_128_ctr(keys.enc, iv, packet.subspan(kEciesCiphertextOffset, n), out.data())) {
        return input_error(EciesErrc::cipher_failed, 0);
    }
    return n;
}

[[nodiscard]] Result<Bytes, EciesError> ecies_decrypt(const Bytes32& secret, BytesView packet,
                                                      BytesView shared_mac_data) {
    Bytes out(ecies_plaintext_size(packet.size()));
    auto n = ecies_decrypt_to(secret, packet, shared_mac_data, out);
    if (!n) return unexpected(n.error());
    return out;
}

}  // namespace keel::rlpx
