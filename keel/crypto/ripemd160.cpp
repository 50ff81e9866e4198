#include "keel/crypto/ripemd160.hpp"

#include <bit>
#include <cstring>

namespace keel::crypto {

namespace {

// Message word order, left and right lines, rounds 1..5.
constexpr std::uint8_t kRL[80] = {0, 1,  2,  3,  4,  5,  6,  7,  8,  9, 10, 11, 12, 13, 14, 15,
                                  7, 4,  13, 1,  10, 6,  15, 3,  12, 0, 9,  5,  2,  14, 11, 8,
                                  3, 10, 14, 4,  9,  15, 8,  1,  2,  7, 0,  6,  13, 11, 5,  12,
                                  1, 9,  11, 10, 0,  8,  12, 4,  13, 3, 7,  15, 14, 5,  6,  2,
                                  4, 0,  5,  9,  7,  12, 2,  10, 14, 1, 3,  8,  11, 6,  15, 13};
constexpr std::uint8_t kRR[80] = {5,  14, 7,  0, 9, 2,  11, 4,  13, 6,  15, 8,  1,  10, 3,  12,
                                  6,  11, 3,  7, 0, 13, 5,  10, 14, 15, 8,  12, 4,  9,  1,  2,
                                  15, 5,  1,  3, 7, 14, 6,  9,  11, 8,  12, 2,  10, 0,  4,  13,
                                  8,  6,  4,  1, 3, 11, 15, 0,  5,  12, 2,  13, 9,  7,  10, 14,
                                  12, 15, 10, 4, 1, 5,  8,  7,  6,  2,  13, 14, 0,  3,  9,  11};
// Rotation amounts.
constexpr std::uint8_t kSL[80] = {11, 14, 15, 12, 5,  8,  7,  9,  11, 13, 14, 15, 6,  7,  9,  8,
                                  7,  6,  8,  13, 11, 9,  7,  15, 7,  12, 15, 9,  11, 7,  13, 12,
                                  11, 13, 6,  7,  14, 9,  13, 15, 14, 8,  13, 6,  5,  12, 7,  5,
                                  11, 12, 14, 15, 14, 15, 9,  8,  9,  14, 5,  6,  8,  6,  5,  12,
                                  9,  15, 5,  11, 6,  8,  13, 12, 5,  12, 13, 14, 11, 8,  5,  6};
constexpr std::uint8_t kSR[80] = {8,  9,  9,  11, 13, 15, 15, 5,  7,  7,  8,  11, 14, 14, 12, 6,
                                  9,  13, 15, 7,  12, 8,  9,  11, 7,  7,  12, 7,  6,  15, 13, 11,
                                  9,  7,  15, 11, 8,  6,  6,  14, 12, 13, 5,  14, 13, 13, 7,  5,
                                  15, 5,  8,  11, 14, 14, 6,  14, 6,  9,  12, 9,  12, 5,  15, 8,
                                  8,  5,  12, 9,  12, 5,  14, 6,  8,  13, 6,  5,  15, 13, 11, 11};
constexpr std::uint32_t kKL[5] = {0x00000000, 0x5A827999, 0x6ED9EBA1, 0x8F1BBCDC, 0xA953FD4E};
constexpr std::uint32_t kKR[5] = {0x50A28BE6, 0x5C4DD124, 0x6D703EF3, 0x7A6D76E9, 0x00000000};

constexpr std::uint32_t f(int j, std::uint32_t x, std::uint32_t y, std::uint32_t z) noexcept {
    switch (j) {
        case 0:
            return x ^ y ^ z;
        case 1:
            return (x & y) | (~x & z);
        case 2:
            return (x | ~y) ^ z;
        case 3:
            return (x & z) | (y & ~z);
        default:
            return x ^ (y | ~z);
    }
}

void compress(std::uint32_t h[5], const std::uint8_t* block) noexcept {
    std::uint32_t x[16];
    for (int i = 0; i < 16; ++i) {
        x[i] = static_cast<std::uint32_t>(block[4 * i]) |
               static_cast<std::uint32_t>(block[4 * i + 1]) << 8 |
               static_cast<std::uint32_t>(block[4 * i + 2]) << 16 |
               static_cast<std::uint32_t>(block[4 * i + 3]) << 24;
    }
    std::uint32_t al = h[0], bl = h[1], cl = h[2], dl = h[3], el = h[4];
    std::uint32_t ar = al, br = bl, cr = cl, dr = dl, er = el;
    for (int j = 0; j < 80; ++j) {
        const int round = j / 16;
        std::uint32_t t =
            std::rotl(al + f(round, bl, cl, dl) + x[kRL[j]] + kKL[round], kSL[j]) + el;
        al = el, el = dl, dl = std::rotl(cl, 10), cl = bl, bl = t;
        t = std::rotl(ar + f(4 - round, br, cr, dr) + x[kRR[j]] + kKR[round], kSR[j]) + er;
        ar = er, er = dr, dr = std::rotl(cr, 10), cr = br, br = t;
    }
    const std::uint32_t t = h[1] + cl + dr;
    h[1] = h[2] + dl + er;
    h[2] = h[3] + el + ar;
    h[3] = h[4] + al + br;
    h[4] = h[0] + bl + cr;
    h[0] = t;
}

}  // namespace

std::array<std::uint8_t, 20> ripemd160(BytesView data) noexcept {
    std::uint32_t h[5] = {0x67452301, 0xEFCDAB89, 0x98BADCFE, 0x10325476, 0xC3D2E1F0};
    std::size_t i = 0;
    for (; i + 64 <= data.size(); i += 64) compress(h, data.data() + i);
    // The last block(s): the rest, 0x80, zeros, and the length in bits, little-endian.
    std::uint8_t tail[128] = {};
    const std::size_t rest = data.size() - i;
    if (rest != 0) std::memcpy(tail, data.data() + i, rest);
    tail[rest] = 0x80;
    const std::size_t n = rest + 9 <= 64 ? 64 : 128;
    const std::uint64_t bits = static_cast<std::uint64_t>(data.size()) * 8;
    for (int b = 0; b < 8; ++b) tail[n - 8 + b] = static_cast<std::uint8_t>(bits >> (8 * b));
    compress(h, tail);
    if (n == 128) compress(h, tail + 64);
    std::array<std::uint8_t, 20> out;
    for (int w = 0; w < 5; ++w) {
        for (int b = 0; b < 4; ++b) out[4 * w + b] = static_cast<std::uint8_t>(h[w] >> (8 * b));
    }
    return out;
}

}  // namespace keel::crypto
