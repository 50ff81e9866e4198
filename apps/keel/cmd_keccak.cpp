// keel keccak <hex|@file|->: Keccak-256 (Ethereum's, not SHA3-256) of the input.
#include <cstdio>
#include <string>

#include "apps/keel/commands.hpp"
#include "apps/keel/input.hpp"
#include "keel/common/hex.hpp"
#include "keel/crypto/keccak.hpp"

namespace keel::cli {

void add_keccak_command(CLI::App& app) {
    auto* cmd = app.add_subcommand("keccak", "Keccak-256 of the input, as 0x-prefixed hex");
    auto input = std::make_shared<std::string>();
    cmd->add_option("input", *input, "hex bytes, @file (raw bytes) or - (stdin, raw bytes)")
        ->required();
    cmd->callback([input] {
        Bytes data = read_data_arg(*input, "keccak input");
        Hash32 h = crypto::keccak256(data);
        std::printf("%s\n", hex::encode_prefixed(h.view()).c_str());
    });
}

}  // namespace keel::cli
