#pragma once
/// Helpers for this module's tests only: the vectors' folders, their snappy files and their
/// one-line YAML values, and the merkleization steps the tests redo by hand.

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "keel/common/bytes.hpp"
#include "keel/crypto/sha256.hpp"
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

/// Sorted entries of a folder.
inline std::vector<std::filesystem::path> children(const std::filesystem::path& dir) {
    std::vector<std::filesystem::path> out;
    for (const auto& e : std::filesystem::directory_iterator(dir)) out.push_back(e.path());
    std::sort(out.begin(), out.end());
    return out;
}

/// sha256(a || b): one merkle step, computed here.
inline Hash32 hash2(const Hash32& a, const Hash32& b) {
    Bytes in(a.begin(), a.end());
    in.insert(in.end(), b.begin(), b.end());
    return crypto::sha256(in);
}

/// Up to 32 bytes, zero-padded to a chunk.
inline Hash32 pad(BytesView b) {
    EXPECT_LE(b.size(), 32u);
    Hash32 c{};
    for (std::size_t i = 0; i < b.size() && i < 32; ++i) c[i] = b[i];
    return c;
}

/// A uint64 as its little-endian chunk.
inline Hash32 u64_chunk(std::uint64_t v) {
    Hash32 c{};
    for (int i = 0; i < 8; ++i) c[i] = static_cast<std::uint8_t>(v >> (8 * i));
    return c;
}

/// N bytes, each v.
template <std::size_t N>
FixedBytes<N> filled(std::uint8_t v) {
    FixedBytes<N> out;
    for (auto& x : out.bytes) x = v;
    return out;
}

}  // namespace keel::beacon::testing
