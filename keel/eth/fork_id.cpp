#include "keel/eth/fork_id.hpp"

#include <array>

namespace keel::eth {
namespace {

// The reflected IEEE polynomial's table (0xEDB88320), built at compile time.
constexpr std::array<std::uint32_t, 256> kCrcTable = [] {
    std::array<std::uint32_t, 256> t{};
    for (std::uint32_t i = 0; i < 256; ++i) {
        std::uint32_t c = i;
        for (int k = 0; k < 8; ++k) c = (c & 1) != 0 ? 0xEDB88320u ^ (c >> 1) : c >> 1;
        t[i] = c;
    }
    return t;
}();

std::uint32_t update(std::uint32_t hash, std::uint64_t fork) noexcept {
    std::array<std::uint8_t, 8> be{};
    for (int i = 0; i < 8; ++i) be[i] = static_cast<std::uint8_t>(fork >> (56 - 8 * i));
    return crc32(BytesView(be.data(), be.size()), hash);
}

}  // namespace

std::uint32_t crc32(BytesView data, std::uint32_t crc) noexcept {
    crc = ~crc;
    for (const std::uint8_t b : data) crc = kCrcTable[(crc ^ b) & 0xFF] ^ (crc >> 8);
    return ~crc;
}

ForkId fork_id(const Hash32& genesis_hash, const ChainConfig& config, std::uint64_t number,
               std::uint64_t time) noexcept {
    ForkId id{crc32(genesis_hash.view()), 0};
    for (const std::uint64_t b : config.fork_id_blocks) {
        if (b > number) {
            id.next = b;
            return id;
        }
        id.hash = update(id.hash, b);
    }
    for (const std::uint64_t t : config.fork_id_times) {
        if (t > time) {
            id.next = t;
            return id;
        }
        id.hash = update(id.hash, t);
    }
    return id;
}

}  // namespace keel::eth
