#pragma once
/// Public networks whose history keel imports: chain id, genesis hash and the first
/// proof-of-stake block (EIP-3675 "Paris"), which is where pre-merge history ends (EIP-4444).

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

#include "keel/common/bytes.hpp"

namespace keel::store {

struct NetworkConfig {
    std::string_view name;      ///< as in era1 file names: "mainnet", "sepolia"
    std::uint64_t chain_id;     ///< EIP-155
    Hash32 genesis_hash;        ///< hash of block 0
    std::uint64_t merge_block;  ///< first post-merge block
};

/// Every network keel knows.
std::span<const NetworkConfig> known_networks() noexcept;

/// The known network with this genesis hash.
std::optional<NetworkConfig> network_by_genesis(const Hash32& genesis) noexcept;

/// The known network with this name.
std::optional<NetworkConfig> network_by_name(std::string_view name) noexcept;

/// The network an era1 file name names: "<network>-<era>-<root>.era1" (the naming the era1
/// format specifies), e.g. "sepolia-00021-b8814b14.era1" gives sepolia.
std::optional<NetworkConfig> network_of_era1_name(std::string_view file_name) noexcept;

}  // namespace keel::store
