// The 16-lane AVX-512F kernel behind sha256_64_many_x16(), against single-message SHA-256 and
// OpenSSL's one-shot SHA256().
#include <openssl/sha.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "keel/crypto/sha256.hpp"
#include "test/testutil/data.hpp"
#include "test/testutil/hex.hpp"

namespace keel::crypto {
namespace {

using testutil::hex_of;
using testutil::seeded_bytes;

// OpenSSL's digest of one 64-byte message: an implementation independent of keel's.
Hash32 openssl_sha256_64(const std::uint8_t* in) {
    Hash32 h;
    SHA256(in, 64, h.data());
    return h;
}

TEST(Sha256X16, ChosenWhereAvailable) {
    // Not a skip: the choice must follow the CPU either way.
    EXPECT_EQ(sha256_64_many_uses_x16(), sha256_x16_available());
}

TEST(Sha256X16, MatchesSingleMessageHashForEveryCountUpTo100And1000) {
    if (!sha256_x16_available()) GTEST_SKIP() << "no AVX-512F on this CPU";
    std::vector<std::size_t> counts;
    for (std::size_t n = 0; n <= 100; ++n) counts.push_back(n);
    counts.push_back(1000);
    for (std::size_t n : counts) {
        const Bytes in = seeded_bytes(64 * n, static_cast<std::uint32_t>(100 + n));
        Bytes out(32 * n + 1, 0xee);
        sha256_64_many_x16(in.data(), out.data(), n);
        for (std::size_t i = 0; i < n; ++i) {
            const Hash32 want = sha256(BytesView(in.data() + 64 * i, 64));
            ASSERT_EQ(std::memcmp(out.data() + 32 * i, want.data(), 32), 0)
                << "n=" << n << " i=" << i;
            ASSERT_EQ(
                std::memcmp(out.data() + 32 * i, openssl_sha256_64(in.data() + 64 * i).data(), 32),
                0)
                << "n=" << n << " i=" << i;
        }
        ASSERT_EQ(out[32 * n], 0xee) << "wrote past the end, n=" << n;
        // The default entry point agrees, whichever kernel it runs.
        Bytes dflt(32 * n);
        sha256_64_many(in.data(), dflt.data(), n);
        ASSERT_TRUE(std::equal(dflt.begin(), dflt.end(), out.begin())) << "n=" << n;
    }
}

TEST(Sha256X16, RandomMessagesAndUnalignedBuffers) {
    if (!sha256_x16_available()) GTEST_SKIP() << "no AVX-512F on this CPU";
    std::mt19937 rng(71);
    for (int trial = 0; trial < 50; ++trial) {
        const std::size_t n = rng() % 70;
        const std::size_t in_off = rng() % 64, out_off = rng() % 64;
        Bytes in(64 * n + in_off), out(32 * n + out_off);
        for (auto& b : in) b = static_cast<std::uint8_t>(rng());
        sha256_64_many_x16(in.data() + in_off, out.data() + out_off, n);
        for (std::size_t i = 0; i < n; ++i) {
            const Hash32 want = openssl_sha256_64(in.data() + in_off + 64 * i);
            ASSERT_EQ(std::memcmp(out.data() + out_off + 32 * i, want.data(), 32), 0)
                << "trial " << trial << " i=" << i;
        }
    }
}

TEST(Sha256X16, KnownAnswersInEveryLane) {
    if (!sha256_x16_available()) GTEST_SKIP() << "no AVX-512F on this CPU";
    // 64-byte messages: zeros (the first SSZ zero-hash, zerohashes[1] in the consensus specs),
    // all-ones, 64 'a's, and the first 64 bytes of the FIPS 180-4 896-bit example message.
    const std::string fips896 =
        "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlm"
        "n"
        "opqrsmnopqrstnopqrstu";
    std::vector<Bytes> msgs;
    msgs.emplace_back(64, 0x00);
    msgs.emplace_back(64, 0xff);
    msgs.emplace_back(64, 'a');
    msgs.emplace_back(fips896.begin(), fips896.begin() + 64);
    for (const Bytes& m : msgs) ASSERT_EQ(m.size(), 64u);
    // Each message in each of the 16 lanes, the other lanes holding the other messages.
    for (std::size_t shift = 0; shift < 16; ++shift) {
        Bytes in(64 * 16);
        for (std::size_t i = 0; i < 16; ++i)
            std::memcpy(in.data() + 64 * i, msgs[(i + shift) % msgs.size()].data(), 64);
        Bytes out(32 * 16);
        sha256_64_many_x16(in.data(), out.data(), 16);
        for (std::size_t i = 0; i < 16; ++i) {
            const Bytes& m = msgs[(i + shift) % msgs.size()];
            ASSERT_EQ(std::memcmp(out.data() + 32 * i, openssl_sha256_64(m.data()).data(), 32), 0)
                << "shift " << shift << " lane " << i;
        }
        Hash32 first;
        std::memcpy(first.data(), out.data(), 32);
        if (shift == 0) {
            EXPECT_EQ(hex_of(first),
                      "f5a5fd42d16a20302798ef6ed309979b43003d2320d9f0e8ea9831a92759fb4b");
        }
    }
}

TEST(Sha256X16, InPlaceReducesATreeLevel) {
    if (!sha256_x16_available()) GTEST_SKIP() << "no AVX-512F on this CPU";
    // Merkle root of 256 leaves by in-place level reduction (levels of 128 .. 1 nodes, so groups of
    // 16 and remainders both run in place), against out-of-place hashing.
    Bytes level = seeded_bytes(256 * 32, 53);
    Bytes naive = level;
    for (std::size_t n = 128; n >= 1; n /= 2) {
        sha256_64_many_x16(level.data(), level.data(), n);
        Bytes next(32 * n);
        for (std::size_t i = 0; i < n; ++i)
            std::memcpy(next.data() + 32 * i, openssl_sha256_64(naive.data() + 64 * i).data(), 32);
        naive = next;
        ASSERT_EQ(std::memcmp(level.data(), naive.data(), 32 * n), 0) << n;
    }
    // An odd count with a remainder, in place.
    Bytes odd = seeded_bytes(37 * 64, 59);
    const Bytes copy = odd;
    sha256_64_many_x16(odd.data(), odd.data(), 37);
    for (std::size_t i = 0; i < 37; ++i)
        ASSERT_EQ(
            std::memcmp(odd.data() + 32 * i, openssl_sha256_64(copy.data() + 64 * i).data(), 32), 0)
            << i;
}

}  // namespace
}  // namespace keel::crypto
