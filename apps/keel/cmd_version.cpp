// keel version: the version and what this build runs on.
#include <cstdio>

#include "apps/keel/commands.hpp"
#include "keel/common/parallel.hpp"
#include "keel/crypto/keccak.hpp"
#include "keel/crypto/sha256.hpp"

namespace keel::cli {

void add_version_command(CLI::App& app) {
    auto* cmd = app.add_subcommand("version", "Print keel's version and build facts");
    cmd->callback([] {
        std::printf("keel %s\n", KEEL_VERSION);
        std::printf("compiler: %s\n", __VERSION__);
        std::printf("threads: %zu\n", parallel::concurrency());
        std::printf("keccak: %s\n", crypto::keccak_backend_name());
        std::printf("sha256: %s\n", crypto::sha256_backend_name());
    });
}

}  // namespace keel::cli
