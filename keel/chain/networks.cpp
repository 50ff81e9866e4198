// The public networks' genesis files, compiled in (networks/README.md says where they come
// from), with KEEL_INCBIN (keel/common/incbin.hpp); the build passes the folder as
// KEEL_NETWORKS_DIR and lists the files as this object's dependencies.
#include "keel/chain/genesis.hpp"
#include "keel/common/incbin.hpp"

KEEL_INCBIN(keel_network_mainnet, KEEL_NETWORKS_DIR "/mainnet.json")
KEEL_INCBIN(keel_network_sepolia, KEEL_NETWORKS_DIR "/sepolia.json")
KEEL_INCBIN(keel_network_holesky, KEEL_NETWORKS_DIR "/holesky.json")
KEEL_INCBIN(keel_network_hoodi, KEEL_NETWORKS_DIR "/hoodi.json")

namespace keel::chain {

std::string_view network_genesis_json(Network n) noexcept {
    switch (n) {
        case Network::mainnet:
            return incbin_view(keel_network_mainnet_begin, keel_network_mainnet_end);
        case Network::sepolia:
            return incbin_view(keel_network_sepolia_begin, keel_network_sepolia_end);
        case Network::holesky:
            return incbin_view(keel_network_holesky_begin, keel_network_holesky_end);
        case Network::hoodi:
            return incbin_view(keel_network_hoodi_begin, keel_network_hoodi_end);
    }
    return {};
}

}  // namespace keel::chain
