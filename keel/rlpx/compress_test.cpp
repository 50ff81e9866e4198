// Tests for keel/rlpx/compress: round trips, the vectors' compressed payloads, lying lengths,
// corrupt input, the 16 MiB cap, buffers that only grow.
#include "keel/rlpx/compress.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <ostream>
#include <random>
#include <string>

#include "keel/common/hex.hpp"
#include "test/testutil/vectors.hpp"

namespace keel::rlpx {

void PrintTo(const SnappyError& e, std::ostream* os) {
    *os << to_string(e);
}

namespace {

using testutil::from_hex;

// The varint (little-endian base-128) snappy puts in front: the uncompressed length.
Bytes varint(std::uint64_t v) {
    Bytes out;
    while (v >= 0x80) {
        out.push_back(static_cast<std::uint8_t>(v | 0x80));
        v >>= 7;
    }
    out.push_back(static_cast<std::uint8_t>(v));
    return out;
}

Bytes with_header(std::uint64_t declared, BytesView elements) {
    Bytes out = varint(declared);
    out.insert(out.end(), elements.begin(), elements.end());
    return out;
}

// `compressed` without its length header.
Bytes elements_of(BytesView compressed) {
    std::size_t i = 0;
    while (compressed[i] & 0x80) ++i;
    return Bytes(compressed.begin() + static_cast<std::ptrdiff_t>(i + 1), compressed.end());
}

SnappyError decompress_error(BytesView in, std::size_t limit = kMaxDecompressedSize) {
    Bytes buf;
    auto r = snappy_decompress(in, buf, limit);
    if (r) {
        ADD_FAILURE() << "accepted: "
                      << hex::encode(in.first(std::min<std::size_t>(in.size(), 40)));
        return {};
    }
    return r.error();
}

TEST(RlpxSnappy, RoundTripRandomSizes) {
    std::mt19937_64 rng(7);
    Bytes message, compressed, plain;
    for (int i = 0; i < 60; ++i) {
        const std::size_t n = i < 4 ? static_cast<std::size_t>(i) : rng() % ((1 << 20) + 1);
        message.resize(n);
        // Half the messages compressible (few symbols, runs), half random.
        for (std::size_t j = 0; j < n; ++j)
            message[j] = static_cast<std::uint8_t>(i % 2 == 0 ? (j / 64) % 3 : rng());
        const BytesView c = snappy_compress(message, compressed);
        ASSERT_LE(c.size(), snappy_max_compressed_length(n));
        auto declared = snappy_declared_length(c);
        ASSERT_TRUE(declared);
        EXPECT_EQ(*declared, n);
        auto m = snappy_decompress(c, plain);
        ASSERT_TRUE(m) << to_string(m.error());
        ASSERT_EQ(m->size(), n);
        EXPECT_TRUE(std::equal(message.begin(), message.end(), m->begin()));
    }
}

TEST(RlpxSnappy, VectorPayloads) {
    const auto v = testutil::load_json(testutil::vectors_dir("rlpx") / "frames_after_eip8.json");
    int checked = 0;
    Bytes plain, compressed;
    for (const auto& f : v["frames"]) {
        if (!f["snappy"].get<bool>()) continue;
        const Bytes wire = from_hex(f["wirePayload"].get<std::string>());
        const std::string payload = f["payload"].get<std::string>();
        auto m = snappy_decompress(wire, plain);
        ASSERT_TRUE(m) << to_string(m.error());
        EXPECT_EQ(hex::encode(*m), payload);
        EXPECT_EQ(hex::encode(snappy_compress(from_hex(payload), compressed)), hex::encode(wire));
        ++checked;
    }
    EXPECT_EQ(checked, 5);
}

TEST(RlpxSnappy, DeclaredAboveTheCapIsRefusedBeforeAllocating) {
    Bytes buf;
    const Bytes in = with_header(kMaxDecompressedSize + 1, from_hex("00"));
    auto r = snappy_decompress(in, buf);
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().code, SnappyErrc::too_large);
    EXPECT_EQ(r.error().declared, kMaxDecompressedSize + 1);
    EXPECT_EQ(buf.capacity(), 0u);  // nothing was allocated
    EXPECT_EQ(to_string(r.error()),
              "snappy: declared length exceeds the limit (declared 16777217, limit 16777216) at "
              "offset 0");
    // The largest 32-bit length, and a caller's lower limit.
    EXPECT_EQ(decompress_error(with_header(0xffffffff, {})).code, SnappyErrc::too_large);
    EXPECT_EQ(decompress_error(with_header(1001, from_hex("00")), 1000).code,
              SnappyErrc::too_large);
    // Exactly the cap is accepted.
    const Bytes big(kMaxDecompressedSize, 0x33);
    Bytes c, out;
    auto m = snappy_decompress(snappy_compress(big, c), out);
    ASSERT_TRUE(m);
    EXPECT_EQ(m->size(), kMaxDecompressedSize);
}

TEST(RlpxSnappy, LyingLengths) {
    Bytes c;
    const Bytes message(100, 0x5a);
    const Bytes elements = elements_of(snappy_compress(message, c));
    // Declared larger than the data.
    auto e = decompress_error(with_header(200, elements));
    EXPECT_EQ(e.code, SnappyErrc::length_mismatch);
    EXPECT_EQ(e.declared, 200u);
    EXPECT_EQ(e.actual, 100u);
    EXPECT_EQ(to_string(e),
              "snappy: data does not match the declared length (declared 200, data holds 100) at "
              "offset " +
                  std::to_string(varint(200).size() + elements.size()));
    // Declared smaller than the data.
    e = decompress_error(with_header(99, elements));
    EXPECT_EQ(e.code, SnappyErrc::length_mismatch);
    EXPECT_GT(e.actual, 99u);
    EXPECT_NE(to_string(e).find("data holds more"), std::string::npos);
    e = decompress_error(with_header(0, elements));
    EXPECT_EQ(e.code, SnappyErrc::length_mismatch);
    // A literal claiming more bytes than follow.
    e =
        decompress_error(from_hex("0a"
                                  "24"
                                  "616263"));  // literal of 10, only 3 bytes
    EXPECT_EQ(e.code, SnappyErrc::corrupt);
    EXPECT_EQ(e.offset, 1u);
    // Declared 10, nothing after the header.
    e = decompress_error(from_hex("0a"));
    EXPECT_EQ(e.code, SnappyErrc::length_mismatch);
    EXPECT_EQ(e.actual, 0u);
}

TEST(RlpxSnappy, CorruptInput) {
    struct Case {
        const char* hex;
        SnappyErrc code;
        std::size_t offset;
    } cases[] = {
        {"", SnappyErrc::bad_length_header, 0},
        {"80", SnappyErrc::bad_length_header, 0},            // varint cut short
        {"ffffffffff7f", SnappyErrc::bad_length_header, 0},  // more than 32 bits
        {"08"
         "0061"
         "0100",
         SnappyErrc::corrupt, 3},  // copy with offset 0
        {"08"
         "0061"
         "0102",
         SnappyErrc::corrupt, 3},  // copy reaching before the start
        {"08"
         "0061"
         "06",
         SnappyErrc::corrupt, 3},  // copy-2 cut short
        {"08"
         "0061"
         "0301",
         SnappyErrc::corrupt, 3},  // copy-4 cut short
        {"08"
         "01",
         SnappyErrc::corrupt, 1},  // copy-1 without its byte
        {"08"
         "f0",
         SnappyErrc::corrupt, 1},  // literal length byte missing
        {"08"
         "fcffffffff",
         SnappyErrc::corrupt, 1},  // 4-byte literal length overflow
        {"05"
         "0061"
         "0501",
         SnappyErrc::length_mismatch, 3},  // copy of 5 past the declared 5
    };
    for (const auto& c : cases) {
        const auto e = decompress_error(from_hex(c.hex));
        EXPECT_EQ(e.code, c.code) << c.hex << ": " << to_string(e);
        EXPECT_EQ(e.offset, c.offset) << c.hex << ": " << to_string(e);
    }
    // Valid hand-written streams: a literal, then a copy (offset 1, length 4 + 0).
    Bytes buf;
    auto m = snappy_decompress(from_hex("05"
                                        "0061"
                                        "0501"),
                               buf);
    EXPECT_FALSE(m);
    m = snappy_decompress(from_hex("05"
                                   "0061"
                                   "0101"),
                          buf);
    ASSERT_TRUE(m) << to_string(m.error());
    EXPECT_EQ(hex::encode(*m), "6161616161");
    m = snappy_decompress(from_hex("00"), buf);
    ASSERT_TRUE(m);
    EXPECT_TRUE(m->empty());
}

TEST(RlpxSnappy, EveryTruncationAndBitFlipIsHandled) {
    // Each prefix and each single-bit flip of a real compressed message either decompresses
    // (flips can leave a valid stream) or fails with an error; never more than the declared size.
    Bytes message;
    for (int i = 0; i < 3000; ++i)
        message.push_back(static_cast<std::uint8_t>("keel rlpx "[i % 10]));
    Bytes c;
    const Bytes good(snappy_compress(message, c).begin(), snappy_compress(message, c).end());
    Bytes buf;
    for (std::size_t n = 0; n < good.size(); ++n) {
        auto r = snappy_decompress(BytesView(good).first(n), buf);
        EXPECT_FALSE(r) << "prefix " << n;
    }
    std::size_t failed = 0;
    for (std::size_t bit = 0; bit < good.size() * 8; ++bit) {
        Bytes bad = good;
        bad[bit / 8] ^= static_cast<std::uint8_t>(1u << (bit % 8));
        auto r = snappy_decompress(bad, buf);
        if (!r) {
            ++failed;
            EXPECT_FALSE(to_string(r.error()).empty());
        }
    }
    EXPECT_GT(failed, good.size());
}

TEST(RlpxSnappy, BuffersOnlyGrow) {
    Bytes c, buf;
    const Bytes big(100000, 1), small(10, 2);
    ASSERT_TRUE(snappy_decompress(snappy_compress(big, c), buf));
    const std::uint8_t* data = buf.data();
    const std::size_t size = buf.size();
    auto m = snappy_decompress(snappy_compress(small, c), buf);
    ASSERT_TRUE(m);
    EXPECT_EQ(m->size(), 10u);
    EXPECT_EQ(buf.data(), data);
    EXPECT_EQ(buf.size(), size);
    ASSERT_TRUE(snappy_decompress(snappy_compress(big, c), buf));
    EXPECT_EQ(buf.data(), data);
}

TEST(RlpxSnappy, Descriptions) {
    for (auto c : {SnappyErrc::bad_length_header, SnappyErrc::too_large,
                   SnappyErrc::length_mismatch, SnappyErrc::corrupt})
        EXPECT_NE(describe(c), "unknown snappy error");
    EXPECT_EQ(to_string(decompress_error(from_hex("80"))),
              "snappy: malformed uncompressed-length header at offset 0");
}

}  // namespace
}  // namespace keel::rlpx
