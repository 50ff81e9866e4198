#pragma once
/// The bare libsecp256k1 reference for the recovery benchmarks: what any client must do per
/// signature to get an address, written directly against libsecp256k1 with nothing of keel's
/// recovery code in between. For benchmarks that link keel::crypto (which brings libsecp256k1).

#include <secp256k1.h>
#include <secp256k1_recovery.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>

#include "keel/common/bytes.hpp"
#include "keel/crypto/keccak.hpp"
#include "keel/crypto/random.hpp"

namespace keel::testutil {

/// A context set up as keel's: created once per process, randomised once.
inline const secp256k1_context* bare_secp256k1_context() {
    static secp256k1_context* ctx = [] {
        secp256k1_context* c = secp256k1_context_create(SECP256K1_CONTEXT_NONE);
        Bytes32 seed;
        if (!crypto::random_bytes(seed.mutable_view()) ||
            secp256k1_context_randomize(c, seed.data()) != 1)
            std::abort();
        return c;
    }();
    return ctx;
}

/// Parse the 64-byte compact signature `rs` (r || s, big-endian) with recovery id `recid`,
/// secp256k1_ecdsa_recover on `msg`, serialise the key uncompressed, Keccak-256 of x || y, last
/// 20 bytes. The zero address when parsing or recovery fails.
inline Address bare_recover_address(const secp256k1_context* ctx, const Hash32& msg,
                                    const std::uint8_t rs[64], int recid) {
    secp256k1_ecdsa_recoverable_signature sig;
    secp256k1_pubkey pk;
    Address a{};
    if (secp256k1_ecdsa_recoverable_signature_parse_compact(ctx, &sig, rs, recid) != 1 ||
        secp256k1_ecdsa_recover(ctx, &pk, &sig, msg.data()) != 1)
        return a;
    std::uint8_t ser[65];
    std::size_t len = sizeof ser;
    secp256k1_ec_pubkey_serialize(ctx, ser, &len, &pk, SECP256K1_EC_UNCOMPRESSED);
    const Hash32 h = crypto::keccak256(BytesView(ser + 1, 64));
    std::memcpy(a.data(), h.data() + 12, 20);
    return a;
}

}  // namespace keel::testutil
