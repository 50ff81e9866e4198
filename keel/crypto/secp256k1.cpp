#include "keel/crypto/secp256k1.hpp"

#include <secp256k1.h>
#include <secp256k1_ecdh.h>
#include <secp256k1_recovery.h>

#include <cstring>

#include "keel/common/assert.hpp"
#include "keel/crypto/keccak.hpp"
#include "keel/crypto/random.hpp"

namespace keel::crypto::secp256k1 {

namespace {

// The one libsecp256k1 context of the process (DESIGN.md §4.3). libsecp256k1 0.2 keeps its
// multiplication tables in static data, so creating the context is cheap; what it holds is the
// blinding state for signing, randomised once here. After construction it is only passed as
// `const secp256k1_context*`, which the library allows from many threads at once.
//
// init_priority runs this before every ordinary static initialiser of the program, so another
// translation unit's static initialiser may already recover signatures. The context is never
// destroyed: worker threads may still be recovering while static destructors run at exit.
struct Context {
    secp256k1_context* ctx;

    Context() noexcept : ctx(secp256k1_context_create(SECP256K1_CONTEXT_NONE)) {
        KEEL_ASSERT(ctx != nullptr);
        Bytes32 seed;
        // Randomisation only hardens signing against side channels; recovery does not use it.
        // Without a working getrandom(2) the context stays unblinded, which is still correct.
        if (random_bytes(seed.mutable_view())) {
            const int randomized = secp256k1_context_randomize(ctx, seed.data());
            KEEL_ASSERT(randomized == 1);
        }
    }
};

[[gnu::init_priority(1000)]] const Context g_context;

inline const secp256k1_context* ctx() noexcept {
    return g_context.ctx;
}

// Parses x || y into libsecp256k1's form. secp256k1_ec_pubkey_parse checks x, y < p and the curve
// equation (secp256k1_ge_set_xy + secp256k1_ge_is_valid_var), so nothing off the curve gets in.
bool parse_xy(const PublicKey& key, secp256k1_pubkey& out) noexcept {
    std::uint8_t buf[65];
    buf[0] = 0x04;
    std::memcpy(buf + 1, key.data(), 64);
    return secp256k1_ec_pubkey_parse(ctx(), &out, buf, sizeof buf) == 1;
}

// The ECDH "hash" that is no hash: the output is x itself, as devp2p's ECIES wants it.
int copy_x(unsigned char* output, const unsigned char* x32, const unsigned char*, void*) {
    std::memcpy(output, x32, 32);
    return 1;
}

}  // namespace

Result<PublicKey, SigError> recover_public_key(const Hash32& msg, const Uint256& r,
                                               const Uint256& s,
                                               std::uint8_t recovery_id) noexcept {
    // SEC 1 §4.1.4 step 1 / §4.1.6: r, s in [1, n-1]. libsecp256k1 also rejects these, but with
    // one undifferentiated failure; checking first names the field.
    if (r.is_zero() || r >= kOrder) return unexpected(SigError::invalid_r);
    if (s.is_zero() || s >= kOrder) return unexpected(SigError::invalid_s);
    if (recovery_id > 3) return unexpected(SigError::invalid_recovery_id);

    std::uint8_t compact[64];
    r.to_be_bytes(compact);
    s.to_be_bytes(compact + 32);
    secp256k1_ecdsa_recoverable_signature sig;
    // Cannot fail after the range checks above (it rejects only r or s >= n).
    if (secp256k1_ecdsa_recoverable_signature_parse_compact(ctx(), &sig, compact, recovery_id) != 1)
        [[unlikely]] {
        return unexpected(SigError::invalid_r);
    }
    secp256k1_pubkey pubkey;
    // Fails when r (+ n) is not the x of a curve point (or not below p) and when Q is infinity.
    if (secp256k1_ecdsa_recover(ctx(), &pubkey, &sig, msg.data()) != 1) {
        return unexpected(SigError::no_public_key);
    }
    std::uint8_t out[65];
    std::size_t len = sizeof out;
    secp256k1_ec_pubkey_serialize(ctx(), out, &len, &pubkey, SECP256K1_EC_UNCOMPRESSED);
    PublicKey key;
    std::memcpy(key.data(), out + 1, 64);  // drop the 0x04 tag
    return key;
}

Result<Address, SigError> recover_address(const Hash32& msg, const Uint256& r, const Uint256& s,
                                          std::uint8_t recovery_id) noexcept {
    auto key = recover_public_key(msg, r, s, recovery_id);
    if (!key) return unexpected(key.error());
    return public_key_to_address(*key);
}

Result<RecoverableSignature, SigError> sign_recoverable(const Hash32& msg,
                                                        const Bytes32& secret) noexcept {
    if (secp256k1_ec_seckey_verify(ctx(), secret.data()) != 1) {
        return unexpected(SigError::invalid_secret_key);
    }
    secp256k1_ecdsa_recoverable_signature sig;
    // nullptr nonce function: RFC 6979 (secp256k1_nonce_function_default). Always low s.
    if (secp256k1_ecdsa_sign_recoverable(ctx(), &sig, msg.data(), secret.data(), nullptr,
                                         nullptr) != 1) {
        return unexpected(SigError::invalid_secret_key);
    }
    std::uint8_t compact[64];
    int recid = 0;
    secp256k1_ecdsa_recoverable_signature_serialize_compact(ctx(), compact, &recid, &sig);
    RecoverableSignature out;
    out.r = Uint256::load_be(compact);
    out.s = Uint256::load_be(compact + 32);
    out.recovery_id = static_cast<std::uint8_t>(recid);
    return out;
}

Result<PublicKey, SigError> public_key_of(const Bytes32& secret) noexcept {
    secp256k1_pubkey pubkey;
    if (secp256k1_ec_pubkey_create(ctx(), &pubkey, secret.data()) != 1) {
        return unexpected(SigError::invalid_secret_key);
    }
    std::uint8_t out[65];
    std::size_t len = sizeof out;
    secp256k1_ec_pubkey_serialize(ctx(), out, &len, &pubkey, SECP256K1_EC_UNCOMPRESSED);
    PublicKey key;
    std::memcpy(key.data(), out + 1, 64);
    return key;
}

Result<Address, SigError> address_of(const Bytes32& secret) noexcept {
    auto key = public_key_of(secret);
    if (!key) return unexpected(key.error());
    return public_key_to_address(*key);
}

bool is_valid_secret_key(const Bytes32& secret) noexcept {
    return secp256k1_ec_seckey_verify(ctx(), secret.data()) == 1;
}

Result<void, KeyError> validate_public_key(const PublicKey& key) noexcept {
    secp256k1_pubkey parsed;
    if (!parse_xy(key, parsed)) return unexpected(KeyError::invalid_public_key);
    return {};
}

Result<PublicKey, KeyError> parse_public_key(BytesView in) noexcept {
    BytesView xy = in;
    if (in.size() == 65) {
        if (in[0] != 0x04) return unexpected(KeyError::invalid_public_key);
        xy = in.subspan(1);
    }
    auto key = PublicKey::from(xy);
    if (!key) return unexpected(KeyError::invalid_public_key);
    if (auto ok = validate_public_key(*key); !ok) return unexpected(ok.error());
    return *key;
}

Result<Bytes32, KeyError> ecdh_x(const Bytes32& secret, const PublicKey& key) noexcept {
    if (!is_valid_secret_key(secret)) return unexpected(KeyError::invalid_secret_key);
    secp256k1_pubkey point;
    if (!parse_xy(key, point)) return unexpected(KeyError::invalid_public_key);
    Bytes32 x;
    // Cannot fail here: the scalar is in [1, n-1] and the point is on the curve, whose group has
    // prime order, so the product is never infinity.
    if (secp256k1_ecdh(ctx(), x.data(), &point, secret.data(), copy_x, nullptr) != 1) [[unlikely]] {
        return unexpected(KeyError::invalid_secret_key);
    }
    return x;
}

Result<Bytes32, RandomError> generate_secret_key() noexcept {
    Bytes32 k;
    do {
        if (auto r = random_bytes(k.mutable_view()); !r) return unexpected(r.error());
    } while (!is_valid_secret_key(k));
    return k;
}

}  // namespace keel::crypto::secp256k1
