#include "keel/beacon/registry.hpp"

#include <array>
#include <span>

#include "keel/beacon/detail/registry_entry.hpp"
#include "keel/beacon/fork.hpp"

namespace keel::beacon {

namespace {

/// The rows of `fork`.
std::span<const detail::Entry> entries_of(Fork fork) {
    switch (fork) {
        case Fork::phase0:
            return detail::phase0_entries();
        case Fork::altair:
            return detail::altair_entries();
        case Fork::bellatrix:
            return detail::bellatrix_entries();
        case Fork::capella:
            return detail::capella_entries();
        case Fork::deneb:
            return detail::deneb_entries();
        case Fork::electra:
            return detail::electra_entries();
    }
    return {};
}

constexpr std::array kForks{Fork::phase0,  Fork::altair, Fork::bellatrix,
                            Fork::capella, Fork::deneb,  Fork::electra};

}  // namespace

Result<TypedResult, std::string> decode_and_root(std::string_view type, std::string_view preset,
                                                 BytesView in) {
    const bool mainnet = preset == Mainnet::kName;
    if (!mainnet && preset != Minimal::kName) {
        return std::unexpected("unknown preset '" + std::string(preset) +
                               "' (expected mainnet or minimal)");
    }
    const auto dot = type.find('.');
    const auto fork =
        dot == std::string_view::npos ? std::nullopt : parse_fork(type.substr(0, dot));
    if (!fork) {
        return std::unexpected("unknown type '" + std::string(type) +
                               "' (expected <fork>.<Type>, e.g. deneb.BeaconBlock)");
    }
    const std::string_view name = type.substr(dot + 1);
    for (const detail::Entry& e : entries_of(*fork)) {
        if (e.type == name) return (mainnet ? e.mainnet : e.minimal)(in);
    }
    return std::unexpected("unknown type '" + std::string(type) + "': " + std::string(name) +
                           " is not a " + std::string(fork_name(*fork)) + " container");
}

std::vector<std::string> registered_types() {
    std::vector<std::string> out;
    for (Fork f : kForks) {
        for (const detail::Entry& e : entries_of(f)) {
            out.push_back(std::string(fork_name(f)) + "." + std::string(e.type));
        }
    }
    return out;
}

}  // namespace keel::beacon
