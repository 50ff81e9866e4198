#pragma once
/// Proof-of-work difficulty before the Merge: what a header's difficulty must be given its
/// parent. Yellow paper §4.3.4 (Frontier), EIP-2 (Homestead), EIP-100 (Byzantium: ommers and a
/// 9-second step), and the difficulty bomb with each fork's delay (EIP-649, EIP-1234, EIP-2384,
/// EIP-3554, EIP-4345, EIP-5133; ChainConfig::bomb_delay). execution-specs,
/// src/ethereum/<fork>/fork.py, calculate_block_difficulty().
///
/// The seal itself (ethash) is not checked: see header_rules.hpp.
#include <cstdint>

#include "keel/common/uint256.hpp"
#include "keel/eth/chain_config.hpp"
#include "keel/eth/header.hpp"

namespace keel::chain {

/// The smallest difficulty a proof-of-work block may have (yellow paper: 131,072).
inline constexpr std::uint64_t kMinimumDifficulty = 131'072;

/// The difficulty a block of fork `fork` (before Paris), with this number and timestamp, must
/// carry as a child of `parent`; `bomb_delay` is ChainConfig::bomb_delay() for the block.
/// Precondition: timestamp > parent.timestamp (checked before, by validate_header()).
Uint256 expected_difficulty(const eth::Header& parent, std::uint64_t number,
                            std::uint64_t timestamp, eth::Fork fork, std::uint64_t bomb_delay);

}  // namespace keel::chain
