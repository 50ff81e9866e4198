#pragma once
/// A chain built from a script: blocks of unsigned legacy transactions, each with the secret key
/// that signs it, in the format of Besu's trace test chain (`trace/chain-data/blocks.json` of
/// ../shared/vectors/evm/traces/besu_rpc):
///   {"blocks": [{"number": 1, "transactions": [{"secretKey": "0x..", "gasLimit": "0xFFFFF2",
///     "gasPrice": "0xEF", "to": "0x..", "value": "0x01", "data": "0x.."}, ...]}, ...]}
/// (`to` absent: a creation; `value` and `data` absent: zero and empty; hex with or without
/// "0x"; `comment` members ignored). Each block is built on the head of the store's chain
/// (blockchain::Chain::build: executed, every root filled in, stored): the sender's nonce from
/// the state, the signature RFC 6979's (libsecp256k1), v as `legacy_v` says (Besu's chain:
/// pre-EIP-155, v = 27 or 28); the
/// header's timestamp 10 s after its parent's, its gas limit and beneficiary the parent's, its
/// difficulty the fork's rule. The transactions hash as the same transactions signed by any
/// RFC 6979 signer (web3's, Besu's); the block hashes are keel's own.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "keel/common/result.hpp"
#include "keel/devnet/signer.hpp"
#include "keel/eth/chain_config.hpp"
#include "keel/store/chain_store.hpp"

namespace keel::devnet {

struct ScriptedChain {
    std::vector<Hash32> block_hashes;            ///< by block, from block 1
    std::vector<std::vector<Hash32>> tx_hashes;  ///< by block, from block 1
};

/// Builds the script's blocks on `store` (initialised by keel init with `config`'s genesis).
/// Errors, naming the block and transaction: a script that does not parse, a block number out
/// of sequence, a transaction keel refuses (the block is then not stored), a store failure.
[[nodiscard]] Result<ScriptedChain, std::string> build_scripted_chain(
    store::ChainStore& store, const eth::ChainConfig& config, std::string_view script_json,
    LegacyV legacy_v = LegacyV::eip155);

}  // namespace keel::devnet
