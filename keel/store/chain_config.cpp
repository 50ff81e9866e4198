#include "keel/store/chain_config.hpp"

#include <array>

#include "keel/common/hex.hpp"

namespace keel::store {
namespace {

Hash32 hash_of(std::string_view hex) {
    return hex::decode_fixed<Hash32>(hex).value();
}

const std::array<NetworkConfig, 2>& networks() {
    // Mainnet's merge block is 15537394 (Paris, 2022-09-15); Sepolia's is 1450409 (2022-07-06).
    static const std::array<NetworkConfig, 2> kNetworks = {{
        {"mainnet", 1,
         hash_of("0xd4e56740f876aef8c010b86a40d5f56745a118d0906a34e69aec8c0db1cb8fa3"), 15537394},
        {"sepolia", 11155111,
         hash_of("0x25a5cc106eea7138acab33231d7160d69cb777ee0c2c553fcddf5138993e6dd9"), 1450409},
    }};
    return kNetworks;
}

}  // namespace

std::span<const NetworkConfig> known_networks() noexcept {
    return networks();
}

std::optional<NetworkConfig> network_by_genesis(const Hash32& genesis) noexcept {
    for (const NetworkConfig& n : networks()) {
        if (n.genesis_hash == genesis) return n;
    }
    return std::nullopt;
}

std::optional<NetworkConfig> network_by_name(std::string_view name) noexcept {
    for (const NetworkConfig& n : networks()) {
        if (n.name == name) return n;
    }
    return std::nullopt;
}

std::optional<NetworkConfig> network_of_era1_name(std::string_view file_name) noexcept {
    const std::size_t dash = file_name.find('-');
    if (dash == std::string_view::npos) return std::nullopt;
    return network_by_name(file_name.substr(0, dash));
}

}  // namespace keel::store
