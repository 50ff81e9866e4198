#include "keel/evm/precompiles.hpp"

#include <gmp.h>

#include <algorithm>
#include <cstring>
#include <limits>

#include "keel/bls/eip2537.hpp"
#include "keel/bn254/bn254.hpp"
#include "keel/common/uint256.hpp"
#include "keel/crypto/blake2b.hpp"
#include "keel/crypto/ripemd160.hpp"
#include "keel/crypto/secp256k1.hpp"
#include "keel/crypto/secp256r1.hpp"
#include "keel/crypto/sha256.hpp"
#include "keel/kzg/kzg.hpp"

namespace keel::evm {

namespace {

using eth::Fork;
constexpr std::uint64_t kSaturated = std::numeric_limits<std::uint64_t>::max();

std::uint64_t words(std::size_t n) noexcept {
    return (static_cast<std::uint64_t>(n) + 31) / 32;
}

CallResult ok(std::int64_t gas_left, Bytes output) {
    return {Status::success, gas_left, std::move(output), {}};
}

CallResult halt(Status s) {
    return {s, 0, {}, {}};
}

/// `cost` charged against `gas`, then `body` (which returns the output or nothing for a
/// failure).
template <class Body>
CallResult charged(std::uint64_t cost, std::int64_t gas, Body&& body) {
    if (cost > static_cast<std::uint64_t>(gas)) return halt(Status::out_of_gas);
    std::optional<Bytes> out = body();
    if (!out) return halt(Status::precompile_failure);
    return ok(gas - static_cast<std::int64_t>(cost), std::move(*out));
}

/// Bytes [offset, offset + n) of `in`, zero past its end.
Bytes slice_padded(BytesView in, std::uint64_t offset, std::size_t n) {
    Bytes out(n, 0);
    if (offset < in.size()) {
        const std::size_t take = std::min<std::uint64_t>(n, in.size() - offset);
        if (take != 0) std::memcpy(out.data(), in.data() + offset, take);
    }
    return out;
}

Uint256 word_at(BytesView in, std::uint64_t offset) {
    const Bytes w = slice_padded(in, offset, 32);
    return Uint256::load_be(w.data());
}

std::optional<Bytes> ecrecover(BytesView in) {
    const Bytes b = slice_padded(in, 0, 128);
    Hash32 hash;
    std::memcpy(hash.data(), b.data(), 32);
    const Uint256 v = Uint256::load_be(b.data() + 32);
    const Uint256 r = Uint256::load_be(b.data() + 64);
    const Uint256 s = Uint256::load_be(b.data() + 96);
    if (v != 27 && v != 28) return Bytes{};  // a bad signature is an empty output, not a failure
    auto a = crypto::secp256k1::recover_address(hash, r, s, static_cast<std::uint8_t>(v[0] - 27));
    if (!a) return Bytes{};
    Bytes out(32, 0);
    std::memcpy(out.data() + 12, a->data(), 20);
    return out;
}

/// EIP-7951: exactly 160 bytes (hash, r, s, x, y); 32 bytes of 1 when the signature verifies,
/// else an empty output (the call itself succeeds).
std::optional<Bytes> p256verify(BytesView in) {
    if (in.size() != 160) return Bytes{};
    const auto w = [&](std::size_t i) { return Uint256::load_be(in.data() + 32 * i); };
    Hash32 h;
    std::memcpy(h.data(), in.data(), 32);
    if (!crypto::secp256r1::verify(h, w(1), w(2), w(3), w(4))) return Bytes{};
    Bytes out(32, 0);
    out[31] = 1;
    return out;
}

// ---- MODEXP ------------------------------------------------------------------------------------

__extension__ using u128 = unsigned __int128;

std::uint64_t sat_mul(std::uint64_t a, std::uint64_t b) noexcept {
    const u128 p = static_cast<u128>(a) * b;
    return p > kSaturated ? kSaturated : static_cast<std::uint64_t>(p);
}

/// EIP-198's adjusted exponent length (EIP-7883 counts 16 per byte beyond 32, not 8).
std::uint64_t iteration_count(BytesView in, std::uint64_t base_len, std::uint64_t exp_len,
                              std::uint64_t per_byte) {
    const std::size_t head_len = static_cast<std::size_t>(std::min<std::uint64_t>(exp_len, 32));
    const std::uint64_t at = 96 + base_len;  // base_len is small here (or the cost saturates)
    const Bytes head = slice_padded(in, at, head_len);
    Bytes padded(32 - head_len, 0);
    padded.insert(padded.end(), head.begin(), head.end());
    const Uint256 h = Uint256::load_be(padded.data());
    std::uint64_t n = h.is_zero() ? 0 : h.bit_length() - 1;
    if (exp_len > 32) n = n + sat_mul(per_byte, exp_len - 32);
    return n;
}

std::uint64_t modexp_gas(BytesView in, std::uint64_t lb, std::uint64_t le, std::uint64_t lm,
                         Fork fork) {
    const std::uint64_t x = std::max(lb, lm);
    if (fork >= Fork::osaka) {  // EIP-7883
        const std::uint64_t w = (x + 7) / 8;
        const std::uint64_t mult = x <= 32 ? 16 : sat_mul(2, sat_mul(w, w));
        const std::uint64_t it = std::max<std::uint64_t>(iteration_count(in, lb, le, 16), 1);
        return std::max<std::uint64_t>(500, sat_mul(mult, it));
    }
    const std::uint64_t it = std::max<std::uint64_t>(iteration_count(in, lb, le, 8), 1);
    if (fork >= Fork::berlin) {  // EIP-2565
        const std::uint64_t w = (x + 7) / 8;
        return std::max<std::uint64_t>(200, sat_mul(sat_mul(w, w), it) / 3);
    }
    // EIP-198
    std::uint64_t mult;
    if (x <= 64) {
        mult = x * x;
    } else if (x <= 1024) {
        mult = x * x / 4 + 96 * x - 3072;
    } else {
        mult = sat_mul(x, x) / 16 + sat_mul(480, x) - 199680;
        if (x > (std::uint64_t{1} << 31)) mult = kSaturated;
    }
    return sat_mul(mult, it) / 20;
}

CallResult modexp(BytesView in, std::int64_t gas, Fork fork) {
    const Uint256 lb256 = word_at(in, 0), le256 = word_at(in, 32), lm256 = word_at(in, 64);
    constexpr std::uint64_t kHuge = std::uint64_t{1}
                                    << 32;  // beyond, any non-zero size is unpayable
    const auto clamp = [&](const Uint256& v) {
        return v.fits_u64() && v[0] < kHuge ? v[0] : kHuge;
    };
    const std::uint64_t lb = clamp(lb256), le = clamp(le256), lm = clamp(lm256);
    if (fork >= Fork::osaka && (lb > 1024 || le > 1024 || lm > 1024))  // EIP-7823
        return halt(Status::precompile_failure);
    std::uint64_t cost = modexp_gas(in, lb, le, lm, fork);
    // A huge length of a non-empty base or modulus can never be paid for.
    if ((lb == kHuge && std::max(lb, lm) != 0) || lm == kHuge) cost = kSaturated;
    return charged(cost, gas, [&]() -> std::optional<Bytes> {
        if (lm == 0) return Bytes{};
        if (le == kHuge) return std::nullopt;  // unreachable: a huge exponent costs too much
        const Bytes b = slice_padded(in, 96, static_cast<std::size_t>(lb));
        const Bytes e = slice_padded(in, 96 + lb, static_cast<std::size_t>(le));
        const Bytes m = slice_padded(in, 96 + lb + le, static_cast<std::size_t>(lm));
        Bytes out(static_cast<std::size_t>(lm), 0);
        mpz_t vb, ve, vm, r;
        mpz_inits(vb, ve, vm, r, nullptr);
        mpz_import(vb, b.size(), 1, 1, 1, 0, b.data());
        mpz_import(ve, e.size(), 1, 1, 1, 0, e.data());
        mpz_import(vm, m.size(), 1, 1, 1, 0, m.data());
        if (mpz_sgn(vm) != 0) {
            mpz_powm(r, vb, ve, vm);
            std::size_t n = 0;
            const std::size_t need = (mpz_sizeinbase(r, 2) + 7) / 8;
            Bytes tmp(std::max<std::size_t>(need, 1));
            mpz_export(tmp.data(), &n, 1, 1, 1, 0, r);
            std::memcpy(out.data() + out.size() - n, tmp.data(), n);
        }
        mpz_clears(vb, ve, vm, r, nullptr);
        return out;
    });
}

// ---- BLAKE2F -----------------------------------------------------------------------------------

CallResult blake2f(BytesView in, std::int64_t gas) {
    if (in.size() != 213) return halt(Status::precompile_failure);
    const std::uint32_t rounds = static_cast<std::uint32_t>(in[0]) << 24 |
                                 static_cast<std::uint32_t>(in[1]) << 16 |
                                 static_cast<std::uint32_t>(in[2]) << 8 | in[3];
    if (in[212] > 1) return halt(Status::precompile_failure);
    return charged(rounds, gas, [&]() -> std::optional<Bytes> {
        const auto le64 = [&](std::size_t at) {
            std::uint64_t v = 0;
            for (int i = 7; i >= 0; --i) v = v << 8 | in[at + static_cast<std::size_t>(i)];
            return v;
        };
        std::uint64_t h[8], m[16], t[2];
        for (std::size_t i = 0; i < 8; ++i) h[i] = le64(4 + 8 * i);
        for (std::size_t i = 0; i < 16; ++i) m[i] = le64(68 + 8 * i);
        t[0] = le64(196);
        t[1] = le64(204);
        crypto::blake2b_compress(h, m, t, in[212] == 1, rounds);
        Bytes out(64);
        for (std::size_t i = 0; i < 8; ++i) {
            for (std::size_t b = 0; b < 8; ++b)
                out[8 * i + b] = static_cast<std::uint8_t>(h[i] >> (8 * b));
        }
        return out;
    });
}

// ---- BN254 (EIP-196, EIP-197; prices of EIP-1108 from Istanbul) -------------------------------

std::optional<Bytes> bn254_point(const Result<std::array<std::uint8_t, 64>, bn254::Error>& r) {
    if (!r) return std::nullopt;
    return Bytes(r->begin(), r->end());
}

CallResult bn254_pairing(BytesView in, std::int64_t gas, Fork fork) {
    const bool istanbul = fork >= Fork::istanbul;
    const std::uint64_t pairs = in.size() / 192;
    const std::uint64_t cost = istanbul ? 45000 + 34000 * pairs : 100000 + 80000 * pairs;
    return charged(cost, gas, [&]() -> std::optional<Bytes> {
        const auto r = bn254::pairing_check(in);
        if (!r) return std::nullopt;
        Bytes out(32, 0);
        out[31] = *r ? 1 : 0;
        return out;
    });
}

// ---- BLS12-381 (EIP-2537) ---------------------------------------------------------------------

template <std::size_t N>
std::optional<Bytes> bls_point(const Result<std::array<std::uint8_t, N>, bls::eip2537::Error>& r) {
    if (!r) return std::nullopt;
    return Bytes(r->begin(), r->end());
}

// k pairs of `item` bytes, each `per_item` gas at full price, discounted per mille.
CallResult bls_msm(BytesView in, std::int64_t gas, bool g2) {
    const std::size_t item = g2 ? 288 : 160;
    const std::uint64_t k = in.size() / item;
    const std::uint64_t cost = k * (g2 ? 22500 : 12000) *
                               bls::eip2537::msm_discount(static_cast<std::size_t>(k), g2) / 1000;
    return charged(cost, gas, [&]() -> std::optional<Bytes> {
        if (g2) return bls_point(bls::eip2537::g2_msm(in));
        return bls_point(bls::eip2537::g1_msm(in));
    });
}

CallResult bls_pairing(BytesView in, std::int64_t gas) {
    const std::uint64_t k = in.size() / 384;
    return charged(32600 * k + 37700, gas, [&]() -> std::optional<Bytes> {
        const auto r = bls::eip2537::pairing_check(in);
        if (!r) return std::nullopt;
        Bytes out(32, 0);
        out[31] = *r ? 1 : 0;
        return out;
    });
}

// ---- point evaluation (EIP-4844) ---------------------------------------------------------------

// versioned_hash ‖ z ‖ y ‖ commitment ‖ proof (192 bytes); returns FIELD_ELEMENTS_PER_BLOB and
// BLS_MODULUS as two 32-byte words.
std::optional<Bytes> point_evaluation(BytesView in) {
    if (in.size() != 192) return std::nullopt;
    const BytesView commitment = in.subspan(96, 48);
    const Hash32 vh = kzg::versioned_hash(commitment);
    if (!std::equal(vh.begin(), vh.end(), in.begin())) return std::nullopt;
    Bytes32 z, y;
    std::memcpy(z.data(), in.data() + 32, 32);
    std::memcpy(y.data(), in.data() + 64, 32);
    const auto ok = kzg::verify_kzg_proof(commitment, z, y, in.subspan(144, 48));
    if (!ok || !*ok) return std::nullopt;
    Bytes out(64, 0);
    for (int i = 0; i < 8; ++i)
        out[31 - static_cast<std::size_t>(i)] =
            static_cast<std::uint8_t>(kzg::kFieldElementsPerBlob >> (8 * i));
    std::memcpy(out.data() + 32, kzg::kBlsModulus.data(), 32);
    return out;
}

}  // namespace

std::optional<std::uint16_t> precompile_id(const Address& a) noexcept {
    // Asked at every account access (Evm::warm_from_start): three loads, not 18 byte tests.
    std::uint64_t w0;
    std::uint64_t w1;
    std::uint16_t w2;
    std::memcpy(&w0, a.data(), 8);
    std::memcpy(&w1, a.data() + 8, 8);
    std::memcpy(&w2, a.data() + 16, 2);
    if ((w0 | w1 | w2) != 0) return std::nullopt;
    const std::uint16_t id = static_cast<std::uint16_t>(a[18] << 8 | a[19]);
    if (id == 0) return std::nullopt;
    return id;
}

bool precompile_exists(std::uint16_t id, Fork fork) noexcept {
    if (id >= 1 && id <= 4) return true;
    if (id >= 5 && id <= 8) return fork >= Fork::byzantium;
    if (id == 9) return fork >= Fork::istanbul;
    if (id == 0x0a) return fork >= Fork::cancun;
    if (id >= 0x0b && id <= 0x11) return fork >= Fork::prague;
    if (id == 0x100) return fork >= Fork::osaka;
    return false;
}

CallResult run_precompile(std::uint16_t id, BytesView in, std::int64_t gas, Fork fork) {
    switch (id) {
        case 1:
            return charged(3000, gas, [&] { return ecrecover(in); });
        case 2:
            return charged(60 + 12 * words(in.size()), gas, [&]() -> std::optional<Bytes> {
                const Hash32 h = crypto::sha256(in);
                return Bytes(h.begin(), h.end());
            });
        case 3:
            return charged(600 + 120 * words(in.size()), gas, [&]() -> std::optional<Bytes> {
                const auto h = crypto::ripemd160(in);
                Bytes out(32, 0);
                std::memcpy(out.data() + 12, h.data(), 20);
                return out;
            });
        case 4:
            return charged(15 + 3 * words(in.size()), gas,
                           [&]() -> std::optional<Bytes> { return Bytes(in.begin(), in.end()); });
        case 5:
            return modexp(in, gas, fork);
        case 6:
            return charged(fork >= Fork::istanbul ? 150 : 500, gas,
                           [&] { return bn254_point(bn254::g1_add(in)); });
        case 7:
            return charged(fork >= Fork::istanbul ? 6000 : 40000, gas,
                           [&] { return bn254_point(bn254::g1_mul(in)); });
        case 8:
            return bn254_pairing(in, gas, fork);
        case 9:
            return blake2f(in, gas);
        case 0x0a:
            return charged(50000, gas, [&] { return point_evaluation(in); });
        case 0x0b:
            return charged(375, gas, [&] { return bls_point(bls::eip2537::g1_add(in)); });
        case 0x0c:
            return bls_msm(in, gas, false);
        case 0x0d:
            return charged(600, gas, [&] { return bls_point(bls::eip2537::g2_add(in)); });
        case 0x0e:
            return bls_msm(in, gas, true);
        case 0x0f:
            return bls_pairing(in, gas);
        case 0x10:
            return charged(5500, gas, [&] { return bls_point(bls::eip2537::map_fp_to_g1(in)); });
        case 0x11:
            return charged(23800, gas, [&] { return bls_point(bls::eip2537::map_fp2_to_g2(in)); });
        case 0x100:
            return charged(6900, gas, [&] { return p256verify(in); });
        default:
            return halt(Status::precompile_failure);  // unreachable: `id` exists in `fork`
    }
}

}  // namespace keel::evm
