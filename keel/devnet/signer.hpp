#pragma once
/// Signing transactions and EIP-7702 authorizations with a known secret, for generated chains.
///
/// The signing hash is the one keel's decoder computes (Transaction::signing_hash(): YP §4.2 and
/// EIP-155 for legacy transactions, EIP-2718 for typed ones; Authorization::signing_hash() for
/// EIP-7702), so what is signed here is exactly what eth::sender() recovers.
///
/// Preconditions (asserted, they are programming errors here): the secret is valid, and the
/// fields are within the decoder's rules (a blob or set-code transaction has a recipient).
/// Thread-safe: no shared state but libsecp256k1's read-only context.

#include "keel/common/bytes.hpp"
#include "keel/eth/transaction.hpp"

namespace keel::devnet {

/// How a legacy transaction's v carries the chain.
enum class LegacyV : std::uint8_t {
    eip155,      ///< v = chain_id * 2 + 35 + y_parity (EIP-155; the signing hash covers chain_id)
    pre_eip155,  ///< v = 27 + y_parity (YP §4.2; valid on every chain)
};

/// The transaction of `fields` decoded with a placeholder signature (v for `legacy_v` or
/// y_parity 0, r = s = 1): enough for its signing hash and intrinsic gas, not for a sender.
eth::Transaction decode_unsigned(eth::TransactionFields fields, LegacyV legacy_v = LegacyV::eip155);

/// `fields` signed with `secret` (v, r, s are overwritten; legacy v per `legacy_v`), decoded:
/// its hash is set and eth::sender() recovers the secret's address.
eth::Transaction sign_transaction(eth::TransactionFields fields, const Bytes32& secret,
                                  LegacyV legacy_v = LegacyV::eip155);

/// `auth` with y_parity, r and s set to the signature of auth.signing_hash() by `secret`
/// (EIP-7702): eth::authority() recovers the secret's address.
eth::Authorization sign_authorization(eth::Authorization auth, const Bytes32& secret);

}  // namespace keel::devnet
