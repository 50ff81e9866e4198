#pragma once
// Opening the chain store of a --datadir for the commands that read or write it.

#include <filesystem>

#include "keel/store/chain_store.hpp"

namespace keel::cli {

/// What a command does with the store.
enum class Access {
    read,    ///< reads only: opened read-only (no lock, nothing written; works during an import)
    write,   ///< writes an existing store (prune, rewind)
    create,  ///< writes, creating the store in a missing or empty directory (import)
};

/// Opens the store in `dir`. Throws Failure (exit 1) with the store's one-line message, e.g.
/// for a directory that holds no store or a store another process is creating.
store::ChainStore open_datadir(const std::filesystem::path& dir, Access access);

}  // namespace keel::cli
