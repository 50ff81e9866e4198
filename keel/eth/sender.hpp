#pragma once
/// Sender recovery: who signed a transaction (Yellow Paper §4.2 and Appendix F), and who signed
/// an EIP-7702 authorization.
///
/// Recovery is lazy, cached and parallel in batches (DESIGN.md §1, eth): a transaction's hash
/// never needs its sender; sender() recovers on first use, computing the signing hash only then,
/// and publishes the address into the transaction once (SenderSlot: atomic, first writer wins),
/// so the second call costs an acquire load (Transaction::cached_sender()). recover_senders()
/// does a whole block on oneTBB's pool. Any number of threads may recover the same transactions
/// at once: they may each do the work, but they all return the same address and the published
/// one is written once. Only this module can publish: a holder of a const Transaction cannot
/// plant a sender.
///
/// The curve is the process-wide keel::crypto::signature_algorithm() (secp256k1 unless
/// `--signature-algorithm` chose secp256r1 at start-up), read once per call or per batch.
///
/// What is checked here: the v / y_parity form needed to pick the signing hash and the parity
/// (legacy v is 27, 28 or EIP-155's chain_id * 2 + 35/36; typed y_parity is 0 or 1), r and s in
/// [1, n-1], and that the signature recovers a public key. Fork rules (EIP-2's s <= n/2 from
/// Homestead, the chain id) are validate()'s (tx_validation.hpp): sender() accepts a high s, as
/// a Frontier transaction may carry one.
///
/// Errors (eth::Error, offsets as Transaction::offset_of()):
///   invalid_signature_values, field v / y_parity / r / s: a value out of range
///   invalid_signature, field none: the signature recovers no public key (EC_RECOVERY_FAIL)
/// A failed recovery caches nothing.

#include <cstddef>
#include <optional>
#include <span>

#include "keel/common/bytes.hpp"
#include "keel/common/result.hpp"
#include "keel/eth/errors.hpp"
#include "keel/eth/transaction.hpp"

namespace keel::eth {

/// The sender of `tx`: the published address if there is one, otherwise recovered from the
/// signature over tx.signing_hash() and published. Thread-safe.
[[nodiscard]] Result<Address, Error> sender(const Transaction& tx) noexcept;

/// Recovers the sender of every transaction of `txs` that has none published, and the
/// authorities of every set-code transaction that has none (authorities()), spread over the
/// oneTBB pool in chunks of several transactions, and publishes what recovers. Returns the
/// number of transactions whose sender is known afterwards: txs.size() when every signature
/// recovered; otherwise sender() on the others names their error. When everything is published
/// already it returns without starting a parallel loop. Other threads may read or recover the
/// same transactions meanwhile. Throws only std::bad_alloc.
std::size_t recover_senders(std::span<const Transaction> txs);

/// As above, and writes each transaction's outcome (sender() of it) to the same position of
/// `out`, whose size must equal txs.size() (asserted).
void recover_senders(std::span<const Transaction> txs, std::span<Result<Address, Error>> out);

/// The authority of an EIP-7702 authorization (https://eips.ethereum.org/EIPS/eip-7702): the
/// address that signed keccak256(0x05 || rlp([chain_id, address, nonce])), with the EIP's
/// signature rules: y_parity 0 or 1, r and s in [1, n-1] and s <= n/2 (EIP-2).
/// Errors: invalid_signature_values with field authorization_y_parity / authorization_r /
/// authorization_s, or invalid_signature with field authorization. The offset is 0: an
/// Authorization value does not know where it was decoded from (a caller that does adds it).
/// Chain id and nonce checks, which need the chain and the state, are the processor's; a
/// failed authorization is skipped there, not fatal to the transaction.
[[nodiscard]] Result<Address, Error> authority(const Authorization& auth) noexcept;

/// The authority of each authorization of `tx`, in list order (nullopt where authority() fails;
/// empty for a transaction of another type): the list published in the transaction if there is
/// one, otherwise recovered and published (AuthoritySlot), so that a body kept decoded is
/// recovered once however often its block is replayed. The span lives as long as `tx` (a copy
/// carries its own). Thread-safe. Throws only std::bad_alloc.
[[nodiscard]] std::span<const std::optional<Address>> authorities(const Transaction& tx);

}  // namespace keel::eth
