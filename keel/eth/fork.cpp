#include "keel/eth/fork.hpp"

#include <iterator>

namespace keel::eth {

namespace {

struct ForkName {
    std::string_view name;
    Fork fork;
};

// ethereum/tests names first (name() returns them), then aliases.
constexpr ForkName kNames[] = {
    {"Frontier", Fork::frontier},
    {"Homestead", Fork::homestead},
    {"EIP150", Fork::tangerine_whistle},
    {"EIP158", Fork::spurious_dragon},
    {"Byzantium", Fork::byzantium},
    {"Constantinople", Fork::constantinople},
    {"ConstantinopleFix", Fork::petersburg},
    {"Istanbul", Fork::istanbul},
    {"Berlin", Fork::berlin},
    {"London", Fork::london},
    {"Paris", Fork::paris},
    {"Shanghai", Fork::shanghai},
    {"Cancun", Fork::cancun},
    {"Prague", Fork::prague},
    {"Osaka", Fork::osaka},
    {"TangerineWhistle", Fork::tangerine_whistle},
    {"SpuriousDragon", Fork::spurious_dragon},
    {"Petersburg", Fork::petersburg},
    {"Merge", Fork::paris},
};

constexpr bool names_follow_fork_order() {
    for (std::size_t i = 0; i < kForks.size(); ++i) {
        if (kNames[i].fork != kForks[i] || static_cast<std::size_t>(kForks[i]) != i) return false;
    }
    return true;
}
static_assert(std::size(kNames) >= kForks.size() && names_follow_fork_order());

}  // namespace

std::string_view name(Fork f) noexcept {
    const auto i = static_cast<std::size_t>(f);
    if (i < kForks.size()) return kNames[i].name;
    return "unknown fork";
}

std::optional<Fork> parse_fork(std::string_view s) noexcept {
    for (const auto& n : kNames) {
        if (n.name == s) return n.fork;
    }
    return std::nullopt;
}

}  // namespace keel::eth
