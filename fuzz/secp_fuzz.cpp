// secp fuzz target: ECDSA public-key recovery on secp256k1 (libsecp256k1) and secp256r1 (OpenSSL
// EC arithmetic) with arbitrary (hash, r, s, recovery id), and secp256k1 public-key parsing.
//
// Input: hash[32] r[32] s[32] id[1] mode[1], zero-padded when shorter; after byte 98 the rest
// goes to parse_public_key. Modes (mode % 3):
//   0  the values as given (mostly out of range: checks the error order)
//   1  r and s reduced mod n, the id mod 4 (reaches the curve arithmetic on almost every input)
//   2  sign: the r bytes are a secret key, the hash is signed and recovered (both curves)
// Properties, each curve:
//   - errors come in the documented order: invalid_r (r == 0 or r >= n), then invalid_s, then
//     invalid_recovery_id (id > 3); otherwise a key or no_public_key
//   - a recovered key gives the address keccak256(x || y)[12..32) through recover_address
//   - (r, n - s) with the other y parity recovers the same key (ECDSA's malleability: -s and -R)
//   - secp256k1: a recovered key passes validate_public_key and parses back from 04 || x || y
//   - a signature made by sign_recoverable recovers its signer's key
//   - parse_public_key on arbitrary bytes accepts only what validate_public_key accepts
// Aborts on any violation.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>

#include "keel/crypto/keccak.hpp"
#include "keel/crypto/secp256k1.hpp"
#include "keel/crypto/secp256r1.hpp"

namespace {

using keel::Address;
using keel::Bytes32;
using keel::BytesView;
using keel::Hash32;
using keel::Uint256;
using keel::crypto::PublicKey;
using keel::crypto::SigError;

void check(bool ok) {
    if (!ok) std::abort();
}

Bytes32 load32(const std::uint8_t* p) {
    Bytes32 out;
    std::memcpy(out.data(), p, 32);
    return out;
}

Address address_of_key(const PublicKey& key) {
    const Hash32 h = keel::crypto::keccak256(key.view());
    Address a;
    std::memcpy(a.data(), h.data() + 12, 20);
    return a;
}

/// One curve's recovery functions and order.
struct Curve {
    Uint256 order;
    keel::Result<PublicKey, SigError> (*recover)(const Hash32&, const Uint256&, const Uint256&,
                                                 std::uint8_t) noexcept;
    keel::Result<Address, SigError> (*address)(const Hash32&, const Uint256&, const Uint256&,
                                               std::uint8_t) noexcept;
    keel::Result<keel::crypto::RecoverableSignature, SigError> (*sign)(const Hash32&,
                                                                       const Bytes32&) noexcept;
    keel::Result<PublicKey, SigError> (*key_of)(const Bytes32&) noexcept;
    bool k1;
};

void check_k1_key(const PublicKey& key) {
    check(keel::crypto::secp256k1::validate_public_key(key).has_value());
    std::uint8_t tagged[65];
    tagged[0] = 0x04;
    std::memcpy(tagged + 1, key.data(), 64);
    auto parsed = keel::crypto::secp256k1::parse_public_key(BytesView(tagged, 65));
    check(parsed.has_value() && *parsed == key);
}

void recover_and_check(const Curve& c, const Hash32& msg, const Uint256& r, const Uint256& s,
                       std::uint8_t id) {
    auto key = c.recover(msg, r, s, id);
    auto addr = c.address(msg, r, s, id);
    if (r.is_zero() || r >= c.order) {
        check(!key && key.error() == SigError::invalid_r);
    } else if (s.is_zero() || s >= c.order) {
        check(!key && key.error() == SigError::invalid_s);
    } else if (id > 3) {
        check(!key && key.error() == SigError::invalid_recovery_id);
    } else if (!key) {
        check(key.error() == SigError::no_public_key);
    }
    check(key.has_value() == addr.has_value());
    if (!key) {
        check(addr.error() == key.error());
        return;
    }
    check(*addr == address_of_key(*key));
    if (c.k1) check_k1_key(*key);
    auto mirrored = c.recover(msg, r, c.order - s, static_cast<std::uint8_t>(id ^ 1));
    check(mirrored.has_value() && *mirrored == *key);
}

void sign_and_check(const Curve& c, const Hash32& msg, const Bytes32& secret) {
    auto sig = c.sign(msg, secret);
    auto key = c.key_of(secret);
    check(sig.has_value() == key.has_value());
    if (!sig) {
        check(sig.error() == SigError::invalid_secret_key);
        return;
    }
    auto back = c.recover(msg, sig->r, sig->s, sig->recovery_id);
    check(back.has_value() && *back == *key);
    if (c.k1) check_k1_key(*key);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    std::uint8_t in[98] = {};
    std::memcpy(in, data, size < sizeof in ? size : sizeof in);
    namespace k1 = keel::crypto::secp256k1;
    namespace r1 = keel::crypto::secp256r1;
    static const Curve curves[] = {
        {k1::kOrder, k1::recover_public_key, k1::recover_address, k1::sign_recoverable,
         k1::public_key_of, true},
        {r1::kOrder, r1::recover_public_key, r1::recover_address, r1::sign_recoverable,
         r1::public_key_of, false},
    };
    Hash32 msg;
    std::memcpy(msg.data(), in, 32);
    const Bytes32 r_bytes = load32(in + 32);
    const Uint256 r_raw = Uint256::from_be_bytes(r_bytes);
    const Uint256 s_raw = Uint256::from_be_bytes(load32(in + 64));
    const std::uint8_t id = in[96];
    for (const Curve& c : curves) {
        switch (in[97] % 3) {
            case 0:
                recover_and_check(c, msg, r_raw, s_raw, id);
                break;
            case 1:
                recover_and_check(c, msg, r_raw % c.order, s_raw % c.order,
                                  static_cast<std::uint8_t>(id & 3));
                break;
            default:
                sign_and_check(c, msg, r_bytes);
                break;
        }
    }
    if (size > sizeof in) {
        const BytesView rest(data + sizeof in, size - sizeof in);
        if (auto key = k1::parse_public_key(rest)) check_k1_key(*key);
    }
    return 0;
}
