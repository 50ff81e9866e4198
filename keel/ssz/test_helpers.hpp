#pragma once
/// Helpers shared by keel/ssz's unit tests: hex literals, a decode that must fail, and a
/// reference merkleization written straight from the spec (recursive, no tricks).

#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "keel/crypto/sha256.hpp"
#include "keel/ssz/ssz.hpp"
#include "test/testutil/vectors.hpp"

namespace keel::ssz::test {

using testutil::from_hex;

/// Decodes `hex` as T and returns the error; fails the test when it decodes.
template <class T>
Error decode_error(const std::string& hex) {
    auto r = decode<T>(from_hex(hex));
    EXPECT_FALSE(r.has_value()) << "decoded: " << hex;
    return r ? Error{} : r.error();
}

/// Decodes `hex` as T, re-encodes it, and checks the bytes come back unchanged.
template <class T>
T round_trip(const std::string& hex) {
    const Bytes in = from_hex(hex);
    auto r = decode<T>(in);
    EXPECT_TRUE(r.has_value()) << (r ? std::string() : to_string(r.error()));
    if (!r) return T{};
    EXPECT_EQ(encode(*r), in);
    EXPECT_EQ(encoded_size(*r), in.size());
    return *r;
}

/// hash(a || b)
inline Hash32 hash_pair(const Hash32& a, const Hash32& b) {
    std::uint8_t block[64];
    std::memcpy(block, a.data(), 32);
    std::memcpy(block + 32, b.data(), 32);
    return crypto::sha256(BytesView(block, 64));
}

/// merkleize(chunks, limit) as the spec writes it: pad with zero chunks to the next power of
/// two of `limit`, then hash pairs level by level.
inline Hash32 reference_merkleize(std::vector<Hash32> chunks, std::size_t limit) {
    std::size_t width = 1;
    while (width < limit) width *= 2;
    chunks.resize(width);
    while (chunks.size() > 1) {
        std::vector<Hash32> next(chunks.size() / 2);
        for (std::size_t i = 0; i < next.size(); ++i) {
            next[i] = hash_pair(chunks[2 * i], chunks[2 * i + 1]);
        }
        chunks = std::move(next);
    }
    return chunks[0];
}

/// Bytes split into zero-padded chunks.
inline std::vector<Hash32> pack(BytesView b) {
    std::vector<Hash32> out((b.size() + 31) / 32);
    if (!b.empty()) std::memcpy(out.data(), b.data(), b.size());
    return out;
}

/// A chunk holding a little-endian uint64 (a length mix-in).
inline Hash32 length_chunk(std::uint64_t n) {
    Hash32 h;
    std::memcpy(h.data(), &n, 8);
    return h;
}

}  // namespace keel::ssz::test
