#include "keel/devnet/signer.hpp"

#include <utility>

#include "keel/common/assert.hpp"
#include "keel/common/uint256.hpp"
#include "keel/crypto/secp256k1.hpp"

namespace keel::devnet {
namespace {

// v with y_parity 0: legacy EIP-155 chain_id * 2 + 35, legacy pre-155 27, typed 0.
Uint256 v_base(const eth::TransactionFields& f, LegacyV legacy_v) noexcept {
    if (f.type != eth::TxType::legacy) return 0;
    if (legacy_v == LegacyV::pre_eip155) return 27;
    return Uint256(f.chain_id) * 2 + 35;
}

eth::Transaction decode_or_die(const eth::TransactionFields& f) {
    auto tx = eth::decode_transaction(eth::encode(f));
    KEEL_ASSERT(tx.has_value());
    return std::move(*tx);
}

crypto::RecoverableSignature sign_or_die(const Hash32& msg, const Bytes32& secret) noexcept {
    auto sig = crypto::secp256k1::sign_recoverable(msg, secret);
    KEEL_ASSERT(sig.has_value());
    // libsecp256k1 signs with low s (EIP-2); ids 2 and 3 (R.x >= n) have probability ~2^-128
    // and cannot be carried by a transaction.
    KEEL_ASSERT(sig->recovery_id <= 1);
    return *sig;
}

}  // namespace

eth::Transaction decode_unsigned(eth::TransactionFields fields, LegacyV legacy_v) {
    // The signing hash depends on v only through the EIP-155 chain id; r and s are not in it.
    fields.v = v_base(fields, legacy_v);
    fields.r = 1;
    fields.s = 1;
    return decode_or_die(fields);
}

eth::Transaction sign_transaction(eth::TransactionFields fields, const Bytes32& secret,
                                  LegacyV legacy_v) {
    const Hash32 h = decode_unsigned(fields, legacy_v).signing_hash();
    const crypto::RecoverableSignature sig = sign_or_die(h, secret);
    fields.v = v_base(fields, legacy_v) + sig.recovery_id;
    fields.r = sig.r;
    fields.s = sig.s;
    return decode_or_die(fields);
}

eth::Authorization sign_authorization(eth::Authorization auth, const Bytes32& secret) {
    const crypto::RecoverableSignature sig = sign_or_die(auth.signing_hash(), secret);
    auth.y_parity = sig.recovery_id;
    auth.r = sig.r;
    auth.s = sig.s;
    return auth;
}

}  // namespace keel::devnet
