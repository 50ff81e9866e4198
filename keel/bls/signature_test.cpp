// The Ethereum BLS vectors (../shared/vectors/bls, see SOURCES.md there): every file of
// ethereum/bls12-381-tests v0.1.2 sign, verify, aggregate, aggregate_verify,
// fast_aggregate_verify and hash_to_G2, and the consensus-spec-tests eth_aggregate_pubkeys and
// eth_fast_aggregate_verify cases; plus round trips of keys and signatures made here.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "keel/bls/signature.hpp"
#include "keel/common/hex.hpp"
#include "test/testutil/vectors.hpp"

namespace keel::bls {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

fs::path suite(const std::string& name) {
    return testutil::vectors_dir("bls") / "ethereum-bls12-381-tests" / "v0.1.2" / name;
}

std::vector<fs::path> files_in(const fs::path& dir) {
    std::vector<fs::path> out;
    for (const auto& e : fs::directory_iterator(dir)) out.push_back(e.path());
    std::sort(out.begin(), out.end());
    return out;
}

json load_json(const fs::path& p) {
    std::ifstream in(p);
    return json::parse(in);
}

/// The consensus-spec-tests data.yaml files use a small subset of YAML: `input:` holding a
/// map of scalars and block lists (`- '0x…'`) or a block list itself, `[]`, and an `output:`
/// scalar (quoted string, true, false, null). This reads exactly that subset.
json load_yaml(const fs::path& p) {
    std::ifstream in(p);
    std::string line;
    json root = json::object();
    json* list = nullptr;  // the list that `- ` items go to
    auto scalar = [](std::string v) -> json {
        if (v == "null") return nullptr;
        if (v == "true") return true;
        if (v == "false") return false;
        if (v == "[]") return json::array();
        if (v.size() >= 2 && v.front() == '\'') return v.substr(1, v.size() - 2);
        return v;
    };
    std::string top;
    while (std::getline(in, line)) {
        if (line.empty()) continue;
        const std::size_t indent = line.find_first_not_of(' ');
        const std::string body = line.substr(indent);
        if (body.starts_with("- ")) {
            list->push_back(scalar(body.substr(2)));
            continue;
        }
        const auto colon = body.find(':');
        const std::string key = body.substr(0, colon);
        std::string value = colon + 1 < body.size() ? body.substr(colon + 2) : "";
        json& parent = indent == 0 ? root : root[top];
        if (indent == 0) top = key;
        // `input:` was taken for a block list; an indented key under it makes it a map.
        if (indent != 0 && parent.is_array() && parent.empty()) parent = json::object();
        if (value.empty()) {
            parent[key] = json::array();
            list = &parent[key];
        } else {
            parent[key] = scalar(value);
        }
    }
    return root;
}

Bytes bytes_of(const json& v) {
    std::string s = v.get<std::string>();
    auto b = hex::decode(s);
    EXPECT_TRUE(b.has_value()) << s;
    return b.value_or(Bytes{});
}

/// Decodes keys; nullopt when one is refused (the vectors then expect false / null).
std::optional<std::vector<PublicKey>> keys_of(const json& list) {
    std::vector<PublicKey> out;
    for (const auto& k : list) {
        auto pk = PublicKey::from_bytes(bytes_of(k));
        if (!pk) return std::nullopt;
        out.push_back(*pk);
    }
    return out;
}

TEST(BlsSignature, SignVectors) {
    int n = 0;
    for (const auto& f : files_in(suite("sign"))) {
        const json j = load_json(f);
        const auto sk = SecretKey::from_bytes(bytes_of(j["input"]["privkey"]));
        const Bytes msg = bytes_of(j["input"]["message"]);
        if (j["output"].is_null()) {
            EXPECT_FALSE(sk.has_value()) << f;
        } else {
            ASSERT_TRUE(sk.has_value()) << f;
            const Signature sig = sign(*sk, msg);
            EXPECT_EQ(hex::encode_prefixed(sig.to_bytes()), j["output"].get<std::string>()) << f;
            EXPECT_TRUE(verify(sk->public_key(), msg, sig)) << f;
        }
        ++n;
    }
    EXPECT_EQ(n, 10);
}

TEST(BlsSignature, VerifyVectors) {
    int n = 0;
    for (const auto& f : files_in(suite("verify"))) {
        const json j = load_json(f);
        const auto pk = PublicKey::from_bytes(bytes_of(j["input"]["pubkey"]));
        const auto sig = Signature::from_bytes(bytes_of(j["input"]["signature"]));
        const bool got = pk && sig && verify(*pk, bytes_of(j["input"]["message"]), *sig);
        EXPECT_EQ(got, j["output"].get<bool>()) << f;
        ++n;
    }
    EXPECT_EQ(n, 29);
}

TEST(BlsSignature, AggregateVectors) {
    int n = 0;
    for (const auto& f : files_in(suite("aggregate"))) {
        const json j = load_json(f);
        std::vector<Signature> sigs;
        bool ok = true;
        for (const auto& s : j["input"]) {
            auto sig = Signature::from_bytes(bytes_of(s));
            if (!sig) {
                ok = false;
                break;
            }
            sigs.push_back(*sig);
        }
        const auto agg = ok ? aggregate(sigs) : std::nullopt;
        if (j["output"].is_null()) {
            EXPECT_FALSE(agg.has_value()) << f;
        } else {
            ASSERT_TRUE(agg.has_value()) << f;
            EXPECT_EQ(hex::encode_prefixed(agg->to_bytes()), j["output"].get<std::string>()) << f;
        }
        ++n;
    }
    EXPECT_EQ(n, 6);
}

TEST(BlsSignature, AggregateVerifyVectors) {
    int n = 0;
    for (const auto& f : files_in(suite("aggregate_verify"))) {
        const json j = load_json(f);
        const auto pks = keys_of(j["input"]["pubkeys"]);
        const auto sig = Signature::from_bytes(bytes_of(j["input"]["signature"]));
        std::vector<Bytes> msgs;
        for (const auto& m : j["input"]["messages"]) msgs.push_back(bytes_of(m));
        std::vector<BytesView> views(msgs.begin(), msgs.end());
        const bool got = pks && sig && aggregate_verify(*pks, views, *sig);
        EXPECT_EQ(got, j["output"].get<bool>()) << f;
        ++n;
    }
    EXPECT_EQ(n, 5);
}

TEST(BlsSignature, FastAggregateVerifyVectors) {
    int n = 0;
    for (const auto& f : files_in(suite("fast_aggregate_verify"))) {
        const json j = load_json(f);
        const auto pks = keys_of(j["input"]["pubkeys"]);
        const auto sig = Signature::from_bytes(bytes_of(j["input"]["signature"]));
        const bool got =
            pks && sig && fast_aggregate_verify(*pks, bytes_of(j["input"]["message"]), *sig);
        EXPECT_EQ(got, j["output"].get<bool>()) << f;
        ++n;
    }
    EXPECT_EQ(n, 12);
}

TEST(BlsSignature, HashToG2Vectors) {
    int n = 0;
    for (const auto& f : files_in(suite("hash_to_G2"))) {
        const json j = load_json(f);
        const std::string msg = j["input"]["msg"];
        // These use the RFC's test DST, not Ethereum's (SOURCES.md).
        const G2Affine p =
            hash_to_g2(BytesView(reinterpret_cast<const std::uint8_t*>(msg.data()), msg.size()),
                       "QUUX-V01-CS02-with-BLS12381G2_XMD:SHA-256_SSWU_RO_")
                .to_affine();
        auto fp2_hex = [](const Fp2& v) {
            std::array<std::uint8_t, 48> a{}, b{};
            v.c0.to_bytes(a);
            v.c1.to_bytes(b);
            return hex::encode_prefixed(a) + "," + hex::encode_prefixed(b);
        };
        EXPECT_EQ(fp2_hex(p.x), j["output"]["x"].get<std::string>()) << f;
        EXPECT_EQ(fp2_hex(p.y), j["output"]["y"].get<std::string>()) << f;
        ++n;
    }
    EXPECT_EQ(n, 4);
}

fs::path consensus(const std::string& name) {
    return testutil::vectors_dir("bls") / "consensus-spec-tests" / "tests" / "general" / "altair" /
           "bls" / name / "bls";
}

TEST(BlsSignature, EthAggregatePubkeysVectors) {
    int n = 0;
    for (const auto& dir : files_in(consensus("eth_aggregate_pubkeys"))) {
        const json j = load_yaml(dir / "data.yaml");
        const auto pks = keys_of(j["input"]);
        const auto agg = pks ? eth_aggregate_pubkeys(*pks) : std::nullopt;
        if (j["output"].is_null()) {
            EXPECT_FALSE(agg.has_value()) << dir;
        } else {
            ASSERT_TRUE(agg.has_value()) << dir;
            EXPECT_EQ(hex::encode_prefixed(g1_compress(*agg)), j["output"].get<std::string>())
                << dir;
        }
        ++n;
    }
    EXPECT_EQ(n, 8);
}

TEST(BlsSignature, EthFastAggregateVerifyVectors) {
    int n = 0;
    for (const auto& dir : files_in(consensus("eth_fast_aggregate_verify"))) {
        const json j = load_yaml(dir / "data.yaml");
        const auto pks = keys_of(j["input"]["pubkeys"]);
        const auto sig = Signature::from_bytes(bytes_of(j["input"]["signature"]));
        const bool got =
            pks && sig && eth_fast_aggregate_verify(*pks, bytes_of(j["input"]["message"]), *sig);
        EXPECT_EQ(got, j["output"].get<bool>()) << dir;
        ++n;
    }
    EXPECT_EQ(n, 12);
}

TEST(BlsSignature, KeysAndSignaturesRoundTrip) {
    const auto sk = SecretKey::key_gen(Bytes(32, 7));
    ASSERT_TRUE(sk.has_value());
    const PublicKey pk = sk->public_key();
    auto pk2 = PublicKey::from_bytes(pk.to_bytes());
    ASSERT_TRUE(pk2.has_value());
    EXPECT_EQ(*pk2, pk);
    const Bytes msg{1, 2, 3};
    const Signature sig = sign(*sk, msg);
    auto sig2 = Signature::from_bytes(sig.to_bytes());
    ASSERT_TRUE(sig2.has_value());
    EXPECT_TRUE(verify(pk, msg, *sig2));
    EXPECT_FALSE(verify(pk, Bytes{1, 2, 4}, *sig2));
    EXPECT_FALSE(SecretKey::from_bytes(Bytes(32, 0)).has_value());
}

}  // namespace
}  // namespace keel::bls
