#include "keel/bls/signature.hpp"

#include <utility>
#include <vector>

#include "keel/bls/g1.hpp"
#include "keel/bls/g2.hpp"
#include "keel/bls/hash_to_curve.hpp"
#include "keel/bls/pairing.hpp"
#include "keel/common/assert.hpp"

namespace keel::bls {

namespace {

/// e(p, H(msg))·e(-G1, sig) == 1.
bool verify_point(const G1Affine& pk, BytesView msg, const Signature& sig) {
    const std::array<std::pair<G1Affine, G2Affine>, 2> pairs{
        std::pair{pk, hash_to_g2(msg).to_affine_vartime()},
        std::pair{kG1GeneratorNeg, sig.point()}};
    return pairing_product_is_one(pairs);
}

/// The sum of the keys, in Jacobian form.
G1Jacobian sum(std::span<const PublicKey> pks) noexcept {
    G1Jacobian acc;
    // Public keys are public: the variable-time addition skips the constant-time doubling.
    for (const PublicKey& pk : pks) acc = acc.add_mixed_vartime(pk.point());
    return acc;
}

}  // namespace

std::optional<SecretKey> SecretKey::from_bytes(BytesView be) noexcept {
    if (be.size() != 32) return std::nullopt;
    auto s = Scalar::from_bytes(std::span<const std::uint8_t, 32>(be.data(), 32));
    if (!s || s->is_zero()) return std::nullopt;
    return SecretKey(*s);
}

std::optional<SecretKey> SecretKey::key_gen(BytesView ikm, BytesView key_info) {
    auto s = bls::key_gen(ikm, key_info);
    if (!s) return std::nullopt;
    SecretKey sk(*s);
    s->wipe();
    return sk;
}

SecretKey& SecretKey::operator=(SecretKey&& o) noexcept {
    s_ = o.s_;
    o.s_.wipe();
    return *this;
}

std::array<std::uint8_t, 32> SecretKey::to_bytes() const noexcept {
    std::array<std::uint8_t, 32> out{};
    s_.to_bytes(out);
    return out;
}

PublicKey SecretKey::public_key() const noexcept {
    return PublicKey::from_validated(g1_generator().mul_ct(s_).to_affine());
}

Result<PublicKey, Error> PublicKey::from_bytes(BytesView in) noexcept {
    auto p = g1_from_bytes(in, SubgroupCheck::kCheck);
    if (!p) return std::unexpected(p.error());
    if (p->infinity) return std::unexpected(Error{Errc::identity_public_key, 0});
    return PublicKey(*p);
}

PublicKey PublicKey::from_validated(const G1Affine& p) noexcept {
    return PublicKey(p);
}

Result<Signature, Error> Signature::from_bytes(BytesView in) noexcept {
    auto p = g2_from_bytes(in, SubgroupCheck::kCheck);
    if (!p) return std::unexpected(p.error());
    return Signature(*p);
}

Signature sign(const SecretKey& sk, BytesView msg) {
    // H(msg) is in G2, so the constant-time GLS multiplication applies.
    return Signature::from_point(g2_mul_gls_ct(hash_to_g2(msg), sk.scalar()).to_affine());
}

bool verify(const PublicKey& pk, BytesView msg, const Signature& sig) {
    return verify_point(pk.point(), msg, sig);
}

std::optional<Signature> aggregate(std::span<const Signature> sigs) {
    if (sigs.empty()) return std::nullopt;
    G2Jacobian acc;
    for (const Signature& s : sigs) acc = acc.add_mixed(s.point());
    return Signature::from_point(acc.to_affine());
}

bool aggregate_verify(std::span<const PublicKey> pks, std::span<const BytesView> msgs,
                      const Signature& sig) {
    if (pks.empty() || pks.size() != msgs.size()) return false;
    std::vector<std::pair<G1Affine, G2Affine>> pairs;
    pairs.reserve(pks.size() + 1);
    for (std::size_t i = 0; i < pks.size(); ++i) {
        pairs.emplace_back(pks[i].point(), hash_to_g2(msgs[i]).to_affine_vartime());
    }
    pairs.emplace_back(kG1GeneratorNeg, sig.point());
    return pairing_product_is_one(pairs);
}

bool fast_aggregate_verify(std::span<const PublicKey> pks, BytesView msg, const Signature& sig) {
    if (pks.empty()) return false;
    return verify_point(sum(pks).to_affine_vartime(), msg, sig);
}

std::optional<G1Affine> eth_aggregate_pubkeys(std::span<const PublicKey> pks) {
    if (pks.empty()) return std::nullopt;
    return sum(pks).to_affine();
}

bool eth_fast_aggregate_verify(std::span<const PublicKey> pks, BytesView msg,
                               const Signature& sig) {
    if (pks.empty() && sig.point().infinity) return true;
    return fast_aggregate_verify(pks, msg, sig);
}

}  // namespace keel::bls
