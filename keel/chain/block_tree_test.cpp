// The in-memory block tree: side chains and the total-difficulty fork choice, the ommer rules
// against the 7 ancestors, the DAO fork, and the Merge at a terminal total difficulty. Blocks are
// empty proof-of-work blocks made here (difficulty from difficulty.hpp, state root with the
// rewards paid); the fixtures' versions run through `keel evm blocktest` (CTest
// evm_blockchain_legacy).
#include "keel/chain/block_tree.hpp"

#include <gtest/gtest.h>

#include "keel/chain/dao.hpp"
#include "keel/chain/difficulty.hpp"
#include "keel/chain/execute.hpp"
#include "keel/chain/header_rules.hpp"
#include "keel/trie/root.hpp"

namespace keel::chain {
namespace {

using eth::Fork;

Address addr(std::uint8_t b) {
    Address a{};
    a[19] = b;
    return a;
}

struct Chain {
    eth::ChainConfig config;
    eth::Header genesis;
    std::shared_ptr<const state::MemoryState> pre;

    explicit Chain(eth::ChainConfig c) : config(std::move(c)) {
        auto s = std::make_shared<state::MemoryState>();
        s->put(addr(1), 0, Uint256(1000), {}, {});
        genesis.difficulty = Uint256(0x20000);
        genesis.gas_limit = 3'141'592;
        genesis.timestamp = 1000;
        genesis.ommers_hash = eth::kEmptyOmmersHash;
        genesis.transactions_root = trie::kEmptyRoot;
        genesis.receipts_root = trie::kEmptyRoot;
        genesis.state_root = s->state_root();
        pre = std::move(s);
    }
};

/// An empty block on `parent` (in `tree`), `elapsed` seconds later, paying `coinbase`, with
/// these ommers; its difficulty and state root are right unless the caller changes them.
eth::Block child(const BlockTree& tree, const Hash32& parent_hash, std::uint64_t elapsed,
                 std::uint8_t coinbase, std::vector<eth::Header> ommers = {}) {
    const BlockTree::Node& parent = *tree.find(parent_hash);
    const eth::ChainConfig& config = tree.config();
    eth::Block b;
    eth::Header& h = b.header;
    h.parent_hash = parent_hash;
    h.number = parent.header.number + 1;
    h.timestamp = parent.header.timestamp + elapsed;
    h.gas_limit = parent.header.gas_limit;
    h.beneficiary = addr(coinbase);
    h.transactions_root = trie::kEmptyRoot;
    h.receipts_root = trie::kEmptyRoot;
    h.ommers_hash = eth::ommers_hash(ommers);
    const Fork fork = config.fork_at(h.number, h.timestamp);
    h.difficulty = expected_difficulty(parent.header, h.number, h.timestamp, fork,
                                       config.bomb_delay(fork, h.number));
    if (config.dao_fork_block && h.number >= *config.dao_fork_block &&
        h.number < *config.dao_fork_block + kDaoExtraDataBlocks)
        h.extra_data.assign(kDaoExtraData.begin(), kDaoExtraData.end());
    // The rewards (yellow paper §11.3) on a copy of the parent's state.
    state::Overlay overlay(*parent.state);
    if (config.dao_fork_block && h.number == *config.dao_fork_block) apply_dao_fork(overlay);
    const Uint256 reward = block_reward(fork);
    overlay.add_balance(h.beneficiary,
                        reward + reward / Uint256(32) * Uint256(std::uint64_t(ommers.size())));
    for (const eth::Header& o : ommers)
        overlay.add_balance(o.beneficiary,
                            reward * Uint256(8 - (h.number - o.number)) / Uint256(8));
    overlay.finalize_transaction({.delete_empty = fork >= Fork::spurious_dragon});
    state::MemoryState post = *parent.state;
    post.apply(overlay.changes());
    h.state_root = post.state_root();
    b.body.ommers = std::move(ommers);
    return b;
}

Hash32 must_import(BlockTree& tree, const eth::Block& b) {
    auto r = tree.import(b);
    EXPECT_TRUE(r.has_value()) << (r ? "" : to_string(r.error()));
    return r ? *r : Hash32{};
}

Errc refusal(BlockTree& tree, const eth::Block& b) {
    auto r = tree.import(b);
    EXPECT_FALSE(r.has_value());
    return r ? Errc::wrong_fields : r.error().code;
}

TEST(BlockTree, HeadFollowsTheGreatestTotalDifficulty) {
    const Chain c(eth::ChainConfig::from_genesis(Fork::frontier));
    BlockTree tree(c.config, c.genesis, c.pre);
    const Hash32 g = tree.head().hash;
    // a1 is slow (difficulty down), b1 quick (difficulty up): b1 weighs more.
    const Hash32 a1 = must_import(tree, child(tree, g, 20, 0xa1));
    EXPECT_EQ(tree.head().hash, a1);
    const Hash32 b1 = must_import(tree, child(tree, g, 5, 0xb1));
    EXPECT_EQ(tree.head().hash, b1);
    // a2 on a1 makes chain a heavier again; the head's state is its own chain's.
    const Hash32 a2 = must_import(tree, child(tree, a1, 5, 0xa2));
    EXPECT_EQ(tree.head().hash, a2);
    EXPECT_FALSE(tree.head().state->account(addr(0xb1)).has_value());
    EXPECT_TRUE(tree.head().state->account(addr(0xa1)).has_value());
    // b2 on b1, as quick as a2: chain b weighs more again.
    const Hash32 b2 = must_import(tree, child(tree, b1, 5, 0xb2));
    EXPECT_GT(tree.find(b2)->total_difficulty, tree.find(a2)->total_difficulty);
    EXPECT_EQ(tree.head().hash, b2);
    EXPECT_TRUE(tree.head().state->account(addr(0xb1)).has_value());
    // Unknown parents are refused.
    eth::Block orphan = child(tree, a2, 5, 0xcc);
    orphan.header.parent_hash = Hash32{};
    EXPECT_EQ(refusal(tree, orphan), Errc::unknown_parent);
}

TEST(BlockTree, AfterTheMergeTheNewestBlockIsHead) {
    eth::ChainConfig config = eth::ChainConfig::from_genesis(Fork::london);
    config.terminal_total_difficulty = Uint256(0x20000 + 0x20000);  // reached by block 1
    Chain c(config);
    c.genesis.base_fee_per_gas = Uint256(1'000'000'000);
    c.genesis.gas_limit = 30'000'000;
    BlockTree tree(c.config, c.genesis, c.pre);
    const Hash32 g = tree.head().hash;
    eth::Block b1 = child(tree, g, 15, 0x01);
    b1.header.base_fee_per_gas = expected_base_fee(c.genesis, Fork::london, Fork::london);
    const Hash32 h1 = must_import(tree, b1);
    EXPECT_GE(tree.find(h1)->total_difficulty, *config.terminal_total_difficulty);
    // Block 2 must be proof-of-stake now: a proof-of-work one is refused...
    eth::Block pow = child(tree, h1, 15, 0x02);
    pow.header.base_fee_per_gas = expected_base_fee(b1.header, Fork::london, Fork::london);
    EXPECT_EQ(refusal(tree, pow), Errc::difficulty_after_merge);
    // ... and a proof-of-stake block (difficulty 0, no reward) is accepted and becomes head.
    eth::Block pos = pow;
    pos.header.difficulty = Uint256(0);
    pos.header.state_root = tree.find(h1)->state->state_root();
    const Hash32 h2 = must_import(tree, pos);
    EXPECT_EQ(tree.head().hash, h2);
    EXPECT_EQ(tree.find(h2)->merge_block, std::optional<std::uint64_t>(2));
    // Before the terminal total difficulty, a block of difficulty 0 is refused.
    eth::Block early = child(tree, g, 15, 0x03);
    early.header.base_fee_per_gas = b1.header.base_fee_per_gas;
    early.header.difficulty = Uint256(0);
    EXPECT_EQ(refusal(tree, early), Errc::wrong_difficulty);
}

TEST(BlockTree, OmmerRules) {
    const Chain c(eth::ChainConfig::from_genesis(Fork::byzantium));
    BlockTree tree(c.config, c.genesis, c.pre);
    const Hash32 g = tree.head().hash;
    const Hash32 a1 = must_import(tree, child(tree, g, 15, 0xa1));
    const eth::Block side = child(tree, g, 16, 0x51);  // a sibling of a1: an ommer for a2
    ASSERT_TRUE(tree.import(side).has_value());
    // An ommer whose parent is the block's parent: UncleIsBrother.
    const eth::Block brother = child(tree, a1, 16, 0x52);
    EXPECT_EQ(refusal(tree, child(tree, a1, 15, 0xa2, {brother.header})), Errc::ommer_is_sibling);
    // An ancestor as ommer.
    EXPECT_EQ(refusal(tree, child(tree, a1, 15, 0xa2, {c.genesis})), Errc::ommer_is_ancestor);
    // An ommer whose parent is not an ancestor.
    eth::Header stray = side.header;
    stray.parent_hash = Hash32{};
    EXPECT_EQ(refusal(tree, child(tree, a1, 15, 0xa2, {stray})), Errc::ommer_parent_not_ancestor);
    // The same ommer twice.
    EXPECT_EQ(refusal(tree, child(tree, a1, 15, 0xa2, {side.header, side.header})),
              Errc::duplicate_ommer);
    // An ommer whose own header breaks a rule: the rule's code, and its index.
    eth::Header bad = side.header;
    bad.difficulty += Uint256(1);
    auto r = tree.import(child(tree, a1, 15, 0xa2, {bad}));
    ASSERT_FALSE(r.has_value());
    EXPECT_EQ(r.error().code, Errc::wrong_difficulty);
    EXPECT_EQ(r.error().ommer, std::optional<std::size_t>(0));
    // The right ommer is paid; included again one block later it is refused.
    const Hash32 a2 = must_import(tree, child(tree, a1, 15, 0xa2, {side.header}));
    EXPECT_EQ(refusal(tree, child(tree, a2, 15, 0xa3, {side.header})), Errc::duplicate_ommer);
    EXPECT_EQ(tree.head().state->account(addr(0x51))->balance,
              block_reward(Fork::byzantium) * Uint256(7) / Uint256(8));
}

TEST(BlockTree, DaoForkMovesTheDrainListAndNeedsItsExtraData) {
    eth::ChainConfig config = eth::ChainConfig::from_genesis(Fork::homestead);
    config.dao_fork_block = 2;
    Chain c(config);
    auto pre = std::make_shared<state::MemoryState>(*c.pre);
    const Address drained = dao_drain_list()[5];
    pre->put(drained, 0, Uint256(777), {}, {});
    c.genesis.state_root = pre->state_root();
    BlockTree tree(c.config, c.genesis, pre);
    const Hash32 h1 = must_import(tree, child(tree, tree.head().hash, 15, 0x01));
    eth::Block b2 = child(tree, h1, 15, 0x02);
    // Without "dao-hard-fork": refused.
    eth::Block plain = b2;
    plain.header.extra_data.clear();
    EXPECT_EQ(refusal(tree, plain), Errc::wrong_dao_extra_data);
    const Hash32 h2 = must_import(tree, b2);
    const state::MemoryState& s = *tree.find(h2)->state;
    EXPECT_EQ(s.account(drained)->balance, Uint256(0));
    EXPECT_EQ(s.account(dao_refund_contract())->balance, Uint256(777));
    // The refund contract gets the balance at the fork block only: an expected root made by
    // hand, independent of apply_dao_fork().
    state::MemoryState want = *tree.find(h1)->state;
    want.put(drained, 0, Uint256(0), {}, {});
    want.put(dao_refund_contract(), 0, Uint256(777), {}, {});
    for (const Address& a : dao_drain_list())
        if (!want.account(a)) want.put(a, 0, Uint256(0), {}, {});
    want.put(addr(0x02), 0, block_reward(Fork::homestead), {}, {});
    EXPECT_EQ(s.state_root(), want.state_root());
    EXPECT_EQ(dao_drain_list().size(), 116u);
}

}  // namespace
}  // namespace keel::chain
