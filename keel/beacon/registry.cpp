#include "keel/beacon/registry.hpp"

#include <algorithm>
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
        case Fork::fulu:
            return detail::fulu_entries();
    }
    return {};
}

constexpr std::array kForks{Fork::phase0, Fork::altair,  Fork::bellatrix, Fork::capella,
                            Fork::deneb,  Fork::electra, Fork::fulu};

/// The row of `name` in `fork` with handlers: an inherited() row is the previous fork's row of
/// that name, followed back until one has them. Null when `fork` has no such row, or when an
/// inherited row has nothing to inherit (a mistake in a registry_<fork>.cpp that registry_test's
/// EveryRowHasHandlers reports).
const detail::Entry* resolve(Fork fork, std::string_view name) {
    for (auto at = std::find(kForks.begin(), kForks.end(), fork); at != kForks.end();) {
        const auto rows = entries_of(*at);
        const auto row = std::find_if(rows.begin(), rows.end(),
                                      [&](const detail::Entry& e) { return e.type == name; });
        if (row == rows.end()) return nullptr;
        if (row->mainnet.decode_root != nullptr) return &*row;
        if (at == kForks.begin()) return nullptr;
        --at;
    }
    return nullptr;
}

/// An error of code `code` naming `name`, with `detail`.
std::unexpected<Error> name_error(Errc code, std::string_view name, std::string detail = {}) {
    Error e;
    e.code = code;
    e.path = std::string(name);
    e.detail = std::move(detail);
    return std::unexpected(std::move(e));
}

/// The handlers of `type` in `preset`, or why there are none.
Result<const detail::Handlers*, Error> find(std::string_view type, std::string_view preset) {
    const bool mainnet = preset == Mainnet::kName;
    if (!mainnet && preset != Minimal::kName) return name_error(Errc::unknown_preset, preset);
    const auto dot = type.find('.');
    const auto fork =
        dot == std::string_view::npos ? std::nullopt : parse_fork(type.substr(0, dot));
    if (!fork) {
        return name_error(Errc::unknown_type, type,
                          "(expected <fork>.<Type>, e.g. deneb.BeaconBlock)");
    }
    const std::string_view name = type.substr(dot + 1);
    if (const detail::Entry* e = resolve(*fork, name)) return mainnet ? &e->mainnet : &e->minimal;
    const std::string_view f = fork_name(*fork);
    // "an electra container", "a fulu container".
    const bool vowel = f.front() == 'a' || f.front() == 'e';
    return name_error(
        Errc::unknown_type, type,
        std::string(name) + " is not " + (vowel ? "an " : "a ") + std::string(f) + " container");
}

}  // namespace

Result<void, Error> check_type(std::string_view type, std::string_view preset) {
    auto h = find(type, preset);
    if (!h) return std::unexpected(std::move(h.error()));
    return {};
}

Result<TypedResult, Error> decode_and_root(std::string_view type, std::string_view preset,
                                           BytesView in) {
    auto h = find(type, preset);
    if (!h) return std::unexpected(std::move(h.error()));
    return (*h)->decode_root(in);
}

Result<std::string, Error> to_json(std::string_view type, std::string_view preset, BytesView in,
                                   ssz::JsonLayout layout) {
    auto h = find(type, preset);
    if (!h) return std::unexpected(std::move(h.error()));
    return (*h)->to_json(in, layout);
}

Result<Bytes, Error> from_json(std::string_view type, std::string_view preset,
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
        Error err;
        err.code = Errc::json_syntax;
        err.json_code = ssz::JsonErrc::syntax;
        err.detail = std::string(what);
        if (const auto* parse = dynamic_cast<const nlohmann::json::parse_error*>(&e)) {
            // byte: the 1-based position of the last character read.
            err.offset = parse->byte > 0 ? parse->byte - 1 : 0;
        }
        return std::unexpected(std::move(err));
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
