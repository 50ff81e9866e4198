#pragma once
/// Go's duration syntax, as geth's TraceConfig.timeout takes it (time.ParseDuration): a
/// sequence of decimal numbers, each with an optional fraction and a unit ("ns", "us", "µs",
/// "ms", "s", "m", "h"), optionally signed: "5s", "300ms", "1.5h", "2h45m". "0" alone is
/// zero. Errors name the text: `invalid duration "5 s"`. A duration past what 64-bit
/// nanoseconds hold (about 292 years) is refused, as Go refuses it.

#include <chrono>
#include <string>
#include <string_view>

#include "keel/common/result.hpp"

namespace keel::trace {

[[nodiscard]] Result<std::chrono::nanoseconds, std::string> parse_duration(std::string_view text);

/// `d` as Go's Duration.String() writes it (geth's messages quote durations so): "5s", "1.5s",
/// "1m30s", "1h0m0s", "300ms", "1.5µs", "10ns", "0s"; negative with a leading "-".
[[nodiscard]] std::string format_duration(std::chrono::nanoseconds d);

}  // namespace keel::trace
