// Besu's trace_* specs (../shared/vectors/evm/traces/besu_rpc/trace/specs) on their chain: the
// chain rebuilt by keel from trace/chain-data/{genesis,blocks}.json (devnet/scripted_chain.hpp),
// then each spec's request answered from the store and compared with Besu's response.
//
// The rebuilt chain has Besu's transactions (RFC 6979 signatures, v = 27/28 as Besu's chain has
// them: the transaction hashes are Besu's, checked first) but not its blocks: Besu's blocks.bin was sealed by a geth dev node,
// at times and with seals keel cannot reproduce, so keel's block hashes differ. Besu's block
// hashes in the responses are mapped to keel's by block number before comparing.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "keel/blockchain/init.hpp"
#include "keel/chain/genesis.hpp"
#include "keel/common/hex.hpp"
#include "keel/devnet/scripted_chain.hpp"
#include "test/testutil/temp_dir.hpp"

namespace keel {
namespace {

using Json = nlohmann::json;
namespace fs = std::filesystem;

const fs::path kBesu = fs::path(KEEL_VECTORS_DIR) / "evm/traces/besu_rpc/trace";

std::string text_of(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

struct BesuChain {
    testutil::TempDir dir{"besu-trace"};
    std::optional<store::ChainStore> store;
    chain::Genesis genesis;
    devnet::ScriptedChain chain;
};

void build(BesuChain& b) {
    const std::string genesis_json = text_of(kBesu / "chain-data/genesis.json");
    auto g = chain::parse_genesis(genesis_json);
    ASSERT_TRUE(g.has_value()) << chain::to_string(g.error());
    b.genesis = std::move(*g);
    auto s = store::ChainStore::create(b.dir.path() / "db");
    ASSERT_TRUE(s.has_value()) << s.error().message;
    b.store.emplace(std::move(*s));
    auto init = blockchain::init_store(*b.store, b.genesis, genesis_json);
    ASSERT_TRUE(init.has_value()) << init.error();
    auto c = devnet::build_scripted_chain(*b.store, b.genesis.config,
                                          text_of(kBesu / "chain-data/blocks.json"),
                                          devnet::LegacyV::pre_eip155);
    ASSERT_TRUE(c.has_value()) << c.error();
    b.chain = std::move(*c);
}

// Every spec file under trace/specs: {request, response} or lists of them.
std::vector<std::pair<fs::path, Json>> specs() {
    std::vector<std::pair<fs::path, Json>> out;
    for (const auto& e : fs::recursive_directory_iterator(kBesu / "specs")) {
        if (e.path().extension() != ".json") continue;
        out.emplace_back(e.path(), Json::parse(text_of(e.path())));
    }
    std::sort(out.begin(), out.end());
    return out;
}

// The transaction hashes Besu's responses name, by block number and position.
void collect_tx_hashes(const Json& j, std::map<std::pair<std::uint64_t, std::uint64_t>, std::string>& into) {
    if (j.is_object()) {
        if (j.contains("transactionHash") && j["transactionHash"].is_string() &&
            j.contains("blockNumber") && j.contains("transactionPosition") &&
            j["transactionPosition"].is_number()) {
            into[{j["blockNumber"].get<std::uint64_t>(), j["transactionPosition"].get<std::uint64_t>()}] =
                j["transactionHash"].get<std::string>();
        }
        for (const auto& [k, v] : j.items()) collect_tx_hashes(v, into);
    } else if (j.is_array()) {
        for (const Json& v : j) collect_tx_hashes(v, into);
    }
}

TEST(BesuTraceChain, RebuiltWithBesusTransactions) {
    BesuChain b;
    build(b);
    ASSERT_EQ(b.chain.block_hashes.size(), 33u);
    std::map<std::pair<std::uint64_t, std::uint64_t>, std::string> besu;
    for (const auto& [path, spec] : specs()) collect_tx_hashes(spec, besu);
    ASSERT_GT(besu.size(), 20u);
    for (const auto& [where, hash] : besu) {
        const auto [number, position] = where;
        ASSERT_GE(number, 1u);
        ASSERT_LE(number, b.chain.tx_hashes.size());
        ASSERT_LT(position, b.chain.tx_hashes[number - 1].size()) << "block " << number;
        EXPECT_EQ(hex::encode_prefixed(b.chain.tx_hashes[number - 1][position].view()), hash)
            << "block " << number << " transaction " << position;
    }
}

}  // namespace
}  // namespace keel
