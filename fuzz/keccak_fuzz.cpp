// Keccak-256 and SHA-256: incremental hashing split at fuzzer-chosen points equals one-shot
// hashing, every available backend gives the same digest (Keccak: portable, BMI2, AVX-512;
// SHA-256: SHA-NI and OpenSSL), and the 64-byte paths equal the generic one. Aborts on mismatch.
//
// Input: byte 0 = number of split points k (mod 8), then k 16-bit split offsets, then the message.
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "keel/crypto/keccak.hpp"
#include "keel/crypto/sha256.hpp"

namespace {

using keel::BytesView;
using keel::Hash32;
namespace crypto = keel::crypto;

void check(bool ok) {
    if (!ok) std::abort();
}

template <class Hasher>
Hash32 split_hash(BytesView msg, const std::vector<std::size_t>& cuts, Hasher h,
                  Hash32* at_first_cut) {
    std::size_t pos = 0;
    bool first = true;
    for (std::size_t cut : cuts) {
        h.update(msg.subspan(pos, cut - pos));
        pos = cut;
        if (first && at_first_cut != nullptr) {
            // A copy taken mid-stream continues independently of the original.
            Hasher copy = h;
            copy.update(msg.subspan(pos));
            *at_first_cut = copy.finalize();
            first = false;
        }
    }
    h.update(msg.subspan(pos));
    return h.finalize();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size == 0) return 0;
    const std::size_t k = data[0] % 8;
    if (size < 1 + 2 * k) return 0;
    const BytesView msg(data + 1 + 2 * k, size - 1 - 2 * k);
    std::vector<std::size_t> cuts;
    for (std::size_t i = 0; i < k; ++i) {
        const std::size_t v = static_cast<std::size_t>(data[1 + 2 * i]) |
                              static_cast<std::size_t>(data[2 + 2 * i]) << 8;
        cuts.push_back(v % (msg.size() + 1));
    }
    std::sort(cuts.begin(), cuts.end());

    // Keccak-256.
    const Hash32 keccak = crypto::keccak256(msg);
    for (auto b : {crypto::KeccakBackend::portable, crypto::KeccakBackend::bmi2,
                   crypto::KeccakBackend::avx512})
        if (crypto::keccak_backend_available(b)) check(crypto::keccak256_with(b, msg) == keccak);
    Hash32 from_copy;
    check(split_hash(msg, cuts, crypto::Keccak256{}, &from_copy) == keccak);
    if (!cuts.empty()) check(from_copy == keccak);

    // SHA-256.
    const Hash32 sha = crypto::sha256(msg);
    for (auto b : {crypto::Sha256Backend::shani, crypto::Sha256Backend::openssl})
        if (crypto::sha256_backend_available(b)) check(crypto::sha256_with(b, msg) == sha);
    check(split_hash(msg, cuts, crypto::Sha256{}, &from_copy) == sha);
    if (!cuts.empty()) check(from_copy == sha);

    // The 64-byte paths, on every whole 64-byte message in the input.
    const std::size_t n = msg.size() / 64;
    if (n != 0) {
        std::vector<std::uint8_t> many(32 * n);
        for (auto b : {crypto::Sha256Backend::shani, crypto::Sha256Backend::openssl}) {
            if (!crypto::sha256_backend_available(b)) continue;
            crypto::sha256_64_many_with(b, msg.data(), many.data(), n);
            for (std::size_t i = 0; i < n; ++i) {
                const Hash32 want = crypto::sha256(msg.subspan(64 * i, 64));
                std::uint8_t one[32];
                crypto::sha256_64_with(b, msg.data() + 64 * i, one);
                check(std::memcmp(one, want.data(), 32) == 0);
                check(std::memcmp(many.data() + 32 * i, want.data(), 32) == 0);
            }
        }
    }
    return 0;
}
