#pragma once
/// The transactions of a generated beacon block's execution payload: real signed EIP-2718
/// envelopes (keel/devnet/signer.hpp, the devnet's sender keys, chain id 1) whose sizes follow a
/// busy mainnet block: mostly small, some medium, a few large.
///
/// Sizes (envelope bytes, drawn per transaction; the class counts are exact and their positions
/// shuffled):
///   small   78%  120-300 B    transfers and simple calls (and every blob transaction)
///   medium  18%  300-1000 B   swaps and multi-calls
///   large    4%  1000-10000 B rollup batches and big calls
/// Each envelope lands within a few bytes of its drawn size, and always in [100, 10240] bytes.
///
/// Types (of the non-blob transactions): legacy 12%, access-list 2%, set-code 3% (Prague only),
/// dynamic-fee the rest. Blob transactions carry two versioned hashes each, those of the block's
/// KZG commitments (EIP-4844 kzg_to_versioned_hash), in order.
///
/// Every transaction passes eth::validate() at the payload's fork for chain id 1, its fee caps
/// are at least the payload's base fee, and eth::sender() recovers the signing account; sender
/// i % 256 signs transaction i, with consecutive nonces when a sender signs more than one.
/// The output is a pure function of the arguments; transactions are signed on the oneTBB pool.

#include <cstdint>
#include <span>
#include <vector>

#include "keel/beacon/common_types.hpp"
#include "keel/common/bytes.hpp"
#include "keel/devnet/accounts.hpp"
#include "keel/eth/fork.hpp"

namespace keel::devnet {

/// Blob versioned hashes per blob transaction of a generated payload.
inline constexpr std::size_t kBlobsPerPayloadTx = 2;

/// What the payload's transactions depend on.
struct PayloadTxParams {
    std::uint64_t seed = 0;                              ///< the block's seed
    std::uint64_t count = 0;                             ///< number of transactions
    eth::Fork fork = eth::Fork::cancun;                  ///< Cancun (deneb) or Prague (electra)
    std::uint64_t base_fee = 0;                          ///< the payload's base fee per gas, in wei
    std::span<const beacon::KZGCommitment> commitments;  ///< the block's blob commitments
};

/// The signed transactions and the gas they are charged.
struct PayloadTxs {
    std::vector<Bytes> envelopes;   ///< EIP-2718 envelopes, in block order
    std::uint64_t charged_gas = 0;  ///< sum of charged_gas() (tx_gen.hpp) over them
};

/// The transactions of `params`. ceil(commitments / kBlobsPerPayloadTx) of them, at shuffled
/// positions, are blob transactions (precondition, asserted: that many <= count).
PayloadTxs make_payload_transactions(const PayloadTxParams& params, const AccountSet& accounts);

}  // namespace keel::devnet
