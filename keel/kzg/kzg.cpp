#include "keel/kzg/kzg.hpp"

#include <array>
#include <utility>

#include "keel/bls/g1.hpp"
#include "keel/bls/g2.hpp"
#include "keel/bls/pairing.hpp"
#include "keel/bls/scalar.hpp"
#include "keel/bls/serialize.hpp"
#include "keel/common/hex.hpp"
#include "keel/crypto/sha256.hpp"

namespace keel::kzg {

namespace {

// [τ]G2 of the mainnet setup, compressed (trusted_setup.txt line 4100; kzg_test checks it).
constexpr std::string_view kTauG2Hex =
    "b5bfd7dd8cdeb128843bc287230af38926187075cbfbefa81009a2ce615ac53d2914e5870cb452d2afaaab24f349"
    "9f72185cbfee53492714734429b7b38608e23926c911cceceac9a36851477ba4c60b087041de621000edc98edada"
    "20c1def2";

const bls::G2Jacobian& tau_g2() {
    static const bls::G2Jacobian p = [] {
        const auto bytes = hex::decode(kTauG2Hex);
        const auto a = bls::g2_from_bytes(*bytes, bls::SubgroupCheck::kCheck);
        return bls::G2Jacobian::from_affine(*a);  // a constant: decoding cannot fail
    }();
    return p;
}

}  // namespace

const Bytes32 kBlsModulus = [] {
    Bytes32 r;
    const auto b = hex::decode("73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001");
    std::copy(b->begin(), b->end(), r.data());
    return r;
}();

std::string_view describe(Errc code) noexcept {
    switch (code) {
        case Errc::bad_commitment:
            return "commitment is not a valid G1 point";
        case Errc::bad_proof:
            return "proof is not a valid G1 point";
        case Errc::z_not_in_field:
            return "z is not a field element (>= r)";
        case Errc::y_not_in_field:
            return "y is not a field element (>= r)";
        case Errc::bad_blob:
            return "blob is not 131072 bytes of field elements (< r)";
        case Errc::bad_cell:
            return "cell is not 2048 bytes of field elements (< r)";
        case Errc::bad_cell_index:
            return "cell index is not below 128";
        case Errc::bad_commitment_index:
            return "commitment index is past the commitments";
        case Errc::length_mismatch:
            return "the lists are not all of the same length";
        case Errc::wrong_cell_count:
            return "fewer than 64 or more than 128 cells to recover from";
        case Errc::cell_indices_not_ascending:
            return "cell indices are not strictly ascending (out of order or repeated)";
    }
    return "unknown KZG error";
}

std::string_view tau_g2_hex() noexcept {
    return kTauG2Hex;
}

Hash32 versioned_hash(BytesView commitment) noexcept {
    Hash32 h = crypto::sha256(commitment);
    h[0] = kVersionedHashVersion;
    return h;
}

Result<bool, Error> verify_kzg_proof(BytesView commitment, const Bytes32& z, const Bytes32& y,
                                     BytesView proof) noexcept {
    // The precompile's layout: versioned hash 0, z 32, y 64, commitment 96, proof 144.
    if (commitment.size() != 48) return input_error(Errc::bad_commitment, 96);
    if (proof.size() != 48) return input_error(Errc::bad_proof, 144);
    const auto zs = bls::Scalar::from_bytes(std::span<const std::uint8_t, 32>(z.data(), 32));
    if (!zs) return input_error(Errc::z_not_in_field, 32);
    const auto ys = bls::Scalar::from_bytes(std::span<const std::uint8_t, 32>(y.data(), 32));
    if (!ys) return input_error(Errc::y_not_in_field, 64);
    const auto c = bls::g1_from_bytes(commitment, bls::SubgroupCheck::kCheck);
    if (!c) return input_error(Errc::bad_commitment, 96);
    const auto pi = bls::g1_from_bytes(proof, bls::SubgroupCheck::kCheck);
    if (!pi) return input_error(Errc::bad_proof, 144);

    // e(C - [y]G1, -G2) · e(π, [τ]G2 - [z]G2) == 1
    const bls::G1Jacobian p_minus_y =
        bls::G1Jacobian::from_affine(*c).add_vartime(-bls::g1_mul_glv(bls::g1_generator(), *ys));
    const bls::G2Jacobian x_minus_z =
        tau_g2().add_vartime(-bls::g2_mul_gls(bls::g2_generator(), *zs));
    const bls::G2Affine neg_g2{bls::kG2Generator.x, -bls::kG2Generator.y, false};
    const std::array<std::pair<bls::G1Affine, bls::G2Affine>, 2> pairs{{
        {p_minus_y.to_affine_vartime(), neg_g2},
        {*pi, x_minus_z.to_affine_vartime()},
    }};
    return bls::pairing_product_is_one(pairs);
}

}  // namespace keel::kzg
