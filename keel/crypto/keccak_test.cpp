#include "keel/crypto/keccak.hpp"

#include <gtest/gtest.h>
#include <openssl/evp.h>

#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "keel/crypto/detail/keccak_backend.hpp"
#include "test/testutil/data.hpp"
#include "test/testutil/hex.hpp"

namespace keel::crypto {
namespace {

using testutil::hex_of;
using testutil::seeded_bytes;

std::vector<KeccakBackend> available_backends() {
    std::vector<KeccakBackend> out;
    for (auto b : {KeccakBackend::portable, KeccakBackend::bmi2, KeccakBackend::avx512})
        if (keccak_backend_available(b)) out.push_back(b);
    return out;
}

const char* name(KeccakBackend b) {
    return keccak_backend_name(b);
}

// ---------------------------------------------------------------------------------------------
// A slow reference Keccak written separately from the library, straight from FIPS 202: a byte
// array state, lanes assembled byte by byte, the ρ offsets and round constants copied from the
// spec's tables (not derived as the library does), plain loops, nothing unrolled.

struct RefKeccak {
    // FIPS 202 Table 2, indexed [x][y].
    static constexpr int kRho[5][5] = {{0, 36, 3, 41, 18},
                                       {1, 44, 10, 45, 2},
                                       {62, 6, 43, 15, 61},
                                       {28, 55, 25, 21, 56},
                                       {27, 20, 39, 8, 14}};
    // The 24 ι constants as listed in the Keccak reference.
    static constexpr std::uint64_t kRc[24] = {
        0x0000000000000001, 0x0000000000008082, 0x800000000000808A, 0x8000000080008000,
        0x000000000000808B, 0x0000000080000001, 0x8000000080008081, 0x8000000000008009,
        0x000000000000008A, 0x0000000000000088, 0x0000000080008009, 0x000000008000000A,
        0x000000008000808B, 0x800000000000008B, 0x8000000000008089, 0x8000000000008003,
        0x8000000000008002, 0x8000000000000080, 0x000000000000800A, 0x800000008000000A,
        0x8000000080008081, 0x8000000000008080, 0x0000000080000001, 0x8000000080008008};

    static std::uint64_t rot(std::uint64_t v, int n) {
        return n == 0 ? v : (v << n) | (v >> (64 - n));
    }

    static void permute(std::uint8_t s[200]) {
        std::uint64_t a[5][5];
        for (int x = 0; x < 5; ++x)
            for (int y = 0; y < 5; ++y) {
                std::uint64_t v = 0;
                for (int k = 7; k >= 0; --k) v = (v << 8) | s[8 * (x + 5 * y) + k];
                a[x][y] = v;
            }
        for (int round = 0; round < 24; ++round) {
            std::uint64_t c[5], d[5], b[5][5];
            for (int x = 0; x < 5; ++x) c[x] = a[x][0] ^ a[x][1] ^ a[x][2] ^ a[x][3] ^ a[x][4];
            for (int x = 0; x < 5; ++x) d[x] = c[(x + 4) % 5] ^ rot(c[(x + 1) % 5], 1);
            for (int x = 0; x < 5; ++x)
                for (int y = 0; y < 5; ++y) a[x][y] ^= d[x];
            for (int x = 0; x < 5; ++x)
                for (int y = 0; y < 5; ++y) b[y][(2 * x + 3 * y) % 5] = rot(a[x][y], kRho[x][y]);
            for (int x = 0; x < 5; ++x)
                for (int y = 0; y < 5; ++y)
                    a[x][y] = b[x][y] ^ (~b[(x + 1) % 5][y] & b[(x + 2) % 5][y]);
            a[0][0] ^= kRc[round];
        }
        for (int x = 0; x < 5; ++x)
            for (int y = 0; y < 5; ++y)
                for (int k = 0; k < 8; ++k)
                    s[8 * (x + 5 * y) + k] = static_cast<std::uint8_t>(a[x][y] >> (8 * k));
    }

    static Hash32 hash(BytesView m, std::uint8_t domain = 0x01) {
        std::uint8_t s[200] = {};
        std::size_t i = 0;
        for (; i + 136 <= m.size(); i += 136) {
            for (std::size_t k = 0; k < 136; ++k) s[k] ^= m[i + k];
            permute(s);
        }
        const std::size_t rem = m.size() - i;
        for (std::size_t k = 0; k < rem; ++k) s[k] ^= m[i + k];
        s[rem] ^= domain;
        s[135] ^= 0x80;
        permute(s);
        Hash32 h;
        for (int k = 0; k < 32; ++k) h[k] = s[k];
        return h;
    }
};

Hash32 openssl_sha3_256(BytesView m) {
    Hash32 h;
    unsigned len = 0;
    EXPECT_EQ(EVP_Digest(m.data(), m.size(), h.data(), &len, EVP_sha3_256(), nullptr), 1);
    EXPECT_EQ(len, 32u);
    return h;
}

// ---------------------------------------------------------------------------------------------

TEST(Keccak256, KnownAnswers) {
    // The empty string; Ethereum's KECCAK_EMPTY (the code hash of an account without code).
    EXPECT_EQ(hex_of(keccak256({})),
              "c5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470");
    EXPECT_EQ(hex_of(keccak256(as_bytes("abc"))),
              "4e03657aea45a94fc7d47ba826c8d667c0d1e6e33a64a036ec44f58fa12d6c45");
    EXPECT_EQ(hex_of(keccak256(as_bytes("The quick brown fox jumps over the lazy dog"))),
              "4d741b6f1eb29cb2a9b9911c82f56fa8d73b04959d3d9d222895df6c0b28aa15");
    // RLP of the empty list: the ommers hash of every post-merge block.
    const std::uint8_t empty_list[] = {0xc0};
    EXPECT_EQ(hex_of(keccak256(empty_list)),
              "1dcc4de8dec75d7aab85b567b6ccd41ad312451b948a7413f0a142fd40d49347");
    // RLP of the empty string: the root of the empty Merkle-Patricia trie.
    const std::uint8_t empty_string[] = {0x80};
    EXPECT_EQ(hex_of(keccak256(empty_string)),
              "56e81f171bcc55a6ff8345e692c0f86e5b48e01b996cadc001622fb5e363b421");
}

TEST(Keccak256, IsNotSha3) {
    // Same permutation and rate, different padding: the two must differ (and SHA3-256 of the
    // empty string is the FIPS 202 example value).
    EXPECT_EQ(hex_of(openssl_sha3_256({})),
              "a7ffc6f8bf1ed76651c14756a061d662f580ff4de43b49fa82d80a4b80f8434a");
    EXPECT_NE(keccak256({}), openssl_sha3_256({}));
}

TEST(KeccakF1600, ZeroStateMatchesReferenceAndKnownLane) {
    for (auto b : available_backends()) {
        std::uint64_t st[25] = {};
        keccak_f1600_with(b, st);
        // First lane of Keccak-f[1600] applied to the all-zero state (Keccak team's test values).
        EXPECT_EQ(st[0], 0xF1258F7940E1DDE7ull) << name(b);
        std::uint8_t ref[200] = {};
        RefKeccak::permute(ref);
        EXPECT_EQ(std::memcmp(st, ref, 200), 0) << name(b);
        // And a second application, from a state with every lane different.
        keccak_f1600_with(b, st);
        RefKeccak::permute(ref);
        EXPECT_EQ(std::memcmp(st, ref, 200), 0) << name(b);
    }
}

TEST(KeccakF1600, RandomStatesMatchReference) {
    std::mt19937_64 rng(7);
    for (int iter = 0; iter < 50; ++iter) {
        std::uint64_t start[25];
        for (auto& l : start) l = rng();
        std::uint8_t ref[200];
        std::memcpy(ref, start, 200);
        RefKeccak::permute(ref);
        for (auto b : available_backends()) {
            std::uint64_t st[25];
            std::memcpy(st, start, 200);
            keccak_f1600_with(b, st);
            ASSERT_EQ(std::memcmp(st, ref, 200), 0) << name(b) << " iteration " << iter;
        }
        std::uint64_t st[25];
        std::memcpy(st, start, 200);
        keccak_f1600(st);
        ASSERT_EQ(std::memcmp(st, ref, 200), 0);
    }
}

TEST(Keccak256, ActiveBackendIsTheFastestForThisCpu) {
    // keccak.cpp's rule: AVX-512 where the CPU has it, except on AMD with BMI2, whose scalar code
    // is faster one permutation at a time (Zen 5 measured); BMI2 next; the portable code last.
    __builtin_cpu_init();
    const bool avx512 = keccak_backend_available(KeccakBackend::avx512);
    const bool bmi2 = keccak_backend_available(KeccakBackend::bmi2);
    KeccakBackend want = KeccakBackend::portable;
    if (avx512 && !(bmi2 && __builtin_cpu_is("amd")))
        want = KeccakBackend::avx512;
    else if (bmi2)
        want = KeccakBackend::bmi2;
    EXPECT_EQ(keccak_active_backend(), want) << keccak_backend_name();
}

TEST(Keccak256, BlockBoundaryLengthsMatchReference) {
    // Around the rate (padding bytes 0x01 and 0x80 in the same byte at 135), and around two and
    // three blocks.
    const Bytes data = seeded_bytes(3 * 136 + 2);
    for (std::size_t n :
         {0, 1, 7, 8, 9, 31, 32, 33, 64, 134, 135, 136, 137, 271, 272, 273, 408, 409, 410}) {
        const BytesView m(data.data(), n);
        const Hash32 want = RefKeccak::hash(m);
        EXPECT_EQ(keccak256(m), want) << n;
        for (auto b : available_backends()) EXPECT_EQ(keccak256_with(b, m), want) << name(b) << n;
    }
}

TEST(Keccak256, EveryLengthUpTo600MatchesReference) {
    const Bytes data = seeded_bytes(600, 3);
    for (std::size_t n = 0; n <= data.size(); ++n) {
        const BytesView m(data.data(), n);
        const Hash32 want = RefKeccak::hash(m);
        for (auto b : available_backends())
            ASSERT_EQ(keccak256_with(b, m), want) << name(b) << " length " << n;
    }
}

TEST(Keccak256, OneMebibyteMatchesReference) {
    const Bytes data = seeded_bytes(1 << 20, 11);
    const Hash32 want = RefKeccak::hash(data);
    for (auto b : available_backends()) EXPECT_EQ(keccak256_with(b, data), want) << name(b);
    EXPECT_EQ(keccak256(data), want);
}

TEST(Keccak256, UnalignedInput) {
    const Bytes data = seeded_bytes(2000, 5);
    for (std::size_t off = 1; off < 8; ++off) {
        const BytesView m(data.data() + off, 1500);
        const Hash32 want = RefKeccak::hash(m);
        for (auto b : available_backends()) EXPECT_EQ(keccak256_with(b, m), want) << name(b) << off;
    }
}

// Every backend's permutation and absorb loop, through SHA3-256's padding, against OpenSSL's
// independent SHA3-256, up to a multi-MiB input.
TEST(Keccak256, SpongeWithSha3PaddingMatchesOpenSsl) {
    const Bytes data = seeded_bytes(4 << 20, 13);
    std::vector<std::size_t> lengths;
    for (std::size_t n = 0; n <= 700; ++n) lengths.push_back(n);
    for (std::size_t n : {4096, 65535, 1 << 20, (1 << 20) + 135, 4 << 20}) lengths.push_back(n);
    for (std::size_t n : lengths) {
        const BytesView m(data.data(), n);
        const Hash32 want = openssl_sha3_256(m);
        for (auto b : available_backends()) {
            Hash32 got;
            detail::keccak_sponge256_with(b, m, 0x06, got.data());
            ASSERT_EQ(got, want) << name(b) << " length " << n;
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Incremental hashing.

static_assert(std::is_trivially_copyable_v<Keccak256>);
static_assert(sizeof(Keccak256) <= 208);

TEST(Keccak256Incremental, ByteAtATimeAndBlockSizedChunks) {
    const Bytes data = seeded_bytes(1000, 17);
    const Hash32 want = keccak256(data);
    Keccak256 h;
    for (std::uint8_t byte : data) h.update(BytesView(&byte, 1));
    EXPECT_EQ(h.finalize(), want);
    for (std::size_t chunk : {135, 136, 137, 272, 999, 1000}) {
        Keccak256 k;
        for (std::size_t i = 0; i < data.size(); i += chunk)
            k.update(BytesView(data).subspan(i, std::min(chunk, data.size() - i)));
        EXPECT_EQ(k.finalize(), want) << chunk;
    }
}

TEST(Keccak256Incremental, RandomSplitsOfFourMebibytesMatchOneShot) {
    // 4 MiB of a repeating pattern, hashed once in one call and several times in random pieces.
    Bytes data(4 << 20);
    for (std::size_t i = 0; i < data.size(); ++i) data[i] = static_cast<std::uint8_t>(i % 251);
    const Hash32 want = keccak256(data);
    std::mt19937 rng(19);
    for (int trial = 0; trial < 4; ++trial) {
        Keccak256 h;
        std::size_t pos = 0;
        while (pos < data.size()) {
            // Mostly small pieces, sometimes large ones, so both paths of update() run.
            std::size_t n = rng() % 4 == 0 ? rng() % 100000 : rng() % 300;
            n = std::min(n, data.size() - pos);
            h.update(BytesView(data).subspan(pos, n));
            pos += n;
        }
        EXPECT_EQ(h.finalize(), want) << trial;
    }
    // And the reference agrees on the first MiB of the same pattern.
    const BytesView first(data.data(), 1 << 20);
    EXPECT_EQ(keccak256(first), RefKeccak::hash(first));
}

TEST(Keccak256Incremental, FinalizeDoesNotConsumeAndCopiesContinueIndependently) {
    const Bytes data = seeded_bytes(900, 23);
    const BytesView all(data);
    Keccak256 h;
    h.update(all.first(300));
    EXPECT_EQ(h.finalize(), keccak256(all.first(300)));
    EXPECT_EQ(h.finalize(), keccak256(all.first(300)));  // twice: finalize() is const

    // Copy mid-stream (as RLPx does with MAC states) and continue both differently.
    Keccak256 copy = h;
    h.update(all.subspan(300, 600));
    copy.update(all.subspan(300, 100));
    EXPECT_EQ(h.finalize(), keccak256(all));
    EXPECT_EQ(copy.finalize(), keccak256(all.first(400)));
    copy.update(all.subspan(400, 500));
    EXPECT_EQ(copy.finalize(), keccak256(all));

    std::uint8_t out[32];
    copy.finalize_to(out);
    EXPECT_EQ(std::memcmp(out, keccak256(all).data(), 32), 0);

    h.reset();
    EXPECT_EQ(h.finalize(), keccak256({}));
    h.update(as_bytes("abc"));
    EXPECT_EQ(hex_of(h.finalize()),
              "4e03657aea45a94fc7d47ba826c8d667c0d1e6e33a64a036ec44f58fa12d6c45");
}

TEST(Keccak256Incremental, EmptyUpdatesChangeNothing) {
    Keccak256 h;
    h.update({});
    h.update(as_bytes("ab"));
    h.update({});
    h.update(as_bytes("c"));
    EXPECT_EQ(h.finalize(), keccak256(as_bytes("abc")));
}

}  // namespace
}  // namespace keel::crypto
