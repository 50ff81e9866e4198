#include "keel/kzg/fr.hpp"

#include "keel/common/mont256.hpp"

namespace keel::kzg {

namespace {

using Limbs = mont256::Limbs;
constexpr mont256::Modulus kMod = mont256::make_modulus(bls::kR);

}  // namespace

Fr Fr::one() noexcept {
    Fr f;
    f.m_ = kMod.r;
    return f;
}

Fr Fr::from_u64(std::uint64_t v) noexcept {
    Fr f;
    f.m_ = mont256::mul({v, 0, 0, 0}, kMod.r2, kMod);
    return f;
}

std::optional<Fr> Fr::from_bytes(std::span<const std::uint8_t, 32> be) noexcept {
    const auto s = bls::Scalar::from_bytes(be);
    if (!s) return std::nullopt;
    Fr f;
    f.m_ = mont256::mul(s->limbs(), kMod.r2, kMod);
    return f;
}

Fr Fr::from_bytes_reduced(std::span<const std::uint8_t, 32> be) noexcept {
    Fr f;
    f.m_ = mont256::mul(bls::Scalar::from_bytes_wide(be).limbs(), kMod.r2, kMod);
    return f;
}

bls::Scalar Fr::to_scalar() const noexcept {
    return bls::Scalar(mont256::mul(m_, {1, 0, 0, 0}, kMod));
}

void Fr::to_bytes(std::span<std::uint8_t, 32> be) const noexcept {
    to_scalar().to_bytes(be);
}

Bytes32 Fr::to_bytes32() const noexcept {
    Bytes32 b;
    to_bytes(std::span<std::uint8_t, 32>(b.data(), 32));
    return b;
}

Fr operator+(const Fr& a, const Fr& b) noexcept {
    Fr f;
    f.m_ = mont256::add_mod(a.m_, b.m_, kMod.p);
    return f;
}

Fr operator-(const Fr& a, const Fr& b) noexcept {
    Fr f;
    f.m_ = mont256::sub_mod(a.m_, b.m_, kMod.p);
    return f;
}

Fr operator*(const Fr& a, const Fr& b) noexcept {
    Fr f;
    f.m_ = mont256::mul(a.m_, b.m_, kMod);
    return f;
}

Fr Fr::pow(std::uint64_t e) const noexcept {
    Fr acc = one();
    for (int i = 63; i >= 0; --i) {
        acc = acc * acc;
        if ((e >> i) & 1) acc = acc * *this;
    }
    return acc;
}

Fr Fr::pow(const std::array<std::uint64_t, 4>& e) const noexcept {
    Fr acc = one();
    for (int i = 255; i >= 0; --i) {
        acc = acc * acc;
        if ((e[static_cast<std::size_t>(i / 64)] >> (i % 64)) & 1) acc = acc * *this;
    }
    return acc;
}

Fr Fr::inverse_vartime() const noexcept {
    return pow(mont256::sub_raw(kMod.p, Limbs{2, 0, 0, 0}));
}

std::vector<Fr> powers(const Fr& x, std::size_t n) {
    std::vector<Fr> out(n);
    Fr acc = Fr::one();
    for (auto& p : out) {
        p = acc;
        acc *= x;
    }
    return out;
}

}  // namespace keel::kzg
