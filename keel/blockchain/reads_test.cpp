#include "keel/blockchain/reads.hpp"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "keel/blockchain/test_helpers.hpp"
#include "keel/common/hex.hpp"

namespace keel::blockchain {
namespace {

using Json = nlohmann::json;

using testing::block_of;
using testing::Exchange;
using testing::exchanges;

// hive's rpc-compat exchanges for eth_getBlockReceipts, eth_getTransactionReceipt, eth_getProof and
// eth_getLogs, answered from the imported chain and compared as JSON values (an absent block or
// transaction is null). Exchanges whose answer is an error are the RPC layer's parameter checks
// (issue 28) and are counted, not run.
TEST(Reads, HiveReceiptsAndLogsMatchTheSuite) {
    testing::HiveStore w;
    testing::import_hive(w);
    const store::ChainStore& s = *w.store;
    const eth::ChainConfig& config = w.genesis.config;
    int checked = 0, errors_expected = 0;
    auto run = [&](const Exchange& x, auto&& write) {
        if (x.response.contains("error")) {
            ++errors_expected;
            return;
        }
        std::string out;
        keel::json::Writer jw(out);
        auto r = write(jw);
        Json got;
        if (!r) {
            ASSERT_TRUE(r.error().not_found) << x.file << ": " << r.error().message;
            got = nullptr;
        } else {
            got = Json::parse(out);
        }
        EXPECT_EQ(got, x.response.at("result")) << x.file;
        ++checked;
    };
    for (const Exchange& x : exchanges("eth_getBlockReceipts")) {
        run(x, [&](keel::json::Writer& jw) -> Result<void, ReadError> {
            auto n = block_of(s, x.request.at("params").at(0).get<std::string>());
            if (!n) return std::unexpected(ReadError{true, false, "no such hash"});
            return write_block_receipts(jw, s, config, *n);
        });
    }
    for (const Exchange& x : exchanges("eth_getTransactionReceipt")) {
        run(x, [&](keel::json::Writer& jw) {
            const auto h =
                hex::decode_fixed<Hash32>(x.request.at("params").at(0).get<std::string>());
            return write_transaction_receipt(jw, s, config, *h);
        });
    }
    for (const Exchange& x : exchanges("eth_getLogs")) {
        run(x, [&](keel::json::Writer& jw) -> Result<void, ReadError> {
            const Json& p = x.request.at("params").at(0);
            LogFilter f;
            if (p.contains("blockHash")) {
                auto n = block_of(s, p.at("blockHash").get<std::string>());
                if (!n) return std::unexpected(ReadError{true, false, "no such hash"});
                f.from = f.to = *n;
            } else {
                f.from = *block_of(s, p.value("fromBlock", std::string("latest")));
                f.to = *block_of(s, p.value("toBlock", std::string("latest")));
            }
            if (p.contains("address")) {
                const Json& a = p.at("address");
                for (const Json& one : a.is_array() ? a : Json::array({a})) {
                    f.addresses.push_back(*hex::decode_fixed<Address>(one.get<std::string>()));
                }
            }
            if (p.contains("topics")) {
                for (const Json& pos : p.at("topics")) {
                    std::vector<Hash32> any;
                    if (pos.is_string())
                        any.push_back(*hex::decode_fixed<Hash32>(pos.get<std::string>()));
                    if (pos.is_array()) {
                        for (const Json& t : pos)
                            any.push_back(*hex::decode_fixed<Hash32>(t.get<std::string>()));
                    }
                    f.topics.push_back(std::move(any));
                }
            }
            return write_logs(jw, s, config, f);
        });
    }
    for (const Exchange& x : exchanges("eth_getProof")) {
        run(x, [&](keel::json::Writer& jw) -> Result<void, ReadError> {
            const Json& params = x.request.at("params");
            const auto address = hex::decode_fixed<Address>(params.at(0).get<std::string>());
            std::vector<Uint256> slots;
            for (const Json& k : params.at(1))
                slots.push_back(*Uint256::from_string(k.get<std::string>()));
            if (params.size() > 2) {
                // Every proof request of the suite names the head.
                EXPECT_EQ(block_of(s, params.at(2).get<std::string>()), s.head().value().value());
            }
            auto proof = store::prove_account(s, *address, slots);
            if (!proof) return std::unexpected(ReadError{false, false, proof.error().message});
            write_account_proof(jw, *proof);
            return {};
        });
    }
    EXPECT_GE(checked, 18);
    std::printf(
        "hive receipts, logs and proofs: %d checked, %d parameter errors left to the RPC layer\n",
        checked, errors_expected);
}

}  // namespace
}  // namespace keel::blockchain
