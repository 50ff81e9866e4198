#include "keel/devnet/contract_chain.hpp"

#include <gtest/gtest.h>

#include <optional>

#include "keel/blockchain/chain.hpp"
#include "keel/blockchain/init.hpp"
#include "keel/chain/genesis.hpp"
#include "keel/devnet/accounts.hpp"
#include "keel/eth/block.hpp"
#include "keel/eth/contract_address.hpp"
#include "keel/store/state_store.hpp"
#include "test/testutil/temp_dir.hpp"

namespace keel::devnet {
namespace {

ContractChainSpec small_spec(std::uint64_t blocks) {
    return ContractChainSpec{
        .blocks = blocks, .gas_limit = 60'000'000, .chain_id = 1337, .seed = 7};
}

// A fresh store of the generator's genesis, into which its blocks are imported as any node
// would import them (blockchain::Chain::insert: every root checked).
struct Importer {
    testutil::TempDir dir{"contract-chain-import"};
    std::optional<store::ChainStore> store;
    std::optional<blockchain::Chain> chain;

    explicit Importer(const std::string& genesis_json) {
        auto g = chain::parse_genesis(genesis_json);
        EXPECT_TRUE(g.has_value());
        auto s = store::ChainStore::create(dir.path() / "db");
        EXPECT_TRUE(s.has_value());
        store.emplace(std::move(*s));
        auto init = blockchain::init_store(*store, *g, genesis_json);
        EXPECT_TRUE(init.has_value()) << init.error();
        auto c = blockchain::Chain::open(*store, g->config);
        EXPECT_TRUE(c.has_value());
        chain.emplace(std::move(*c));
    }
};

TEST(ContractChain, EveryBlockImportsWithItsRootsAndEveryKindAppears) {
    testutil::TempDir work("contract-chain");
    auto gen = ContractChainGenerator::create(small_spec(10), work.path() / "gen");
    ASSERT_TRUE(gen.has_value()) << gen.error();
    Importer importer(gen->genesis_json());
    std::uint64_t number = 0;
    while (!gen->done()) {
        auto rlp = gen->next();
        ASSERT_TRUE(rlp.has_value()) << rlp.error();
        auto block = eth::decode_block(*rlp);
        ASSERT_TRUE(block.has_value());
        EXPECT_EQ(block->header.number, number);
        if (number > 0) {
            auto placed = importer.chain->insert(*block, rlp->size());
            ASSERT_TRUE(placed.has_value()) << "block " << number << ": " << placed.error().message;
            EXPECT_EQ(*placed, blockchain::Placed::canonical);
            // Gas used stays at or below the target: the base fee never rises.
            EXPECT_LE(block->header.gas_used, block->header.gas_limit / 2);
            EXPECT_GT(block->header.gas_used, 0u);
        }
        ++number;
    }
    EXPECT_EQ(importer.chain->head().number, 9u);

    const ContractChainStats& st = gen->stats();
    EXPECT_EQ(st.blocks, 10u);
    for (std::size_t k = 0; k < kTxKindCount; ++k) {
        EXPECT_GT(st.kinds[k], 0u) << kind_name(static_cast<TxKind>(k));
        // Every kind does what it is for: nothing reverts but SELFDESTRUCT of the factory's last
        // child before there is one (the first steady blocks).
        if (static_cast<TxKind>(k) != TxKind::destroy_old) {
            EXPECT_EQ(st.failed[k], 0u) << kind_name(static_cast<TxKind>(k));
        }
    }
    EXPECT_GT(st.blobs, 0u);
    EXPECT_GT(st.new_accounts, 500u);

    // The contracts exist where sender 0's first seven nonces put them, and did their work.
    const AccountSet accounts = AccountSet::derive(7);
    auto view = store::StateView::open(*importer.store);
    ASSERT_TRUE(view.has_value());
    for (std::uint64_t nonce = 0; nonce < 7; ++nonce) {
        const Address a = eth::contract_address(accounts.senders[0].address, nonce);
        auto account = view->account(a);
        ASSERT_TRUE(account.has_value()) << "contract " << nonce;
        EXPECT_NE(account->code_hash, state::kEmptyCodeHash) << "contract " << nonce;
    }
    // Nft.totalSupply (slot 3) counts the mints; Churn.writes (slot 1) the slots written.
    const Address nft = eth::contract_address(accounts.senders[0].address, 2);
    EXPECT_EQ(view->storage(nft, Uint256(3)),
              Uint256(st.kinds[static_cast<int>(TxKind::nft_mint)]));
    const Address churn = eth::contract_address(accounts.senders[0].address, 3);
    EXPECT_GT(view->storage(churn, Uint256(1)), Uint256(0));
    // The pair's reserves (slot 0: reserve0 | reserve1 << 112) moved away from the first deposit.
    const Address pair = eth::contract_address(accounts.senders[0].address, 6);
    EXPECT_NE(view->storage(pair, Uint256(0)), Uint256(0));
    // An authority that delegated holds the EIP-7702 designator 0xef0100 || Batch.
    const Address batch = eth::contract_address(accounts.senders[0].address, 5);
    std::size_t delegated = 0;
    for (const Account& a : accounts.authorities) {
        auto acc = view->account(a.address);
        if (!acc || acc->code_hash == state::kEmptyCodeHash) continue;
        const state::Code code = view->code(acc->code_hash);
        ASSERT_EQ(code->size(), 23u);
        EXPECT_EQ(Address::from(BytesView(*code).subspan(3)), batch);
        ++delegated;
    }
    EXPECT_GT(delegated, 0u);
}

// Without blobs (for a peer fed through eth_sendRawTransaction): no blob transaction, the
// other kinds all there, every block still valid.
TEST(ContractChain, NoBlobsMeansNoBlobTransactions) {
    testutil::TempDir work("contract-chain");
    ContractChainSpec spec = small_spec(6);
    spec.blobs = false;
    auto gen = ContractChainGenerator::create(spec, work.path() / "gen");
    ASSERT_TRUE(gen.has_value()) << gen.error();
    Importer importer(gen->genesis_json());
    while (!gen->done()) {
        auto rlp = gen->next();
        ASSERT_TRUE(rlp.has_value()) << rlp.error();
        auto block = eth::decode_block(*rlp);
        ASSERT_TRUE(block.has_value());
        if (block->header.number == 0) continue;
        for (const eth::Transaction& tx : block->body.transactions)
            EXPECT_NE(tx.type(), eth::TxType::blob) << "block " << block->header.number;
        EXPECT_EQ(block->header.blob_gas_used, std::optional<std::uint64_t>(0));
        auto placed = importer.chain->insert(*block, rlp->size());
        ASSERT_TRUE(placed.has_value()) << placed.error().message;
    }
    const ContractChainStats& st = gen->stats();
    EXPECT_EQ(st.blobs, 0u);
    EXPECT_EQ(st.kinds[static_cast<int>(TxKind::blob)], 0u);
    EXPECT_GT(st.kinds[static_cast<int>(TxKind::swap)], 0u);
    EXPECT_GT(st.kinds[static_cast<int>(TxKind::delegate)], 0u);
}

TEST(ContractChain, SameSpecSameBytes) {
    testutil::TempDir work("contract-chain");
    auto a = ContractChainGenerator::create(small_spec(4), work.path() / "a");
    auto b = ContractChainGenerator::create(small_spec(4), work.path() / "b");
    ASSERT_TRUE(a.has_value() && b.has_value());
    EXPECT_EQ(a->genesis_json(), b->genesis_json());
    while (!a->done()) {
        auto x = a->next();
        ASSERT_TRUE(x.has_value()) << x.error();
        const Bytes copy(x->begin(), x->end());
        auto y = b->next();
        ASSERT_TRUE(y.has_value()) << y.error();
        EXPECT_TRUE(std::equal(copy.begin(), copy.end(), y->begin(), y->end()));
    }
}

TEST(ContractChain, RefusesSpecsOutOfBounds) {
    testutil::TempDir work("contract-chain");
    auto one = ContractChainGenerator::create(small_spec(1), work.path() / "x");
    ASSERT_FALSE(one.has_value());
    EXPECT_NE(one.error().find("--blocks 1"), std::string::npos) << one.error();
    ContractChainSpec low = small_spec(5);
    low.gas_limit = kMinContractGasLimit - 1;
    auto g = ContractChainGenerator::create(low, work.path() / "x");
    ASSERT_FALSE(g.has_value());
    EXPECT_NE(g.error().find("--gas-limit"), std::string::npos) << g.error();
    ContractChainSpec id = small_spec(5);
    id.chain_id = 0;
    auto c = ContractChainGenerator::create(id, work.path() / "x");
    ASSERT_FALSE(c.has_value());
    EXPECT_NE(c.error().find("--chain-id 0"), std::string::npos) << c.error();
    EXPECT_FALSE(std::filesystem::exists(work.path() / "x"));
}

TEST(ContractChain, RefusesAWorkFolderInUse) {
    testutil::TempDir work("contract-chain");
    std::filesystem::create_directories(work.path() / "busy");
    std::FILE* f = std::fopen((work.path() / "busy" / "file").c_str(), "w");
    ASSERT_NE(f, nullptr);
    std::fclose(f);
    auto g = ContractChainGenerator::create(small_spec(5), work.path() / "busy");
    ASSERT_FALSE(g.has_value());
    EXPECT_NE(g.error().find("work folder"), std::string::npos) << g.error();
}

}  // namespace
}  // namespace keel::devnet
