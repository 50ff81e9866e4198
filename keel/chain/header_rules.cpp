#include "keel/chain/header_rules.hpp"

#include <algorithm>
#include <string>

#include "keel/chain/difficulty.hpp"
#include "keel/common/hex.hpp"

namespace keel::chain {

namespace {

using eth::Fork;

/// How many of the optional header fields (header.hpp) the fork requires.
std::size_t optional_fields_of(Fork f) noexcept {
    if (f >= Fork::prague) return 6;    // requests hash (EIP-7685)
    if (f >= Fork::cancun) return 5;    // blob gas used, excess blob gas, beacon root
    if (f >= Fork::shanghai) return 2;  // withdrawals root
    if (f >= Fork::london) return 1;    // base fee
    return 0;
}

std::unexpected<BlockError> fail(Errc code, const eth::Header& h, std::string detail = {}) {
    return std::unexpected(
        BlockError{.code = code, .number = h.number, .detail = std::move(detail)});
}

std::string versus(const std::string& got, const std::string& want) {
    return got + ", expected " + want;
}

std::string dec(const Uint256& v) {
    return v.to_dec();
}

}  // namespace

Uint256 expected_base_fee(const eth::Header& parent, Fork parent_fork, Fork fork) {
    if (fork < Fork::london) return 0;
    if (parent_fork < Fork::london || !parent.base_fee_per_gas) return kInitialBaseFee;
    const Uint256& base = *parent.base_fee_per_gas;
    const std::uint64_t target = parent.gas_limit / kElasticityMultiplier;
    if (target == 0 || parent.gas_used == target) return base;
    if (parent.gas_used > target) {
        const Uint256 delta = base * Uint256(parent.gas_used - target) / Uint256(target) /
                              Uint256(kBaseFeeMaxChangeDenominator);
        return base + (delta.is_zero() ? Uint256(1) : delta);
    }
    const Uint256 delta = base * Uint256(target - parent.gas_used) / Uint256(target) /
                          Uint256(kBaseFeeMaxChangeDenominator);
    return base - delta;
}

std::uint64_t expected_excess_blob_gas(const eth::Header& parent, Fork fork,
                                       const eth::BlobParams& params) {
    if (fork < Fork::cancun) return 0;
    const std::uint64_t excess = parent.excess_blob_gas.value_or(0);
    const std::uint64_t used = parent.blob_gas_used.value_or(0);
    const std::uint64_t target = params.target * eth::kGasPerBlob;
    if (excess + used < target) return 0;
    if (fork >= Fork::osaka && params.max > 0 && parent.base_fee_per_gas) {
        // EIP-7918: while blobs cost less than kBlobBaseCost execution gas, the excess only
        // grows (by the share of the blob gas above the target). The parent's blob price is
        // taken with this block's update fraction, as execution-specs' BPO forks do.
        // kBlobBaseCost * base_fee > kGasPerBlob * blob_fee, in unbounded integers as the EIP
        // states it: both sides divided by kBlobBaseCost, so that neither product wraps (the
        // base fee is any 256-bit header value, the blob fee saturates at 2^256 - 1).
        static_assert(eth::kGasPerBlob % kBlobBaseCost == 0);
        constexpr std::uint64_t kRatio = eth::kGasPerBlob / kBlobBaseCost;
        const Uint256 parent_blob_fee = eth::blob_base_fee(excess, params.base_fee_update_fraction);
        if (parent_blob_fee <= Uint256::max() / Uint256(kRatio) &&
            *parent.base_fee_per_gas > Uint256(kRatio) * parent_blob_fee)
            return excess + used * (params.max - params.target) / params.max;
    }
    return excess + used - target;
}

Result<void, BlockError> validate_header(const eth::Header& h, const eth::Header& parent,
                                         const eth::ChainConfig& config) {
    const Fork fork = config.fork_at(h.number, h.timestamp);
    const Fork parent_fork = config.fork_at(parent.number, parent.timestamp);
    if (h.optional_field_count() != optional_fields_of(fork))
        return fail(Errc::wrong_fields, h,
                    std::to_string(h.optional_field_count()) + " fields after the nonce, " +
                        std::string(eth::name(fork)) + " has " +
                        std::to_string(optional_fields_of(fork)));
    if (h.number != parent.number + 1 || parent.number == ~std::uint64_t{0})
        return fail(Errc::wrong_number, h,
                    versus(std::to_string(h.number), std::to_string(parent.number) + " + 1"));
    if (h.timestamp <= parent.timestamp)
        return fail(Errc::timestamp_not_after_parent, h,
                    std::to_string(h.timestamp) + ", parent " + std::to_string(parent.timestamp));
    if (h.extra_data.size() > 32)
        return fail(Errc::extra_data_too_long, h, std::to_string(h.extra_data.size()) + " bytes");
    if (fork < Fork::paris) {
        const Uint256 want = expected_difficulty(parent, h.number, h.timestamp, fork,
                                                 config.bomb_delay(fork, h.number));
        if (h.difficulty != want)
            return fail(Errc::wrong_difficulty, h, versus(dec(h.difficulty), dec(want)));
    }
    if (h.gas_limit > kMaxGasLimit)
        return fail(Errc::gas_limit_too_big, h, std::to_string(h.gas_limit));
    if (h.gas_used > h.gas_limit)
        return fail(Errc::gas_used_above_limit, h,
                    std::to_string(h.gas_used) + " > " + std::to_string(h.gas_limit));

    // The gas limit's bound; on the first London block against twice the parent's (EIP-1559).
    std::uint64_t parent_limit = parent.gas_limit;
    if (fork >= Fork::london && parent_fork < Fork::london) parent_limit *= kElasticityMultiplier;
    const std::uint64_t delta = parent_limit / kGasLimitBoundDivisor;
    if (h.gas_limit >= parent_limit + delta || h.gas_limit + delta <= parent_limit ||
        h.gas_limit < kMinGasLimit)
        return fail(Errc::gas_limit_out_of_bounds, h,
                    std::to_string(h.gas_limit) + ", parent " + std::to_string(parent.gas_limit));

    if (fork >= Fork::london) {
        const Uint256 want = expected_base_fee(parent, parent_fork, fork);
        if (*h.base_fee_per_gas != want)
            return fail(Errc::wrong_base_fee, h, versus(dec(*h.base_fee_per_gas), dec(want)));
    }
    if (fork >= Fork::cancun) {
        const std::uint64_t want =
            expected_excess_blob_gas(parent, fork, config.blob_params(fork, h.timestamp));
        if (*h.excess_blob_gas != want)
            return fail(Errc::wrong_excess_blob_gas, h,
                        versus(std::to_string(*h.excess_blob_gas), std::to_string(want)));
    }
    if (config.dao_fork_block && h.number >= *config.dao_fork_block &&
        h.number - *config.dao_fork_block < kDaoExtraDataBlocks &&
        !std::ranges::equal(h.extra_data, kDaoExtraData))
        return fail(Errc::wrong_dao_extra_data, h, hex::encode_prefixed(h.extra_data));
    if (fork >= Fork::paris) {
        if (!h.difficulty.is_zero())
            return fail(Errc::difficulty_after_merge, h, "difficulty " + dec(h.difficulty));
        if (h.nonce != eth::Nonce8{})
            return fail(Errc::proof_of_work_fields, h,
                        "nonce " + hex::encode_prefixed(h.nonce.view()));
        if (h.ommers_hash != eth::kEmptyOmmersHash)
            return fail(Errc::ommers_after_merge, h,
                        "ommers hash " + hex::encode_prefixed(h.ommers_hash.view()));
    }
    return {};
}

}  // namespace keel::chain
