#pragma once
/// Test helpers: the official vectors folder, JSON loading and hex literals.

#include <filesystem>
#include <string_view>

#include <nlohmann/json.hpp>

#include "keel/common/bytes.hpp"

namespace keel::testutil {

/// KEEL_VECTORS_DIR/<area>; fails the calling test (fatal) when the folder is missing, because a
/// runner that finds no vectors must fail, not skip.
std::filesystem::path vectors_dir(std::string_view area);

/// Parses a JSON file; throws std::runtime_error naming the path on failure.
nlohmann::json load_json(const std::filesystem::path& path);

/// Reads a whole file as bytes; throws std::runtime_error naming the path on failure.
Bytes read_file(const std::filesystem::path& path);

/// Decodes hex (with or without 0x) for test literals; throws on bad input.
Bytes from_hex(std::string_view hex);

}  // namespace keel::testutil
