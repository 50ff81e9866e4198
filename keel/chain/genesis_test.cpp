// Genesis files: the four public networks from both shared sources (the networks' own files and
// Besu's), whose genesis hashes must be go-ethereum's published constants and whose state roots
// must be those computed independently in vectors/genesis/SOURCES.md; the hive rpc-compat chain,
// whose first block names the genesis hash as its parent; the header defaults of go-ethereum's
// ToBlock; and bad files, each refused with the field named.
#include "keel/chain/genesis.hpp"

#include <gtest/gtest.h>

#include <string>

#include "keel/common/hex.hpp"
#include "keel/eth/block.hpp"
#include "keel/rlp/decode.hpp"
#include "test/testutil/vectors.hpp"

namespace keel::chain {
namespace {

std::string read_text(const std::filesystem::path& p) {
    const Bytes b = testutil::read_file(p);
    return {reinterpret_cast<const char*>(b.data()), b.size()};
}

Hash32 hash_of(std::string_view hex_text) {
    return hex::decode_fixed<Hash32>(hex_text).value();
}

struct NetworkCase {
    Network network;
    const char* state_root;  // SOURCES.md, computed there by an independent implementation
};

constexpr NetworkCase kNetworks[] = {
    {Network::mainnet, "d7f8974fb5ac78d9ac099b9ad5018bedc2ce0a72dad1827a1709da30580f0544"},
    {Network::sepolia, "5eb6e371a698b8d68f665192350ffcecbbbf322916f4b51bd79bb6887da3f494"},
    {Network::holesky, "69d8c9d72f6fa4ad42d4702b433707212f90db395eb54dc20bc85de253788783"},
    {Network::hoodi, "da87d7f5f91c51508791bbcbd4aa5baf04917830b86985eeb9ad3d5bfb657576"},
};

TEST(Genesis, PublicNetworksFromBothSources) {
    const auto dir = testutil::vectors_dir("genesis");
    for (const NetworkCase& c : kNetworks) {
        const std::string name(network_name(c.network));
        for (const auto& file :
             {dir / "eth-clients" / name / "genesis.json", dir / "besu" / (name + ".json")}) {
            SCOPED_TRACE(file.string());
            auto g = parse_genesis(read_text(file));
            ASSERT_TRUE(g) << to_string(g.error());
            EXPECT_EQ(g->header.state_root, hash_of(c.state_root));
            EXPECT_EQ(g->header.hash(), network_genesis_hash(c.network));
            EXPECT_EQ(g->config.chain_id, Uint256(network_chain_id(c.network)));
        }
    }
}

TEST(Genesis, MainnetConfigFromBesu) {
    const auto file = testutil::vectors_dir("genesis") / "besu" / "mainnet.json";
    auto g = parse_genesis(read_text(file));
    ASSERT_TRUE(g) << to_string(g.error());
    const eth::ChainConfig& c = g->config;
    EXPECT_EQ(c.activation(eth::Fork::homestead), 1'150'000u);
    // Besu's file has no constantinopleBlock: it comes with Petersburg.
    EXPECT_EQ(c.activation(eth::Fork::constantinople), 7'280'000u);
    EXPECT_EQ(c.activation(eth::Fork::petersburg), 7'280'000u);
    EXPECT_EQ(c.activation(eth::Fork::london), 12'965'000u);
    EXPECT_EQ(c.activation(eth::Fork::osaka), 1'764'798'551u);
    EXPECT_EQ(c.dao_fork_block, 1'920'000u);
    // The Merge by total difficulty, read exactly (not through a double).
    EXPECT_FALSE(c.activation(eth::Fork::paris));
    ASSERT_TRUE(c.terminal_total_difficulty);
    EXPECT_EQ(*c.terminal_total_difficulty, Uint256::from_dec("58750000000000000000000").value());
    EXPECT_EQ(c.fork_at(15'537'393, 1'663'224'162), eth::Fork::london);
    // Bomb delays of the glacier forks, and BPO2's blob parameters.
    EXPECT_EQ(c.bomb_delay(eth::Fork::london, 15'050'000), 11'400'000u);
    EXPECT_EQ(c.bomb_delay(eth::Fork::berlin, 12'300'000), 9'000'000u);
    EXPECT_EQ(c.blob_params(eth::Fork::osaka, 1'767'747'671),
              (eth::BlobParams{14, 21, 11'684'671}));
    EXPECT_EQ(c.blob_params(eth::Fork::osaka, 1'767'747'670), (eth::BlobParams{10, 15, 8'346'193}));
    EXPECT_EQ(c.deposit_contract, eth::kMainnetDepositContract);
    EXPECT_EQ(g->alloc.accounts().size(), 8893u);
}

TEST(Genesis, HoodiStartsMergedWithCancunFields) {
    const auto file = testutil::vectors_dir("genesis") / "eth-clients" / "hoodi" / "genesis.json";
    auto g = parse_genesis(read_text(file));
    ASSERT_TRUE(g) << to_string(g.error());
    EXPECT_EQ(g->config.activation(eth::Fork::paris), 0u);
    EXPECT_EQ(g->header.base_fee_per_gas, Uint256(1'000'000'000));
    EXPECT_EQ(g->header.withdrawals_root, trie::kEmptyRoot);
    EXPECT_EQ(g->header.blob_gas_used, 0u);
    EXPECT_EQ(g->header.excess_blob_gas, 0u);
    EXPECT_EQ(g->header.parent_beacon_block_root, Hash32{});
    EXPECT_FALSE(g->header.requests_hash);  // Prague came later
}

TEST(Genesis, HiveChainFirstBlockNamesItsParent) {
    const auto dir = testutil::vectors_dir("rpc") / "tests";
    auto g = parse_genesis(read_text(dir / "genesis.json"));
    ASSERT_TRUE(g) << to_string(g.error());
    EXPECT_EQ(g->config.chain_id, Uint256(3503995874084926));
    EXPECT_EQ(g->config.activation(eth::Fork::tangerine_whistle), 3u);
    EXPECT_FALSE(g->config.activation(eth::Fork::paris));  // terminalTotalDifficulty 4732352
    const Bytes chain = testutil::read_file(dir / "chain.rlp");
    auto first = rlp::decode_header(chain);
    ASSERT_TRUE(first);
    auto block = eth::decode_block(first->encoded());
    ASSERT_TRUE(block);
    EXPECT_EQ(block->header.number, 1u);
    EXPECT_EQ(block->header.parent_hash, g->header.hash());
}

TEST(Genesis, HeaderDefaultsAndForkFields) {
    // London at 0, Cancun and Prague at time 0: a base fee of 1 gwei, every later field, and
    // EIP-7685's empty requests hash (sha256 of nothing).
    auto g = parse_genesis(R"({"config": {"chainId": 7, "londonBlock": 0, "shanghaiTime": 0,
        "cancunTime": 0, "pragueTime": 0}, "alloc": {}})");
    ASSERT_TRUE(g) << to_string(g.error());
    EXPECT_EQ(g->header.gas_limit, 5000u);
    EXPECT_EQ(g->header.difficulty, Uint256(131072));
    EXPECT_EQ(g->header.state_root, trie::kEmptyRoot);
    EXPECT_EQ(g->header.base_fee_per_gas, Uint256(1'000'000'000));
    EXPECT_EQ(g->header.requests_hash,
              hash_of("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"));
    // No terminal total difficulty: a chain with a time fork takes Paris with London.
    EXPECT_EQ(g->config.activation(eth::Fork::paris), 0u);

    // Keys match without regard to case; given values replace the defaults.
    auto h = parse_genesis(R"({"config": {"CHAINID": "0x7", "londonBlock": 5},
        "MIXHASH": "0x0000000000000000000000000000000000000000000000000000000000000001",
        "gaslimit": "30000000", "baseFeePerGas": "0x7", "nonce": "0x0102030405060708",
        "alloc": {"0x00000000000000000000000000000000000000aa": {"balance": "10",
                  "nonce": 3, "code": "0x6001", "storage": {"0x01": "0x02", "0x03": "0x00"}}}})");
    ASSERT_TRUE(h) << to_string(h.error());
    EXPECT_EQ(h->config.chain_id, Uint256(7));
    EXPECT_EQ(h->header.gas_limit, 30'000'000u);
    EXPECT_EQ(h->header.difficulty, Uint256(0));  // absent beside a non-zero mix hash
    EXPECT_FALSE(h->header.base_fee_per_gas);     // London comes at block 5
    EXPECT_EQ(h->header.nonce, (eth::Nonce8{{1, 2, 3, 4, 5, 6, 7, 8}}));
    const auto* acc = &h->alloc.accounts().begin()->second;
    EXPECT_EQ(acc->account.nonce, 3u);
    EXPECT_EQ(acc->account.balance, Uint256(10));
    EXPECT_EQ(acc->storage.size(), 1u);  // the zero value is no entry
}

TEST(Genesis, BadFilesNameTheField) {
    const auto refused = [](std::string_view text, std::string_view field) {
        auto g = parse_genesis(text);
        EXPECT_FALSE(g) << text;
        if (g) return;
        EXPECT_EQ(g.error().field, field) << to_string(g.error());
        EXPECT_FALSE(to_string(g.error()).empty());
        EXPECT_LT(to_string(g.error()).size(), 300u) << to_string(g.error());
    };
    refused("", "");
    refused("{\"config\": ", "");
    refused("[1, 2]", "");
    refused(R"({"alloc": {}})", "config");
    refused(R"({"config": {}})", "config.chainId");
    refused(R"({"config": {"chainId": -1}})", "config.chainId");
    refused(R"({"config": {"chainId": 1.5}})", "config.chainId");
    refused(R"({"config": {"chainId": "0xzz"}})", "config.chainId");
    refused(R"({"config": {"chainId": 1, "amsterdamTime": 0}})", "config.amsterdamTime");
    refused(R"({"config": {"chainId": 1, "eip155Block": 1, "eip158Block": 2}})",
            "config.eip155Block");
    refused(R"({"config": {"chainId": 1, "istanbulBlock": 10, "berlinBlock": 9}})",
            "config.berlinBlock");
    refused(R"({"config": {"chainId": 1, "shanghaiTime": 0}})", "config.shanghaiTime");
    refused(R"({"config": {"chainId": 1, "londonBlock": 0, "cancunTime": 5, "pragueTime": 4}})",
            "config.pragueTime");
    refused(R"({"config": {"chainId": 1, "londonBlock": 0, "cancunTime": 0, "osakaTime": 0,
        "bpo1Time": 0}})",
            "config.bpo1Time");
    refused(R"({"config": {"chainId": 1, "londonBlock": 0, "cancunTime": 0, "blobSchedule":
        {"cancun": {"target": 3, "max": 6, "baseFeeUpdateFraction": 0}}}})",
            "config.blobSchedule.cancun");
    refused(R"({"config": {"chainId": 1, "daoForkBlock": 5, "daoForkSupport": false}})",
            "config.daoForkSupport");
    refused(R"({"config": {"chainId": 1, "homesteadBlock": 18446744073709551616}})",
            "config.homesteadBlock");
    const std::string ok_config = R"({"config": {"chainId": 1}, )";
    refused(ok_config + R"("alloc": []})", "alloc");
    refused(ok_config + R"("alloc": {"0x01": {"balance": "1"}}})", "alloc.0x01");
    refused(ok_config + R"("alloc": {"0x00000000000000000000000000000000000000aa": {}}})",
            "alloc.0x00000000000000000000000000000000000000aa.balance");
    refused(ok_config + R"("alloc": {"00000000000000000000000000000000000000AA": {"balance": "1"},
        "0x00000000000000000000000000000000000000aa": {"balance": "2"}}})",
            "alloc.0x00000000000000000000000000000000000000aa");
    refused(ok_config + R"("alloc": {"0x00000000000000000000000000000000000000aa":
        {"balance": "1", "storage": {"0x01": "0x000000000000000000000000000000000000000000000000000000000000000002"}}}})",
            "alloc.0x00000000000000000000000000000000000000aa.storage.0x01");
    refused(ok_config + R"("alloc": {}, "extraData": "0xabc"})", "extraData");
    refused(ok_config + R"("alloc": {}, "mixHash": "0x01"})", "mixHash");
    // A 300-digit balance: refused, and the message stays one short line.
    refused(ok_config + R"("alloc": {"0x00000000000000000000000000000000000000aa": {"balance": )" +
                std::string(300, '9') + "}}}",
            "alloc.0x00000000000000000000000000000000000000aa.balance");
}

}  // namespace
}  // namespace keel::chain

namespace keel::chain {
namespace {

// The genesis files compiled into keel give each network's published genesis hash.
TEST(Genesis, CompiledInNetworksGiveTheirGenesisHashes) {
    for (Network n : {Network::mainnet, Network::sepolia, Network::holesky, Network::hoodi}) {
        const std::string_view text = network_genesis_json(n);
        ASSERT_GT(text.size(), 1000u) << network_name(n);
        auto g = parse_genesis(text);
        ASSERT_TRUE(g.has_value()) << network_name(n) << ": " << to_string(g.error());
        EXPECT_EQ(g->header.hash(), network_genesis_hash(n)) << network_name(n);
        EXPECT_EQ(static_cast<std::uint64_t>(g->config.chain_id[0]), network_chain_id(n));
    }
}

}  // namespace
}  // namespace keel::chain
