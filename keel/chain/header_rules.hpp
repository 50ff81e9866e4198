#pragma once
/// The rules a header must meet against its parent, before its body is executed: number,
/// timestamp, gas limit, extra data, the fields its fork requires, EIP-1559's base fee,
/// EIP-4844's excess blob gas, and the Merge's zeros (EIP-3675). execution-specs,
/// src/ethereum/<fork>/fork.py, validate_header().
///
/// Before the Merge the difficulty must be the proof-of-work rule's (difficulty.hpp); the seal
/// itself (ethash) is not checked.
#include <array>
#include <cstdint>

#include "keel/chain/errors.hpp"
#include "keel/common/result.hpp"
#include "keel/eth/chain_config.hpp"
#include "keel/eth/header.hpp"

namespace keel::chain {

/// EIP-1559 constants.
inline constexpr std::uint64_t kElasticityMultiplier = 2;
inline constexpr std::uint64_t kBaseFeeMaxChangeDenominator = 8;
inline constexpr std::uint64_t kInitialBaseFee = 1'000'000'000;
/// Yellow paper §4.3.4: the gas limit moves by less than parent/1024 per block, and stays at
/// or above 5,000.
inline constexpr std::uint64_t kGasLimitBoundDivisor = 1024;
inline constexpr std::uint64_t kMinGasLimit = 5000;
/// The largest gas limit a header may carry (geth's MaxGasLimit, 2^63 - 1).
inline constexpr std::uint64_t kMaxGasLimit = 0x7fff'ffff'ffff'ffffULL;
/// EIP-779: the DAO fork block and the 9 after it carry this extra data.
inline constexpr std::array<std::uint8_t, 13> kDaoExtraData = {'d', 'a', 'o', '-', 'h', 'a', 'r',
                                                               'd', '-', 'f', 'o', 'r', 'k'};
inline constexpr std::uint64_t kDaoExtraDataBlocks = 10;
/// EIP-7918 (Osaka): the blob base fee's floor relative to the execution base fee.
inline constexpr std::uint64_t kBlobBaseCost = 8192;

/// The base fee a child of `parent` must carry when the child is of fork `fork` (London or
/// later): INITIAL_BASE_FEE on the first London block, else EIP-1559's update from the parent's
/// gas used against its target (gas limit / 2).
Uint256 expected_base_fee(const eth::Header& parent, eth::Fork parent_fork, eth::Fork fork);

/// The excess blob gas a child of `parent` must carry (EIP-4844, with `params` of the child's
/// fork; from Osaka EIP-7918's reserve price, which prices the parent's blobs with the child's
/// update fraction too: execution-specs' BPO forks each compute it with their own). Zero when
/// the parent is before Cancun.
std::uint64_t expected_excess_blob_gas(const eth::Header& parent, eth::Fork fork,
                                       const eth::BlobParams& params);

/// Checks `header` against `parent` (whose hash the caller has matched with the header's
/// parent_hash) under `config`. Errors: wrong_fields, wrong_number, timestamp_not_after_parent,
/// extra_data_too_long, wrong_difficulty, gas_limit_too_big, gas_limit_out_of_bounds,
/// gas_used_above_limit, wrong_base_fee, wrong_excess_blob_gas, wrong_dao_extra_data,
/// difficulty_after_merge, ommers_after_merge, proof_of_work_fields; the detail gives the
/// values. Also the rules an ommer's header must meet
/// against its own parent.
[[nodiscard]] Result<void, BlockError> validate_header(const eth::Header& header,
                                                       const eth::Header& parent,
                                                       const eth::ChainConfig& config);

}  // namespace keel::chain
