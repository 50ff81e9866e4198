// BLAKE2b's F: the RFC 7693 appendix A example (BLAKE2b-512 of "abc", one block, 12 rounds),
// which is also EIP-152's test vector 5, and its 0-round and non-final variants from EIP-152.
#include "keel/crypto/blake2b.hpp"

#include <gtest/gtest.h>

#include <cstring>

#include "keel/common/hex.hpp"

namespace keel::crypto {
namespace {

std::string run(std::uint32_t rounds, bool last) {
    // h = IV with the parameter block (digest length 64, key length 0, fanout 1, depth 1)
    // folded into h[0], as BLAKE2b-512 starts.
    std::uint64_t h[8] = {0x6a09e667f2bdc948, 0xbb67ae8584caa73b, 0x3c6ef372fe94f82b,
                          0xa54ff53a5f1d36f1, 0x510e527fade682d1, 0x9b05688c2b3e6c1f,
                          0x1f83d9abfb41bd6b, 0x5be0cd19137e2179};
    std::uint64_t m[16] = {};
    m[0] = 0x636261;  // "abc", little-endian
    const std::uint64_t t[2] = {3, 0};
    blake2b_compress(h, m, t, last, rounds);
    std::uint8_t out[64];
    for (int i = 0; i < 8; ++i) {
        for (int b = 0; b < 8; ++b) out[8 * i + b] = static_cast<std::uint8_t>(h[i] >> (8 * b));
    }
    return hex::encode(BytesView(out, 64));
}

TEST(Blake2bCompress, Rfc7693AbcAndEip152Vectors) {
    EXPECT_EQ(
        run(12, true),
        "ba80a53f981c4d0d6a2797b69f12f6e94c212f14685ac4b74b12bb6fdbffa2d17d87c5392aab792dc252d"
        "5de4533cc9518d38aa8dbf1925ab92386edd4009923");
    EXPECT_EQ(
        run(0, true),
        "08c9bcf367e6096a3ba7ca8485ae67bb2bf894fe72f36e3cf1361d5f3af54fa5d282e6ad7f520e511f6c3"
        "e2b8c68059b9442be0454267ce079217e1319cde05b");
    EXPECT_EQ(
        run(12, false),
        "75ab69d3190a562c51aef8d88f1c2775876944407270c42c9844252c26d2875298743e7f6d5ea2f2d3e8d"
        "226039cd31b4e426ac4f2d3d666a610c2116fde4735");
}

}  // namespace
}  // namespace keel::crypto
