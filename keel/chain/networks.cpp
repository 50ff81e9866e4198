// The public networks' genesis files, compiled in (networks/README.md says where they come
// from). `.incbin` puts each file's bytes into .rodata between two symbols; the build passes the
// folder as KEEL_NETWORKS_DIR. The files are data the build does not track: after changing one,
// touch this file.
#include "keel/chain/genesis.hpp"

#define KEEL_INCBIN(name, file)                          \
    __asm__(                                             \
        ".section .rodata\n"                             \
        ".global keel_network_" #name                    \
        "_begin\n"                                       \
        "keel_network_" #name                            \
        "_begin:\n"                                      \
        ".incbin \"" KEEL_NETWORKS_DIR "/" file          \
        "\"\n"                                           \
        ".global keel_network_" #name                    \
        "_end\n"                                         \
        "keel_network_" #name                            \
        "_end:\n"                                        \
        ".previous\n");                                  \
    extern "C" const char keel_network_##name##_begin[]; \
    extern "C" const char keel_network_##name##_end[];

KEEL_INCBIN(mainnet, "mainnet.json")
KEEL_INCBIN(sepolia, "sepolia.json")
KEEL_INCBIN(holesky, "holesky.json")
KEEL_INCBIN(hoodi, "hoodi.json")

namespace keel::chain {

std::string_view network_genesis_json(Network n) noexcept {
    auto view = [](const char* b, const char* e) {
        return std::string_view(b, static_cast<std::size_t>(e - b));
    };
    switch (n) {
        case Network::mainnet:
            return view(keel_network_mainnet_begin, keel_network_mainnet_end);
        case Network::sepolia:
            return view(keel_network_sepolia_begin, keel_network_sepolia_end);
        case Network::holesky:
            return view(keel_network_holesky_begin, keel_network_holesky_end);
        case Network::hoodi:
            return view(keel_network_hoodi_begin, keel_network_hoodi_end);
    }
    return {};
}

}  // namespace keel::chain
