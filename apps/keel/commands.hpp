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
void add_init_command(CLI::App& app);
void add_import_command(CLI::App& app);
void add_get_command(CLI::App& app);
/// keel get account|balance|nonce|code|storage, on the `get` subcommand.
void add_get_state_commands(CLI::App& get);
/// keel get receipts|receipt|logs, on the `get` subcommand.
void add_get_receipt_commands(CLI::App& get);
void add_ssz_command(CLI::App& app);
void add_devnet_command(CLI::App& app);
void add_storage_command(CLI::App& app);
void add_bls_command(CLI::App& app);
void add_kzg_command(CLI::App& app);
void add_p2p_command(CLI::App& app);
void add_evm_command(CLI::App& app);
void add_trace_command(CLI::App& app);
void add_node_command(CLI::App& app);
void add_jwt_command(CLI::App& app);

}  // namespace keel::cli
