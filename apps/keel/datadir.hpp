#pragma once
// Opening the chain store of a --datadir for the commands that read or write it.

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>

#include "keel/eth/chain_config.hpp"
#include "keel/store/chain_store.hpp"

namespace keel::cli {

/// What a command does with the store.
enum class Access {
    read,    ///< reads only: opened read-only (no lock, nothing written; works during an import)
    write,   ///< writes an existing store (prune, rewind)
    create,  ///< writes, creating the store in a missing or empty directory (import)
};

/// Opens the store in `dir` (read-only ones with a block cache of `cache_bytes`, default the
/// store's). Throws Failure (exit 1) with the store's one-line message, e.g. for a directory
/// that holds no store or a store another process is creating.
store::ChainStore open_datadir(const std::filesystem::path& dir, Access access,
                               std::size_t cache_bytes = store::StoreOptions{}.cache_bytes);

/// A block argument: latest, earliest, a 32-byte hash, or a number (decimal or 0x-hex), as a
/// canonical block number of `chain`. Throws Failure: exit 2 for what is not a block argument,
/// exit 1 for an empty store or an unknown hash; messages start with `what` ("get block").
std::uint64_t resolve_block(const store::ChainStore& chain, const std::string& arg,
                            std::string_view what);

/// A transaction hash argument. Throws Failure (exit 2) "<what>: not a 32-byte hash: ...".
Hash32 tx_hash_arg(const std::string& arg, const std::string& what);

/// The chain's rules: the chain spec keel init stored, or the known network of the store's
/// genesis (a history-only import of a public network's archives). Throws Failure (exit 1),
/// starting with `what`, when neither is there.
eth::ChainConfig chain_rules(const store::ChainStore& chain, const std::string& what);

}  // namespace keel::cli
