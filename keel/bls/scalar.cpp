#include "keel/bls/scalar.hpp"

#include <openssl/crypto.h>

#include <array>
#include <string_view>

#include "keel/crypto/hmac.hpp"
#include "keel/crypto/sha256.hpp"

namespace keel::bls {

namespace {

using Limbs = std::array<std::uint64_t, 4>;

/// a - r and whether it went below zero.
std::uint64_t sub_r(const Limbs& a, Limbs& d) noexcept {
    std::uint64_t borrow = 0;
    for (std::size_t i = 0; i < 4; ++i) {
        const std::uint64_t t = a[i] - kR[i];
        const std::uint64_t b1 = a[i] < kR[i];
        d[i] = t - borrow;
        borrow = b1 | (t < borrow);
    }
    return borrow;
}

}  // namespace

std::optional<Scalar> Scalar::from_bytes(std::span<const std::uint8_t, 32> be) noexcept {
    Limbs v{};
    for (std::size_t i = 0; i < 32; ++i) v[3 - i / 8] = v[3 - i / 8] << 8 | be[i];
    Limbs d;
    if (sub_r(v, d) == 0) return std::nullopt;  // v >= r
    return Scalar(v);
}

Scalar Scalar::from_bytes_wide(std::span<const std::uint8_t> be) noexcept {
    // Bit by bit from the top: acc = 2·acc + bit, minus r when that reaches r. acc < r < 2^255,
    // so 2·acc + 1 fits in four limbs.
    Limbs acc{};
    for (const std::uint8_t byte : be) {
        for (int b = 7; b >= 0; --b) {
            const std::uint64_t in = (byte >> b) & 1;
            for (std::size_t i = 3; i > 0; --i) acc[i] = acc[i] << 1 | acc[i - 1] >> 63;
            acc[0] = acc[0] << 1 | in;
            Limbs d;
            const std::uint64_t keep = 0 - sub_r(acc, d);  // all ones when acc < r
            for (std::size_t i = 0; i < 4; ++i) acc[i] = (acc[i] & keep) | (d[i] & ~keep);
        }
    }
    return Scalar(acc);
}

Scalar Scalar::reduced() const noexcept {
    Limbs acc = l_;
    for (int round = 0; round < 2; ++round) {
        Limbs d;
        const std::uint64_t keep = 0 - sub_r(acc, d);  // all ones when acc < r
        for (std::size_t i = 0; i < 4; ++i) acc[i] = (acc[i] & keep) | (d[i] & ~keep);
    }
    return Scalar(acc);
}

void Scalar::to_bytes(std::span<std::uint8_t, 32> be) const noexcept {
    for (std::size_t i = 0; i < 32; ++i) {
        be[i] = static_cast<std::uint8_t>(l_[3 - i / 8] >> (56 - 8 * (i % 8)));
    }
}

void Scalar::wipe() noexcept {
    OPENSSL_cleanse(l_.data(), sizeof l_);
}

std::optional<Scalar> key_gen(BytesView ikm, BytesView key_info) {
    if (ikm.size() < 32) return std::nullopt;
    constexpr std::size_t kL = 48;  // ceil(3 · ceil(log2(r)) / 16)
    constexpr std::string_view kSalt = "BLS-SIG-KEYGEN-SALT-";
    Hash32 salt = crypto::sha256(
        BytesView(reinterpret_cast<const std::uint8_t*>(kSalt.data()), kSalt.size()));
    Bytes ikm0(ikm.begin(), ikm.end());
    ikm0.push_back(0);  // IKM || I2OSP(0, 1)
    Bytes info(key_info.begin(), key_info.end());
    info.push_back(0);
    info.push_back(kL);  // key_info || I2OSP(L, 2)
    std::array<std::uint8_t, kL> okm{};
    Scalar sk;
    for (;;) {
        Hash32 prk = crypto::hkdf_sha256_extract(salt.view(), ikm0);
        crypto::hkdf_sha256_expand(prk.view(), info, okm);
        sk = Scalar::from_bytes_wide(okm);
        OPENSSL_cleanse(prk.data(), prk.size());
        if (!sk.is_zero()) break;
        salt = crypto::sha256(salt.view());  // draft-04 on: salt = H(salt) before each try
    }
    OPENSSL_cleanse(okm.data(), okm.size());
    OPENSSL_cleanse(ikm0.data(), ikm0.size());
    return sk;
}

}  // namespace keel::bls
