#include "keel/crypto/sha256.hpp"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "test/testutil/data.hpp"
#include "test/testutil/hex.hpp"

namespace keel::crypto {
namespace {

using testutil::hex_of;
using testutil::seeded_bytes;

std::vector<Sha256Backend> sha256_backends() {
    std::vector<Sha256Backend> out;
    for (auto b : {Sha256Backend::shani, Sha256Backend::openssl})
        if (sha256_backend_available(b)) out.push_back(b);
    return out;
}

const char* name(Sha256Backend b) {
    return sha256_backend_name(b);
}

struct Kat {
    std::string message;
    const char* digest;
};

// FIPS 180-4 examples (NIST CSRC "Cryptographic Standards and Guidelines: Examples with
// Intermediate Values", SHA-256): one block, two blocks (448 bits), the 896-bit message, plus the
// empty string and 1,000,000 repetitions of 'a'.
std::vector<Kat> kats() {
    return {
        {"", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"},
        {"abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"},
        {"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
         "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"},
        {"abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrl"
         "mnopqrsmnopqrstnopqrstu",
         "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1"},
        {std::string(1000000, 'a'),
         "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"},
    };
}

TEST(Sha256, ShaNiIsAvailableWhereTheCpuHasIt) {
    // Not a skip: the OpenSSL backend is always there; SHA-NI must be active where available.
    EXPECT_TRUE(sha256_backend_available(Sha256Backend::openssl));
    if (sha256_backend_available(Sha256Backend::shani))
        EXPECT_EQ(sha256_active_backend(), Sha256Backend::shani);
    else
        EXPECT_EQ(sha256_active_backend(), Sha256Backend::openssl);
}

TEST(Sha256, Fips180KnownAnswersEveryBackend) {
    for (const auto& k : kats()) {
        const BytesView m = as_bytes(k.message);
        EXPECT_EQ(hex_of(sha256(m)), k.digest) << k.message.size();
        for (auto b : sha256_backends())
            EXPECT_EQ(hex_of(sha256_with(b, m)), k.digest) << name(b) << " " << k.message.size();
        Sha256 h;
        h.update(m);
        EXPECT_EQ(hex_of(h.finalize()), k.digest) << k.message.size();
    }
}

TEST(Sha256, BackendsAgreeOnEveryLengthUpTo1100AndSomeLargeOnes) {
    const Bytes data = seeded_bytes(1 << 20, 3);
    std::vector<std::size_t> lengths;
    for (std::size_t n = 0; n <= 1100; ++n) lengths.push_back(n);
    for (std::size_t n : {4095, 4096, 4097, 65536 + 55, 65536 + 56, 1 << 20}) lengths.push_back(n);
    for (std::size_t n : lengths) {
        const BytesView m(data.data(), n);
        const Hash32 want = sha256_with(Sha256Backend::openssl, m);
        ASSERT_EQ(sha256(m), want) << n;
        for (auto b : sha256_backends()) ASSERT_EQ(sha256_with(b, m), want) << name(b) << n;
    }
}

TEST(Sha256, BackendsAgreeOnRandomLengthsAndOffsets) {
    const Bytes data = seeded_bytes(20000, 5);
    std::mt19937 rng(29);
    for (int i = 0; i < 500; ++i) {
        const std::size_t off = rng() % 64;
        const std::size_t n = rng() % (data.size() - off);
        const BytesView m(data.data() + off, n);
        const Hash32 want = sha256_with(Sha256Backend::openssl, m);
        for (auto b : sha256_backends()) ASSERT_EQ(sha256_with(b, m), want) << name(b) << n;
    }
}

TEST(Sha256, SixtyFourBytePathMatchesGenericPath) {
    const Bytes data = seeded_bytes(64 * 257, 7);
    for (std::size_t i = 0; i < 257; ++i) {
        const BytesView m(data.data() + 64 * i, 64);
        const Hash32 want = sha256_with(Sha256Backend::openssl, m);
        Hash32 got;
        sha256_64(m.data(), got.data());
        ASSERT_EQ(got, want) << i;
        for (auto b : sha256_backends()) {
            sha256_64_with(b, m.data(), got.data());
            ASSERT_EQ(got, want) << name(b) << i;
        }
    }
    // Two 32-byte zero nodes: the first SSZ zero-hash (zerohashes[1] in the consensus specs).
    std::uint8_t zeros[64] = {};
    Hash32 z1;
    sha256_64(zeros, z1.data());
    EXPECT_EQ(hex_of(z1), "f5a5fd42d16a20302798ef6ed309979b43003d2320d9f0e8ea9831a92759fb4b");
}

TEST(Sha256, ManyMatchesOneAtATimeForEveryCount) {
    const Bytes data = seeded_bytes(64 * 40, 9);
    for (auto b : sha256_backends()) {
        for (std::size_t n = 0; n <= 40; ++n) {
            Bytes out(32 * n + 1, 0xee);
            sha256_64_many_with(b, data.data(), out.data(), n);
            for (std::size_t i = 0; i < n; ++i) {
                Hash32 want;
                sha256_64_with(Sha256Backend::openssl, data.data() + 64 * i, want.data());
                ASSERT_EQ(std::memcmp(out.data() + 32 * i, want.data(), 32), 0)
                    << name(b) << " n=" << n << " i=" << i;
            }
            ASSERT_EQ(out[32 * n], 0xee) << "wrote past the end, " << name(b) << " n=" << n;
        }
    }
}

TEST(Sha256, ManyInPlaceReducesATreeLevel) {
    // Merkle root of 16 leaves by repeated in-place level reduction, against a naive computation.
    Bytes level = seeded_bytes(16 * 32, 31);
    Bytes naive = level;
    for (std::size_t n = 8; n >= 1; n /= 2) {
        sha256_64_many(level.data(), level.data(), n);
        Bytes next(32 * n);
        for (std::size_t i = 0; i < n; ++i)
            sha256_64_with(Sha256Backend::openssl, naive.data() + 64 * i, next.data() + 32 * i);
        naive = next;
        ASSERT_EQ(std::memcmp(level.data(), naive.data(), 32 * n), 0) << n;
    }
}

static_assert(std::is_trivially_copyable_v<Sha256>);

TEST(Sha256Incremental, RandomSplitsMatchOneShot) {
    const Bytes data = seeded_bytes(300000, 37);
    const Hash32 want = sha256_with(Sha256Backend::openssl, data);
    std::mt19937 rng(41);
    for (int trial = 0; trial < 8; ++trial) {
        Sha256 h;
        std::size_t pos = 0;
        while (pos < data.size()) {
            std::size_t n = rng() % 4 == 0 ? rng() % 20000 : rng() % 130;
            n = std::min(n, data.size() - pos);
            h.update(BytesView(data).subspan(pos, n));
            pos += n;
        }
        EXPECT_EQ(h.finalize(), want) << trial;
    }
    Sha256 bytewise;
    for (std::size_t i = 0; i < 1000; ++i) bytewise.update(BytesView(data).subspan(i, 1));
    EXPECT_EQ(bytewise.finalize(), sha256(BytesView(data).first(1000)));
}

TEST(Sha256Incremental, FinalizeIsConstCopiesAndReset) {
    const Bytes data = seeded_bytes(500, 43);
    const BytesView all(data);
    Sha256 h;
    h.update(all.first(100));
    EXPECT_EQ(h.finalize(), sha256(all.first(100)));
    Sha256 copy = h;
    h.update(all.subspan(100));
    EXPECT_EQ(h.finalize(), sha256(all));
    EXPECT_EQ(copy.finalize(), sha256(all.first(100)));
    std::uint8_t out[32];
    h.finalize_to(out);
    EXPECT_EQ(std::memcmp(out, sha256(all).data(), 32), 0);
    h.reset();
    h.update(as_bytes("abc"));
    EXPECT_EQ(hex_of(h.finalize()),
              "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

}  // namespace
}  // namespace keel::crypto
