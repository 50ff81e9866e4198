#pragma once
// Command-line input conventions shared by every subcommand.

#include <string>
#include <string_view>

#include "keel/common/bytes.hpp"

namespace keel::cli {

/// Exit codes: 0 success, 1 bad data (input that failed to decode or verify), 2 bad usage
/// (unknown option, unreadable file, malformed argument).
inline constexpr int kExitBadData = 1;
inline constexpr int kExitUsage = 2;

/// A failure to report as one line "keel: <message>" with an exit code.
struct Failure {
    int exit_code;
    std::string message;
};

/// Reads a data argument: "@path" is a file's bytes, "-" is standard input's bytes, anything
/// else is hex text (optionally 0x-prefixed). Throws Failure naming the argument on error.
Bytes read_data_arg(std::string_view arg, std::string_view what);

/// Reads a text argument: "@path" is a file's text, "-" standard input, else the text itself.
std::string read_text_arg(std::string_view arg, std::string_view what);

/// Writes bytes to a file path, or to standard output for "-". Throws Failure on error.
void write_output(std::string_view path, BytesView data);

}  // namespace keel::cli
