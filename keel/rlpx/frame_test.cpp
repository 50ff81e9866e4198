// Tests for keel/rlpx/frame: go-ethereum's frame vector, every frame of the (Auth2, Ack2)
// session in both directions, round trips of random sizes, and bad input of every kind.
#include "keel/rlpx/frame.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <optional>
#include <ostream>
#include <random>
#include <string>
#include <vector>

#include "keel/common/hex.hpp"
#include "keel/rlpx/compress.hpp"
#include "keel/rlpx/test_helpers.hpp"
#include "test/testutil/vectors.hpp"

namespace keel::rlpx {

void PrintTo(const FrameError& e, std::ostream* os) {
    *os << to_string(e);
}

namespace {

using crypto::Keccak256;
using test::frames_vector;
using testutil::from_hex;

Hash32 hash_from_hex(std::string_view text) {
    return *Hash32::from(from_hex(text));
}

Keccak256 seeded_mac(std::string_view init_hex) {
    Keccak256 mac;
    mac.update(from_hex(init_hex));
    return mac;
}

// A connected pair: what `writer` writes, `reader` reads (one direction of a session).
struct Pipe {
    FrameWriter writer;
    FrameReader reader;

    explicit Pipe(std::uint32_t seed, std::size_t max_frame_size = kMaxFrameSize)
        : writer(secret(seed, 1), secret(seed, 2), mac(seed)),
          reader(secret(seed, 1), secret(seed, 2), mac(seed), max_frame_size) {}

    static Hash32 secret(std::uint32_t seed, std::uint32_t which) {
        std::mt19937 rng(seed * 7 + which);
        Hash32 h;
        for (auto& b : h.bytes) b = static_cast<std::uint8_t>(rng());
        return h;
    }
    static Keccak256 mac(std::uint32_t seed) {
        Keccak256 m;
        const Hash32 init = secret(seed, 3);
        m.update(init.view());
        return m;
    }
};

// Reads the one frame at the front of `wire` with the two explicit steps.
template <class Reader>
Result<Frame, FrameError> read_one(Reader& reader, Bytes& wire) {
    EXPECT_TRUE(reader.expects_header());
    EXPECT_EQ(reader.needed(), kFrameHeaderSize);
    if (wire.size() < kFrameHeaderSize) ADD_FAILURE() << "short wire";
    auto h = reader.read_header(MutableBytesView(wire).first(kFrameHeaderSize));
    if (!h) return std::unexpected(h.error());
    EXPECT_EQ(kFrameHeaderSize + reader.needed(), wire.size());
    return reader.read_body(MutableBytesView(wire).subspan(kFrameHeaderSize));
}

// ---- go-ethereum's frame with a constant MAC digest
// ----------------------------------------------

TEST(RlpxFrame, GethFakeHashVector) {
    const auto v = testutil::load_json(testutil::vectors_dir("rlpx") / "frame_geth_fakehash.json");
    const Hash32 aes = hash_from_hex(v["aes_secret"].get<std::string>());
    const Hash32 mac = hash_from_hex(v["mac_secret"].get<std::string>());
    const ConstantDigest fake(hash_from_hex(v["fake_hash_sum"].get<std::string>()));
    const Bytes payload = from_hex(v["msg_data_rlp"].get<std::string>());
    const std::uint64_t code = v["msg_code"].get<std::uint64_t>();
    const std::string frame_hex = v["frame"].get<std::string>();

    BasicFrameWriter<ConstantDigest> writer(aes, mac, fake);
    Bytes out;
    ASSERT_TRUE(writer.write(code, payload, out));
    EXPECT_EQ(hex::encode(out), frame_hex);
    EXPECT_EQ(writer.frames(), 1u);
    EXPECT_EQ(writer.stream_offset(), out.size());

    BasicFrameReader<ConstantDigest> reader(aes, mac, fake);
    Bytes wire = from_hex(frame_hex);
    auto frame = read_one(reader, wire);
    ASSERT_TRUE(frame) << to_string(frame.error());
    EXPECT_EQ(frame->code, code);
    EXPECT_EQ(hex::encode(frame->payload), hex::encode(payload));
    // In place: the header and body were decrypted where they lay.
    EXPECT_EQ(hex::encode(BytesView(wire).first(16)), v["header_plain"].get<std::string>());
    const std::string content = v["frame_content_after_decrypt"].get<std::string>();
    EXPECT_EQ(hex::encode(BytesView(wire).subspan(32, content.size() / 2)), content);
}

// ---- the (Auth2, Ack2) session, both directions ----------------------------------------------

struct Session {
    FrameWriter b_writer, a_writer;
    FrameReader a_reader, b_reader;  // a_reader reads B->A, b_reader reads A->B

    explicit Session(const nlohmann::json& s)
        : b_writer(hash(s, "aes_secret"), hash(s, "mac_secret"), mac(s, "B_egress_mac_init")),
          a_writer(hash(s, "aes_secret"), hash(s, "mac_secret"), mac(s, "A_egress_mac_init")),
          a_reader(hash(s, "aes_secret"), hash(s, "mac_secret"), mac(s, "A_ingress_mac_init")),
          b_reader(hash(s, "aes_secret"), hash(s, "mac_secret"), mac(s, "B_ingress_mac_init")) {}

    static Hash32 hash(const nlohmann::json& s, const char* key) {
        return hash_from_hex(s[key].get<std::string>());
    }
    static Keccak256 mac(const nlohmann::json& s, const char* key) {
        return seeded_mac(s[key].get<std::string>());
    }
};

TEST(RlpxFrame, FramesAfterEip8BothDirections) {
    const auto v = frames_vector();
    ASSERT_EQ(v["frames"].size(), 10u);
    Session s(v["session"]);
    std::size_t seen_b_to_a = 0, seen_a_to_b = 0, compressed = 0;
    Bytes out, snappy_buf, plain_buf;
    for (const auto& f : v["frames"]) {
        const bool b_to_a = f["dir"].get<std::string>() == "B->A";
        (b_to_a ? seen_b_to_a : seen_a_to_b)++;
        SCOPED_TRACE(f["note"].get<std::string>());
        const std::uint64_t code = f["code"].get<std::uint64_t>();
        const Bytes payload = from_hex(f["payload"].get<std::string>());
        const Bytes wire_payload = from_hex(f["wirePayload"].get<std::string>());
        const std::string frame_hex = f["frame"].get<std::string>();
        const bool snappy = f["snappy"].get<bool>();
        FrameWriter& writer = b_to_a ? s.b_writer : s.a_writer;
        FrameReader& reader = b_to_a ? s.a_reader : s.b_reader;

        // Writing: the payload compressed (snappy frames) then framed.
        BytesView to_send = payload;
        if (snappy) {
            to_send = snappy_compress(payload, snappy_buf);
            EXPECT_EQ(hex::encode(to_send), hex::encode(wire_payload));
            ++compressed;
        } else {
            EXPECT_EQ(hex::encode(payload), hex::encode(wire_payload));
        }
        out.clear();
        ASSERT_TRUE(writer.write(code, to_send, out));
        EXPECT_EQ(hex::encode(out), frame_hex);
        EXPECT_EQ(out.size(), frame_wire_size(f["frameSize"].get<std::size_t>()));

        // Reading on the other side: verified, decrypted, decompressed.
        Bytes wire = from_hex(frame_hex);
        auto frame = read_one(reader, wire);
        ASSERT_TRUE(frame) << to_string(frame.error());
        EXPECT_EQ(frame->code, code);
        EXPECT_EQ(hex::encode(frame->payload), hex::encode(wire_payload));
        BytesView message = frame->payload;
        if (snappy) {
            auto plain = snappy_decompress(frame->payload, plain_buf);
            ASSERT_TRUE(plain) << to_string(plain.error());
            message = *plain;
        }
        EXPECT_EQ(hex::encode(message), hex::encode(payload));
    }
    EXPECT_EQ(seen_b_to_a, 6u);
    EXPECT_EQ(seen_a_to_b, 4u);
    EXPECT_EQ(compressed, 5u);
    EXPECT_EQ(s.b_writer.frames(), 6u);
    EXPECT_EQ(s.a_reader.frames(), 6u);
    EXPECT_EQ(s.a_writer.frames(), 4u);
    EXPECT_EQ(s.b_reader.frames(), 4u);
}

// All B->A frames batched into one buffer (one send), then read back from a stream that
// arrives in pieces of every size from 1 byte up: the incremental read() path.
TEST(RlpxFrame, FramesAfterEip8BatchedAndStreamed) {
    const auto v = frames_vector();
    for (std::size_t piece : {1, 5, 16, 31, 32, 33, 100, 4096}) {
        SCOPED_TRACE("piece " + std::to_string(piece));
        Session s(v["session"]);
        Bytes batch;
        std::vector<std::pair<std::uint64_t, std::string>> expect;
        for (const auto& f : v["frames"]) {
            if (f["dir"].get<std::string>() != "B->A") continue;
            const Bytes wire_payload = from_hex(f["wirePayload"].get<std::string>());
            ASSERT_TRUE(s.b_writer.write(f["code"].get<std::uint64_t>(), wire_payload, batch));
            expect.emplace_back(f["code"].get<std::uint64_t>(), hex::encode(wire_payload));
        }
        // The batch is the concatenation of the vector's frames.
        std::string all;
        for (const auto& f : v["frames"])
            if (f["dir"].get<std::string>() == "B->A") all += f["frame"].get<std::string>();
        EXPECT_EQ(hex::encode(batch), all);

        // A receive buffer that gets `piece` more bytes at a time; consumed bytes are dropped.
        Bytes buf;
        std::size_t fed = 0, got = 0;
        while (got < expect.size()) {
            ASSERT_LT(fed, batch.size() + 1) << "stalled";
            const std::size_t n = std::min(piece, batch.size() - fed);
            buf.insert(buf.end(), batch.begin() + static_cast<std::ptrdiff_t>(fed),
                       batch.begin() + static_cast<std::ptrdiff_t>(fed + n));
            fed += n;
            for (;;) {
                std::size_t consumed = 0;
                auto r = s.a_reader.read(buf, consumed);
                ASSERT_TRUE(r) << to_string(r.error());
                if (*r) {
                    ASSERT_LT(got, expect.size());
                    EXPECT_EQ((*r)->code, expect[got].first);
                    EXPECT_EQ(hex::encode((*r)->payload), expect[got].second);
                    ++got;
                }
                buf.erase(buf.begin(), buf.begin() + static_cast<std::ptrdiff_t>(consumed));
                if (consumed == 0) break;
            }
            if (fed == batch.size() && got < expect.size()) {
                ASSERT_TRUE(false) << "all bytes fed, " << got << " frames read";
            }
        }
        EXPECT_TRUE(buf.empty());
        EXPECT_EQ(s.a_reader.stream_offset(), batch.size());
    }
}

// ---- round trips
// ---------------------------------------------------------------------------------

TEST(RlpxFrame, RoundTripRandomSizes) {
    Pipe p(1);
    std::mt19937_64 rng(42);
    std::vector<std::size_t> sizes = {0,  1,  2,    13,    14,    15,    16,    17,     31,
                                      32, 33, 1000, 13055, 13056, 13057, 65536, 1 << 20};
    for (int i = 0; i < 40; ++i) sizes.push_back(rng() % ((1 << 20) + 1));
    const std::uint64_t codes[] = {0, 1, 0x10, 0x7f, 0x80, 0xff, 0x100, 0xffffffffffffffff};
    Bytes out, payload;
    std::size_t i = 0;
    for (std::size_t size : sizes) {
        const std::uint64_t code = codes[i++ % std::size(codes)];
        payload.resize(size);
        for (auto& b : payload) b = static_cast<std::uint8_t>(rng());
        out.clear();
        ASSERT_TRUE(p.writer.write(code, payload, out));
        ASSERT_EQ(out.size(), frame_wire_size(message_code_size(code) + size));
        auto frame = read_one(p.reader, out);
        ASSERT_TRUE(frame) << to_string(frame.error());
        EXPECT_EQ(frame->code, code);
        ASSERT_EQ(frame->payload.size(), size);
        EXPECT_TRUE(std::equal(payload.begin(), payload.end(), frame->payload.begin()));
    }
    EXPECT_EQ(p.reader.stream_offset(), p.writer.stream_offset());
}

// begin()/finish(): the payload written straight into the frame (here: snappy into the slot).
TEST(RlpxFrame, BeginFinishWithSnappyInTheSlot) {
    Pipe p(2);
    Bytes out = from_hex("deadbeef");  // bytes already queued stay in front
    const Bytes message(5000, 0x61);
    const MutableBytesView slot =
        p.writer.begin(0x11, snappy_max_compressed_length(message.size()), out);
    const std::size_t n = snappy_compress_into(message, slot);
    ASSERT_LT(n, 300u);
    ASSERT_TRUE(p.writer.finish(n, out));
    ASSERT_EQ(out.size(), 4 + frame_wire_size(1 + n));
    Bytes wire(out.begin() + 4, out.end());
    auto frame = read_one(p.reader, wire);
    ASSERT_TRUE(frame) << to_string(frame.error());
    EXPECT_EQ(frame->code, 0x11u);
    Bytes plain;
    auto m = snappy_decompress(frame->payload, plain);
    ASSERT_TRUE(m);
    EXPECT_EQ(hex::encode(*m), hex::encode(message));
}

TEST(RlpxFrame, WriterRefusesPayloadTooLarge) {
    Pipe p(3);
    Bytes out = from_hex("01");
    const Bytes big(kMaxFrameSize, 0);  // + 1 byte of code: one byte too many
    auto r = p.writer.write(5, big, out);
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().code, FrameErrc::payload_too_large);
    EXPECT_EQ(r.error().size, kMaxFrameSize + 1);
    EXPECT_EQ(to_string(r.error()),
              "RLPx frame 0 at stream offset 0: message too large for one frame (frame-size "
              "16777216, limit 16777215)");
    EXPECT_EQ(hex::encode(out), "01");  // unchanged
    // The writer is unchanged too: the next frame still reads.
    out.clear();
    ASSERT_TRUE(p.writer.write(5, from_hex("c0"), out));
    auto frame = read_one(p.reader, out);
    ASSERT_TRUE(frame) << to_string(frame.error());
    // The largest frame there is goes through.
    out.clear();
    ASSERT_TRUE(p.writer.write(5, BytesView(big).first(kMaxFrameSize - 1), out));
    frame = read_one(p.reader, out);
    ASSERT_TRUE(frame) << to_string(frame.error());
    EXPECT_EQ(frame->payload.size(), kMaxFrameSize - 1);
}

TEST(RlpxFrame, BuffersOnlyGrow) {
    Pipe p(4);
    Bytes out;
    out.reserve(1 << 16);
    const std::uint8_t* data = out.data();
    const Bytes payload(40000, 7);
    for (int i = 0; i < 100; ++i) {
        out.clear();
        ASSERT_TRUE(p.writer.write(0x20, payload, out));
        auto frame = read_one(p.reader, out);
        ASSERT_TRUE(frame);
    }
    EXPECT_EQ(out.data(), data);
}

// ---- bad input
// ------------------------------------------------------------------------------------

// A frame written on a fresh pipe with `payload`, then `mutate`d and read on the pipe.
FrameError read_mutated(std::size_t payload_size, void (*mutate)(Bytes&),
                        std::size_t max_frame_size = kMaxFrameSize) {
    Pipe p(5, max_frame_size);
    Bytes out;
    EXPECT_TRUE(p.writer.write(0x10, Bytes(payload_size, 0x42), out));
    mutate(out);
    auto frame = read_one(p.reader, out);
    if (frame) {
        ADD_FAILURE() << "mutated frame was accepted";
        return {};
    }
    // Spent: every later call fails the same way, without touching anything.
    EXPECT_EQ(p.reader.needed(), 0u);
    std::size_t consumed = 1;
    auto again = p.reader.read(out, consumed);
    EXPECT_FALSE(again);
    if (!again) {
        EXPECT_EQ(again.error().code, FrameErrc::reader_failed);
    }
    EXPECT_EQ(consumed, 0u);
    return frame.error();
}

TEST(RlpxFrame, EveryFlippedBitIsABadMac) {
    // Every bit of a frame with a 20-byte payload: header ciphertext and header MAC give
    // bad_header_mac, body ciphertext and frame MAC give bad_frame_mac.
    Pipe ref(5);
    Bytes good;
    ASSERT_TRUE(ref.writer.write(0x10, Bytes(20, 0x42), good));
    for (std::size_t bit = 0; bit < good.size() * 8; ++bit) {
        Pipe p(5);
        Bytes out;
        ASSERT_TRUE(p.writer.write(0x10, Bytes(20, 0x42), out));
        ASSERT_EQ(out, good);
        out[bit / 8] ^= static_cast<std::uint8_t>(1u << (bit % 8));
        auto frame = read_one(p.reader, out);
        ASSERT_FALSE(frame) << "bit " << bit;
        EXPECT_EQ(frame.error().code,
                  bit / 8 < 32 ? FrameErrc::bad_header_mac : FrameErrc::bad_frame_mac)
            << "bit " << bit;
    }
}

TEST(RlpxFrame, BadMacErrorsAndMessages) {
    auto e = read_mutated(100, [](Bytes& b) { b[3] ^= 1; });
    EXPECT_EQ(e.code, FrameErrc::bad_header_mac);
    EXPECT_EQ(to_string(e), "RLPx frame 0 at stream offset 0: bad header MAC");
    e = read_mutated(100, [](Bytes& b) { b[20] ^= 0x80; });
    EXPECT_EQ(e.code, FrameErrc::bad_header_mac);
    e = read_mutated(100, [](Bytes& b) { b[40] ^= 4; });
    EXPECT_EQ(e.code, FrameErrc::bad_frame_mac);
    EXPECT_EQ(to_string(e), "RLPx frame 0 at stream offset 0: bad frame MAC");
    e = read_mutated(100, [](Bytes& b) { b.back() ^= 1; });
    EXPECT_EQ(e.code, FrameErrc::bad_frame_mac);
    // A large body: the flip is in a later MAC chunk.
    e = read_mutated(200000, [](Bytes& b) { b[150000] ^= 1; });
    EXPECT_EQ(e.code, FrameErrc::bad_frame_mac);
}

TEST(RlpxFrame, OversizeFrameRefusedAfterTheHeader) {
    auto e = read_mutated(2000, [](Bytes&) {}, 1024);
    EXPECT_EQ(e.code, FrameErrc::frame_too_large);
    EXPECT_EQ(e.size, 2001u);
    EXPECT_EQ(e.limit, 1024u);
    EXPECT_EQ(to_string(e),
              "RLPx frame 0 at stream offset 0: frame too large (frame-size 2001, limit 1024)");
    // At the cap exactly it is fine.
    Pipe p(6, 1024);
    Bytes out;
    ASSERT_TRUE(p.writer.write(1, Bytes(1023, 1), out));
    ASSERT_TRUE(read_one(p.reader, out));
}

TEST(RlpxFrame, TruncatedInputWaitsForMore) {
    Pipe p(7);
    Bytes out;
    ASSERT_TRUE(p.writer.write(3, Bytes(300, 9), out));
    const std::size_t total = out.size();
    // Any prefix: nothing is read but the header (once it is complete).
    for (std::size_t n = 0; n < total; ++n) {
        Pipe q(7);
        Bytes w;
        ASSERT_TRUE(q.writer.write(3, Bytes(300, 9), w));
        std::size_t consumed = 99;
        auto r = q.reader.read(MutableBytesView(w).first(n), consumed);
        ASSERT_TRUE(r) << to_string(r.error());
        EXPECT_FALSE(r->has_value());
        EXPECT_EQ(consumed, n < kFrameHeaderSize ? 0u : kFrameHeaderSize);
        EXPECT_EQ(q.reader.needed(), n < kFrameHeaderSize ? kFrameHeaderSize : total - 32);
    }
    std::size_t consumed = 0;
    auto r = p.reader.read(out, consumed);
    ASSERT_TRUE(r && *r);
    EXPECT_EQ(consumed, total);
}

TEST(RlpxFrame, GarbageIsABadHeaderMac) {
    Pipe p(8);
    Bytes junk(64, 0);
    std::size_t consumed = 0;
    auto r = p.reader.read(junk, consumed);
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().code, FrameErrc::bad_header_mac);
}

TEST(RlpxFrame, ErrorsNameTheFrameAndOffset) {
    Pipe p(9);
    Bytes out;
    ASSERT_TRUE(p.writer.write(3, Bytes(10, 1), out));
    ASSERT_TRUE(p.writer.write(3, Bytes(10, 1), out));
    const std::size_t first = frame_wire_size(11);
    out[first + 40] ^= 1;
    std::size_t consumed = 0;
    auto r = p.reader.read(out, consumed);
    ASSERT_TRUE(r && *r);
    ASSERT_EQ(consumed, first);
    r = p.reader.read(MutableBytesView(out).subspan(first), consumed);
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().frame, 1u);
    EXPECT_EQ(r.error().offset, first);
    EXPECT_EQ(to_string(r.error()), "RLPx frame 1 at stream offset 64: bad frame MAC");
}

// Frames crafted with the constant digest (so that the MACs are known) and the session's own
// AES stream, to reach the checks after the MACs: frame-size 0 and bad message codes.
struct Crafter {
    Hash32 aes = Pipe::secret(10, 1), mac = Pipe::secret(10, 2);
    ConstantDigest digest{Pipe::secret(10, 3)};
    detail::FrameCipher cipher{aes, mac};

    // header || mac || body (plaintext `frame` padded) || mac, all encrypted in the stream.
    Bytes craft(std::size_t frame_size, BytesView frame) {
        Bytes w(32, 0);
        w[0] = static_cast<std::uint8_t>(frame_size >> 16);
        w[1] = static_cast<std::uint8_t>(frame_size >> 8);
        w[2] = static_cast<std::uint8_t>(frame_size);
        cipher.ctr(w.data(), 16);
        std::copy(digest_bytes().begin(), digest_bytes().begin() + 16, w.begin() + 16);
        Bytes body(frame.begin(), frame.end());
        body.resize((frame_size + 15) / 16 * 16, 0);
        cipher.ctr(body.data(), body.size());
        w.insert(w.end(), body.begin(), body.end());
        w.insert(w.end(), digest_bytes().begin(), digest_bytes().begin() + 16);
        return w;
    }
    Hash32 digest_bytes_ = Pipe::secret(10, 3);
    const Hash32& digest_bytes() const { return digest_bytes_; }
};

FrameError read_crafted(std::size_t frame_size, std::string_view body_hex) {
    Crafter c;
    BasicFrameReader<ConstantDigest> reader(c.aes, c.mac, c.digest);
    Bytes w = c.craft(frame_size, from_hex(body_hex));
    auto r = read_one(reader, w);
    if (r) {
        ADD_FAILURE() << "crafted frame accepted: " << body_hex;
        return {};
    }
    return r.error();
}

TEST(RlpxFrame, CraftedFramesCheckTheMessageCode) {
    // Sanity: a good crafted frame reads.
    {
        Crafter c;
        BasicFrameReader<ConstantDigest> reader(c.aes, c.mac, c.digest);
        Bytes w = c.craft(3, from_hex("8180c0"));
        auto r = read_one(reader, w);
        ASSERT_TRUE(r) << to_string(r.error());
        EXPECT_EQ(r->code, 0x80u);
        EXPECT_EQ(hex::encode(r->payload), "c0");
    }
    auto e = read_crafted(0, "");
    EXPECT_EQ(e.code, FrameErrc::empty_frame);
    struct Case {
        std::size_t size;
        const char* body;
        rlp::Errc rlp;
    } cases[] = {
        {1, "00", rlp::Errc::leading_zero_in_integer},  // 0 is 0x80, never 0x00
        {2, "8105", rlp::Errc::non_canonical_single_byte},
        {1, "c0", rlp::Errc::expected_string},      // a list is no integer
        {2, "8201", rlp::Errc::length_past_input},  // runs past the frame-size
        {10, "89010203040506070809", rlp::Errc::integer_overflow},
        {3, "820001", rlp::Errc::leading_zero_in_integer},
        {1, "b8", rlp::Errc::truncated},
        {2, "b800", rlp::Errc::leading_zero_in_length},
    };
    for (const auto& c : cases) {
        e = read_crafted(c.size, c.body);
        EXPECT_EQ(e.code, FrameErrc::bad_message_code) << c.body;
        EXPECT_EQ(e.rlp, c.rlp) << c.body;
    }
    e = read_crafted(1, "00");
    EXPECT_EQ(to_string(e), "RLPx frame 0 at stream offset 0: bad message code RLP: " +
                                std::string(rlp::describe(rlp::Errc::leading_zero_in_integer)));
}

TEST(RlpxFrame, HeaderDataIsIgnored) {
    // go-ethereum ignores the header-data (capability-id, context-id): so does keel.
    Crafter c;
    BasicFrameReader<ConstantDigest> reader(c.aes, c.mac, c.digest);
    Bytes w(32, 0xee);
    w[0] = 0;
    w[1] = 0;
    w[2] = 2;
    c.cipher.ctr(w.data(), 16);
    std::copy(c.digest_bytes().begin(), c.digest_bytes().begin() + 16, w.begin() + 16);
    Bytes body = from_hex("05c0");
    body.resize(16, 0);
    c.cipher.ctr(body.data(), 16);
    w.insert(w.end(), body.begin(), body.end());
    w.insert(w.end(), c.digest_bytes().begin(), c.digest_bytes().begin() + 16);
    auto r = read_one(reader, w);
    ASSERT_TRUE(r) << to_string(r.error());
    EXPECT_EQ(r->code, 5u);
}

TEST(RlpxFrame, SizesAndDescriptions) {
    EXPECT_EQ(frame_wire_size(0), 48u);
    EXPECT_EQ(frame_wire_size(1), 64u);
    EXPECT_EQ(frame_wire_size(16), 64u);
    EXPECT_EQ(frame_wire_size(17), 80u);
    EXPECT_EQ(message_code_size(0), 1u);
    EXPECT_EQ(message_code_size(0x7f), 1u);
    EXPECT_EQ(message_code_size(0x80), 2u);
    EXPECT_EQ(message_code_size(0x100), 3u);
    EXPECT_EQ(message_code_size(~std::uint64_t{0}), 9u);
    for (auto c : {FrameErrc::bad_header_mac, FrameErrc::bad_frame_mac, FrameErrc::frame_too_large,
                   FrameErrc::empty_frame, FrameErrc::bad_message_code,
                   FrameErrc::payload_too_large, FrameErrc::reader_failed}) {
        EXPECT_FALSE(describe(c).empty());
        EXPECT_NE(describe(c), "unknown frame error");
    }
}

}  // namespace
}  // namespace keel::rlpx
