#pragma once
/// The fork identifier of EIP-2124 (block-numbered forks) and EIP-6122 (timestamped forks):
/// FORK_HASH = CRC-32 (IEEE) of the genesis hash, updated with each past fork's block number or
/// time as 8 big-endian bytes, and FORK_NEXT = the first fork still ahead (0: none). The eth
/// protocol's Status message carries it; eth_config (EIP-7910) shows each configuration's hash.

#include <cstdint>

#include "keel/common/bytes.hpp"
#include "keel/eth/chain_config.hpp"

namespace keel::eth {

/// CRC-32 with the IEEE polynomial (zlib's crc32, Go's crc32.Update with the IEEE table):
/// continues `crc` over `data` (crc32(b, crc32(a)) == crc32(a || b)).
std::uint32_t crc32(BytesView data, std::uint32_t crc = 0) noexcept;

struct ForkId {
    std::uint32_t hash = 0;  ///< FORK_HASH
    std::uint64_t next = 0;  ///< FORK_NEXT: the next fork's block or time, 0 when none

    friend bool operator==(const ForkId&, const ForkId&) = default;
};

/// The fork id of a chain whose head is at block `number` and time `time`, from the chain's
/// fork points (ChainConfig::fork_id_blocks / fork_id_times).
ForkId fork_id(const Hash32& genesis_hash, const ChainConfig& config, std::uint64_t number,
               std::uint64_t time) noexcept;

}  // namespace keel::eth
