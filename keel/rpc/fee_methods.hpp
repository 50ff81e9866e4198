#pragma once
/// Fees, as go-ethereum answers them:
/// - eth_gasPrice and eth_maxPriorityFeePerGas: geth's oracle: the 3 lowest effective tips of
///   each of the last 20 blocks (tips under 2 wei and the block producer's own transactions left
///   out; an empty block counts the last answer), their 60th percentile, at most 500 gwei;
///   eth_gasPrice adds the head's base fee. Computed once per head.
/// - eth_baseFee: the base fee of the block after the head (null before London);
///   eth_blobBaseFee: the head's blob base fee (null before Cancun).
/// - eth_feeHistory(blockCount, newestBlock, rewardPercentiles): per block, the base fee and
///   blob base fee (one more: the next block's), gas and blob gas used ratios, and the tips at
///   the given percentiles of the block's gas (transactions sorted by tip); at most 1,024 blocks
///   (more is clamped, as geth does) and 100 percentiles.

#include "keel/rpc/methods.hpp"

namespace keel::rpc {

/// Registers the methods above on `d`.
void add_fee_methods(Dispatcher& d, const NodeContext& node);

}  // namespace keel::rpc
