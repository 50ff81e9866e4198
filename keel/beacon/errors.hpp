#pragma once
/// Errors of the beacon type registry (registry.hpp), in the house shape (DESIGN.md §3,
/// docs/errors.md): a code, describe(), and a value that says where: the byte offset and the
/// field path for SSZ input, the JSON path for JSON input, the name given for an unknown type or
/// preset. beacon::to_string(error) gives the one line the CLI prints.

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "keel/ssz/errors.hpp"
#include "keel/ssz/json.hpp"

namespace keel::beacon {

/// What went wrong in a registry call.
enum class Errc : std::uint8_t {
    unknown_preset,  ///< a preset other than "mainnet" or "minimal" (path: the name given)
    unknown_type,    ///< not "<fork>.<Type>", an unknown fork, or no such container in the fork
    ssz,             ///< the bytes are not a value of the type (ssz_code, path, offset)
    json_syntax,     ///< the text is not JSON (offset: the character where parsing stopped)
    json,            ///< the JSON value does not map to the type (json_code, path)
};

/// A short phrase for the code, e.g. "unknown type".
std::string_view describe(Errc e) noexcept;

/// True for the codes that are the caller's usage (an unknown type or preset), false for bad
/// data: the CLI exits 2 for the first, 1 for the second.
constexpr bool is_usage(Errc e) noexcept {
    return e == Errc::unknown_preset || e == Errc::unknown_type;
}

/// A registry error. Small enough to return by value; the strings are built on the failure
/// path only.
struct Error {
    Errc code{};
    /// ssz: the absolute byte offset in the input; json_syntax: the character offset; else 0.
    std::size_t offset = 0;
    /// ssz: the field path ("BeaconBlock.body.attestations[3].data"); json: the JSON path;
    /// unknown_type / unknown_preset: the name given.
    std::string path;
    /// The rest of the line: the SSZ rule with its numbers, the JSON mapping's or parser's
    /// words, or why a type name is unknown.
    std::string detail;
    ssz::Errc ssz_code{};       ///< the SSZ rule broken (code ssz only)
    ssz::JsonErrc json_code{};  ///< the JSON rule broken (codes json and json_syntax)

    friend bool operator==(const Error&, const Error&) = default;
};

/// The registry error of an SSZ decoding error (same path, offset and rule).
Error from_ssz(const ssz::Error& e);
/// The registry error of a JSON mapping error (same path and words).
Error from_json_error(const ssz::JsonError& e);

/// One line, e.g. "ssz: BeaconBlock.body: offset 7 is before the previous offset 8 at offset
/// 84", "json: BeaconBlock.slot: expected a decimal string, got 1.5", "unknown type
/// 'electra.Foo': Foo is not an electra container", "unknown preset 'gnosis' (expected mainnet
/// or minimal)".
std::string to_string(const Error& e);

}  // namespace keel::beacon
