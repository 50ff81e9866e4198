#pragma once
/// Capability multiplexing (rlpx.md "Message ID-based Multiplexing"): after Hello, both sides
/// run every capability they share. Per protocol name the highest version both list is kept;
/// the kept ones, sorted by name, take consecutive message-code ranges starting after the base
/// protocol's 0x10 codes, each as long as its protocol's message count (eth/68: 17 codes, so
/// with snap/1 also shared, eth/68 holds 0x10..0x20 and snap/1 0x21..0x28).

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "keel/rlpx/messages.hpp"

namespace keel::rlpx {

/// A protocol this node runs: its capability and how many message codes it uses.
struct Protocol {
    Capability capability;
    std::uint64_t length = 0;
};

/// The message counts of protocols keel knows (eth/62-68: 17, eth/69: 18, snap/1: 8);
/// std::nullopt for others (the caller must then say).
std::optional<std::uint64_t> known_protocol_length(std::string_view name,
                                                   std::uint64_t version) noexcept;

/// A capability both sides run, and its range of message codes on the wire.
struct SharedCapability {
    Capability capability;
    std::uint64_t offset = 0;  ///< wire code of its message 0
    std::uint64_t length = 0;  ///< codes offset .. offset + length - 1

    bool holds(std::uint64_t code) const noexcept {
        return code >= offset && code - offset < length;
    }
};

/// The capabilities `ours` and `theirs` share, in code order (empty: nothing in common).
/// Several of our protocols may share a name (eth/67 and eth/68): the highest version the peer
/// also lists wins.
std::vector<SharedCapability> match_capabilities(std::span<const Protocol> ours,
                                                 std::span<const Capability> theirs);

/// The shared capability that holds wire code `code` (nullptr: none does).
const SharedCapability* capability_of(std::span<const SharedCapability> shared,
                                      std::uint64_t code) noexcept;
/// The shared capability named `name` (nullptr: not shared).
const SharedCapability* find_capability(std::span<const SharedCapability> shared,
                                        std::string_view name) noexcept;

/// "eth/68".
std::string to_string(const Capability& c);

}  // namespace keel::rlpx
