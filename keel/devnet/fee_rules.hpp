#pragma once
/// The header rules that carry state from parent to child: the EIP-1559 base fee and the
/// EIP-4844 excess blob gas (with Prague's blob target, EIP-7691).

#include <cstdint>

namespace keel::devnet {

/// EIP-1559 INITIAL_BASE_FEE: the base fee of the genesis (a London genesis, as a devnet's is).
inline constexpr std::uint64_t kInitialBaseFee = 1'000'000'000;
/// EIP-1559 BASE_FEE_MAX_CHANGE_DENOMINATOR.
inline constexpr std::uint64_t kBaseFeeMaxChangeDenominator = 8;
/// EIP-1559 ELASTICITY_MULTIPLIER: the gas target is the limit over this.
inline constexpr std::uint64_t kElasticityMultiplier = 2;

/// EIP-4844 GAS_PER_BLOB.
inline constexpr std::uint64_t kGasPerBlob = 131072;
/// EIP-7691 (Prague) target blobs per block.
inline constexpr std::uint64_t kTargetBlobsPerBlock = 6;
/// EIP-7691 (Prague) maximum blobs per block.
inline constexpr std::uint64_t kMaxBlobsPerBlock = 9;

/// The base fee of a block whose parent had `parent_base_fee`, `parent_gas_used` and
/// `parent_gas_limit` (EIP-1559, "base fee per gas" in the specification's validation code):
/// unchanged at the target; above it, up by max(1, base * excess / target / 8); below it, down
/// by base * shortfall / target / 8.
constexpr std::uint64_t next_base_fee(std::uint64_t parent_base_fee, std::uint64_t parent_gas_used,
                                      std::uint64_t parent_gas_limit) noexcept {
    __extension__ typedef unsigned __int128 U128;
    const std::uint64_t target = parent_gas_limit / kElasticityMultiplier;
    if (target == 0 || parent_gas_used == target) return parent_base_fee;
    if (parent_gas_used > target) {
        const U128 delta = static_cast<U128>(parent_base_fee) * (parent_gas_used - target) /
                           target / kBaseFeeMaxChangeDenominator;
        return parent_base_fee + (delta > 1 ? static_cast<std::uint64_t>(delta) : 1);
    }
    const U128 delta = static_cast<U128>(parent_base_fee) * (target - parent_gas_used) / target /
                       kBaseFeeMaxChangeDenominator;
    return parent_base_fee - static_cast<std::uint64_t>(delta);
}

/// The excess blob gas of a block whose parent had `parent_excess_blob_gas` and
/// `parent_blob_gas_used` (EIP-4844 calc_excess_blob_gas; zero for both when the parent predates
/// Cancun): what exceeds the target carries over, nothing below it.
constexpr std::uint64_t next_excess_blob_gas(std::uint64_t parent_excess_blob_gas,
                                             std::uint64_t parent_blob_gas_used) noexcept {
    const std::uint64_t target = kTargetBlobsPerBlock * kGasPerBlob;
    const std::uint64_t total = parent_excess_blob_gas + parent_blob_gas_used;
    return total < target ? 0 : total - target;
}

}  // namespace keel::devnet
