#include "apps/keel/input.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>

#include <nlohmann/json.hpp>

#include <fmt/format.h>

#include "keel/common/hex.hpp"

namespace keel::cli {
namespace {

// Reads to the end, or fails once more than `max` bytes came: `@/dev/zero` used to read until
// memory ran out.
std::string read_stream(std::istream& in, std::size_t max, std::string_view what,
                        std::string_view source) {
    std::string data;
    char chunk[65536];
    while (in) {
        in.read(chunk, sizeof chunk);
        const auto got = static_cast<std::size_t>(in.gcount());
        if (got > max - data.size()) {
            throw Failure{kExitUsage, fmt::format("{}: {} holds more than {} bytes, the most this "
                                                  "option reads",
                                                  what, source, max)};
        }
        data.append(chunk, got);
    }
    return data;
}

// Which argument read standard input: it can be read once. A second "-" used to read nothing
// and go on with empty data (`keel bls sign - -` signed an empty message).
std::string& stdin_reader() {
    static std::string what;
    return what;
}

std::string read_source(std::string_view arg, std::string_view what, bool* literal,
                        std::size_t max) {
    *literal = false;
    if (arg == "-") {
        std::string& first = stdin_reader();
        if (!first.empty()) {
            throw Failure{kExitUsage,
                          fmt::format("{}: standard input (-) is already read for {}; give this "
                                      "one as hex or @file",
                                      what, first)};
        }
        first = std::string(what);
        return read_stream(std::cin, max, what, "standard input");
    }
    if (arg.starts_with('@')) {
        std::string path(arg.substr(1));
        std::error_code ec;
        // An ifstream opens a directory and then fails inside basic_filebuf with a message that
        // names no file: say it here.
        if (std::filesystem::is_directory(path, ec)) {
            throw Failure{kExitUsage,
                          fmt::format("{}: cannot read {}: is a directory", what, path)};
        }
        std::ifstream f(path, std::ios::binary);
        if (!f) {
            throw Failure{kExitUsage,
                          fmt::format("{}: cannot read {}: {}", what, path, std::strerror(errno))};
        }
        std::string data = read_stream(f, max, what, path);
        if (f.bad()) {
            throw Failure{kExitUsage, fmt::format("{}: cannot read {}: read error", what, path)};
        }
        return data;
    }
    *literal = true;
    return std::string(arg);
}

}  // namespace

Bytes read_data_arg(std::string_view arg, std::string_view what, std::size_t max_bytes) {
    bool literal;
    std::string data = read_source(arg, what, &literal, max_bytes);
    if (!literal) return Bytes(data.begin(), data.end());
    auto decoded = hex::decode(data);
    if (!decoded) {
        throw Failure{kExitUsage, fmt::format("{}: {} (give hex, @file or -)", what,
                                              to_string(decoded.error()))};
    }
    return std::move(*decoded);
}

std::string read_text_arg(std::string_view arg, std::string_view what, std::size_t max_bytes) {
    bool literal;
    return read_source(arg, what, &literal, max_bytes);
}

CLI::Validator whole_number(std::string what, std::uint64_t lo, std::uint64_t hi) {
    std::string range;
    if (hi == std::numeric_limits<std::uint64_t>::max()) {
        range = fmt::format("a whole number, {} or more", lo);
    } else {
        range = fmt::format("a whole number from {} to {}", lo, hi);
    }
    std::string description = fmt::format("{} ({})", what, range);
    return CLI::Validator(
        [what, range, lo, hi](std::string& value) -> std::string {
            std::uint64_t v = 0;
            bool ok = !value.empty() && value.size() <= 20;
            for (char c : value) ok = ok && c >= '0' && c <= '9';
            if (ok) {
                for (char c : value) {
                    const auto d = static_cast<std::uint64_t>(c - '0');
                    if (v > (std::numeric_limits<std::uint64_t>::max() - d) / 10) {
                        ok = false;
                        break;
                    }
                    v = v * 10 + d;
                }
            }
            if (!ok || v < lo || v > hi)
                return fmt::format("{} is not {} ({})", value, what, range);
            return {};
        },
        description);
}

nlohmann::json parse_json(std::string_view text, std::string_view what) {
    try {
        return nlohmann::json::parse(text);
    } catch (const nlohmann::json::parse_error& e) {
        // e.byte counts from 1 and names the byte where parsing stopped; line and column are
        // counted here (both from 1) so the message does not depend on the library's wording.
        const std::size_t at = e.byte == 0 ? 0 : std::min<std::size_t>(e.byte - 1, text.size());
        std::size_t line = 1, column = 1;
        for (std::size_t i = 0; i < at; ++i) {
            if (text[i] == '\n') {
                ++line;
                column = 1;
            } else {
                ++column;
            }
        }
        // The library's reason without its "[json.exception...] parse error at ...: " prefix.
        std::string reason = e.what();
        if (const std::size_t p = reason.find(": "); p != std::string::npos) {
            reason.erase(0, p + 2);
        }
        for (char& c : reason) {
            if (c == '\n' || c == '\r') c = ' ';
        }
        throw Failure{kExitBadData, fmt::format("{}: not valid JSON at line {}, column {} (offset "
                                                "{}): {}",
                                                what, line, column, at, reason)};
    } catch (const nlohmann::json::exception& e) {
        // A number the parser cannot hold ("1e400": out_of_range.406) has no position: the
        // reason without the library's prefix, on one line.
        std::string reason = e.what();
        if (const std::size_t p = reason.find("] "); p != std::string::npos) reason.erase(0, p + 2);
        for (char& c : reason) {
            if (static_cast<unsigned char>(c) < 0x20) c = ' ';
        }
        if (reason.size() > 200) reason = reason.substr(0, 200) + "...";
        throw Failure{kExitBadData, fmt::format("{}: not valid JSON: {}", what, reason)};
    }
}

void write_output(std::string_view path, BytesView data) {
    if (path == "-") {
        std::fwrite(data.data(), 1, data.size(), stdout);
        std::fflush(stdout);
        return;
    }
    std::string p(path);
    std::FILE* f = std::fopen(p.c_str(), "wb");
    if (f == nullptr) {
        throw Failure{kExitUsage, fmt::format("cannot write {}: {}", p, std::strerror(errno))};
    }
    bool ok = std::fwrite(data.data(), 1, data.size(), f) == data.size();
    ok = std::fclose(f) == 0 && ok;
    if (!ok) throw Failure{kExitUsage, fmt::format("cannot write {}: {}", p, std::strerror(errno))};
}

void print_hex_line(BytesView data) {
    std::printf("%s\n", hex::encode_prefixed(data).c_str());
}

void report_validity(bool ok, std::string_view context, std::string_view what) {
    if (ok) {
        std::printf("valid\n");
        return;
    }
    std::printf("invalid\n");
    std::fflush(stdout);
    throw Failure{kExitBadData, fmt::format("{}: {}", context, what)};
}

}  // namespace keel::cli
