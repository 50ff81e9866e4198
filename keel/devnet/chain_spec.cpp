#include "keel/devnet/chain_spec.hpp"

namespace keel::devnet {

std::string_view describe(Errc e) noexcept {
    switch (e) {
        case Error::no_blocks:
            return "a chain needs at least one block (want blocks >= 1)";
        case Error::too_many_blocks:
            return "too many blocks (want blocks <= 100000000)";
        case Error::merge_after_end:
            return "merge block is beyond the end of the chain (want merge_at <= blocks)";
        case Error::too_many_txs:
            return "too many transactions per block (want txs_per_block <= 5000)";
        case Error::chain_id_zero:
            return "chain id 0 is not a chain (want chain_id >= 1)";
        case Error::chain_id_too_large:
            return "chain id too large for EIP-155 (want chain_id <= (2^64 - 37) / 2)";
    }
    return "unknown devnet spec error";
}

Result<void, Error> check(const ChainSpec& spec) noexcept {
    if (spec.blocks == 0) return unexpected(Error::no_blocks);
    if (spec.blocks > kMaxBlocks) return unexpected(Error::too_many_blocks);
    if (spec.merge_at > spec.blocks) return unexpected(Error::merge_after_end);
    if (spec.txs_per_block > kMaxTxsPerBlock) return unexpected(Error::too_many_txs);
    if (spec.chain_id == 0) return unexpected(Error::chain_id_zero);
    if (spec.chain_id > kMaxChainId) return unexpected(Error::chain_id_too_large);
    return {};
}

}  // namespace keel::devnet
