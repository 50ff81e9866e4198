// Snappy framing (framing_format.txt) and e2store record reader: known answers built here, and a
// table of bad inputs. The CRC-32C reference is a bitwise implementation written in this test,
// independent of the table-driven one in snappy_frame.cpp.
#include "keel/store/snappy_frame.hpp"

#include <gtest/gtest.h>
#include <snappy.h>

#include <cstdint>
#include <string>
#include <vector>

#include "keel/store/e2store.hpp"
#include "keel/store/store_test_helpers.hpp"

namespace keel::store {
namespace {

using test_helpers::put_le;

std::uint32_t crc32c_bitwise(BytesView data) {
    std::uint32_t c = 0xFFFFFFFFu;
    for (const std::uint8_t b : data) {
        c ^= b;
        for (int k = 0; k < 8; ++k) c = (c >> 1) ^ (0x82F63B78u & (0u - (c & 1u)));
    }
    return ~c;
}

Bytes bytes_of(std::string_view s) {
    return Bytes(s.begin(), s.end());
}

[[gnu::noinline]] void chunk(Bytes& out, std::uint8_t type, BytesView body) {
    out.push_back(type);
    put_le(out, body.size(), 3);
    out.insert(out.end(), body.begin(), body.end());
}

void stream_id(Bytes& out) {
    chunk(out, 0xff, bytes_of("sNaPpY"));
}

std::uint32_t masked(BytesView data) {
    const std::uint32_t c = crc32c_bitwise(data);
    return ((c >> 15) | (c << 17)) + 0xa282ead8u;
}

[[gnu::noinline]] void uncompressed_chunk(Bytes& out, BytesView data) {
    Bytes body;
    put_le(body, masked(data), 4);
    body.insert(body.end(), data.begin(), data.end());
    chunk(out, 0x01, body);
}

[[gnu::noinline]] void compressed_chunk(Bytes& out, BytesView data) {
    std::string c(snappy::MaxCompressedLength(data.size()), '\0');
    std::size_t n = 0;
    snappy::RawCompress(reinterpret_cast<const char*>(data.data()), data.size(), c.data(), &n);
    Bytes body;
    put_le(body, masked(data), 4);
    body.insert(body.end(), c.begin(), c.begin() + static_cast<std::ptrdiff_t>(n));
    chunk(out, 0x00, body);
}

[[gnu::noinline]] void append(Bytes& out, BytesView b) {
    out.insert(out.end(), b.begin(), b.end());
}

Bytes repeated(std::size_t n) {
    Bytes b(n);
    for (std::size_t i = 0; i < n; ++i) b[i] = static_cast<std::uint8_t>((i * 7) % 13);
    return b;
}

TEST(Crc32c, KnownAnswers) {
    EXPECT_EQ(crc32c(bytes_of("123456789")), 0xE3069283u);
    EXPECT_EQ(crc32c_bitwise(bytes_of("123456789")), 0xE3069283u);
    EXPECT_EQ(crc32c({}), 0u);
    // RFC 3720 §B.4: 32 bytes of zeros -> 0x8A9136AA.
    EXPECT_EQ(crc32c(Bytes(32, 0)), 0x8A9136AAu);
    const Bytes data = repeated(1000);
    EXPECT_EQ(crc32c(data), crc32c_bitwise(data));
    // Running CRC over two parts equals the CRC of the whole.
    EXPECT_EQ(crc32c(BytesView(data).subspan(300), crc32c(BytesView(data).first(300))),
              crc32c(data));
}

TEST(SnappyFrame, DecodesAllChunkKinds) {
    const Bytes a = bytes_of("hello, ");
    const Bytes b = repeated(70000 - 65536);
    const Bytes big = repeated(65536);
    Bytes f;
    stream_id(f);
    uncompressed_chunk(f, a);
    chunk(f, 0xfe, Bytes(5, 0));  // padding
    compressed_chunk(f, big);
    chunk(f, 0x80, bytes_of("skip me"));  // reserved skippable
    stream_id(f);                         // a repeated identifier (concatenated streams)
    compressed_chunk(f, b);
    compressed_chunk(f, {});  // empty data chunk

    Bytes out = bytes_of("prefix");
    auto r = decode_snappy_frames(f, out);
    ASSERT_TRUE(r) << keel::to_string(r.error());
    EXPECT_EQ(*r, a.size() + big.size() + b.size());
    Bytes want = bytes_of("prefix");
    append(want, a);
    append(want, big);
    append(want, b);
    EXPECT_EQ(out, want);
}

TEST(SnappyFrame, StreamOfOnlyIdentifierIsEmpty) {
    Bytes f;
    stream_id(f);
    Bytes out;
    auto r = decode_snappy_frames(f, out);
    ASSERT_TRUE(r);
    EXPECT_EQ(*r, 0u);
}

struct BadCase {
    const char* name;
    Bytes input;
    Errc code;
    std::size_t offset;
};

std::vector<BadCase> bad_cases() {
    std::vector<BadCase> v;
    const Bytes data = bytes_of("some data");
    Bytes id;
    stream_id(id);  // 10 bytes
    v.push_back({"empty", {}, Errc::frame_missing_stream_identifier, 100});
    {
        Bytes f;
        uncompressed_chunk(f, data);
        v.push_back({"no identifier", f, Errc::frame_missing_stream_identifier, 100});
    }
    {
        Bytes f;
        chunk(f, 0xff, bytes_of("sNaPpy"));
        v.push_back({"bad identifier", f, Errc::frame_bad_stream_identifier, 100});
    }
    {
        Bytes f;
        chunk(f, 0xff, bytes_of("sNaPpYY"));
        v.push_back({"long identifier", f, Errc::frame_bad_stream_identifier, 100});
    }
    {
        Bytes f = id;
        f.push_back(0x01);
        f.push_back(0x05);
        v.push_back({"truncated chunk header", f, Errc::frame_chunk_truncated, 110});
    }
    {
        Bytes f = id;
        uncompressed_chunk(f, data);
        f.pop_back();
        v.push_back({"truncated chunk body", f, Errc::frame_chunk_truncated, 110});
    }
    {
        Bytes f = id;
        chunk(f, 0x02, data);
        v.push_back({"reserved unskippable 0x02", f, Errc::frame_reserved_chunk, 110});
    }
    {
        Bytes f = id;
        chunk(f, 0x7f, data);
        v.push_back({"reserved unskippable 0x7f", f, Errc::frame_reserved_chunk, 110});
    }
    {
        Bytes f = id;
        chunk(f, 0x01, Bytes(3, 0));
        v.push_back({"data chunk without checksum", f, Errc::frame_chunk_too_short, 110});
    }
    {
        Bytes f = id;
        uncompressed_chunk(f, data);
        f.back() ^= 1;
        v.push_back({"uncompressed checksum", f, Errc::frame_checksum_mismatch, 114});
    }
    {
        Bytes f = id;
        compressed_chunk(f, data);
        f[14] ^= 0x80;  // the checksum itself
        v.push_back({"compressed checksum", f, Errc::frame_checksum_mismatch, 114});
    }
    {
        Bytes f = id;
        Bytes body(4, 0);
        body.push_back(0x20);  // claims 32 bytes, then nothing
        chunk(f, 0x00, body);
        v.push_back({"corrupt compressed data", f, Errc::frame_corrupt_data, 110});
    }
    {
        Bytes f = id;
        uncompressed_chunk(f, repeated(65537));
        v.push_back({"uncompressed too large", f, Errc::frame_chunk_too_large, 110});
    }
    {
        Bytes f = id;
        compressed_chunk(f, repeated(65537));
        v.push_back({"compressed too large", f, Errc::frame_chunk_too_large, 110});
    }
    return v;
}

TEST(SnappyFrame, BadInputs) {
    for (const BadCase& c : bad_cases()) {
        SCOPED_TRACE(c.name);
        Bytes out = bytes_of("keep");
        auto r = decode_snappy_frames(c.input, out, 100);
        ASSERT_FALSE(r);
        EXPECT_EQ(r.error().code, c.code) << keel::to_string(r.error());
        EXPECT_EQ(r.error().offset, c.offset);
        EXPECT_EQ(out, bytes_of("keep"));  // restored on failure
        EXPECT_FALSE(describe(c.code).empty());
    }
}

Bytes record(std::uint8_t t0, std::uint8_t t1, BytesView value) {
    Bytes r{t0, t1};
    put_le(r, value.size(), 4);
    put_le(r, 0, 2);
    r.insert(r.end(), value.begin(), value.end());
    return r;
}

TEST(E2Store, WalksRecords) {
    Bytes f = record(0x65, 0x32, {});
    const Bytes r2 = record(0x03, 0x00, bytes_of("abc"));
    f.insert(f.end(), r2.begin(), r2.end());
    E2Reader reader(f);
    auto a = reader.next();
    ASSERT_TRUE(a);
    EXPECT_EQ(a->type, e2type::kVersion);
    EXPECT_EQ(a->offset, 0u);
    EXPECT_TRUE(a->value.empty());
    auto b = reader.next();
    ASSERT_TRUE(b);
    EXPECT_EQ(b->type, e2type::kCompressedHeader);
    EXPECT_EQ(b->offset, 8u);
    EXPECT_EQ(Bytes(b->value.begin(), b->value.end()), bytes_of("abc"));
    EXPECT_TRUE(reader.at_end());
    auto c = reader.next();
    ASSERT_FALSE(c);
    EXPECT_EQ(c.error().code, Errc::record_header_truncated);
    EXPECT_EQ(c.error().offset, 19u);
}

TEST(E2Store, BadRecords) {
    {
        Bytes f = record(0x03, 0x00, bytes_of("abc"));
        f.pop_back();
        E2Reader reader(f);
        auto r = reader.next();
        ASSERT_FALSE(r);
        EXPECT_EQ(r.error(), (Error{Errc::record_past_end, 0}));
        EXPECT_EQ(reader.position(), 0u);
    }
    {
        Bytes f = record(0x03, 0x00, bytes_of("abc"));
        f[7] = 1;
        E2Reader reader(f);
        auto r = reader.next();
        ASSERT_FALSE(r);
        EXPECT_EQ(r.error(), (Error{Errc::record_reserved_not_zero, 0}));
    }
    {
        const Bytes f(7, 0);
        E2Reader reader(f);
        auto r = reader.next();
        ASSERT_FALSE(r);
        EXPECT_EQ(r.error(), (Error{Errc::record_header_truncated, 0}));
    }
}

}  // namespace
}  // namespace keel::store
