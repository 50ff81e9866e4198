#pragma once
/// The sequential part of transaction generation: for each transaction of a block, in order,
/// its type, its sender and that sender's next nonce, and for set-code transactions the
/// authorities and their next nonces. Everything else about a transaction (recipient, data,
/// fees, signature) is drawn later, independently per transaction, on many threads.
///
/// Type mix (percent of the block's transactions, drawn per transaction):
///   London (before the merge)  legacy 25, access-list 15, dynamic-fee 60
///   Prague (from the merge)    legacy 12, access-list 8, dynamic-fee 48, blob 14, set-code 18
/// A legacy transaction is pre-EIP-155 (v = 27/28) with probability 1/10. A blob transaction
/// carries 1 or 2 blobs; one that would take the block beyond kTargetBlobsPerBlock blobs
/// becomes a dynamic-fee transaction instead, so the excess blob gas stays zero.

#include <array>
#include <cstdint>
#include <vector>

#include "keel/eth/fork.hpp"
#include "keel/eth/transaction.hpp"

namespace keel::devnet {

/// What the planner decided for one transaction.
struct TxPlan {
    eth::TxType type = eth::TxType::legacy;          ///< the EIP-2718 type
    bool eip155 = true;                              ///< legacy: v carries the chain id
    std::uint8_t blobs = 0;                          ///< blob: number of versioned hashes (1-2)
    std::uint8_t authorizations = 0;                 ///< set-code: number of authorizations (1-2)
    std::uint16_t sender = 0;                        ///< index into AccountSet::senders
    std::uint64_t nonce = 0;                         ///< the sender's nonce for this transaction
    std::array<std::uint16_t, 2> authority{};        ///< indices into AccountSet::authorities
    std::array<std::uint64_t, 2> authority_nonce{};  ///< each authority's nonce at that point
};

/// Plans the transactions of consecutive blocks, keeping every account's next nonce. Not
/// thread-safe; deterministic for a given seed and sequence of calls.
class TxPlanner {
  public:
    /// A planner for the chain of `seed`, every nonce at zero.
    explicit TxPlanner(std::uint64_t seed);

    /// Appends the plans of the `count` transactions of block `number` at `fork` to `out`.
    /// Blocks must be planned in order, each once.
    void plan_block(std::uint64_t number, eth::Fork fork, std::uint64_t count,
                    std::vector<TxPlan>& out);

    /// The next nonce of sender `i` (the number of transactions planned for it so far).
    std::uint64_t sender_nonce(std::size_t i) const noexcept { return sender_nonce_[i]; }

  private:
    std::uint64_t seed_;
    std::vector<std::uint64_t> sender_nonce_;
    std::vector<std::uint64_t> authority_nonce_;
};

}  // namespace keel::devnet
