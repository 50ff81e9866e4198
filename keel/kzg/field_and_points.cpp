#include "keel/kzg/field_and_points.hpp"

#include <array>
#include <utility>

#include "keel/bls/msm.hpp"
#include "keel/bls/pairing.hpp"
#include "keel/bls/serialize.hpp"
#include "keel/crypto/sha256.hpp"

namespace keel::kzg::detail {

std::optional<bls::G1Affine> g1_point(BytesView bytes) noexcept {
    if (bytes.size() != 48) return std::nullopt;  // g1_from_bytes also takes 96 uncompressed
    const auto p = bls::g1_from_bytes(bytes, bls::SubgroupCheck::kCheck);
    if (!p) return std::nullopt;
    return *p;
}

bool field_elements(BytesView bytes, std::span<Fr> out, std::size_t* bad_index) noexcept {
    if (bytes.size() != out.size() * 32) {
        *bad_index = 0;
        return false;
    }
    for (std::size_t i = 0; i < out.size(); ++i) {
        const auto f = Fr::from_bytes(std::span<const std::uint8_t, 32>(bytes.data() + 32 * i, 32));
        if (!f) {
            *bad_index = i;
            return false;
        }
        out[i] = *f;
    }
    return true;
}

Fr hash_to_field(BytesView data) noexcept {
    const Hash32 h = crypto::sha256(data);
    return Fr::from_bytes_reduced(std::span<const std::uint8_t, 32>(h.data(), 32));
}

FixedBytes<48> compressed(const bls::G1Affine& p) {
    const auto b = bls::g1_compress(p);
    return *FixedBytes<48>::from(BytesView(b.data(), b.size()));
}

bls::G1Jacobian g1_lincomb(std::span<const bls::G1Affine> points, std::span<const Fr> scalars) {
    std::vector<bls::Scalar> s(scalars.size());
    for (std::size_t i = 0; i < s.size(); ++i) s[i] = scalars[i].to_scalar();
    return bls::g1_msm(points, s);
}

bool pairing_check(const bls::G1Jacobian& a, const bls::G2Affine& b, const bls::G1Jacobian& c,
                   const bls::G2Affine& d) {
    const std::array<std::pair<bls::G1Affine, bls::G2Affine>, 2> pairs{{
        {a.to_affine_vartime(), b},
        {c.to_affine_vartime(), d},
    }};
    return bls::pairing_product_is_one(pairs);
}

void append_u64(Bytes& out, std::uint64_t v) {
    for (int i = 7; i >= 0; --i) out.push_back(static_cast<std::uint8_t>(v >> (8 * i)));
}

}  // namespace keel::kzg::detail
