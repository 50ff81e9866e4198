// keel version: the version and what this build runs on.
#include <cstdio>
#include <string>

#if defined(KEEL_JEMALLOC)
#include <jemalloc/jemalloc.h>
#endif

#include "apps/keel/commands.hpp"
#include "keel/common/parallel.hpp"
#include "keel/crypto/keccak.hpp"
#include "keel/crypto/sha256.hpp"

namespace keel::cli {

namespace {

// The malloc this process runs on: jemalloc (with its version) where the build links it
// (cmake/KeelAllocator.cmake), glibc's otherwise.
std::string allocator_name() {
#if defined(KEEL_JEMALLOC)
    const char* version = nullptr;
    std::size_t size = sizeof(version);
    if (mallctl("version", &version, &size, nullptr, 0) == 0 && version != nullptr) {
        // "5.3.0-0-g54eaed1d…": the release, without the commit it was built from.
        const std::string v(version);
        return "jemalloc " + v.substr(0, v.find('-'));
    }
    return "jemalloc";
#else
    return "glibc malloc";
#endif
}

}  // namespace

void add_version_command(CLI::App& app) {
    auto* cmd = app.add_subcommand("version", "Print keel's version and build facts");
    cmd->callback([] {
        std::printf("keel %s\n", KEEL_VERSION);
        std::printf("compiler: %s\n", __VERSION__);
        std::printf("threads: %zu\n", parallel::concurrency());
        std::printf("keccak: %s\n", crypto::keccak_backend_name());
        std::printf("sha256: %s\n", crypto::sha256_backend_name());
        std::printf("allocator: %s\n", allocator_name().c_str());
    });
}

}  // namespace keel::cli
