#include "keel/beacon/registry.hpp"

#include <array>
#include <nlohmann/json.hpp>
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

/// The handlers of `type` in `preset`, or the one-line reason there are none.
Result<const detail::Handlers*, std::string> find(std::string_view type, std::string_view preset) {
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
        if (e.type == name) return mainnet ? &e.mainnet : &e.minimal;
    }
    return std::unexpected("unknown type '" + std::string(type) + "': " + std::string(name) +
                           " is not a " + std::string(fork_name(*fork)) + " container");
}

}  // namespace

Result<TypedResult, std::string> decode_and_root(std::string_view type, std::string_view preset,
                                                 BytesView in) {
    auto h = find(type, preset);
    if (!h) return std::unexpected(std::move(h.error()));
    return (*h)->decode_root(in);
}

Result<std::string, std::string> to_json(std::string_view type, std::string_view preset,
                                         BytesView in, ssz::JsonLayout layout) {
    auto h = find(type, preset);
    if (!h) return std::unexpected(std::move(h.error()));
    return (*h)->to_json(in, layout);
}

Result<Bytes, std::string> from_json(std::string_view type, std::string_view preset,
                                     std::string_view json_text) {
    auto h = find(type, preset);
    if (!h) return std::unexpected(std::move(h.error()));
    nlohmann::json j;
    try {
        j = nlohmann::json::parse(json_text);
    } catch (const nlohmann::json::exception& e) {
        // what() is "[json.exception.parse_error.101] parse error at line 1, column 7: ..." (or
        // out_of_range.406 for a number past a double); the bracketed id means nothing to a reader.
        std::string_view what = e.what();
        if (const auto close = what.find("] "); what.starts_with("[") && close != what.npos) {
            what.remove_prefix(close + 2);
        }
        return std::unexpected("json: " + std::string(what));
    }
    return (*h)->from_json(j);
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
