// Batch verification: the bls12-381-tests batch_verify vectors (including the forged set whose
// signatures cancel out, which only random scalars catch), batches built here with shared and
// distinct messages, a bad set found by find_invalid_set, and the fixed-scalar entry point.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <vector>

#include "keel/bls/batch_verify.hpp"
#include "keel/common/hex.hpp"
#include "test/testutil/vectors.hpp"

namespace keel::bls {
namespace {

namespace fs = std::filesystem;

Bytes vector_bytes(const nlohmann::json& v) {
    return hex::decode(v.get<std::string>()).value_or(Bytes{});
}

TEST(BlsBatchVerify, Vectors) {
    const fs::path dir =
        testutil::vectors_dir("bls") / "ethereum-bls12-381-tests" / "v0.1.2" / "batch_verify";
    int n = 0;
    for (const auto& e : fs::directory_iterator(dir)) {
        std::ifstream in(e.path());
        const auto j = nlohmann::json::parse(in);
        const auto& input = j["input"];
        std::vector<Bytes> msgs;
        for (const auto& m : input["messages"]) msgs.push_back(vector_bytes(m));
        std::vector<SignatureSet> sets;
        bool decoded = true;
        for (std::size_t i = 0; i < msgs.size(); ++i) {
            auto pk = PublicKey::from_bytes(vector_bytes(input["pubkeys"][i]));
            auto sig = Signature::from_bytes(vector_bytes(input["signatures"][i]));
            if (!pk || !sig) {
                decoded = false;
                break;
            }
            sets.push_back(SignatureSet{*pk, msgs[i], *sig});
        }
        bool got = false;
        if (decoded) {
            auto r = batch_verify(sets);
            ASSERT_TRUE(r.has_value());
            got = *r;
        }
        EXPECT_EQ(got, j["output"].get<bool>()) << e.path();
        ++n;
    }
    EXPECT_EQ(n, 4);
}

struct Signer {
    SecretKey sk;
    PublicKey pk;
};

std::vector<Signer> signers(std::size_t n) {
    std::vector<Signer> out;
    for (std::size_t i = 0; i < n; ++i) {
        Bytes ikm(32, static_cast<std::uint8_t>(i + 1));
        auto sk = SecretKey::key_gen(ikm);
        PublicKey pk = sk->public_key();
        out.push_back(Signer{std::move(*sk), pk});
    }
    return out;
}

TEST(BlsBatchVerify, SharedAndDistinctMessagesAndABadSet) {
    const auto keys = signers(12);
    std::vector<Bytes> msgs;
    for (std::size_t i = 0; i < keys.size(); ++i) {
        msgs.push_back(Bytes(32, static_cast<std::uint8_t>(i % 4)));  // four messages, shared
    }
    std::vector<SignatureSet> sets;
    for (std::size_t i = 0; i < keys.size(); ++i) {
        sets.push_back(SignatureSet{keys[i].pk, msgs[i], sign(keys[i].sk, msgs[i])});
    }
    EXPECT_TRUE(batch_verify(sets).value());
    EXPECT_EQ(find_invalid_set(sets), std::nullopt);

    // Set 7 signed by the wrong key.
    auto bad = sets;
    bad[7].signature = sign(keys[3].sk, msgs[7]);
    EXPECT_FALSE(batch_verify(bad).value());
    EXPECT_EQ(find_invalid_set(bad), std::optional<std::size_t>(7));

    // Two signatures swapped between sets of different messages: their sum is unchanged, so
    // only the per-set scalars tell.
    auto swapped = sets;
    std::swap(swapped[1].signature, swapped[2].signature);
    EXPECT_FALSE(batch_verify(swapped).value());
    const std::vector<std::uint64_t> ones(sets.size(), 1);
    EXPECT_TRUE(batch_verify_with_scalars(swapped, ones));  // why the scalars are needed

    EXPECT_FALSE(batch_verify(std::span<const SignatureSet>()).value());
}

}  // namespace
}  // namespace keel::bls
