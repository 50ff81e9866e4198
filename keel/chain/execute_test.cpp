// execute_block on a real Prague block (execution-spec-tests: one transaction that makes a
// deposit, a withdrawal request and a consolidation request), then the same block with each
// commitment of its header or body broken: every rule names itself, the block's number and,
// for a transaction, its index. The whole suite runs through `keel evm blocktest` (CTest
// evm_blockchain_eest_prague).
#include "keel/chain/execute.hpp"

#include <gtest/gtest.h>

#include "keel/chain/system.hpp"
#include "keel/eth/sender.hpp"
#include "keel/state/memory_state.hpp"
#include "test/testutil/state_json.hpp"
#include "test/testutil/vectors.hpp"

namespace keel::chain {
namespace {

using nlohmann::json;

struct Fixture {
    eth::Block genesis;
    eth::Block block;
    state::MemoryState pre;
    eth::ChainConfig config = eth::ChainConfig::from_genesis(eth::Fork::prague);
};

Fixture load() {
    const auto path = testutil::vectors_dir("evm/blockchain_tests") /
                      "eest_prague/prague/eip7685_general_purpose_el_requests/"
                      "deposits_withdrawals_consolidations/"
                      "valid_deposit_withdrawal_consolidation_request_from_same_tx.json";
    const json file = testutil::load_json(path);
    const json& t = file.begin().value();
    Fixture f;
    f.genesis = *eth::decode_block(testutil::from_hex(t.at("genesisRLP").get<std::string>()));
    f.block =
        *eth::decode_block(testutil::from_hex(t.at("blocks").at(0).at("rlp").get<std::string>()));
    f.pre = testutil::memory_state_of(t.at("pre"));
    return f;
}

Result<ExecutedBlock, BlockError> run(const Fixture& f, const eth::Block& b,
                                      const state::StateReader* reader = nullptr) {
    const state::StateReader& pre = reader != nullptr ? *reader : f.pre;
    const auto* mem = dynamic_cast<const state::MemoryState*>(&pre);
    return execute_block(
        b, f.genesis.header, f.config, pre, [](std::uint64_t) { return Hash32{}; },
        [mem](std::span<const state::AccountChange> changes) {
            state::MemoryState next = *mem;
            next.apply(changes);
            return next.state_root();
        });
}

TEST(ExecuteBlock, ValidPragueBlockWithAllThreeRequestTypes) {
    const Fixture f = load();
    const auto r = run(f, f.block);
    ASSERT_TRUE(r.has_value()) << to_string(r.error());
    EXPECT_EQ(r->state_root, f.block.header.state_root);
    EXPECT_EQ(r->gas_used, f.block.header.gas_used);
    ASSERT_EQ(r->receipts.size(), 1U);
    EXPECT_TRUE(r->receipts[0].success);
    ASSERT_EQ(r->requests.size(), 3U);
    EXPECT_EQ(r->requests[0].size(), 192U);  // one deposit (EIP-6110)
    EXPECT_EQ(r->requests[1].size(), 76U);   // one withdrawal request (EIP-7002)
    EXPECT_EQ(r->requests[2].size(), 116U);  // one consolidation request (EIP-7251)
    EXPECT_EQ(requests_hash(r->requests), *f.block.header.requests_hash);
    EXPECT_FALSE(r->changes.empty());
}

TEST(ExecuteBlock, EachBrokenCommitmentIsNamed) {
    const Fixture f = load();
    struct Case {
        const char* what;
        void (*mutate)(eth::Block&);
        Errc want;
    };
    const Case cases[] = {
        {"gas used", [](eth::Block& b) { b.header.gas_used += 1; }, Errc::wrong_gas_used},
        {"receipts root", [](eth::Block& b) { b.header.receipts_root[0] ^= 1; },
         Errc::wrong_receipts_root},
        {"logs bloom", [](eth::Block& b) { b.header.logs_bloom[0] ^= 1; }, Errc::wrong_logs_bloom},
        {"state root", [](eth::Block& b) { b.header.state_root[0] ^= 1; }, Errc::wrong_state_root},
        {"requests hash", [](eth::Block& b) { (*b.header.requests_hash)[0] ^= 1; },
         Errc::wrong_requests_hash},
        {"blob gas used", [](eth::Block& b) { b.header.blob_gas_used = eth::kGasPerBlob; },
         Errc::wrong_blob_gas_used},
        {"transactions root", [](eth::Block& b) { b.header.transactions_root[0] ^= 1; },
         Errc::wrong_transactions_root},
        {"withdrawals root", [](eth::Block& b) { b.body.withdrawals->push_back({}); },
         Errc::wrong_withdrawals_root},
        {"withdrawals absent", [](eth::Block& b) { b.body.withdrawals.reset(); },
         Errc::wrong_withdrawals},
        {"ommers", [](eth::Block& b) { b.body.ommers.push_back(b.header); },
         Errc::wrong_ommers_hash},
        {"header rule", [](eth::Block& b) { b.header.timestamp = 0; },
         Errc::timestamp_not_after_parent},
    };
    for (const Case& c : cases) {
        eth::Block b = f.block;
        c.mutate(b);
        const auto r = run(f, b);
        ASSERT_FALSE(r.has_value()) << c.what;
        EXPECT_EQ(r.error().code, c.want) << c.what << ": " << to_string(r.error());
        EXPECT_EQ(r.error().number, 1U) << c.what;
        EXPECT_FALSE(to_string(r.error()).empty());
    }
}

TEST(ExecuteBlock, InvalidTransactionNamesItsIndex) {
    Fixture f = load();
    // The sender cannot pay: the same pre-state with its balance gone.
    const Address sender = *eth::sender(f.block.body.transactions.at(0));
    const auto& stored = f.pre.accounts().at(sender);
    std::vector<std::pair<Uint256, Uint256>> slots(stored.storage.begin(), stored.storage.end());
    f.pre.put(sender, stored.account.nonce, Uint256{}, Bytes{}, slots);
    const auto r = run(f, f.block);
    ASSERT_FALSE(r.has_value());
    EXPECT_EQ(r.error().code, Errc::invalid_transaction);
    EXPECT_EQ(r.error().tx, 0U);
    ASSERT_TRUE(r.error().tx_error);
    EXPECT_EQ(r.error().tx_error->code, evm::TxErrc::insufficient_account_funds);
    EXPECT_EQ(exception_name(r.error()), "TransactionException.INSUFFICIENT_ACCOUNT_FUNDS");
    EXPECT_NE(to_string(r.error()).find("block 1 transaction 0"), std::string::npos)
        << to_string(r.error());
}

TEST(ExecuteBlock, RequestContractWithoutCode) {
    Fixture f = load();
    const Address contract = f.config.system_contracts.withdrawal_requests;
    f.pre.put(contract, 1, Uint256{}, Bytes{}, {});
    // Mainnet's rule (the EIP as final): the block is invalid.
    const auto r = run(f, f.block);
    ASSERT_FALSE(r.has_value());
    EXPECT_EQ(r.error().code, Errc::system_contract_empty);
    EXPECT_EQ(exception_name(r.error()), "BlockException.SYSTEM_CONTRACT_EMPTY");
    // The devnet rule skips the call, but the block stays invalid: its transaction now calls a
    // contract without code and uses less gas, and gas used is checked first (execution-specs'
    // order: gas used, the roots, then the requests hash).
    f.config.system_contracts = eth::SystemContracts::devnet6();
    const auto lenient = run(f, f.block);
    ASSERT_FALSE(lenient.has_value());
    EXPECT_EQ(lenient.error().code, Errc::wrong_gas_used);
}

TEST(ExecuteBlock, BlockRewardsByFork) {
    const Uint256 ether(1'000'000'000'000'000'000ULL);
    EXPECT_EQ(block_reward(eth::Fork::frontier), ether * 5);
    EXPECT_EQ(block_reward(eth::Fork::spurious_dragon), ether * 5);
    EXPECT_EQ(block_reward(eth::Fork::byzantium), ether * 3);
    EXPECT_EQ(block_reward(eth::Fork::petersburg), ether * 2);
    EXPECT_EQ(block_reward(eth::Fork::london), ether * 2);
    EXPECT_EQ(block_reward(eth::Fork::paris), Uint256(0));
}

}  // namespace
}  // namespace keel::chain

namespace keel::chain {
namespace {

TEST(ExceptionNames, AsExecutionSpecTestsSpellThem) {
    // A transaction type its fork does not enable: TYPE_<n>_TX_PRE_FORK (an unknown type stays
    // TYPE_NOT_SUPPORTED).
    BlockError e{.code = Errc::invalid_transaction, .number = 1, .tx = 0};
    e.tx_error = evm::TxError{
        evm::TxErrc::static_check,
        eth::Error{eth::Errc::type_not_supported, rlp::Errc::empty_input, eth::Field::type, 2, 0}};
    EXPECT_EQ(exception_name(e), "TransactionException.TYPE_2_TX_PRE_FORK");
    e.tx_error->detail->detail = 7;
    EXPECT_EQ(exception_name(e), "TransactionException.TYPE_NOT_SUPPORTED");
    // A block that does not decode: a header field is the block's format, an empty `to` in a
    // blob or set-code transaction that type's contract creation, the rest the RLP.
    EXPECT_EQ(decode_exception_name(
                  eth::make_error(eth::Errc::create_not_allowed, eth::Field::to, 9, 4).error()),
              "TransactionException.TYPE_4_TX_CONTRACT_CREATION");
    EXPECT_EQ(decode_exception_name(eth::make_error(eth::Errc::integer_overflow,
                                                    eth::Field::header_excess_blob_gas, 9)
                                        .error()),
              "BlockException.INCORRECT_BLOCK_FORMAT");
    EXPECT_EQ(decode_exception_name(
                  eth::make_error(eth::Errc::too_many_fields, eth::Field::block, 9).error()),
              "BlockException.RLP_STRUCTURES_ENCODING");
}

}  // namespace
}  // namespace keel::chain
