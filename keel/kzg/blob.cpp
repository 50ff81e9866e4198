// The blob functions of consensus-specs deneb/polynomial-commitments.md: commitments, proofs at
// a point and at the Fiat-Shamir challenge, and their verification one by one or in a batch.
#include <algorithm>
#include <array>
#include <string_view>

#include "keel/bls/g2.hpp"
#include "keel/bls/serialize.hpp"
#include "keel/common/batch_inverse.hpp"
#include "keel/kzg/domain.hpp"
#include "keel/kzg/field_and_points.hpp"
#include "keel/kzg/kzg.hpp"
#include "keel/kzg/setup.hpp"

namespace keel::kzg {

namespace {

using detail::g1_point;

constexpr std::string_view kFiatShamirDomain = "FSBLOBVERIFY_V1_";
constexpr std::string_view kBatchDomain = "RCKZGBATCH___V1_";

using detail::compressed;

using Polynomial = std::vector<Fr>;  // kFieldElementsPerBlob evaluations, bit-reversed order

Result<Polynomial, Error> blob_polynomial(BytesView blob) {
    if (blob.size() != kBytesPerBlob) return input_error(Errc::bad_blob, 0);
    Polynomial p(kFieldElementsPerBlob);
    std::size_t bad = 0;
    if (!detail::field_elements(blob, p, &bad)) return input_error(Errc::bad_blob, bad * 32);
    return p;
}

std::span<const Fr> domain_brp() {
    static const std::vector<Fr> d = [] {
        const auto roots = roots_of_unity(kFieldElementsPerBlob);
        std::vector<Fr> v(roots.begin(), roots.end());
        bit_reverse(v);
        return v;
    }();
    return d;
}

Fr challenge(BytesView blob, BytesView commitment) {
    Bytes data;
    data.reserve(16 + 16 + kBytesPerBlob + 48);
    data.insert(data.end(), kFiatShamirDomain.begin(), kFiatShamirDomain.end());
    // The degree as a 16-byte big-endian integer.
    data.insert(data.end(), 8, 0);
    detail::append_u64(data, kFieldElementsPerBlob);
    data.insert(data.end(), blob.begin(), blob.end());
    data.insert(data.end(), commitment.begin(), commitment.end());
    return detail::hash_to_field(data);
}

// evaluate_polynomial_in_evaluation_form: p(z) by the barycentric formula (the value itself
// when z is in the domain).
Fr evaluate(const Polynomial& p, const Fr& z) {
    const auto domain = domain_brp();
    const std::size_t n = domain.size();
    std::vector<Fr> inv(n);
    for (std::size_t i = 0; i < n; ++i) {
        if (domain[i] == z) return p[i];
        inv[i] = z - domain[i];
    }
    invert_all_vartime<Fr>(inv);
    Fr sum;
    for (std::size_t i = 0; i < n; ++i) sum += p[i] * domain[i] * inv[i];
    const Fr factor = (z.pow(n) - Fr::one()) * Fr::from_u64(n).inverse_vartime();
    return sum * factor;
}

// compute_kzg_proof_impl: the quotient (p(x) - y) / (x - z) in evaluation form, committed.
std::pair<G1Bytes, Fr> proof_at(const Polynomial& p, const Fr& z) {
    const auto domain = domain_brp();
    const std::size_t n = domain.size();
    const Fr y = evaluate(p, z);
    std::vector<Fr> q(n), denom(n);
    std::size_t in_domain = n;
    for (std::size_t i = 0; i < n; ++i) {
        denom[i] = domain[i] - z;
        if (denom[i].is_zero()) in_domain = i;
    }
    invert_all_vartime<Fr>(denom);
    for (std::size_t i = 0; i < n; ++i) q[i] = (p[i] - y) * denom[i];
    if (in_domain != n) {
        // compute_quotient_eval_within_domain: q(z) = Σ_{i: ω_i != z} (p_i - y)·ω_i / (z·(z -
        // ω_i)).
        std::vector<Fr> d(n);
        for (std::size_t i = 0; i < n; ++i) d[i] = i == in_domain ? Fr() : z * (z - domain[i]);
        invert_all_vartime<Fr>(d);
        Fr sum;
        for (std::size_t i = 0; i < n; ++i)
            if (i != in_domain) sum += (p[i] - y) * domain[i] * d[i];
        q[in_domain] = sum;
    }
    const auto c = detail::g1_lincomb(setup::g1_lagrange_brp(), q).to_affine_vartime();
    return {compressed(c), y};
}

}  // namespace

Result<G1Bytes, Error> blob_to_kzg_commitment(BytesView blob) {
    auto p = blob_polynomial(blob);
    if (!p) return std::unexpected(p.error());
    const auto c = detail::g1_lincomb(setup::g1_lagrange_brp(), *p).to_affine_vartime();
    return compressed(c);
}

Result<std::pair<G1Bytes, Bytes32>, Error> compute_kzg_proof(BytesView blob, const Bytes32& z) {
    auto p = blob_polynomial(blob);
    if (!p) return std::unexpected(p.error());
    const auto zf = Fr::from_bytes(std::span<const std::uint8_t, 32>(z.data(), 32));
    if (!zf) return input_error(Errc::z_not_in_field, 0);
    const auto [proof, y] = proof_at(*p, *zf);
    return std::pair{proof, y.to_bytes32()};
}

Result<Bytes32, Error> compute_challenge(BytesView blob, BytesView commitment) {
    if (blob.size() != kBytesPerBlob) return input_error(Errc::bad_blob, 0);
    if (commitment.size() != kBytesPerPoint) return input_error(Errc::bad_commitment, 0);
    return challenge(blob, commitment).to_bytes32();
}

Result<G1Bytes, Error> compute_blob_kzg_proof(BytesView blob, BytesView commitment) {
    if (!g1_point(commitment)) return input_error(Errc::bad_commitment, 0);
    auto p = blob_polynomial(blob);
    if (!p) return std::unexpected(p.error());
    return proof_at(*p, challenge(blob, commitment)).first;
}

Result<bool, Error> verify_blob_kzg_proof(BytesView blob, BytesView commitment, BytesView proof) {
    const BytesView one_blob[] = {blob}, one_commitment[] = {commitment}, one_proof[] = {proof};
    return verify_blob_kzg_proof_batch(one_blob, one_commitment, one_proof);
}

Result<bool, Error> verify_blob_kzg_proof_batch(std::span<const BytesView> blobs,
                                                std::span<const BytesView> commitments,
                                                std::span<const BytesView> proofs) {
    const std::size_t n = blobs.size();
    if (commitments.size() != n || proofs.size() != n) return input_error(Errc::length_mismatch, 0);
    std::vector<bls::G1Affine> cs(n), pis(n);
    std::vector<Fr> zs(n), ys(n);
    for (std::size_t i = 0; i < n; ++i) {
        auto p = blob_polynomial(blobs[i]);
        if (!p) return input_error(Errc::bad_blob, i);
        const auto c = g1_point(commitments[i]);
        if (!c) return input_error(Errc::bad_commitment, i);
        const auto pi = g1_point(proofs[i]);
        if (!pi) return input_error(Errc::bad_proof, i);
        cs[i] = *c;
        pis[i] = *pi;
        zs[i] = challenge(blobs[i], commitments[i]);
        ys[i] = evaluate(*p, zs[i]);
    }
    if (n == 0) return true;
    // verify_kzg_proof_batch: with r from the transcript of every (C, z, y, π),
    //   e(Σ r^i π_i, -[τ]G2) · e(Σ r^i (C_i - [y_i]G1) + Σ r^i z_i π_i, G2) == 1.
    Bytes data(kBatchDomain.begin(), kBatchDomain.end());
    detail::append_u64(data, kFieldElementsPerBlob);
    detail::append_u64(data, n);
    for (std::size_t i = 0; i < n; ++i) {
        data.insert(data.end(), commitments[i].begin(), commitments[i].end());
        const Bytes32 z = zs[i].to_bytes32(), y = ys[i].to_bytes32();
        data.insert(data.end(), z.data(), z.data() + 32);
        data.insert(data.end(), y.data(), y.data() + 32);
        data.insert(data.end(), proofs[i].begin(), proofs[i].end());
    }
    const std::vector<Fr> r = powers(detail::hash_to_field(data), n);
    std::vector<Fr> rz(n);
    Fr ry;
    for (std::size_t i = 0; i < n; ++i) {
        rz[i] = r[i] * zs[i];
        ry += r[i] * ys[i];
    }
    const bls::G1Jacobian proof_lincomb = detail::g1_lincomb(pis, r);
    const bls::G1Jacobian rhs =
        detail::g1_lincomb(cs, r)
            .add_vartime(-bls::g1_mul_glv(bls::g1_generator(), ry.to_scalar()))
            .add_vartime(detail::g1_lincomb(pis, rz));
    const bls::G2Affine tau = setup::g2_monomial()[1];
    const bls::G2Affine neg_tau{tau.x, -tau.y, tau.infinity};
    return detail::pairing_check(proof_lincomb, neg_tau, rhs, bls::kG2Generator);
}

}  // namespace keel::kzg
