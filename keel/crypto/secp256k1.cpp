#include "keel/crypto/secp256k1.hpp"

#include <secp256k1.h>
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

}  // namespace keel::crypto::secp256k1
