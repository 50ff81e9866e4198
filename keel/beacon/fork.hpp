#pragma once
/// The consensus forks, their names, and which fork a mainnet slot belongs to
/// (consensus-specs configs/mainnet.yaml: *_FORK_EPOCH; 32 slots per epoch).

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

namespace keel::beacon {

/// A consensus fork, in activation order.
enum class Fork : std::uint8_t { phase0, altair, bellatrix, capella, deneb, electra, fulu };

/// The number of forks (Fork's last value + 1).
inline constexpr std::size_t kForkCount = 7;

/// The fork's name as the specs write it ("phase0", "altair", ...).
std::string_view fork_name(Fork f) noexcept;

/// The fork named `name`; std::nullopt for an unknown name.
std::optional<Fork> parse_fork(std::string_view name) noexcept;

/// The first epoch of fork `f` on mainnet (phase0: 0).
std::uint64_t mainnet_fork_epoch(Fork f) noexcept;

/// The fork in force at `slot` on mainnet (a slot at or after a fork's first epoch belongs to
/// it).
Fork mainnet_fork_at_slot(std::uint64_t slot) noexcept;

}  // namespace keel::beacon
