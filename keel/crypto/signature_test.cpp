#include "keel/crypto/signature.hpp"

#include <gtest/gtest.h>

#include <random>
#include <set>
#include <string>
#include <vector>

#include "keel/common/parallel.hpp"
#include "keel/crypto/secp256k1.hpp"
#include "keel/crypto/secp256r1.hpp"
#include "test/testutil/data.hpp"
#include "test/testutil/signature.hpp"

namespace keel::crypto {
namespace {

using testutil::random_secret;
using testutil::ScopedSignatureAlgorithm;

// `n` signed inputs on `scheme`, with the addresses that signed them.
struct Signed {
    std::vector<RecoverInput> inputs;
    std::vector<Address> signers;
};

Signed make_signed(const SignatureScheme& scheme, std::size_t n, std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    Signed out;
    for (std::size_t i = 0; i < n; ++i) {
        const Bytes32 secret = random_secret(rng, scheme.order);
        const Hash32 msg = Uint256::from_limbs(rng(), rng(), rng(), rng()).to_bytes32();
        auto sig = scheme.sign_recoverable(msg, secret);
        auto key = scheme.public_key_of(secret);
        if (!sig || !key) throw std::runtime_error("signing failed");
        out.inputs.push_back({msg, sig->r, sig->s, sig->recovery_id});
        out.signers.push_back(public_key_to_address(*key));
    }
    return out;
}

TEST(SignatureAlgorithm, ParsesNames) {
    EXPECT_EQ(parse_signature_algorithm("secp256k1"), SignatureAlgorithm::secp256k1);
    EXPECT_EQ(parse_signature_algorithm("secp256r1"), SignatureAlgorithm::secp256r1);
    EXPECT_EQ(parse_signature_algorithm("SECP256K1"), SignatureAlgorithm::secp256k1);
    EXPECT_EQ(parse_signature_algorithm("SECP256R1"), SignatureAlgorithm::secp256r1);
    EXPECT_EQ(parse_signature_algorithm("Secp256R1"), SignatureAlgorithm::secp256r1);
    using namespace std::string_view_literals;
    for (std::string_view bad : {""sv, "secp256k"sv, "secp256k1 "sv, " secp256k1"sv, "secp256r2"sv,
                                 "p256"sv, "ed25519"sv, "secp256k1\0"sv})
        EXPECT_FALSE(parse_signature_algorithm(bad).has_value()) << '"' << bad << '"';
    for (auto a : {SignatureAlgorithm::secp256k1, SignatureAlgorithm::secp256r1}) {
        EXPECT_EQ(parse_signature_algorithm(signature_algorithm_name(a)), a);
        EXPECT_EQ(signature_scheme(a).algorithm, a);
        EXPECT_EQ(signature_scheme(a).name, signature_algorithm_name(a));
    }
}

TEST(SignatureAlgorithm, SchemesCarryTheirCurves) {
    const auto& k1 = signature_scheme(SignatureAlgorithm::secp256k1);
    const auto& r1 = signature_scheme(SignatureAlgorithm::secp256r1);
    EXPECT_EQ(k1.order, secp256k1::kOrder);
    EXPECT_EQ(k1.half_order, secp256k1::kHalfOrder);
    EXPECT_EQ(r1.order, secp256r1::kOrder);
    EXPECT_EQ(r1.half_order, secp256r1::kHalfOrder);
    EXPECT_EQ(k1.recover_address, &secp256k1::recover_address);
    EXPECT_EQ(r1.recover_address, &secp256r1::recover_address);
}

TEST(SignatureAlgorithm, DefaultsToSecp256k1) {
    // Every test that switches the curve restores it, so the default is visible here.
    EXPECT_EQ(signature_algorithm(), SignatureAlgorithm::secp256k1);
    EXPECT_EQ(&signature_scheme(), &signature_scheme(SignatureAlgorithm::secp256k1));
}

TEST(SignatureAlgorithm, DescribesEveryError) {
    std::set<std::string_view> seen;
    for (auto e : {SigError::invalid_r, SigError::invalid_s, SigError::invalid_recovery_id,
                   SigError::no_public_key, SigError::invalid_secret_key}) {
        EXPECT_FALSE(describe(e).empty());
        seen.insert(describe(e));
    }
    EXPECT_EQ(seen.size(), 5u);
}

TEST(SignatureAlgorithm, PublicKeyToAddress) {
    // secret 1: the public key is G; its address is well known.
    auto key = secp256k1::public_key_of(Uint256(1).to_bytes32());
    ASSERT_TRUE(key.has_value());
    EXPECT_EQ(public_key_to_address(*key),
              *Address::from(BytesView(std::array<std::uint8_t, 20>{
                  0x7E, 0x5F, 0x45, 0x52, 0x09, 0x1A, 0x69, 0x12, 0x5d, 0x5D,
                  0xfC, 0xb7, 0xb8, 0xC2, 0x65, 0x90, 0x29, 0x39, 0x5B, 0xdf})));
}

TEST(SignatureAlgorithm, DispatchFollowsTheProcessWideChoice) {
    const Signed k1 = make_signed(signature_scheme(SignatureAlgorithm::secp256k1), 4, 11);
    const Signed r1 = make_signed(signature_scheme(SignatureAlgorithm::secp256r1), 4, 12);
    auto recover = [](const RecoverInput& x) {
        return recover_address(x.msg, x.r, x.s, x.recovery_id);
    };
    for (std::size_t i = 0; i < 4; ++i) {
        EXPECT_EQ(recover(k1.inputs[i]).value(), k1.signers[i]);
        auto wrong = recover(r1.inputs[i]);  // an r1 signature read on k1
        EXPECT_TRUE(!wrong || *wrong != r1.signers[i]);
    }
    {
        ScopedSignatureAlgorithm use_r1(SignatureAlgorithm::secp256r1);
        EXPECT_EQ(signature_algorithm(), SignatureAlgorithm::secp256r1);
        EXPECT_EQ(&signature_scheme(), &signature_scheme(SignatureAlgorithm::secp256r1));
        for (std::size_t i = 0; i < 4; ++i) {
            EXPECT_EQ(recover(r1.inputs[i]).value(), r1.signers[i]);
            const auto& x = r1.inputs[i];
            EXPECT_EQ(recover_public_key(x.msg, x.r, x.s, x.recovery_id).value(),
                      secp256r1::recover_public_key(x.msg, x.r, x.s, x.recovery_id).value());
            auto wrong = recover(k1.inputs[i]);
            EXPECT_TRUE(!wrong || *wrong != k1.signers[i]);
        }
    }
    EXPECT_EQ(signature_algorithm(), SignatureAlgorithm::secp256k1);
    EXPECT_EQ(recover(k1.inputs[0]).value(), k1.signers[0]);
}

TEST(SignatureAlgorithm, LowSFollowsTheProcessWideChoice) {
    EXPECT_TRUE(is_low_s(1));
    EXPECT_TRUE(is_low_s(secp256k1::kHalfOrder));
    EXPECT_FALSE(is_low_s(secp256k1::kHalfOrder + 1));
    // Between the two curves' bounds: low on secp256k1 (larger n), high on P-256.
    const Uint256 between = secp256r1::kHalfOrder + 1;
    ASSERT_LT(between, secp256k1::kHalfOrder);
    EXPECT_TRUE(is_low_s(between));
    {
        ScopedSignatureAlgorithm use_r1(SignatureAlgorithm::secp256r1);
        EXPECT_FALSE(is_low_s(between));
        EXPECT_TRUE(is_low_s(secp256r1::kHalfOrder));
        EXPECT_FALSE(is_low_s(secp256r1::kHalfOrder + 1));
    }
    EXPECT_TRUE(is_low_s(between));
}

// Batch results equal one-by-one results, position by position, including failures.
void expect_batch_matches(const std::vector<RecoverInput>& in) {
    std::vector<Result<Address, SigError>> batch(in.size(), unexpected(SigError::invalid_r));
    recover_addresses(in, batch);
    for (std::size_t i = 0; i < in.size(); ++i) {
        const auto one = recover_address(in[i].msg, in[i].r, in[i].s, in[i].recovery_id);
        ASSERT_EQ(batch[i].has_value(), one.has_value()) << i;
        if (one) {
            EXPECT_EQ(*batch[i], *one) << i;
        } else {
            EXPECT_EQ(batch[i].error(), one.error()) << i;
        }
    }
}

TEST(RecoverAddresses, MatchesOneByOneOnEveryThreadCount) {
    Signed k1 = make_signed(signature_scheme(SignatureAlgorithm::secp256k1), 301, 3);
    // Spoil a few, at chunk edges and in the middle, with each kind of error.
    k1.inputs[0].r = 0;
    k1.inputs[7].s = secp256k1::kOrder;
    k1.inputs[8].recovery_id = 4;
    k1.inputs[150].r = 5;        // no point with x = 5
    k1.inputs[300].msg[0] ^= 1;  // recovers, to another address
    for (std::size_t threads : {1, 2, 4}) {
        parallel::ThreadLimit limit(threads);
        expect_batch_matches(k1.inputs);
    }
    std::vector<Result<Address, SigError>> out(k1.inputs.size());
    recover_addresses(k1.inputs, out);
    EXPECT_EQ(out[0].error(), SigError::invalid_r);
    EXPECT_EQ(out[7].error(), SigError::invalid_s);
    EXPECT_EQ(out[8].error(), SigError::invalid_recovery_id);
    EXPECT_EQ(out[150].error(), SigError::no_public_key);
    ASSERT_TRUE(out[300].has_value());
    EXPECT_NE(*out[300], k1.signers[300]);
    std::size_t good = 0;
    for (std::size_t i = 0; i < out.size(); ++i)
        if (out[i] && *out[i] == k1.signers[i]) ++good;
    EXPECT_EQ(good, 296u);
}

TEST(RecoverAddresses, SmallAndEmptyBatches) {
    const Signed k1 = make_signed(signature_scheme(SignatureAlgorithm::secp256k1), 3, 5);
    std::vector<Result<Address, SigError>> none;
    recover_addresses({}, none);
    for (std::size_t n : {1, 2, 3}) {
        std::vector<Result<Address, SigError>> out(n);
        recover_addresses(std::span(k1.inputs).first(n), out);
        for (std::size_t i = 0; i < n; ++i) EXPECT_EQ(out[i].value(), k1.signers[i]);
    }
}

TEST(RecoverAddresses, UsesTheProcessWideCurve) {
    const Signed r1 = make_signed(signature_scheme(SignatureAlgorithm::secp256r1), 40, 9);
    ScopedSignatureAlgorithm use_r1(SignatureAlgorithm::secp256r1);
    parallel::ThreadLimit limit(2);
    std::vector<Result<Address, SigError>> out(r1.inputs.size());
    recover_addresses(r1.inputs, out);
    for (std::size_t i = 0; i < out.size(); ++i) {
        ASSERT_TRUE(out[i].has_value()) << i;
        EXPECT_EQ(*out[i], r1.signers[i]) << i;
    }
}

}  // namespace
}  // namespace keel::crypto
