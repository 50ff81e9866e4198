#pragma once
/// The registry's table rows (registry.cpp) and how one row decodes, roots, re-encodes, prints
/// and reads (JSON) its type. One registry_<fork>.cpp per fork fills its rows, so the forks compile
/// in parallel. A container a fork keeps unchanged is an inherited() row: registry.cpp gives it
/// the previous fork's handlers, so each type's decoder, hasher and JSON mapping are compiled once
/// (in the fork that introduced it) and not again in every later fork's file: 253 of the 397 rows,
/// which had made the registry the slowest part of every build.

#include <memory>
#include <span>
#include <string>
#include <string_view>

#include "keel/beacon/presets.hpp"
#include "keel/beacon/registry.hpp"
#include "keel/ssz/json.hpp"
#include "keel/ssz/ssz.hpp"

namespace keel::beacon::detail {

/// What the registry can do with one type in one preset (all null in an inherited() row).
struct Handlers {
    /// Decodes, roots and re-encodes.
    Result<TypedResult, Error> (*decode_root)(BytesView);
    /// Decodes and prints JSON.
    Result<std::string, Error> (*to_json)(BytesView, ssz::JsonLayout);
    /// Reads parsed JSON and encodes.
    Result<Bytes, Error> (*from_json)(const nlohmann::json&);
};

/// One registered type: its name without the fork, and its handlers per preset.
struct Entry {
    std::string_view type;
    Handlers mainnet;
    Handlers minimal;
};

// The handlers keep the value on the heap: a mainnet BeaconState is megabytes of fixed vectors,
// too large for a thread's stack (ssz::decode<T> returns it by value).

/// Decodes `in` as T into a new heap value; the error is the decoder's, as a registry error.
template <class T>
[[nodiscard]] Result<std::unique_ptr<T>, Error> decode_on_heap(BytesView in) {
    auto value = std::make_unique<T>();
    if (auto r = ssz::decode_into(in, *value); !r) return std::unexpected(from_ssz(r.error()));
    return value;
}

template <class T>
[[nodiscard]] Result<TypedResult, Error> decode_root(BytesView in) {
    auto value = decode_on_heap<T>(in);
    if (!value) return std::unexpected(std::move(value.error()));
    TypedResult out;
    out.root = ssz::hash_tree_root(**value);
    out.encoded = ssz::encode(**value);
    return out;
}

template <class T>
[[nodiscard]] Result<std::string, Error> decode_json(BytesView in, ssz::JsonLayout layout) {
    auto value = decode_on_heap<T>(in);
    if (!value) return std::unexpected(std::move(value.error()));
    return ssz::to_json(**value, layout);
}

template <class T>
[[nodiscard]] Result<Bytes, Error> encode_json(const nlohmann::json& j) {
    auto value = std::make_unique<T>();
    if (auto r = ssz::from_json(j, *value); !r) {
        return std::unexpected(from_json_error(r.error()));
    }
    return ssz::encode(*value);
}

/// The handlers of T.
template <class T>
constexpr Handlers handlers_of() {
    return {&decode_root<T>, &decode_json<T>, &encode_json<T>};
}

/// A row for a container templated on the preset.
template <template <class> class F>
constexpr Entry preset_entry(std::string_view type) {
    return {type, handlers_of<F<Mainnet>>(), handlers_of<F<Minimal>>()};
}

/// A row for a container that is the same in both presets.
template <class T>
constexpr Entry fixed_entry(std::string_view type) {
    return {type, handlers_of<T>(), handlers_of<T>()};
}

/// A row from the type's two instances, for the mainnet and the minimal preset.
template <class ForMainnet, class ForMinimal>
constexpr Entry pair_entry(std::string_view type) {
    return {type, handlers_of<ForMainnet>(), handlers_of<ForMinimal>()};
}

/// A row for a container that is the same as the previous fork's row of that name (which may be
/// inherited in turn). registry_test checks that every such row resolves; the ssz_static vectors
/// of each fork check that the type really is unchanged.
constexpr Entry inherited(std::string_view type) {
    return {type, {}, {}};
}

/// The rows of each fork (registry_<fork>.cpp).
std::span<const Entry> phase0_entries();
std::span<const Entry> altair_entries();
std::span<const Entry> bellatrix_entries();
std::span<const Entry> capella_entries();
std::span<const Entry> deneb_entries();
std::span<const Entry> electra_entries();
std::span<const Entry> fulu_entries();

}  // namespace keel::beacon::detail
