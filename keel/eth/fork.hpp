#pragma once
/// Ethereum execution-layer forks, in activation order, and the transaction rules that change
/// with them. Forks that only moved the difficulty bomb (Muir Glacier, Arrow Glacier, Gray
/// Glacier) change no transaction rule and are not listed. Spec: execution-specs
/// (github.com/ethereum/execution-specs, src/ethereum/<fork>), EIP-7568 (hardfork meta EIPs).
///
/// Fork is an ordered enum: `fork >= Fork::istanbul` reads "Istanbul or later".

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

namespace keel::eth {

/// An execution-layer fork. The comments give the ethereum/tests name, which name() returns.
enum class Fork : std::uint8_t {
    frontier,           ///< "Frontier"
    homestead,          ///< "Homestead" (EIP-606)
    tangerine_whistle,  ///< "EIP150" (EIP-608)
    spurious_dragon,    ///< "EIP158" (EIP-607)
    byzantium,          ///< "Byzantium" (EIP-609)
    constantinople,     ///< "Constantinople" (EIP-1013)
    petersburg,         ///< "ConstantinopleFix" (EIP-1716)
    istanbul,           ///< "Istanbul" (EIP-1679)
    berlin,             ///< "Berlin" (EIP-2070)
    london,             ///< "London"
    paris,              ///< "Paris" (the Merge, EIP-3675)
    shanghai,           ///< "Shanghai" (EIP-6953)
    cancun,             ///< "Cancun" (EIP-7569)
    prague,             ///< "Prague" (EIP-7600)
    osaka,              ///< "Osaka" (EIP-7607)
};

/// Every fork, oldest first.
inline constexpr std::array<Fork, 15> kForks = {
    Fork::frontier,        Fork::homestead, Fork::tangerine_whistle,
    Fork::spurious_dragon, Fork::byzantium, Fork::constantinople,
    Fork::petersburg,      Fork::istanbul,  Fork::berlin,
    Fork::london,          Fork::paris,     Fork::shanghai,
    Fork::cancun,          Fork::prague,    Fork::osaka,
};

/// The newest fork keel knows.
inline constexpr Fork kLatestFork = Fork::osaka;

/// The ethereum/tests name of the fork ("Frontier", "EIP150", "ConstantinopleFix", "Paris"...).
std::string_view name(Fork f) noexcept;

/// The fork named `s`: the ethereum/tests names that name() returns, and the common aliases
/// "TangerineWhistle", "SpuriousDragon", "Petersburg", "Merge". Case-sensitive; std::nullopt
/// for anything else.
std::optional<Fork> parse_fork(std::string_view s) noexcept;

// ---- transaction rules by fork ------------------------------------------------------------------

/// EIP-2: contract creation costs 53000 intrinsic gas, and signatures need s <= n/2.
constexpr bool has_homestead_rules(Fork f) noexcept {
    return f >= Fork::homestead;
}

/// EIP-155: legacy v may carry a chain id (v = chain_id * 2 + 35 + y_parity).
constexpr bool has_eip155(Fork f) noexcept {
    return f >= Fork::spurious_dragon;
}

/// EIP-2028: a non-zero calldata byte costs 16 gas instead of 68.
constexpr bool has_eip2028(Fork f) noexcept {
    return f >= Fork::istanbul;
}

/// EIP-3860: initcode is limited to 49152 bytes and costs 2 gas per 32-byte word.
constexpr bool has_eip3860(Fork f) noexcept {
    return f >= Fork::shanghai;
}

/// EIP-7623: a transaction pays at least the calldata floor (10 gas per token).
constexpr bool has_eip7623(Fork f) noexcept {
    return f >= Fork::prague;
}

/// EIP-7825: a transaction's gas limit is capped at 2^24.
constexpr bool has_eip7825(Fork f) noexcept {
    return f >= Fork::osaka;
}

/// The first fork that accepts transaction type `type` (0 legacy, 1 EIP-2930, 2 EIP-1559,
/// 3 EIP-4844, 4 EIP-7702); std::nullopt for a type no fork accepts.
constexpr std::optional<Fork> fork_introducing_tx_type(std::uint8_t type) noexcept {
    switch (type) {
        case 0:
            return Fork::frontier;
        case 1:
            return Fork::berlin;  // EIP-2718, EIP-2930
        case 2:
            return Fork::london;  // EIP-1559
        case 3:
            return Fork::cancun;  // EIP-4844
        case 4:
            return Fork::prague;  // EIP-7702
        default:
            return std::nullopt;
    }
}

/// True when fork `f` accepts transactions of type `type` (EIP-2718 envelope types above).
constexpr bool supports_tx_type(Fork f, std::uint8_t type) noexcept {
    const auto since = fork_introducing_tx_type(type);
    return since && f >= *since;
}

/// The most blobs one transaction may carry at fork `f` (0 before Cancun): the block's target
/// maximum before Osaka (EIP-4844: 6; EIP-7691: 9 from Prague), MAX_BLOBS_PER_TX = 6 from Osaka
/// (EIP-7594).
constexpr std::size_t max_blobs_per_tx(Fork f) noexcept {
    if (f < Fork::cancun) return 0;
    if (f == Fork::prague) return 9;
    return 6;
}

}  // namespace keel::eth
