#include "keel/crypto/signature.hpp"

#include <cstring>

#include "keel/common/assert.hpp"
#include "keel/common/parallel.hpp"
#include "keel/crypto/keccak.hpp"
#include "keel/crypto/secp256k1.hpp"
#include "keel/crypto/secp256r1.hpp"

namespace keel::crypto {

namespace {

constexpr SignatureScheme kSecp256k1Scheme{
    .algorithm = SignatureAlgorithm::secp256k1,
    .name = "secp256k1",
    .order = secp256k1::kOrder,
    .half_order = secp256k1::kHalfOrder,
    .recover_public_key = &secp256k1::recover_public_key,
    .recover_address = &secp256k1::recover_address,
    .sign_recoverable = &secp256k1::sign_recoverable,
    .public_key_of = &secp256k1::public_key_of,
};

constexpr SignatureScheme kSecp256r1Scheme{
    .algorithm = SignatureAlgorithm::secp256r1,
    .name = "secp256r1",
    .order = secp256r1::kOrder,
    .half_order = secp256r1::kHalfOrder,
    .recover_public_key = &secp256r1::recover_public_key,
    .recover_address = &secp256r1::recover_address,
    .sign_recoverable = &secp256r1::sign_recoverable,
    .public_key_of = &secp256r1::public_key_of,
};

// The process-wide choice (DESIGN.md §4.3). Constant-initialised to secp256k1, so it is valid
// before any static initialiser runs; set_signature_algorithm() replaces it once at start-up and
// every recovery afterwards reads this one pointer.
constinit const SignatureScheme* g_scheme = &kSecp256k1Scheme;

// Signatures per task of a batch. One recovery costs ~20-60 us, so 8 of them amortise a
// oneTBB task (well under a microsecond) to a fraction of a percent while a block of a few
// hundred transactions still splits into enough tasks for every core.
constexpr std::size_t kBatchGrain = 8;

constexpr char ascii_lower(char c) noexcept {
    return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
}

constexpr bool iequals(std::string_view a, std::string_view b) noexcept {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i)
        if (ascii_lower(a[i]) != b[i]) return false;
    return true;
}

}  // namespace

std::string_view describe(Errc e) noexcept {
    switch (e) {
        case Errc::invalid_r:
            return "signature r is zero or not below the curve order";
        case Errc::invalid_s:
            return "signature s is zero or not below the curve order";
        case Errc::invalid_recovery_id:
            return "signature recovery id is above 3";
        case Errc::no_public_key:
            return "signature does not recover to a public key";
        case Errc::invalid_secret_key:
            return "secret key is zero or not below the curve order";
        case Errc::invalid_public_key:
            return "public key is not a point on secp256k1";
        case Errc::random_not_supported:
            return "getrandom(2) is not supported by this kernel";
        case Errc::random_failed:
            return "getrandom(2) failed";
    }
    return "unknown crypto error";
}

Address public_key_to_address(const PublicKey& key) noexcept {
    const Hash32 h = keccak256(key.view());
    Address a;
    std::memcpy(a.data(), h.data() + 12, 20);
    return a;
}

std::string_view signature_algorithm_name(SignatureAlgorithm a) noexcept {
    return signature_scheme(a).name;
}

std::optional<SignatureAlgorithm> parse_signature_algorithm(std::string_view name) noexcept {
    for (const SignatureScheme* s : {&kSecp256k1Scheme, &kSecp256r1Scheme})
        if (iequals(name, s->name)) return s->algorithm;
    return std::nullopt;
}

const SignatureScheme& signature_scheme(SignatureAlgorithm a) noexcept {
    switch (a) {
        case SignatureAlgorithm::secp256k1:
            return kSecp256k1Scheme;
        case SignatureAlgorithm::secp256r1:
            return kSecp256r1Scheme;
    }
    KEEL_ASSERT(!"unknown SignatureAlgorithm");
    return kSecp256k1Scheme;
}

void set_signature_algorithm(SignatureAlgorithm a) noexcept {
    g_scheme = &signature_scheme(a);
}

SignatureAlgorithm signature_algorithm() noexcept {
    return g_scheme->algorithm;
}

const SignatureScheme& signature_scheme() noexcept {
    return *g_scheme;
}

Result<PublicKey, SigError> recover_public_key(const Hash32& msg, const Uint256& r,
                                               const Uint256& s,
                                               std::uint8_t recovery_id) noexcept {
    return g_scheme->recover_public_key(msg, r, s, recovery_id);
}

Result<Address, SigError> recover_address(const Hash32& msg, const Uint256& r, const Uint256& s,
                                          std::uint8_t recovery_id) noexcept {
    return g_scheme->recover_address(msg, r, s, recovery_id);
}

void recover_addresses(std::span<const RecoverInput> in,
                       std::span<Result<Address, SigError>> out) noexcept {
    KEEL_ASSERT(in.size() == out.size());
    const auto recover = g_scheme->recover_address;  // the choice, read once per batch
    parallel::for_ranges(in.size(), kBatchGrain, [&](std::size_t begin, std::size_t end) {
        for (std::size_t i = begin; i < end; ++i) {
            const RecoverInput& x = in[i];
            out[i] = recover(x.msg, x.r, x.s, x.recovery_id);
        }
    });
}

bool is_low_s(const Uint256& s) noexcept {
    return s <= g_scheme->half_order;
}

}  // namespace keel::crypto
