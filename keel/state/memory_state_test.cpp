// MemoryState's state root against the official vectors: every blockchain test in
// ../shared/vectors/evm/blockchain_tests gives a pre-state with its genesis header's state root
// and a post-state with the state root of the last valid block (the block whose hash is
// lastblockhash). Plus the roots of small states built by hand, and apply() after put().
#include "keel/state/memory_state.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "keel/common/hex.hpp"
#include "test/testutil/hex.hpp"
#include "test/testutil/state_json.hpp"
#include "test/testutil/vectors.hpp"

namespace keel::state {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using testutil::fixed_from_hex;
using testutil::uint256_from_string;

MemoryState state_of(const json& alloc) {
    return testutil::memory_state_of(alloc);
}

/// The state root of the block `hash` names in the test (the genesis or one of its blocks).
std::string state_root_of_block(const json& t, const std::string& hash) {
    if (t.at("genesisBlockHeader").at("hash") == hash)
        return t.at("genesisBlockHeader").at("stateRoot");
    for (const auto& b : t.at("blocks")) {
        if (b.contains("blockHeader") && b.at("blockHeader").at("hash") == hash)
            return b.at("blockHeader").at("stateRoot");
    }
    return {};
}

TEST(MemoryState, RootsOfEveryBlockchainTestsPreAndPostState) {
    const fs::path dir = testutil::vectors_dir("evm/blockchain_tests");
    std::size_t pre = 0, post = 0;
    for (const auto& f : fs::recursive_directory_iterator(dir)) {
        if (f.path().extension() != ".json") continue;
        const json file = testutil::load_json(f.path());
        for (const auto& [name, t] : file.items()) {
            SCOPED_TRACE(f.path().filename().string() + " " + name);
            const MemoryState before = state_of(t.at("pre"));
            EXPECT_EQ("0x" + hex::encode(before.state_root().view()),
                      t.at("genesisBlockHeader").at("stateRoot").get<std::string>());
            ++pre;
            if (!t.contains("postState")) continue;  // a test may give only postStateHash
            const std::string want = state_root_of_block(t, t.at("lastblockhash"));
            ASSERT_FALSE(want.empty()) << "lastblockhash names no block of the test";
            EXPECT_EQ("0x" + hex::encode(state_of(t.at("postState")).state_root().view()), want);
            ++post;
        }
    }
    // Every test has a pre-state: eest_prague 96, eest_v540 569 and legacy 1,116 (SOURCES.md).
    EXPECT_EQ(pre, 96u + 569u + 1116u);
    EXPECT_GT(post, 0u);
    std::cout << "[ " << pre << " pre-states and " << post << " post-states ]\n";
}

TEST(MemoryState, EmptyStateHasTheEmptyRoot) {
    EXPECT_EQ(MemoryState{}.state_root(), trie::kEmptyRoot);
}

TEST(MemoryState, ZeroSlotsAreNotStoredAndAccountsReportTheirStorageRoot) {
    MemoryState a;
    Address x;
    x[19] = 1;
    const std::pair<Uint256, Uint256> with_zero[] = {{1, 0}, {2, 5}};
    a.put(x, 1, 2, Bytes{}, with_zero);
    MemoryState b;
    const std::pair<Uint256, Uint256> without[] = {{2, 5}};
    b.put(x, 1, 2, Bytes{}, without);
    EXPECT_EQ(a.state_root(), b.state_root());
    EXPECT_EQ(a.accounts().at(x).storage.size(), 1u);
    EXPECT_NE(a.account(x)->storage_root, trie::kEmptyRoot);
    EXPECT_EQ(a.storage(x, 2), Uint256(5));
    EXPECT_EQ(a.storage(x, 1), Uint256(0));
    // Deleting the last slot through apply() gives the empty storage root back.
    AccountChange c{.address = x, .account = *a.account(x)};
    c.storage.emplace_back(2, 0);
    const AccountChange changes[] = {c};
    a.apply(changes);
    EXPECT_EQ(a.account(x)->storage_root, trie::kEmptyRoot);
    MemoryState no_storage;
    no_storage.put(x, 1, 2, Bytes{}, {});
    EXPECT_EQ(a.state_root(), no_storage.state_root());
}

TEST(MemoryState, AccountEncodingIsTheFourFieldList) {
    Account acc;
    acc.nonce = 1;
    acc.balance = 0x0100;
    // c0 + 1 + 3 + 33 + 33 = 70 bytes of payload: f8 46, nonce 01, balance 82 01 00, two hashes.
    const Bytes enc = encode_account(acc);
    ASSERT_EQ(enc.size(), 72u);
    EXPECT_EQ(enc[0], 0xf8);
    EXPECT_EQ(enc[1], 70);
    EXPECT_EQ(enc[2], 0x01);
    EXPECT_EQ(enc[3], 0x82);
    EXPECT_EQ(enc[6], 0xa0);
    EXPECT_EQ(enc[39], 0xa0);
}

}  // namespace
}  // namespace keel::state
