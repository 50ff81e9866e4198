#include "keel/beacon/fork.hpp"

#include <array>

#include "keel/beacon/presets.hpp"

namespace keel::beacon {

namespace {

/// Names and mainnet activation epochs, indexed by Fork (configs/mainnet.yaml).
struct ForkInfo {
    std::string_view name;
    std::uint64_t mainnet_epoch;
};
constexpr std::array<ForkInfo, kForkCount> kForks{{
    {"phase0", 0},
    {"altair", 74240},      // ALTAIR_FORK_EPOCH
    {"bellatrix", 144896},  // BELLATRIX_FORK_EPOCH
    {"capella", 194048},    // CAPELLA_FORK_EPOCH
    {"deneb", 269568},      // DENEB_FORK_EPOCH
    {"electra", 364032},    // ELECTRA_FORK_EPOCH
    {"fulu", 411392},       // FULU_FORK_EPOCH (2025-12-03 21:49:11 UTC)
}};

}  // namespace

std::string_view fork_name(Fork f) noexcept {
    return kForks[static_cast<std::size_t>(f)].name;
}

std::optional<Fork> parse_fork(std::string_view name) noexcept {
    for (std::size_t i = 0; i < kForks.size(); ++i) {
        if (kForks[i].name == name) return static_cast<Fork>(i);
    }
    return std::nullopt;
}

std::uint64_t mainnet_fork_epoch(Fork f) noexcept {
    return kForks[static_cast<std::size_t>(f)].mainnet_epoch;
}

Fork mainnet_fork_at_slot(std::uint64_t slot) noexcept {
    const std::uint64_t epoch = slot / Mainnet::SLOTS_PER_EPOCH;
    std::size_t i = kForks.size() - 1;
    while (i > 0 && epoch < kForks[i].mainnet_epoch) --i;
    return static_cast<Fork>(i);
}

}  // namespace keel::beacon
