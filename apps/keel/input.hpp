#pragma once
// Command-line input conventions shared by every subcommand.

#include <cstdint>
#include <limits>
#include <string>
#include <string_view>

#include <CLI/CLI.hpp>
#include <nlohmann/json_fwd.hpp>

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

/// The most bytes a data or text argument reads from a file or standard input unless its
/// command says otherwise: 1 GiB (a device such as /dev/zero has no end).
inline constexpr std::size_t kMaxInputBytes = std::size_t{1} << 30;

/// Reads a data argument: "@path" is a file's bytes, "-" is standard input's bytes, anything
/// else is hex text (optionally 0x-prefixed). Standard input can be read by one argument only:
/// a second "-" is bad usage. A file or input longer than `max_bytes` is bad usage. Throws
/// Failure naming the argument on error (a directory given as @path included: exit 2).
Bytes read_data_arg(std::string_view arg, std::string_view what,
                    std::size_t max_bytes = kMaxInputBytes);

/// Reads a text argument: "@path" is a file's text, "-" standard input, else the text itself;
/// at most `max_bytes` from a file or standard input.
std::string read_text_arg(std::string_view arg, std::string_view what,
                          std::size_t max_bytes = kMaxInputBytes);

/// A CLI11 check that an option is a whole number in [lo, hi], with a plain message naming the
/// value and the range, e.g. "--until: -1 is not a block number (a whole number, 0 or more)".
/// CLI11's own range checks print the bounds of a double (a 300-digit number for "0 or more").
/// `what` names the value: "a block number", "a batch size".
CLI::Validator whole_number(std::string what, std::uint64_t lo = 0,
                            std::uint64_t hi = std::numeric_limits<std::uint64_t>::max());

/// Parses JSON text. Throws Failure (exit 1) naming `what` and the position of a syntax error:
/// "<what>: not valid JSON at line 3, column 7 (offset 21): <reason>".
nlohmann::json parse_json(std::string_view text, std::string_view what);

/// Writes bytes to a file path, or to standard output for "-". Throws Failure on error.
void write_output(std::string_view path, BytesView data);

/// Prints bytes as one line of 0x-prefixed hex.
void print_hex_line(BytesView data);

/// A check's verdict: prints "valid", or prints "invalid" and throws Failure (exit 1) with the
/// line "<context>: <what>" (e.g. "bls verify", "the signature does not verify").
void report_validity(bool ok, std::string_view context, std::string_view what);

}  // namespace keel::cli
