// BLS12-381 point decoding and signature verification on arbitrary bytes. The first byte picks
// G1 or G2 and the encoding (compressed or uncompressed); the rest is decoded.
// Properties:
//   - no input crashes or reads out of bounds (ASan/UBSan);
//   - a point accepted without the subgroup check is on the curve and re-encodes to exactly the
//     input; with the check, it is accepted only when it is also in the subgroup (and the two
//     decoders agree on everything else);
//   - a G2 point that decodes as a signature never verifies for a fixed key and message unless
//     it is that key's signature of the message.
#include <cstddef>
#include <cstdint>
#include <cstdlib>

#include "keel/bls/g1.hpp"
#include "keel/bls/g2.hpp"
#include "keel/bls/signature.hpp"

namespace {

using namespace keel;
using namespace keel::bls;

void check(bool ok) {
    if (!ok) std::abort();
}

template <class Affine, class Decode, class Encode, class InGroup>
void run(BytesView in, Decode decode, Encode encode, InGroup in_group) {
    auto loose = decode(in, SubgroupCheck::kSkip);
    auto strict = decode(in, SubgroupCheck::kCheck);
    if (!loose) {
        check(!strict && strict.error().code == loose.error().code);
        return;
    }
    check(loose->on_curve());
    const auto again = encode(*loose);
    check(again.size() == in.size() && std::equal(again.begin(), again.end(), in.begin()));
    const bool member = in_group(*loose);
    check(strict.has_value() == member);
    if (!member) check(strict.error().code == Errc::not_in_subgroup);
}

struct Fixed {
    SecretKey sk = *SecretKey::key_gen(Bytes(32, 0x42));
    PublicKey pk = sk.public_key();
    Bytes msg = Bytes(32, 0x56);
    Signature sig = sign(sk, msg);
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size == 0) return 0;
    const BytesView in(data + 1, size - 1);
    switch (data[0] % 4) {
        case 0:
        case 1: {
            auto encode = [&](const G1Affine& p) -> Bytes {
                if (in.size() == 48) {
                    const auto b = g1_compress(p);
                    return Bytes(b.begin(), b.end());
                }
                const auto b = g1_serialize(p);
                return Bytes(b.begin(), b.end());
            };
            run<G1Affine>(in, g1_from_bytes, encode, [](const G1Affine& p) { return in_g1(p); });
            break;
        }
        default: {
            auto encode = [&](const G2Affine& p) -> Bytes {
                if (in.size() == 96) {
                    const auto b = g2_compress(p);
                    return Bytes(b.begin(), b.end());
                }
                const auto b = g2_serialize(p);
                return Bytes(b.begin(), b.end());
            };
            run<G2Affine>(in, g2_from_bytes, encode, [](const G2Affine& p) { return in_g2(p); });
            if (auto sig = Signature::from_bytes(in)) {
                static const Fixed fixed;
                check(verify(fixed.pk, fixed.msg, *sig) == (*sig == fixed.sig));
            }
            break;
        }
    }
    return 0;
}
