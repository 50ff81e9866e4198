#pragma once
/// Helpers for this module's tests only: the vectors' folders, their snappy files and their
/// one-line YAML values.

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>

#include "keel/common/bytes.hpp"
#include "keel/ssz/snappy_block.hpp"
#include "test/testutil/vectors.hpp"

namespace keel::beacon::testing {

/// Largest decompressed .ssz_snappy we accept (the mainnet BeaconState cases are a few MiB).
inline constexpr std::size_t kMaxSnappy = 64u << 20;

/// Reads and decompresses a .ssz_snappy file (one raw snappy block); throws on failure.
inline Bytes read_snappy(const std::filesystem::path& p) {
    const Bytes compressed = testutil::read_file(p);
    auto r = ssz::snappy_block_decode(compressed, kMaxSnappy);
    if (!r) throw std::runtime_error(p.string() + ": " + ssz::to_string(r.error()));
    return std::move(*r);
}

/// The quoted value of `key` in a small YAML file ("key: '0x…'" or "{key: '0x…'}"); throws when
/// absent.
inline std::string yaml_string(const std::filesystem::path& p, const std::string& key) {
    std::ifstream in(p);
    std::stringstream ss;
    ss << in.rdbuf();
    const std::string text = ss.str();
    const auto k = text.find(key + ":");
    if (k == std::string::npos) throw std::runtime_error(p.string() + ": no " + key);
    const auto open = text.find('\'', k);
    const auto close = open == std::string::npos ? open : text.find('\'', open + 1);
    if (close == std::string::npos) throw std::runtime_error(p.string() + ": bad " + key);
    return text.substr(open + 1, close - open - 1);
}

}  // namespace keel::beacon::testing
