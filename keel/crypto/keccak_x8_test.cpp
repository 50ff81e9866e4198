#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <random>
#include <vector>

#include "keel/crypto/detail/keccak_backend.hpp"
#include "keel/crypto/keccak.hpp"

namespace keel::crypto {
namespace {

constexpr KeccakBackend kAllBackends[] = {KeccakBackend::portable, KeccakBackend::bmi2,
                                          KeccakBackend::avx512};

// Messages with the given lengths, each in its own exactly sized allocation (so a read past a
// message's end leaves its buffer), filled from `rng`.
std::vector<Bytes> messages(const std::vector<std::size_t>& lengths, std::mt19937_64& rng) {
    std::vector<Bytes> out;
    for (const std::size_t n : lengths) {
        Bytes b(n);
        for (auto& x : b) x = static_cast<std::uint8_t>(rng());
        out.push_back(std::move(b));
    }
    return out;
}

// keccak256_many() and keccak256_many_with() for every available backend agree with
// keccak256_with(portable) message by message. Reports the lengths on failure.
void check_many(const std::vector<Bytes>& msgs) {
    std::vector<BytesView> in(msgs.begin(), msgs.end());
    std::vector<Hash32> want;
    for (const auto& m : msgs) want.push_back(keccak256_with(KeccakBackend::portable, m));

    std::string lengths;
    for (const auto& m : msgs) lengths += std::to_string(m.size()) + " ";

    std::vector<Hash32> got(in.size());
    keccak256_many(in, got);
    for (std::size_t i = 0; i < in.size(); ++i)
        ASSERT_EQ(got[i], want[i]) << "message " << i << " of lengths " << lengths;
    for (const auto b : kAllBackends) {
        if (!keccak_backend_available(b)) continue;
        std::vector<Hash32> got_b(in.size());
        keccak256_many_with(b, in, got_b);
        for (std::size_t i = 0; i < in.size(); ++i)
            ASSERT_EQ(got_b[i], want[i])
                << keccak_backend_name(b) << " message " << i << " of lengths " << lengths;
    }
}

TEST(Keccak256Many, KnownDigests) {
    // keccak256("") and keccak256("abc") (Keccak team's reference values, as in keccak_test.cpp).
    const Bytes abc{'a', 'b', 'c'};
    const BytesView in[3] = {BytesView{}, abc, BytesView{}};
    Hash32 out[3];
    keccak256_many(in, out);
    const Hash32 empty = keccak256_with(KeccakBackend::portable, {});
    EXPECT_EQ(out[0], empty);
    EXPECT_EQ(out[2], empty);
    EXPECT_EQ(out[1], keccak256_with(KeccakBackend::portable, abc));
    EXPECT_EQ(empty[0], 0xc5);
    EXPECT_EQ(empty[31], 0x70);
}

TEST(Keccak256Many, EmptySpan) {
    keccak256_many({}, {});
    for (const auto b : kAllBackends)
        if (keccak_backend_available(b)) keccak256_many_with(b, {}, {});
}

TEST(Keccak256Many, BlockBoundaryLengths) {
    std::mt19937_64 rng(1);
    // Around each padding case: 0x01 and 0x80 in different bytes, in the same byte (135), a
    // full extra padding block (136, 272), and the smallest multi-block messages.
    const std::vector<std::size_t> edges = {0,   1,   31,  32,  33,  134, 135, 136,
                                            137, 271, 272, 273, 407, 408, 409, 1000};
    check_many(messages(edges, rng));
    for (const std::size_t n : edges) check_many(messages(std::vector<std::size_t>(8, n), rng));
    for (const std::size_t n : edges) check_many(messages(std::vector<std::size_t>(17, n), rng));
}

TEST(Keccak256Many, EveryGroupSize) {
    std::mt19937_64 rng(2);
    for (std::size_t count = 1; count <= 25; ++count) {
        std::vector<std::size_t> lengths;
        for (std::size_t i = 0; i < count; ++i) lengths.push_back(rng() % 400);
        check_many(messages(lengths, rng));
    }
}

TEST(Keccak256Many, RandomLengthMixes) {
    std::mt19937_64 rng(3);
    for (int round = 0; round < 300; ++round) {
        const std::size_t count = 1 + rng() % 40;
        std::vector<std::size_t> lengths;
        const int style = round % 4;
        const std::size_t same = rng() % 1001;
        for (std::size_t i = 0; i < count; ++i) {
            switch (style) {
                case 0:  // anything up to 1000 bytes
                    lengths.push_back(rng() % 1001);
                    break;
                case 1:  // all the same length
                    lengths.push_back(same);
                    break;
                case 2:  // mostly short, an occasional long one (slots finish at very different
                         // times)
                    lengths.push_back(rng() % 8 == 0 ? 500 + rng() % 500 : rng() % 40);
                    break;
                default: {  // within one byte of a block boundary
                    const std::size_t n = 136 * (rng() % 5) + rng() % 3;
                    lengths.push_back(n == 0 ? 0 : n - 1);
                    break;
                }
            }
        }
        check_many(messages(lengths, rng));
    }
}

TEST(Keccak256Many, SameBufferManyViews) {
    // Overlapping inputs (sub-views of one buffer) are fine; only the outputs must not overlap
    // them.
    std::mt19937_64 rng(4);
    Bytes buf(2000);
    for (auto& x : buf) x = static_cast<std::uint8_t>(rng());
    std::vector<BytesView> in;
    for (int i = 0; i < 50; ++i) {
        const std::size_t off = rng() % 1000, len = rng() % 1000;
        in.emplace_back(buf.data() + off, len);
    }
    std::vector<Hash32> got(in.size());
    keccak256_many(in, got);
    for (std::size_t i = 0; i < in.size(); ++i)
        EXPECT_EQ(got[i], keccak256_with(KeccakBackend::portable, in[i])) << i;
}

TEST(KeccakF1600x8, MatchesScalarPermutation) {
    if (!keccak_backend_available(KeccakBackend::avx512)) GTEST_SKIP() << "no AVX-512F";
    std::mt19937_64 rng(5);
    for (int round = 0; round < 50; ++round) {
        std::uint64_t states[8][25];
        std::uint64_t lanes[25][8];
        for (int j = 0; j < 8; ++j)
            for (int k = 0; k < 25; ++k) lanes[k][j] = states[j][k] = rng();
        // A few times in a row, so that errors in any round constant or rotation compound.
        for (int rep = 0; rep < 3; ++rep) {
            detail::keccak_f1600_x8(lanes);
            for (auto& s : states) keccak_f1600_with(KeccakBackend::portable, s);
        }
        for (int j = 0; j < 8; ++j)
            for (int k = 0; k < 25; ++k)
                ASSERT_EQ(lanes[k][j], states[j][k]) << "state " << j << " lane " << k;
    }
}

TEST(KeccakF1600x8, ZeroStateKnownAnswer) {
    if (!keccak_backend_available(KeccakBackend::avx512)) GTEST_SKIP() << "no AVX-512F";
    // Keccak-f[1600] of the all-zero state: lane 0 is 0xF1258F7940E1DDE7 (Keccak team's
    // KeccakF-1600-IntermediateValues.txt), in every slot.
    std::uint64_t lanes[25][8] = {};
    detail::keccak_f1600_x8(lanes);
    for (int j = 0; j < 8; ++j) EXPECT_EQ(lanes[0][j], 0xF1258F7940E1DDE7ull) << j;
}

}  // namespace
}  // namespace keel::crypto
