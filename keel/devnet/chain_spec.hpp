#pragma once
/// What chain `keel devnet gen` makes: its length, load, merge point, chain id and seed, and the
/// rules derived from them (the fork of each block, the block gas limit).
///
/// Two forks are used: London before the merge block (proof of work, EIP-1559 base fee,
/// transaction types 0-2) and Prague from it (proof of stake, withdrawals, blobs, requests hash,
/// transaction types 0-4). See docs/devnet.md.

#include <cstdint>
#include <string_view>

#include "keel/common/result.hpp"
#include "keel/eth/fork.hpp"

namespace keel::devnet {

/// The most blocks a chain may be asked to have (mainnet had about 23 million in 2025).
inline constexpr std::uint64_t kMaxBlocks = 100'000'000;

/// The most transactions a block may be asked to hold.
inline constexpr std::uint64_t kMaxTxsPerBlock = 5000;

/// The largest chain id: EIP-155's v = chain_id * 2 + 36 must fit in 64 bits (EIP-2294's bound).
inline constexpr std::uint64_t kMaxChainId = (~std::uint64_t{0} - 36) / 2;

/// The gas limit of every block when the load is small (mainnet's of 2021-2024).
inline constexpr std::uint64_t kDefaultBlockGasLimit = 30'000'000;

/// An upper bound of every generated transaction's gas limit (its intrinsic gas is at most
/// ~106,000 and the slack above it at most 100,000).
inline constexpr std::uint64_t kTxGasCap = 250'000;

/// The chain to generate.
struct ChainSpec {
    std::uint64_t blocks = 0;         ///< N: blocks 0..N-1 (1..kMaxBlocks); 0 is the genesis
    std::uint64_t txs_per_block = 0;  ///< M: transactions in every block but the genesis
    std::uint64_t merge_at = 0;       ///< K: the first proof-of-stake block, 0..N (N: none)
    std::uint64_t chain_id = 1337;    ///< EIP-155 chain id, 1..kMaxChainId
    std::uint64_t seed = 1;           ///< every key and every arbitrary value derive from it
};

/// Why a spec is refused (docs/errors.md, "devnet").
enum class Errc : std::uint8_t {
    no_blocks,           ///< blocks is 0
    too_many_blocks,     ///< blocks > kMaxBlocks
    merge_after_end,     ///< merge_at > blocks
    too_many_txs,        ///< txs_per_block > kMaxTxsPerBlock
    chain_id_zero,       ///< chain_id is 0
    chain_id_too_large,  ///< chain_id > kMaxChainId
};

/// A phrase naming the field and the rule, e.g. "merge block is beyond the end of the chain
/// (want merge_at <= blocks)".
std::string_view describe(Errc e) noexcept;

/// A refused chain spec: the code alone. A spec is a value the caller built, not an input read at
/// an offset, so there is no position to carry; the CLI names the option (cmd_devnet.cpp).
using Error = Errc;

/// Checks `spec` against the rules of Errc, in that order; the first failure is returned.
[[nodiscard]] Result<void, Error> check(const ChainSpec& spec) noexcept;

/// The fork of block `number`: London below spec.merge_at, Prague from it.
constexpr eth::Fork fork_at(const ChainSpec& spec, std::uint64_t number) noexcept {
    return number < spec.merge_at ? eth::Fork::london : eth::Fork::prague;
}

/// The gas limit of every block: kDefaultBlockGasLimit, raised to 2 * txs_per_block * kTxGasCap
/// when that is more, so that gas used never exceeds the EIP-1559 target (half the limit) and
/// the base fee never rises (EIP-1559), which keeps every fee cap (at least the initial base
/// fee) valid.
constexpr std::uint64_t block_gas_limit(const ChainSpec& spec) noexcept {
    const std::uint64_t need = 2 * spec.txs_per_block * kTxGasCap;
    return need > kDefaultBlockGasLimit ? need : kDefaultBlockGasLimit;
}

}  // namespace keel::devnet
