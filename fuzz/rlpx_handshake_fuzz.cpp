// RLPx EIP-8 handshake decoders on arbitrary bytes, with fixed keys (those of the EIP-8 vectors, so
// that the seed packets Auth2/Auth3/Ack2/Ack3 open). Each input is used four ways:
//   1. as a whole packet: handshake_packet_size, read_auth_packet (recipient key B) and
//      read_ack_packet (initiator key A), and the stateful Handshake readers;
//   2. as a decrypted body: decode_auth_body / decode_ack_body (the ECIES tag keeps arbitrary
//      packets from reaching them otherwise); a body that decodes is also sealed for B and read
//      through Handshake::read_auth, which recovers the signature;
//   3. as up to four (offset, xor) mutations of a real auth packet and a real ack packet.
// Properties:
//   - no input crashes or reads out of bounds (ASan/UBSan); every error has a known description
//     and an offset inside (or at the end of) its input;
//   - an accepted packet is exactly as long as its size prefix says;
//   - a decoded body re-encodes to exactly its RLP list (the decoder accepts only canonical RLP),
//     and a sealed body gives the same result (or error, offset shifted) as the plain decoder;
//   - a mutated packet is accepted only when no byte changed (no forgery past the HMAC).
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>

#include "keel/common/hex.hpp"
#include "keel/crypto/secp256k1.hpp"
#include "keel/rlp/decode.hpp"
#include "keel/rlpx/handshake.hpp"

namespace {

using namespace keel;
using namespace keel::rlpx;
namespace secp = crypto::secp256k1;

void check(bool ok) {
    if (!ok) std::abort();
}

Bytes32 key(const char* hex_text) {
    auto v = hex::decode_fixed<Bytes32>(hex_text);
    check(v.has_value());
    return *v;
}

// A deterministic source: a counter's bytes (the fuzzer needs reproducible runs).
RandomSource counter_source() {
    auto state = std::make_shared<std::uint64_t>(0x9e3779b97f4a7c15ull);
    return [state](MutableBytesView out) {
        for (auto& b : out) {
            *state = *state * 6364136223846793005ull + 1442695040888963407ull;
            b = static_cast<std::uint8_t>(*state >> 56);
        }
        return true;
    };
}

struct Fixed {
    // EIP-8 "Test Vectors": node A initiates to node B.
    Bytes32 static_a = key("49a7b37aa6f6645917e7b807e9d1c00d4fa71f18343b0d4122a4d2df64dd6fee");
    Bytes32 static_b = key("b71c71a67e1177ad4e901695e1b4b9ee17ae16c6668d313eac2f96dbcda3f291");
    Bytes32 eph_a = key("869d6ecf5211f1cc60418a13b9d870b22959d0c16f02bec714c960dd2298a32d");
    Bytes32 eph_b = key("e238eb8e04fee6511ab04c6dd3c89ce097b11f25d584863ac2b6d5b35b1847e4");
    Bytes32 nonce_a = key("7e968bba13b6c50e2c4cd7f241cc0d64d1ac25c7f5952df231ac6a2bda8ee5d6");
    Bytes32 nonce_b = key("559aead08264d5795d3909718cdd05abd49572e84fe55590eef31a88a08fdffd");
    crypto::PublicKey pub_a = secp::public_key_of(static_a).value();
    crypto::PublicKey pub_b = secp::public_key_of(static_b).value();
    Bytes auth;  // a real auth packet A -> B
    Bytes ack;   // a real ack packet B -> A

    Fixed() {
        auto a = Handshake::initiator(static_a, pub_b, eph_a, nonce_a, counter_source()).value();
        auth = a.make_auth().value();
        auto b = Handshake::recipient(static_b, eph_b, nonce_b, counter_source()).value();
        check(b.read_auth(auth).has_value());
        ack = b.make_ack().value();
        check(a.read_ack(ack).has_value());
    }
};

const Fixed& fixed() {
    static const Fixed f;
    return f;
}

void check_error(const HandshakeError& e, std::size_t input_size, std::size_t base = 0) {
    check(describe(e.code) != "unknown handshake error");
    check(e.offset <= base + input_size);
}

// 1. The input as a whole packet.
void as_packet(const Fixed& f, BytesView in) {
    auto size = handshake_packet_size(in);
    if (!size) check_error(size.error(), in.size());

    auto auth = read_auth_packet(f.static_b, in);
    if (auth) {
        check(size && *size == in.size());
    } else {
        check_error(auth.error(), in.size());
    }
    auto b = Handshake::recipient(f.static_b, f.eph_b, f.nonce_b, counter_source()).value();
    auto read = b.read_auth(in);
    if (read) {
        check(auth.has_value());
        check(b.make_ack().has_value());
        const Secrets s = b.secrets();
        check(s.remote_id == auth->initiator_id);
    } else if (auth) {
        check(read.error().code == HandshakeErrc::invalid_signature);
    } else {
        check(read.error() == auth.error());
    }

    auto ack = read_ack_packet(f.static_a, in);
    if (ack) {
        check(size && *size == in.size());
    } else {
        check_error(ack.error(), in.size());
    }
}

// 2. The input as a decrypted body.
void as_body(const Fixed& f, BytesView in) {
    auto ack = decode_ack_body(in);
    if (ack) {
        const auto item = rlp::decode_header(in);
        check(item.has_value());
        const Bytes again = encode_ack_body(*ack);
        check(again.size() == item->size() &&
              std::memcmp(again.data(), in.data(), again.size()) == 0);
    } else {
        check_error(ack.error(), in.size());
    }

    auto auth = decode_auth_body(in);
    if (!auth) {
        check_error(auth.error(), in.size());
        return;
    }
    const auto item = rlp::decode_header(in);
    check(item.has_value());
    const Bytes again = encode_auth_body(*auth);
    check(again.size() == item->size() && std::memcmp(again.data(), in.data(), again.size()) == 0);

    // Seal it for B and read it through the whole stack.
    if (in.size() + kEciesOverhead > kMaxHandshakeSize) return;
    EciesRandom r;
    r.ephemeral_secret = f.eph_a;
    auto packet = seal_handshake_packet(f.pub_b, in, {}, r);
    check(packet.has_value());
    auto full = read_auth_packet(f.static_b, *packet);
    check(full.has_value() && full->nonce == auth->nonce && full->version == auth->version &&
          full->rest == auth->rest);
    auto b = Handshake::recipient(f.static_b, f.eph_b, f.nonce_b, counter_source()).value();
    auto read = b.read_auth(*packet);
    if (read) {
        check(b.remote_id() == auth->initiator_id && b.remote_version() == auth->version);
        check(b.make_ack().has_value());
    } else {
        check(read.error().code == HandshakeErrc::invalid_signature);
    }
}

// 3. The input as mutations of a real packet: (offset hi, offset lo, xor) triples.
void as_mutations(const Fixed& f, BytesView in) {
    for (int which = 0; which < 2; ++which) {
        Bytes packet = which == 0 ? f.auth : f.ack;
        bool changed = false;
        for (std::size_t i = 0; i + 3 <= in.size() && i < 12; i += 3) {
            const std::size_t at = (std::size_t{in[i]} << 8 | in[i + 1]) % packet.size();
            packet[at] ^= in[i + 2];
            changed |= in[i + 2] != 0;
        }
        // Changes can cancel out: compare with the original, not with `changed`.
        const Bytes& original = which == 0 ? f.auth : f.ack;
        const bool same = packet == original;
        check(changed || same);
        if (which == 0) {
            auto m = read_auth_packet(f.static_b, packet);
            check(m.has_value() == same);
            if (!m) check_error(m.error(), packet.size());
        } else {
            auto m = read_ack_packet(f.static_a, packet);
            check(m.has_value() == same);
            if (!m) check_error(m.error(), packet.size());
        }
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const Fixed& f = fixed();
    const BytesView in(data, size);
    as_packet(f, in);
    as_body(f, in);
    as_mutations(f, in);
    return 0;
}
