#pragma once
/// The pieces of a generated block (private to keel/devnet): the body with the roots that need
/// no parent (built in parallel per block), and the header, which needs its parent (built in
/// block order).

#include <cstdint>
#include <optional>
#include <vector>

#include "keel/common/bytes.hpp"
#include "keel/devnet/accounts.hpp"
#include "keel/devnet/chain_spec.hpp"
#include "keel/eth/header.hpp"
#include "keel/eth/transaction.hpp"
#include "keel/eth/withdrawal.hpp"

namespace keel::devnet::detail {

/// The unix time of the genesis; block n is 12 seconds per block later.
inline constexpr std::uint64_t kGenesisTimestamp = 1'700'000'000;
/// Seconds between blocks (a proof-of-stake slot).
inline constexpr std::uint64_t kBlockTime = 12;
/// Withdrawals in every block from the merge on (but a genesis).
inline constexpr std::uint64_t kWithdrawalsPerBlock = 4;
/// Difficulty of proof-of-work blocks: this, plus or minus up to 2048.
inline constexpr std::uint64_t kBaseDifficulty = 131072;
/// Before the merge, block n carries one ommer when n % kOmmerPeriod == kOmmerPhase.
inline constexpr std::uint64_t kOmmerPeriod = 16;
inline constexpr std::uint64_t kOmmerPhase = 8;

/// A block body and the values its header takes from it.
struct PreparedBody {
    std::uint64_t number = 0;                                 ///< the block number
    std::vector<eth::Transaction> transactions;               ///< signed, in block order
    std::optional<std::vector<eth::Withdrawal>> withdrawals;  ///< from the merge
    Hash32 transactions_root;
    Hash32 receipts_root;                    ///< of the synthesized receipts
    std::optional<Hash32> withdrawals_root;  ///< from the merge
    std::uint64_t gas_used = 0;              ///< sum of charged_gas() over the transactions
    std::uint64_t blob_gas_used = 0;         ///< kGasPerBlob per versioned hash
};

/// Block `number`'s body from its transactions: withdrawals (from the merge), the synthesized
/// receipts (status 1, cumulative charged gas, no logs) and the roots. Thread-safe.
PreparedBody prepare_body(const ChainSpec& spec, const AccountSet& accounts, std::uint64_t number,
                          std::vector<eth::Transaction> transactions);

/// What a header needs besides its body.
struct HeaderContext {
    const ChainSpec& spec;                ///< the chain
    const AccountSet& accounts;           ///< its miners
    std::uint64_t gas_limit = 0;          ///< block_gas_limit(spec)
    const eth::Header* parent = nullptr;  ///< nullptr for the genesis
    Hash32 parent_hash;                   ///< the parent's hash (ignored for the genesis)
};

/// The header of `body`'s block; appends the block's ommer, if it has one, to `ommers`.
eth::Header make_header(const HeaderContext& ctx, const PreparedBody& body,
                        std::vector<eth::Header>& ommers);

}  // namespace keel::devnet::detail
