#include "keel/blockchain/chain.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "keel/blockchain/executor.hpp"
#include "keel/blockchain/init.hpp"
#include "keel/chain/genesis.hpp"
#include "keel/rlp/decode.hpp"
#include "keel/store/state_store.hpp"
#include "keel/store/state_verify.hpp"
#include "test/testutil/temp_dir.hpp"

namespace keel::blockchain {
namespace {

const std::filesystem::path kHive = std::filesystem::path(KEEL_VECTORS_DIR) / "rpc" / "tests";

std::string slurp(const std::filesystem::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

std::vector<eth::Block> hive_blocks() {
    const std::string file = slurp(kHive / "chain.rlp");
    std::vector<eth::Block> out;
    BytesView rest(reinterpret_cast<const std::uint8_t*>(file.data()), file.size());
    while (!rest.empty()) {
        auto item = rlp::detail::parse_item(rest.data(), rest.size(), 0);
        if (!item) break;
        auto b = eth::decode_block(rest.first(item->size()));
        if (b) out.push_back(std::move(*b));
        rest = rest.subspan(item->size());
    }
    return out;
}

// The hive chain inserted block by block, then the head moved back and forth with set_head (as
// forkchoiceUpdated does): the state follows, unwound from its history and executed again, and
// the store verifies at every stop.
TEST(Chain, SetHeadUnwindsAndReexecutes) {
    testutil::TempDir dir("chain");
    auto store = store::ChainStore::create(dir.path() / "db");
    ASSERT_TRUE(store.has_value());
    const std::string json = slurp(kHive / "genesis.json");
    auto genesis = chain::parse_genesis(json);
    ASSERT_TRUE(genesis.has_value());
    ASSERT_TRUE(init_store(*store, *genesis, json).has_value());
    auto c = Chain::open(*store, genesis->config);
    ASSERT_TRUE(c.has_value()) << c.error();

    const std::vector<eth::Block> blocks = hive_blocks();
    ASSERT_GT(blocks.size(), 50u);
    for (const eth::Block& b : blocks) {
        auto r = c->insert(b);
        ASSERT_TRUE(r.has_value()) << "block " << b.header.number << ": " << r.error().message;
        EXPECT_EQ(*r, Placed::canonical);
    }
    EXPECT_EQ(c->head().hash, blocks.back().header.hash());
    auto again = c->insert(blocks[10]);
    ASSERT_TRUE(again.has_value());
    EXPECT_EQ(*again, Placed::known);

    auto expect_head = [&](const eth::Block& b) {
        EXPECT_EQ(c->head().number, b.header.number);
        auto head = store::state_head(*store);
        ASSERT_TRUE(head.has_value() && head->has_value());
        EXPECT_EQ((*head)->hash, b.header.hash());
        EXPECT_EQ((*head)->state_root, b.header.state_root);
        auto v = store::verify_state(*store);
        ASSERT_TRUE(v.has_value()) << v.error().message;
        auto chain_head = store->head();
        ASSERT_TRUE(chain_head.has_value() && chain_head->has_value());
        EXPECT_EQ(**chain_head, b.header.number);
    };
    const eth::Block& mid = blocks[19];
    ASSERT_TRUE(c->set_head(mid.header.hash()).has_value());
    expect_head(mid);
    // The blocks above stay stored (as side blocks) and come back.
    ASSERT_TRUE(c->set_head(blocks.back().header.hash()).has_value());
    expect_head(blocks.back());
    EXPECT_GT(c->reorg_blocks(), 2 * (blocks.size() - 20) - 1);

    auto unknown = c->set_head(Hash32{});
    ASSERT_FALSE(unknown.has_value());
    EXPECT_NE(unknown.error().message.find("is not stored"), std::string::npos);

    // A block whose parent is unknown is a rule broken, with its code.
    eth::Block orphan = blocks[5];
    orphan.header.parent_hash[0] ^= 1;
    auto r = c->insert(orphan);
    ASSERT_FALSE(r.has_value());
    ASSERT_TRUE(r.error().block.has_value());
    EXPECT_EQ(r.error().block->code, chain::Errc::unknown_parent);
}

}  // namespace
}  // namespace keel::blockchain
