#pragma once
/// Hostile text made fit for a one-line message: a name from a request, a value from a fixture.

#include <cstddef>
#include <string>
#include <string_view>

namespace keel {

/// `text` with control characters, backslashes and bytes that are not printable ASCII escaped
/// (\n, \r, \t, \\, \xNN), cut after `max` characters of the original with "..." and the
/// original length ("... (4096 bytes)").
std::string printable(std::string_view text, std::size_t max = 200);

}  // namespace keel
