#include "keel/devnet/tx_gen.hpp"

#include <gtest/gtest.h>

#include <set>
#include <vector>

#include "keel/crypto/secp256k1.hpp"
#include "keel/devnet/chain_spec.hpp"
#include "keel/devnet/signer.hpp"
#include "keel/eth/sender.hpp"
#include "keel/eth/tx_validation.hpp"

namespace keel::devnet {
namespace {

using eth::TxType;

const AccountSet& accounts() {
    static const AccountSet set = AccountSet::derive(1);
    return set;
}

TEST(Accounts, DerivedDeterministicallyAndDistinct) {
    const AccountSet again = AccountSet::derive(1);
    ASSERT_EQ(accounts().senders.size(), kSenderCount);
    ASSERT_EQ(accounts().authorities.size(), kAuthorityCount);
    ASSERT_EQ(accounts().contracts.size(), kContractCount);
    ASSERT_EQ(accounts().miners.size(), kMinerCount);
    std::set<Address> seen;
    for (std::size_t i = 0; i < kSenderCount; ++i) {
        EXPECT_EQ(again.senders[i].secret, accounts().senders[i].secret);
        EXPECT_EQ(crypto::secp256k1::address_of(accounts().senders[i].secret).value(),
                  accounts().senders[i].address);
        seen.insert(accounts().senders[i].address);
    }
    for (const Account& a : accounts().authorities) seen.insert(a.address);
    EXPECT_EQ(seen.size(), kSenderCount + kAuthorityCount);
    EXPECT_NE(AccountSet::derive(2).senders[0].secret, accounts().senders[0].secret);
}

TEST(Signer, EveryTypeRecoversToTheSigner) {
    const Account& who = accounts().senders[3];
    for (int type = 0; type <= 4; ++type) {
        for (LegacyV v : {LegacyV::eip155, LegacyV::pre_eip155}) {
            if (type != 0 && v == LegacyV::pre_eip155) continue;
            eth::TransactionFields f;
            f.type = static_cast<TxType>(type);
            f.chain_id = 5;
            f.nonce = 9;
            f.max_fee_per_gas = 2'000'000'000;
            f.gas_limit = 200'000;
            f.to = accounts().contracts[0];
            if (f.type == TxType::blob) {
                Hash32 h;
                h[0] = 1;
                f.blob_versioned_hashes.push_back(h);
            }
            if (f.type == TxType::set_code) {
                eth::Authorization a;
                a.chain_id = 5;
                a.address = accounts().contracts[1];
                a = sign_authorization(a, accounts().authorities[0].secret);
                EXPECT_EQ(eth::authority(a).value(), accounts().authorities[0].address);
                f.authorization_list.push_back(a);
            }
            const eth::Transaction tx = sign_transaction(f, who.secret, v);
            EXPECT_EQ(eth::sender(tx).value(), who.address) << "type " << type;
            EXPECT_TRUE(eth::validate(tx, eth::Fork::prague, 5).has_value()) << "type " << type;
            if (type == 0) {
                EXPECT_EQ(tx.chain_id().has_value(), v == LegacyV::eip155);
            }
        }
    }
}

TEST(TxGen, PlannedTransactionsAreValidAtTheirFork) {
    TxPlanner planner(1);
    std::vector<TxPlan> plans;
    planner.plan_block(1, eth::Fork::london, 200, plans);
    planner.plan_block(2, eth::Fork::prague, 200, plans);
    std::set<int> types;
    for (std::size_t i = 0; i < plans.size(); ++i) {
        const std::uint64_t block = i < 200 ? 1 : 2;
        const eth::Fork fork = block == 1 ? eth::Fork::london : eth::Fork::prague;
        const TxSite site{1, 1337, block, i % 200, fork};
        const eth::Transaction tx = make_transaction(plans[i], site, accounts());
        auto ok = eth::validate(tx, fork, 1337);
        EXPECT_TRUE(ok.has_value()) << i << ": " << eth::to_string(ok.error());
        EXPECT_EQ(eth::sender(tx).value(), accounts().senders[plans[i].sender].address);
        EXPECT_EQ(tx.nonce(), plans[i].nonce);
        EXPECT_EQ(tx.type(), plans[i].type);
        EXPECT_LE(tx.gas_limit(), kTxGasCap);
        EXPECT_GE(tx.gas_limit(), charged_gas(tx, fork));
        EXPECT_LE(tx.data().size(), 300u);
        types.insert(static_cast<int>(tx.type()));
        // The same plan and site give the same transaction.
        EXPECT_EQ(make_transaction(plans[i], site, accounts()).hash(), tx.hash());
    }
    EXPECT_EQ(types, (std::set<int>{0, 1, 2, 3, 4}));
}

TEST(TxPlan, NoncesCountPerSenderAndBlobsStayWithinTheTarget) {
    TxPlanner planner(3);
    std::vector<TxPlan> plans;
    for (std::uint64_t n = 1; n <= 20; ++n) {
        const std::size_t begin = plans.size();
        planner.plan_block(n, eth::Fork::prague, 50, plans);
        std::uint64_t blobs = 0;
        for (std::size_t i = begin; i < plans.size(); ++i) {
            blobs += plans[i].blobs;
            EXPECT_EQ(plans[i].type == TxType::blob, plans[i].blobs > 0);
        }
        EXPECT_LE(blobs, 6u);
    }
    std::vector<std::uint64_t> next(kSenderCount, 0);
    for (const TxPlan& p : plans) EXPECT_EQ(p.nonce, next[p.sender]++);
    for (std::size_t i = 0; i < kSenderCount; ++i) EXPECT_EQ(planner.sender_nonce(i), next[i]);
}

}  // namespace
}  // namespace keel::devnet
