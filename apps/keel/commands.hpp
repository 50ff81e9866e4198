#pragma once
// Each cmd_<verb>.cpp registers its subcommand on the app. Handlers throw cli::Failure.

#include <CLI/CLI.hpp>

namespace keel::cli {

void add_version_command(CLI::App& app);
void add_keccak_command(CLI::App& app);
void add_rlp_command(CLI::App& app);

}  // namespace keel::cli
