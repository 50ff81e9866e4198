#pragma once
/// The registry's table rows (registry.cpp) and how one row decodes, roots and re-encodes its
/// type. One registry_<fork>.cpp per fork fills its rows, so the forks compile in parallel.

#include <memory>
#include <span>
#include <string>
#include <string_view>

#include "keel/beacon/presets.hpp"
#include "keel/beacon/registry.hpp"
#include "keel/ssz/ssz.hpp"

namespace keel::beacon::detail {

/// Decodes, roots and re-encodes one type.
using Handler = Result<TypedResult, std::string> (*)(BytesView);

/// One registered type: its name without the fork, and its handler per preset.
struct Entry {
    std::string_view type;
    Handler mainnet;
    Handler minimal;
};

/// The handler for T. The value is decoded on the heap: a mainnet BeaconState is megabytes of
/// fixed vectors, too large for a thread's stack (ssz::decode<T> returns it by value).
template <class T>
Result<TypedResult, std::string> decode_root(BytesView in) {
    auto value = std::make_unique<T>();
    if (auto r = ssz::decode_into(in, *value); !r) {
        return std::unexpected(ssz::to_string(r.error()));
    }
    TypedResult out;
    out.root = ssz::hash_tree_root(*value);
    out.encoded = ssz::encode(*value);
    return out;
}

/// A row for a container templated on the preset.
template <template <class> class F>
constexpr Entry preset_entry(std::string_view type) {
    return {type, &decode_root<F<Mainnet>>, &decode_root<F<Minimal>>};
}

/// A row for a container that is the same in both presets.
template <class T>
constexpr Entry fixed_entry(std::string_view type) {
    return {type, &decode_root<T>, &decode_root<T>};
}

/// A row from the type's two instances, for the mainnet and the minimal preset.
template <class ForMainnet, class ForMinimal>
constexpr Entry pair_entry(std::string_view type) {
    return {type, &decode_root<ForMainnet>, &decode_root<ForMinimal>};
}

/// The rows of each fork (registry_<fork>.cpp).
std::span<const Entry> phase0_entries();
std::span<const Entry> altair_entries();
std::span<const Entry> bellatrix_entries();
std::span<const Entry> capella_entries();
std::span<const Entry> deneb_entries();
std::span<const Entry> electra_entries();

}  // namespace keel::beacon::detail
