#include "keel/devnet/chain_gen.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "keel/common/parallel.hpp"
#include "keel/crypto/sha256.hpp"
#include "keel/devnet/fee_rules.hpp"
#include "keel/eth/block.hpp"
#include "keel/eth/receipt.hpp"
#include "keel/eth/sender.hpp"
#include "keel/eth/tx_validation.hpp"
#include "keel/trie/root.hpp"

namespace keel::devnet {
namespace {

using eth::TxType;

// The small chain of most tests: 40 blocks of 20 transactions, the merge at block 25.
ChainSpec small_spec() {
    ChainSpec s;
    s.blocks = 40;
    s.txs_per_block = 20;
    s.merge_at = 25;
    s.chain_id = 1337;
    s.seed = 7;
    return s;
}

std::vector<Bytes> generate(const ChainSpec& spec) {
    auto gen = ChainGenerator::create(spec);
    EXPECT_TRUE(gen.has_value());
    std::vector<Bytes> out;
    if (!gen) return out;
    while (!gen->done()) {
        EXPECT_EQ(gen->next_number(), out.size());
        BytesView b = gen->next();
        out.emplace_back(b.begin(), b.end());
    }
    return out;
}

std::vector<eth::Block> decode_all(const std::vector<Bytes>& blocks) {
    std::vector<eth::Block> out;
    for (std::size_t i = 0; i < blocks.size(); ++i) {
        auto b = eth::decode_block(blocks[i]);
        EXPECT_TRUE(b.has_value()) << "block " << i << ": " << eth::to_string(b.error());
        if (b) out.push_back(std::move(*b));
    }
    return out;
}

// The chain of small_spec(), generated and decoded once for the tests that only read it.
const std::vector<eth::Block>& small_chain() {
    static const std::vector<eth::Block> chain = decode_all(generate(small_spec()));
    return chain;
}

std::uint64_t charged(const eth::Transaction& tx, eth::Fork fork) {
    std::uint64_t gas = eth::intrinsic_gas(tx, fork);
    if (fork >= eth::Fork::prague) gas = std::max(gas, eth::floor_data_gas(tx));
    return gas;
}

TEST(ChainGen, BlocksDecodeAndLinkUp) {
    const ChainSpec spec = small_spec();
    const auto& chain = small_chain();
    ASSERT_EQ(chain.size(), spec.blocks);
    EXPECT_TRUE(chain[0].header.parent_hash.is_zero());
    EXPECT_TRUE(chain[0].body.transactions.empty());
    for (std::size_t i = 0; i < chain.size(); ++i) {
        const eth::Header& h = chain[i].header;
        EXPECT_EQ(h.number, i);
        EXPECT_EQ(h.timestamp, chain[0].header.timestamp + 12 * i);
        EXPECT_LE(h.gas_used, h.gas_limit);
        EXPECT_LE(h.extra_data.size(), 32u);
        if (i == 0) continue;
        EXPECT_EQ(h.parent_hash, chain[i - 1].hash()) << "block " << i;
        EXPECT_EQ(chain[i].body.transactions.size(), spec.txs_per_block);
    }
}

TEST(ChainGen, RootsMatchTheBody) {
    const ChainSpec spec = small_spec();
    for (const eth::Block& b : small_chain()) {
        const eth::Header& h = b.header;
        const eth::Fork fork = h.number < spec.merge_at ? eth::Fork::london : eth::Fork::prague;
        SCOPED_TRACE("block " + std::to_string(h.number));
        EXPECT_EQ(h.transactions_root, eth::transactions_root(b.body.transactions));
        EXPECT_EQ(h.ommers_hash, eth::ommers_hash(b.body.ommers));
        // Receipts recomputed: status 1, cumulative gas charged before execution, no logs.
        std::vector<eth::Receipt> receipts;
        std::uint64_t cumulative = 0;
        std::uint64_t blobs = 0;
        for (const eth::Transaction& tx : b.body.transactions) {
            cumulative += charged(tx, fork);
            blobs += tx.blob_versioned_hashes().size();
            eth::Receipt r;
            r.type = tx.type();
            r.success = true;
            r.cumulative_gas_used = cumulative;
            receipts.push_back(r);
        }
        EXPECT_EQ(h.receipts_root, eth::receipts_root(receipts));
        EXPECT_EQ(h.gas_used, cumulative);
        EXPECT_TRUE(h.logs_bloom.is_zero());
        if (h.number >= spec.merge_at) {
            ASSERT_TRUE(b.body.withdrawals.has_value());
            ASSERT_TRUE(h.withdrawals_root.has_value());
            EXPECT_EQ(*h.withdrawals_root, eth::withdrawals_root(*b.body.withdrawals));
            EXPECT_EQ(b.body.withdrawals->size(), 4u);
            EXPECT_EQ(h.blob_gas_used, kGasPerBlob * blobs);
            EXPECT_LE(blobs, kMaxBlobsPerBlock);
        } else {
            EXPECT_FALSE(b.body.withdrawals.has_value());
        }
    }
}

TEST(ChainGen, HeaderShapeFollowsTheMerge) {
    const ChainSpec spec = small_spec();
    std::size_t ommers = 0;
    const Hash32 empty_requests = crypto::sha256(BytesView{});
    std::uint64_t withdrawal_index = 0;
    for (const eth::Block& b : small_chain()) {
        const eth::Header& h = b.header;
        SCOPED_TRACE("block " + std::to_string(h.number));
        ASSERT_TRUE(h.base_fee_per_gas.has_value());
        if (h.number < spec.merge_at) {
            EXPECT_GT(h.difficulty, Uint256(0));
            EXPECT_FALSE(h.nonce.is_zero());
            EXPECT_FALSE(h.mix_hash.is_zero());
            EXPECT_EQ(h.optional_field_count(), 1u);  // London: the base fee only
            for (const eth::Header& o : b.body.ommers) {
                ++ommers;
                EXPECT_EQ(o.number + 1, h.number);
                EXPECT_NE(o.hash(), h.parent_hash);  // a sibling of the parent, not the parent
                const auto& chain = small_chain();
                EXPECT_EQ(o.parent_hash, chain[h.number - 2].hash());
            }
        } else {
            EXPECT_TRUE(h.difficulty.is_zero());
            EXPECT_TRUE(h.nonce.is_zero());
            EXPECT_TRUE(b.body.ommers.empty());
            EXPECT_EQ(h.ommers_hash, eth::kEmptyOmmersHash);
            EXPECT_EQ(h.optional_field_count(), 6u);  // Prague
            EXPECT_EQ(h.excess_blob_gas, 0u);
            EXPECT_TRUE(h.parent_beacon_block_root.has_value());
            EXPECT_EQ(h.requests_hash, empty_requests);
            for (const eth::Withdrawal& w : *b.body.withdrawals) {
                EXPECT_EQ(w.index, withdrawal_index++);
            }
        }
    }
    EXPECT_GE(ommers, 2u);  // blocks 8 and 24
}

TEST(ChainGen, BaseFeeFollowsEip1559AndCoversTheFeeCaps) {
    const auto& chain = small_chain();
    EXPECT_EQ(chain[0].header.base_fee_per_gas, Uint256(kInitialBaseFee));
    for (std::size_t i = 1; i < chain.size(); ++i) {
        const eth::Header& p = chain[i - 1].header;
        const eth::Header& h = chain[i].header;
        EXPECT_EQ(h.base_fee_per_gas,
                  Uint256(next_base_fee(p.base_fee_per_gas->as_u64(), p.gas_used, p.gas_limit)));
        for (const eth::Transaction& tx : chain[i].body.transactions) {
            EXPECT_GE(tx.max_fee_per_gas(), *h.base_fee_per_gas);
        }
    }
}

TEST(ChainGen, TransactionsAreValidSignedAndInNonceOrder) {
    const ChainSpec spec = small_spec();
    auto gen = ChainGenerator::create(spec);
    ASSERT_TRUE(gen.has_value());
    std::set<Address> senders;
    for (const Account& a : gen->accounts().senders) senders.insert(a.address);
    std::set<Address> authorities;
    for (const Account& a : gen->accounts().authorities) authorities.insert(a.address);
    ASSERT_EQ(senders.size(), kSenderCount);

    std::map<Address, std::uint64_t> next_nonce;
    std::map<Address, std::uint64_t> next_auth_nonce;
    std::set<int> types_pre;
    std::set<int> types_post;
    std::size_t pre155 = 0;
    std::size_t creations = 0;
    std::size_t access_lists = 0;
    for (const eth::Block& b : small_chain()) {
        const bool post = b.header.number >= spec.merge_at;
        const eth::Fork fork = post ? eth::Fork::prague : eth::Fork::london;
        for (const eth::Transaction& tx : b.body.transactions) {
            SCOPED_TRACE("block " + std::to_string(b.header.number));
            auto ok = eth::validate(tx, fork, spec.chain_id);
            EXPECT_TRUE(ok.has_value()) << eth::to_string(ok.error());
            auto from = eth::sender(tx);
            ASSERT_TRUE(from.has_value());
            EXPECT_TRUE(senders.contains(*from));
            EXPECT_EQ(tx.nonce(), next_nonce[*from]++);
            (post ? types_post : types_pre).insert(static_cast<int>(tx.type()));
            if (tx.type() == TxType::legacy && !tx.chain_id()) ++pre155;
            if (tx.is_create()) ++creations;
            if (!tx.access_list().empty()) ++access_lists;
            for (const eth::Authorization& a : tx.authorization_list()) {
                auto who = eth::authority(a);
                ASSERT_TRUE(who.has_value());
                EXPECT_TRUE(authorities.contains(*who));
                EXPECT_TRUE(a.chain_id == Uint256(spec.chain_id) || a.chain_id.is_zero());
                EXPECT_EQ(a.nonce, next_auth_nonce[*who]++);
            }
            for (const Hash32& h : tx.blob_versioned_hashes()) EXPECT_EQ(h[0], 0x01);
        }
    }
    EXPECT_EQ(types_pre, (std::set<int>{0, 1, 2}));
    EXPECT_EQ(types_post, (std::set<int>{0, 1, 2, 3, 4}));
    EXPECT_GT(pre155, 0u);
    EXPECT_GT(creations, 0u);
    EXPECT_GT(access_lists, 0u);
}

TEST(ChainGen, StatsCountWhatWasProduced) {
    const ChainSpec spec = small_spec();
    auto gen = ChainGenerator::create(spec);
    ASSERT_TRUE(gen.has_value());
    std::uint64_t bytes = 0;
    while (!gen->done()) bytes += gen->next().size();
    EXPECT_EQ(gen->stats().blocks, spec.blocks);
    EXPECT_EQ(gen->stats().transactions, (spec.blocks - 1) * spec.txs_per_block);
    EXPECT_EQ(gen->stats().bytes, bytes);
}

TEST(ChainGen, DeterministicWhateverTheThreadCount) {
    ChainSpec spec = small_spec();
    spec.blocks = 30;
    spec.merge_at = 20;
    const std::vector<Bytes> a = generate(spec);
    EXPECT_EQ(generate(spec), a);
    {
        parallel::ThreadLimit one(1);
        EXPECT_EQ(generate(spec), a);
    }
    // Other seeds and chain ids make other chains.
    ChainSpec other = spec;
    other.seed = 8;
    EXPECT_NE(generate(other)[5], a[5]);
    other = spec;
    other.chain_id = 1338;
    EXPECT_NE(generate(other)[5], a[5]);
}

TEST(ChainGen, BatchesLargerThanTheBlockAreConsistent) {
    // More transactions than one batch holds (2048), so a batch is a single block.
    ChainSpec spec;
    spec.blocks = 3;
    spec.txs_per_block = 2100;
    spec.merge_at = 2;
    const auto chain = decode_all(generate(spec));
    ASSERT_EQ(chain.size(), 3u);
    EXPECT_EQ(chain[2].body.transactions.size(), 2100u);
    EXPECT_EQ(chain[2].header.parent_hash, chain[1].hash());
    EXPECT_EQ(chain[2].header.transactions_root,
              eth::transactions_root(chain[2].body.transactions));
    EXPECT_LE(chain[2].header.gas_used * 2, chain[2].header.gas_limit);
}

TEST(ChainGen, MergeAtGenesisAndNoMerge) {
    ChainSpec spec;
    spec.blocks = 4;
    spec.txs_per_block = 6;
    spec.merge_at = 0;  // proof of stake from the genesis
    auto pos = decode_all(generate(spec));
    ASSERT_EQ(pos.size(), 4u);
    EXPECT_EQ(pos[0].header.optional_field_count(), 6u);
    EXPECT_TRUE(pos[0].header.difficulty.is_zero());
    ASSERT_TRUE(pos[0].body.withdrawals.has_value());
    EXPECT_TRUE(pos[0].body.withdrawals->empty());
    EXPECT_EQ(pos[0].header.withdrawals_root, trie::kEmptyRoot);
    EXPECT_EQ((*pos[1].body.withdrawals)[0].index, 0u);

    spec.merge_at = 4;  // no proof-of-stake block
    auto pow = decode_all(generate(spec));
    ASSERT_EQ(pow.size(), 4u);
    for (const eth::Block& b : pow) {
        EXPECT_GT(b.header.difficulty, Uint256(0));
        EXPECT_FALSE(b.body.withdrawals.has_value());
    }
}

TEST(ChainGen, BadSpecsAreRefused) {
    struct Case {
        ChainSpec spec;
        Error want;
    };
    ChainSpec ok = small_spec();
    std::vector<Case> cases;
    cases.push_back({ok, Error::no_blocks});
    cases.back().spec.blocks = 0;
    cases.push_back({ok, Error::too_many_blocks});
    cases.back().spec.blocks = kMaxBlocks + 1;
    cases.push_back({ok, Error::merge_after_end});
    cases.back().spec.merge_at = ok.blocks + 1;
    cases.push_back({ok, Error::too_many_txs});
    cases.back().spec.txs_per_block = kMaxTxsPerBlock + 1;
    cases.push_back({ok, Error::chain_id_zero});
    cases.back().spec.chain_id = 0;
    cases.push_back({ok, Error::chain_id_too_large});
    cases.back().spec.chain_id = kMaxChainId + 1;
    for (const Case& c : cases) {
        auto gen = ChainGenerator::create(c.spec);
        ASSERT_FALSE(gen.has_value());
        EXPECT_EQ(gen.error(), c.want);
        EXPECT_FALSE(describe(c.want).empty());
    }
    // The edges that are allowed.
    ok.merge_at = ok.blocks;
    EXPECT_TRUE(check(ok).has_value());
    ok.txs_per_block = kMaxTxsPerBlock;
    ok.chain_id = kMaxChainId;
    EXPECT_TRUE(check(ok).has_value());
    ok.txs_per_block = 0;
    EXPECT_TRUE(check(ok).has_value());
}

}  // namespace
}  // namespace keel::devnet
