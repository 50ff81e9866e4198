#pragma once
// Each cmd_<verb>.cpp registers its subcommand on the app. Handlers throw cli::Failure.

#include <CLI/CLI.hpp>
#include <string>

#include "keel/eth/transaction.hpp"

namespace keel::cli {

void add_version_command(CLI::App& app);
void add_keccak_command(CLI::App& app);
void add_rlp_command(CLI::App& app);
void add_tx_command(CLI::App& app);
void add_block_command(CLI::App& app);

/// A transaction as eth_getTransactionByHash JSON (pretty-printed). With `with_sender`, adds
/// "from" (null when recovery fails, and then `*error` gets the reason).
std::string transaction_json(const eth::Transaction& tx, bool with_sender, std::string* error);

}  // namespace keel::cli
