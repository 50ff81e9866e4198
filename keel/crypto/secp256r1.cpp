#include "keel/crypto/secp256r1.hpp"

#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/ec.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/obj_mac.h>
#include <openssl/param_build.h>

#include <array>
#include <cstring>
#include <memory>

#include "keel/common/assert.hpp"

namespace keel::crypto::secp256r1 {

namespace {

// The P-256 group of the process (DESIGN.md §4.3), built once before every ordinary static
// initialiser (init_priority) and only read afterwards: OpenSSL allows concurrent use of a
// group that nobody modifies. On x86-64 OpenSSL 3 picks its nistz256 code, which carries a
// fixed table of multiples of G, so no precomputation needs to be made here. Never freed:
// worker threads may still use it while static destructors run at exit.
struct Group {
    EC_GROUP* group;
    const BIGNUM* order;

    Group() noexcept : group(EC_GROUP_new_by_curve_name(NID_X9_62_prime256v1)), order(nullptr) {
        KEEL_ASSERT(group != nullptr);
        order = EC_GROUP_get0_order(group);
        KEEL_ASSERT(order != nullptr);
    }
};

[[gnu::init_priority(1000)]] const Group g_group;

// Per-thread OpenSSL scratch, allocated on a thread's first use and reused by every later call
// on that thread (OpenSSL grows these BIGNUMs once), so keel allocates nothing per recovery.
struct Scratch {
    BN_CTX* bn = BN_CTX_new();
    BIGNUM* x = BN_new();
    BIGNUM* r = BN_new();
    BIGNUM* s = BN_new();
    BIGNUM* e = BN_new();
    BIGNUM* rinv = BN_new();
    BIGNUM* u1 = BN_new();
    BIGNUM* u2 = BN_new();
    EC_POINT* big_r = EC_POINT_new(g_group.group);
    EC_POINT* q = EC_POINT_new(g_group.group);

    Scratch() noexcept {
        KEEL_ASSERT(bn != nullptr && x != nullptr && r != nullptr && s != nullptr && e != nullptr &&
                    rinv != nullptr && u1 != nullptr && u2 != nullptr && big_r != nullptr &&
                    q != nullptr);
    }
    ~Scratch() {
        EC_POINT_free(q);
        EC_POINT_free(big_r);
        for (BIGNUM* b : {x, r, s, e, rinv, u1, u2}) BN_free(b);
        BN_CTX_free(bn);
    }
    Scratch(const Scratch&) = delete;
    Scratch& operator=(const Scratch&) = delete;
};

Scratch& scratch() noexcept {
    thread_local Scratch s;
    return s;
}

// Writes a 32-byte big-endian number into `out` (reusing its storage).
inline void set_bn(BIGNUM* out, const std::uint8_t* be32) noexcept {
    const BIGNUM* set = BN_bin2bn(be32, 32, out);
    KEEL_ASSERT(set != nullptr);
}

inline void set_bn(BIGNUM* out, const Uint256& v) noexcept {
    std::uint8_t buf[32];
    v.to_be_bytes(buf);
    set_bn(out, buf);
}

// x || y of an affine point that is not infinity.
PublicKey encode_point(const EC_POINT* p, BN_CTX* bn) noexcept {
    std::uint8_t out[65];
    const std::size_t len =
        EC_POINT_point2oct(g_group.group, p, POINT_CONVERSION_UNCOMPRESSED, out, sizeof out, bn);
    KEEL_ASSERT(len == sizeof out);
    PublicKey key;
    std::memcpy(key.data(), out + 1, 64);  // drop the 0x04 tag
    return key;
}

bool valid_scalar(const Uint256& v) noexcept {
    return !v.is_zero() && v < kOrder;
}

template <class T, auto Free>
struct Deleter {
    void operator()(T* p) const noexcept { Free(p); }
};
using BnPtr = std::unique_ptr<BIGNUM, Deleter<BIGNUM, BN_clear_free>>;
using PkeyPtr = std::unique_ptr<EVP_PKEY, Deleter<EVP_PKEY, EVP_PKEY_free>>;
using PkeyCtxPtr = std::unique_ptr<EVP_PKEY_CTX, Deleter<EVP_PKEY_CTX, EVP_PKEY_CTX_free>>;
using ParamBldPtr = std::unique_ptr<OSSL_PARAM_BLD, Deleter<OSSL_PARAM_BLD, OSSL_PARAM_BLD_free>>;
using ParamPtr = std::unique_ptr<OSSL_PARAM, Deleter<OSSL_PARAM, OSSL_PARAM_free>>;
using SigPtr = std::unique_ptr<ECDSA_SIG, Deleter<ECDSA_SIG, ECDSA_SIG_free>>;

// An OpenSSL EC key pair for `secret` (already range-checked) and its public key `pub`.
PkeyPtr make_keypair(const Bytes32& secret, const PublicKey& pub) noexcept {
    BnPtr d(BN_bin2bn(secret.data(), 32, nullptr));
    std::array<std::uint8_t, 65> pub_oct{};
    pub_oct[0] = POINT_CONVERSION_UNCOMPRESSED;
    std::memcpy(pub_oct.data() + 1, pub.data(), 64);

    ParamBldPtr bld(OSSL_PARAM_BLD_new());
    KEEL_ASSERT(d != nullptr && bld != nullptr);
    char group_name[] = SN_X9_62_prime256v1;
    const bool pushed = OSSL_PARAM_BLD_push_utf8_string(bld.get(), OSSL_PKEY_PARAM_GROUP_NAME,
                                                        group_name, 0) == 1 &&
                        OSSL_PARAM_BLD_push_BN(bld.get(), OSSL_PKEY_PARAM_PRIV_KEY, d.get()) == 1 &&
                        OSSL_PARAM_BLD_push_octet_string(bld.get(), OSSL_PKEY_PARAM_PUB_KEY,
                                                         pub_oct.data(), pub_oct.size()) == 1;
    KEEL_ASSERT(pushed);
    ParamPtr params(OSSL_PARAM_BLD_to_param(bld.get()));
    PkeyCtxPtr kctx(EVP_PKEY_CTX_new_from_name(nullptr, "EC", nullptr));
    KEEL_ASSERT(params != nullptr && kctx != nullptr);
    EVP_PKEY* pkey = nullptr;
    const bool made = EVP_PKEY_fromdata_init(kctx.get()) == 1 &&
                      EVP_PKEY_fromdata(kctx.get(), &pkey, EVP_PKEY_KEYPAIR, params.get()) == 1;
    KEEL_ASSERT(made && pkey != nullptr);
    return PkeyPtr(pkey);
}

}  // namespace

Result<PublicKey, SigError> recover_public_key(const Hash32& msg, const Uint256& r,
                                               const Uint256& s,
                                               std::uint8_t recovery_id) noexcept {
    // SEC 1 §4.1.6 step 1 (with §4.1.4 step 1): r, s in [1, n-1].
    if (!valid_scalar(r)) return unexpected(SigError::invalid_r);
    if (!valid_scalar(s)) return unexpected(SigError::invalid_s);
    if (recovery_id > 3) return unexpected(SigError::invalid_recovery_id);

    // Step 1.1-1.3: x = r + j n for j = bit 1 of the id; x must be a field element (< p).
    // OpenSSL reduces x mod p when decompressing, so the bound is checked here.
    Uint256 x = r;
    if ((recovery_id & 2) != 0) {
        x = r + kOrder;
        if (x < r || x >= kPrime) return unexpected(SigError::no_public_key);  // carry, or >= p
    }

    Scratch& t = scratch();
    const EC_GROUP* group = g_group.group;
    const BIGNUM* order = g_group.order;

    // Step 1.3: R from x and the parity of y (bit 0); fails when x^3 - 3x + b is not a square.
    set_bn(t.x, x);
    if (EC_POINT_set_compressed_coordinates(group, t.big_r, t.x, recovery_id & 1, t.bn) != 1) {
        ERR_clear_error();  // leave no stale entry in this thread's OpenSSL error queue
        return unexpected(SigError::no_public_key);
    }
    // Step 1.4 (n R = infinity) holds for every curve point: P-256 has cofactor 1.

    // Step 1.5: e = the hash as an integer (P-256's n has 256 bits: no truncation).
    // Step 1.6: Q = r^-1 (s R - e G) = u1 G + u2 R, u1 = -e r^-1, u2 = s r^-1 (mod n).
    set_bn(t.r, r);
    set_bn(t.s, s);
    set_bn(t.e, msg.data());
    bool ok = BN_mod_inverse(t.rinv, t.r, order, t.bn) != nullptr;  // n is prime, 0 < r < n
    ok = ok && BN_nnmod(t.e, t.e, order, t.bn) == 1;
    if (ok && !BN_is_zero(t.e)) ok = BN_sub(t.e, order, t.e) == 1;  // -e mod n
    ok = ok && BN_mod_mul(t.u1, t.e, t.rinv, order, t.bn) == 1;
    ok = ok && BN_mod_mul(t.u2, t.s, t.rinv, order, t.bn) == 1;
    ok = ok && EC_POINT_mul(group, t.q, t.u1, t.big_r, t.u2, t.bn) == 1;
    KEEL_ASSERT(ok);  // arithmetic on valid operands fails only when memory runs out
    if (EC_POINT_is_at_infinity(group, t.q) == 1) return unexpected(SigError::no_public_key);
    return encode_point(t.q, t.bn);
}

Result<Address, SigError> recover_address(const Hash32& msg, const Uint256& r, const Uint256& s,
                                          std::uint8_t recovery_id) noexcept {
    auto key = recover_public_key(msg, r, s, recovery_id);
    if (!key) return unexpected(key.error());
    return public_key_to_address(*key);
}

bool verify(const Hash32& msg, const Uint256& r, const Uint256& s, const Uint256& x,
            const Uint256& y) noexcept {
    if (!valid_scalar(r) || !valid_scalar(s) || x >= kPrime || y >= kPrime) return false;
    Scratch& t = scratch();
    const EC_GROUP* group = g_group.group;
    const BIGNUM* order = g_group.order;
    // Q from its affine coordinates; OpenSSL refuses a point that is not on the curve.
    set_bn(t.x, x);
    set_bn(t.e, y);
    if (EC_POINT_set_affine_coordinates(group, t.big_r, t.x, t.e, t.bn) != 1) {
        ERR_clear_error();
        return false;
    }
    set_bn(t.r, r);
    set_bn(t.s, s);
    set_bn(t.e, msg.data());
    bool ok = BN_mod_inverse(t.rinv, t.s, order, t.bn) != nullptr;  // s^-1 (0 < s < n)
    ok = ok && BN_nnmod(t.e, t.e, order, t.bn) == 1;
    ok = ok && BN_mod_mul(t.u1, t.e, t.rinv, order, t.bn) == 1;
    ok = ok && BN_mod_mul(t.u2, t.r, t.rinv, order, t.bn) == 1;
    ok = ok && EC_POINT_mul(group, t.q, t.u1, t.big_r, t.u2, t.bn) == 1;
    KEEL_ASSERT(ok);
    if (EC_POINT_is_at_infinity(group, t.q) == 1) return false;
    ok = EC_POINT_get_affine_coordinates(group, t.q, t.x, nullptr, t.bn) == 1;
    KEEL_ASSERT(ok);
    ok = BN_nnmod(t.x, t.x, order, t.bn) == 1;
    KEEL_ASSERT(ok);
    return BN_cmp(t.x, t.r) == 0;
}

Result<PublicKey, SigError> public_key_of(const Bytes32& secret) noexcept {
    if (!valid_scalar(Uint256::from_be_bytes(secret))) {
        return unexpected(SigError::invalid_secret_key);
    }
    Scratch& t = scratch();
    BnPtr d(BN_bin2bn(secret.data(), 32, nullptr));
    KEEL_ASSERT(d != nullptr);
    const bool ok = EC_POINT_mul(g_group.group, t.q, d.get(), nullptr, nullptr, t.bn) == 1;
    KEEL_ASSERT(ok);
    return encode_point(t.q, t.bn);
}

Result<Address, SigError> address_of(const Bytes32& secret) noexcept {
    auto key = public_key_of(secret);
    if (!key) return unexpected(key.error());
    return public_key_to_address(*key);
}

Result<RecoverableSignature, SigError> sign_recoverable(const Hash32& msg,
                                                        const Bytes32& secret) noexcept {
    auto pub = public_key_of(secret);
    if (!pub) return unexpected(pub.error());
    PkeyPtr pkey = make_keypair(secret, *pub);

    // ECDSA over the 32-byte hash as given (EVP_PKEY_sign does not hash its input).
    PkeyCtxPtr sctx(EVP_PKEY_CTX_new_from_pkey(nullptr, pkey.get(), nullptr));
    KEEL_ASSERT(sctx != nullptr);
    std::uint8_t der[80];  // a DER P-256 signature has at most 72 bytes
    std::size_t der_len = sizeof der;
    const bool signed_ok = EVP_PKEY_sign_init(sctx.get()) == 1 &&
                           EVP_PKEY_sign(sctx.get(), der, &der_len, msg.data(), msg.size()) == 1;
    KEEL_ASSERT(signed_ok);
    const std::uint8_t* p = der;
    SigPtr sig(d2i_ECDSA_SIG(nullptr, &p, static_cast<long>(der_len)));
    KEEL_ASSERT(sig != nullptr);
    const BIGNUM* sig_r = nullptr;
    const BIGNUM* sig_s = nullptr;
    ECDSA_SIG_get0(sig.get(), &sig_r, &sig_s);
    std::uint8_t buf[32];
    RecoverableSignature out;
    const int r_len = BN_bn2binpad(sig_r, buf, 32);
    KEEL_ASSERT(r_len == 32);
    out.r = Uint256::load_be(buf);
    const int s_len = BN_bn2binpad(sig_s, buf, 32);
    KEEL_ASSERT(s_len == 32);
    out.s = Uint256::load_be(buf);

    // EIP-2 low s: (r, n - s) is the same signature with R negated (the parity bit flips, which
    // the search below finds).
    if (out.s > kHalfOrder) out.s = kOrder - out.s;
    for (std::uint8_t id = 0; id < 4; ++id) {
        auto key = recover_public_key(msg, out.r, out.s, id);
        if (key && *key == *pub) {
            out.recovery_id = id;
            return out;
        }
    }
    KEEL_ASSERT(!"a valid ECDSA signature recovers to its key for one recovery id");
    return unexpected(SigError::no_public_key);
}

}  // namespace keel::crypto::secp256r1
