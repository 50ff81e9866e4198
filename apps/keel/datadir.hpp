#pragma once
// Opening the chain store of a --datadir for the commands that read or write it.

#include <filesystem>

#include "keel/store/chain_store.hpp"

namespace keel::cli {

/// Opens the store in `dir`. With `create`, a missing or empty directory gets a new store.
/// Throws Failure (exit 1) with the store's one-line message otherwise, e.g. for a directory
/// that holds no store.
store::ChainStore open_datadir(const std::filesystem::path& dir, bool create);

}  // namespace keel::cli
