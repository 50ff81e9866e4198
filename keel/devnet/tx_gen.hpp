#pragma once
/// The parallel part of transaction generation: the content of one planned transaction, drawn
/// from its own random stream (seed, block number, position), then signed. A pure function of its
/// arguments, so any thread may make any transaction and the chain does not depend on how.
///
/// Content:
///   recipient   a sender account (60%), a contract address (30%) or a fresh address; a contract
///               creation (no recipient, data = init code) for 3% of types 0-2
///   value       zero (30%) or up to 5 ether
///   data        empty (35%), or a call: a 4-byte selector and 0-9 ABI-like words (addresses,
///               small numbers, full words), at most 292 bytes; init code: 32-300 bytes
///   fees        gas price / max fee in [1 gwei, 101 gwei): never below the base fee, which
///               starts at kInitialBaseFee and never rises (see block_gas_limit()); priority fee
///               up to 3 gwei and at most the max fee; blob fee cap in [1, 1 gwei]
///   access list type 1 always, types 2-4 for 30%: 1-3 entries of 0-4 storage keys
///   blobs       versioned hashes 0x01 || 31 random bytes (EIP-4844 VERSIONED_HASH_VERSION_KZG)
///   authorities for set-code: the planned authorities sign [chain id (0 for 10%), a contract
///               address, their planned nonce]
///   gas limit   intrinsic gas (from Prague at least the EIP-7623 floor), plus no slack (half the
///               time) or up to 100,000 more; always <= kTxGasCap

#include <cstdint>

#include "keel/devnet/accounts.hpp"
#include "keel/devnet/tx_plan.hpp"
#include "keel/eth/fork.hpp"
#include "keel/eth/transaction.hpp"

namespace keel::devnet {

/// Where a transaction goes: the chain and the block position it is made for.
struct TxSite {
    std::uint64_t seed = 0;              ///< the chain's seed
    std::uint64_t chain_id = 0;          ///< the chain's EIP-155 id
    std::uint64_t block = 0;             ///< the block number
    std::uint64_t index = 0;             ///< the position in the block
    eth::Fork fork = eth::Fork::london;  ///< the block's fork
};

/// The gas a transaction is charged when it does nothing but exist: intrinsic_gas(tx, fork),
/// and from Prague at least floor_data_gas(tx) (EIP-7623). The generated chain's receipts use
/// this as each transaction's gas used, as there is no execution.
std::uint64_t charged_gas(const eth::Transaction& tx, eth::Fork fork) noexcept;

/// The transaction planned by `plan` at `site`, signed by accounts.senders[plan.sender] (see the
/// top of this file for its content). It passes eth::validate(tx, site.fork, site.chain_id).
eth::Transaction make_transaction(const TxPlan& plan, const TxSite& site,
                                  const AccountSet& accounts);

}  // namespace keel::devnet
