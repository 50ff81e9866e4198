// rlpx_frame fuzz target: the RLPx frame reader, snappy decompression and the p2p/eth message
// decoders on arbitrary bytes. The first byte picks a mode, the rest is its input:
//   0  raw stream: a FrameReader on a fixed session (the (Auth2, Ack2) session of
//      frames_after_eip8.json, side A's ingress) reads the bytes, in pieces whose size the next
//      byte picks; every frame it accepts goes to the message decoders and snappy
//   1  plaintext frames: the bytes are frame plaintexts (16-byte header, then the body the
//      header's frame-size asks for), encrypted here with the session's AES stream and given
//      MACs of a constant digest, so the reader's checks after the MACs (frame-size cap, empty
//      frame, message code RLP) and the decoders behind them are reachable
//   2  snappy: decompression with the 16 MiB cap and with a small one (lying lengths); anything
//      accepted must be exactly its declared length and recompress to a round trip
//   3  messages: Hello, Disconnect, Ping/Pong and Status decoders; what they accept re-encodes
//      and decodes to the same value; a Hello's capabilities are matched against a fixed list
//      (capabilities.hpp: one per name, highest shared version, consecutive code ranges)
//   4  write/read: the bytes as a payload (code from the next byte) written on one side and
//      read on the other must come back intact; one flipped bit must be a bad MAC
// Properties: no crash, no out-of-bounds access (ASan/UBSan), the invariants above.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>

#include "keel/common/hex.hpp"
#include "keel/rlpx/capabilities.hpp"
#include "keel/rlpx/compress.hpp"
#include "keel/rlpx/frame.hpp"
#include "keel/rlpx/messages.hpp"

namespace {

using namespace keel;
using namespace keel::rlpx;

void check(bool ok) {
    if (!ok) std::abort();
}

Bytes unhex(std::string_view h) {
    auto r = hex::decode(h);
    check(r.has_value());
    return *r;
}

// frames_after_eip8.json "session": the B->A direction as side A reads it.
struct Session {
    Hash32 aes =
        *Hash32::from(unhex("80e8632c05fed6fc2a13b0f8d31a3cf645366239170ea067065aba8e28bac487"));
    Hash32 mac =
        *Hash32::from(unhex("2ea74ec5dae199227dff1af715362700e989d889d7a493cb0639691efb8e5f98"));
    crypto::Keccak256 ingress;
    Session() {
        ingress.update(unhex(
            "5031c57fc9575c2c51b3cd0554fa2a643825fd4e2231be39379503352100ba4e01ea0451958701280a5648"
            "2929d3b0757da8"));
    }
};

const Session& session() {
    static const Session s;
    return s;
}

/// The peer's capabilities matched against ours: per name one entry, present on both sides,
/// the highest version both list, sorted by name, code ranges consecutive from 0x10.
void check_capabilities(const std::vector<Capability>& theirs) {
    static const std::vector<Protocol> ours = {
        {{"eth", 67}, 17}, {{"eth", 68}, 17}, {{"eth", 69}, 18}, {{"snap", 1}, 8}, {{"a", 0}, 1}};
    const auto shared = match_capabilities(ours, theirs);
    std::uint64_t next = kBaseProtocolLength;
    for (std::size_t i = 0; i < shared.size(); ++i) {
        const SharedCapability& c = shared[i];
        check(c.offset == next);
        next += c.length;
        check(i == 0 || shared[i - 1].capability.name < c.capability.name);
        check(std::ranges::find(theirs, c.capability) != theirs.end());
        for (const Protocol& p : ours) {
            const bool listed = std::ranges::find(theirs, p.capability) != theirs.end();
            if (listed && p.capability.name == c.capability.name)
                check(p.capability.version <= c.capability.version);
        }
        check(capability_of(shared, c.offset) == &c);
        check(capability_of(shared, c.offset + c.length - 1) == &c);
    }
    check(capability_of(shared, next) == nullptr);
}

void decode_messages(BytesView payload) {
    if (auto h = decode_hello(payload)) {
        Bytes out;
        encode_hello(*h, out);
        auto again = decode_hello(out);
        check(again && *again == *h);
        check_capabilities(h->capabilities);
    } else {
        check(!to_string(h.error()).empty());
    }
    if (auto d = decode_disconnect(payload)) {
        Bytes out;
        encode_disconnect(*d, out);
        auto again = decode_disconnect(out);
        check(again && *again == *d);
    }
    check(decode_ping(payload).has_value() == decode_pong(payload).has_value());
    if (auto s = decode_status(payload)) {
        Bytes out;
        encode_status(*s, out);
        auto again = decode_status(out);
        check(again && *again == *s);
    } else {
        check(!to_string(s.error()).empty());
    }
}

void decompress(BytesView in, std::size_t limit) {
    static Bytes buf, re;
    auto declared = snappy_declared_length(in, limit);
    auto m = snappy_decompress(in, buf, limit);
    if (!m) {
        check(!to_string(m.error()).empty());
        return;
    }
    check(declared && *declared == m->size() && m->size() <= limit);
    const Bytes copy(m->begin(), m->end());
    auto back = snappy_decompress(snappy_compress(copy, re), buf, limit);
    check(back && back->size() == copy.size() &&
          (copy.empty() || std::memcmp(back->data(), copy.data(), copy.size()) == 0));
}

void handle_frame(const Frame& f) {
    check(f.payload.size() <= kMaxFrameSize);
    decode_messages(f.payload);
    decompress(f.payload, kMaxDecompressedSize);
}

void raw_stream(BytesView in) {
    if (in.empty()) return;
    const std::size_t piece = 1 + in[0] % 64;
    Bytes stream(in.begin() + 1, in.end());
    FrameReader reader(session().aes, session().mac, session().ingress);
    std::size_t have = 0, pos = 0;
    while (pos < stream.size()) {
        have = std::min(stream.size(), have + piece);
        std::size_t consumed = 0;
        auto r = reader.read(MutableBytesView(stream).subspan(pos, have - pos), consumed);
        if (!r) {
            check(!to_string(r.error()).empty() && reader.needed() == 0);
            return;
        }
        check(consumed <= have - pos);
        if (*r) handle_frame(**r);
        pos += consumed;
        check(pos <= have);
        if (consumed == 0 && have == stream.size()) return;  // waits for bytes that never come
    }
}

void plaintext_frames(BytesView in) {
    const Session& s = session();
    const Hash32 digest = s.mac;  // any constant: the MACs on the wire are its first 16 bytes
    detail::FrameCipher cipher(s.aes, s.mac);
    Bytes wire;
    std::size_t pos = 0;
    while (pos < in.size() && wire.size() < 8192) {
        std::uint8_t header[16] = {};
        const std::size_t h = std::min<std::size_t>(16, in.size() - pos);
        std::memcpy(header, in.data() + pos, h);
        pos += h;
        const std::size_t size =
            std::size_t{header[0]} << 16 | std::size_t{header[1]} << 8 | header[2];
        cipher.ctr(header, 16);
        wire.insert(wire.end(), header, header + 16);
        wire.insert(wire.end(), digest.begin(), digest.begin() + 16);
        const std::size_t want = std::min((size + 15) / 16 * 16, std::size_t{4096});
        Bytes body(want, 0);
        const std::size_t b = std::min(want, in.size() - pos);
        if (b != 0) std::memcpy(body.data(), in.data() + pos, b);
        pos += b;
        if (!body.empty()) cipher.ctr(body.data(), body.size());
        wire.insert(wire.end(), body.begin(), body.end());
        wire.insert(wire.end(), digest.begin(), digest.begin() + 16);
    }
    BasicFrameReader<ConstantDigest> reader(s.aes, s.mac, ConstantDigest(digest), 4096);
    std::size_t at = 0;
    for (;;) {
        std::size_t consumed = 0;
        auto r = reader.read(MutableBytesView(wire).subspan(at), consumed);
        if (!r) {
            check(!to_string(r.error()).empty());
            return;
        }
        at += consumed;
        if (!*r) return;
        handle_frame(**r);
    }
}

void write_read(BytesView in) {
    if (in.size() < 2) return;
    const std::uint64_t code = in[0] < 0xf0 ? in[0] : std::uint64_t{in[0]} << (in[1] % 56);
    const BytesView payload = in.subspan(2);
    const Session& s = session();
    FrameWriter writer(s.aes, s.mac, s.ingress);
    FrameReader reader(s.aes, s.mac, s.ingress);
    Bytes wire;
    check(writer.write(code, payload, wire).has_value());
    check(wire.size() == frame_wire_size(message_code_size(code) + payload.size()));
    Bytes copy = wire;
    std::size_t consumed = 0;
    auto r = reader.read(wire, consumed);
    check(r && *r && consumed == wire.size() && (*r)->code == code);
    check((*r)->payload.size() == payload.size() &&
          (payload.empty() ||
           std::memcmp((*r)->payload.data(), payload.data(), payload.size()) == 0));
    // One flipped bit anywhere: a bad MAC, in the header or in the body.
    const std::size_t bit = (std::size_t{in[1]} * 131 + payload.size()) % (copy.size() * 8);
    copy[bit / 8] ^= static_cast<std::uint8_t>(1u << (bit % 8));
    FrameReader other(s.aes, s.mac, s.ingress);
    auto bad = other.read(copy, consumed);
    check(!bad && (bad.error().code == FrameErrc::bad_header_mac ||
                   bad.error().code == FrameErrc::bad_frame_mac));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size == 0) return 0;
    const BytesView in(data + 1, size - 1);
    switch (data[0] % 5) {
        case 0:
            raw_stream(in);
            break;
        case 1:
            plaintext_frames(in);
            break;
        case 2:
            decompress(in, kMaxDecompressedSize);
            decompress(in, 64);
            break;
        case 3:
            decode_messages(in);
            break;
        default:
            write_read(in);
            break;
    }
    return 0;
}
