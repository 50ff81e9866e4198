// Filters on the hive chain: a block filter sees a block made after it, a log filter's logs are
// eth_getLogs's, a pending filter sees a transaction the pool takes, and ids die when uninstalled.
// Subscriptions (subscriptions.hpp), the pushed form of the same news, on the same fixture.
#include "keel/rpc/filter_methods.hpp"

#include <gtest/gtest.h>

#include "keel/rpc/test_ask.hpp"

#include "keel/blockchain/chain.hpp"
#include "keel/blockchain/reads.hpp"
#include "keel/blockchain/test_helpers.hpp"
#include "keel/common/hex.hpp"
#include "keel/rpc/subscriptions.hpp"

#include <chrono>
#include <condition_variable>
#include <mutex>

namespace keel::rpc::filter_methods_test {
namespace {

using nlohmann::json;
namespace bt = keel::blockchain::testing;

class Filters : public ::testing::Test {
  protected:
    void SetUp() override {
        bt::import_hive(hive_);
        if (HasFatalFailure()) return;
        config_ = hive_.genesis.config;
        add_methods(d_, node());
    }

    // The node the methods and the subscriptions serve: the hive store, its pool.
    NodeContext node() {
        return NodeContext{.store = *hive_.store,
                           .config = config_,
                           .info = {.client_version = "keel", .chain_id = 1, .network_id = 1},
                           .pool = &pool_};
    }

    json ask(const std::string& method, const std::vector<json>& args) {
        return testing::ask(d_, method, args);
    }

    // A raw transaction of the suite's exchanges (`file`), valid on the hive chain's head; by
    // default a transfer; "send-blob-tx.io" is an ERC-20 transfer with one log.
    static std::string valid_raw_transaction(
        const std::string& file = "send-legacy-transaction.io") {
        for (const bt::Exchange& e : bt::exchanges("eth_sendRawTransaction"))
            if (e.file.filename() == file) return e.request["params"][0];
        return {};
    }

    // A new block on the head, as a block producer makes one: empty, or with `txs`; `parent`
    // (a block of the chain) made the head first when given.
    Hash32 make_block(std::vector<eth::Transaction> txs = {},
                      std::optional<Hash32> parent = std::nullopt, std::uint64_t later = 12) {
        auto chain = blockchain::Chain::open(*hive_.store, config_);
        EXPECT_TRUE(chain.has_value());
        if (parent) {
            EXPECT_TRUE(chain->set_head(*parent).has_value());
        }
        auto head = blockchain::canonical_header(*hive_.store, chain->head().number).value();
        eth::Block b;
        b.body.transactions = std::move(txs);
        b.header.timestamp = head.header.timestamp + later;
        b.header.gas_limit = head.header.gas_limit;
        b.header.ommers_hash = eth::kEmptyOmmersHash;
        b.header.parent_beacon_block_root = Hash32{};
        b.body.withdrawals.emplace();
        auto built = chain->build(b);
        EXPECT_TRUE(built.has_value()) << (built ? "" : built.error().message);
        return built ? *built : Hash32{};
    }

    bt::HiveStore hive_;
    eth::ChainConfig config_;
    txpool::Pool pool_;
    Dispatcher d_;
};

TEST_F(Filters, BlockFilterSeesTheNewBlock) {
    const std::string id = ask("eth_newBlockFilter", {})["result"];
    EXPECT_EQ(id.size(), 34u);  // "0x" and 16 bytes
    EXPECT_EQ(ask("eth_getFilterChanges", {id})["result"], json::array());
    const Hash32 made = make_block();
    EXPECT_EQ(ask("eth_getFilterChanges", {id})["result"],
              json::array({hex::encode_prefixed(made.view())}));
    EXPECT_EQ(ask("eth_getFilterChanges", {id})["result"], json::array());  // reported once
    EXPECT_EQ(ask("eth_uninstallFilter", {id})["result"], true);
    EXPECT_EQ(ask("eth_uninstallFilter", {id})["result"], false);
    EXPECT_EQ(ask("eth_getFilterChanges", {id})["error"]["code"], -32000);
}

TEST_F(Filters, LogFilterLogsAreGetLogsAnswer) {
    const json query = {{"fromBlock", "0x1"},
                        {"toBlock", "0x20"},
                        {"address", "0x7dcd17433742f4c0ca53122ab541d0ba67fc27df"}};
    const std::string id = ask("eth_newFilter", {query})["result"];
    const json all = ask("eth_getFilterLogs", {id})["result"];
    ASSERT_TRUE(all.is_array());
    EXPECT_GT(all.size(), 0u);
    EXPECT_EQ(all, ask("eth_getLogs", {query})["result"]);
    // Nothing new below the filter's birth; an empty block adds none.
    EXPECT_EQ(ask("eth_getFilterChanges", {id})["result"], json::array());
    make_block();
    EXPECT_EQ(ask("eth_getFilterChanges", {id})["result"], json::array());
    // A bad query is refused as eth_getLogs refuses it.
    EXPECT_EQ(ask("eth_newFilter", {json{{"topics", json::array({"0x12"})}}})["error"]["code"],
              -32602);
    const std::string blocks = ask("eth_newBlockFilter", {})["result"];
    EXPECT_EQ(ask("eth_getFilterLogs", {blocks})["error"]["code"], -32000);  // not a log filter
}

TEST_F(Filters, PendingFilterSeesWhatThePoolTakes) {
    const std::string id = ask("eth_newPendingTransactionFilter", {})["result"];
    EXPECT_EQ(ask("eth_getFilterChanges", {id})["result"], json::array());
    const std::string raw = valid_raw_transaction();
    ASSERT_FALSE(raw.empty());
    const json sent = ask("eth_sendRawTransaction", {raw});
    ASSERT_TRUE(sent.contains("result")) << sent.dump();
    EXPECT_EQ(ask("eth_getFilterChanges", {id})["result"], json::array({sent["result"]}));
    // The pool's transaction is pending: "pending" counts it, "latest" does not.
    const json tx = ask("eth_getTransactionByHash", {sent["result"]})["result"];
    EXPECT_TRUE(tx["blockHash"].is_null());
    const json latest = ask("eth_getTransactionCount", {tx["from"], "latest"})["result"];
    const json pending = ask("eth_getTransactionCount", {tx["from"], "pending"})["result"];
    EXPECT_EQ(std::stoull(pending.get<std::string>(), nullptr, 16),
              std::stoull(latest.get<std::string>(), nullptr, 16) + 1);
    EXPECT_EQ(ask("eth_getFilterChanges", {id})["result"], json::array());
}

TEST_F(Filters, APollOverSeveralBlocksReportsTheLogsOfEach) {
    // A filter following the head ("latest" ends) polled after two blocks: the logs of the
    // first (not only the head's) are news.
    const std::string id = ask("eth_newFilter", {json{{"fromBlock", "latest"}}})["result"];
    ASSERT_TRUE(ask("eth_sendRawTransaction", {valid_raw_transaction("send-blob-tx.io")})
                    .contains("result"));
    const Hash32 with_log = make_block(pool_.best(Uint256(0), 30'000'000));
    make_block();
    const json got = ask("eth_getFilterChanges", {id})["result"];
    ASSERT_EQ(got.size(), 1u) << got.dump();
    EXPECT_EQ(got[0]["blockHash"], hex::encode_prefixed(with_log.view()));
}

TEST_F(Filters, PollsAfterAReorgReportTheNewBranchAndTheRemovedLogs) {
    const std::string logs = ask("eth_newFilter", {json::object()})["result"];
    const std::string blocks = ask("eth_newBlockFilter", {})["result"];
    const Hash32 parent = hive_.store->canonical_hash(*hive_.store->head().value()).value().value;

    // Block A on the head with the suite's blob transaction: an ERC-20 transfer, one log.
    ASSERT_TRUE(ask("eth_sendRawTransaction", {valid_raw_transaction("send-blob-tx.io")})
                    .contains("result"));
    const Hash32 a = make_block(pool_.best(Uint256(0), 30'000'000));
    const json first = ask("eth_getFilterChanges", {logs})["result"];
    ASSERT_EQ(first.size(), 1u) << first.dump();
    EXPECT_EQ(first[0]["blockHash"], hex::encode_prefixed(a.view()));
    EXPECT_EQ(first[0]["removed"], false);
    EXPECT_EQ(ask("eth_getFilterChanges", {blocks})["result"],
              json::array({hex::encode_prefixed(a.view())}));

    // B and C on A's parent become the chain: the block filter reports both (B replaces A at
    // the same height), the log filter A's log again, removed; B and C have no logs.
    const Hash32 b = make_block({}, parent, 13);
    const Hash32 c = make_block();
    ASSERT_NE(a, b);
    EXPECT_EQ(ask("eth_getFilterChanges", {blocks})["result"],
              json::array({hex::encode_prefixed(b.view()), hex::encode_prefixed(c.view())}));
    const json second = ask("eth_getFilterChanges", {logs})["result"];
    ASSERT_EQ(second.size(), 1u) << second.dump();
    json removed = second[0];
    EXPECT_EQ(removed["removed"], true);
    removed["removed"] = false;
    EXPECT_EQ(removed, first[0]);  // the same log otherwise
    EXPECT_EQ(ask("eth_getFilterChanges", {logs})["result"], json::array());

    // A back as the head (its branch again): A's log comes back, not removed; B and C are gone
    // from the chain but had no logs to take back.
    ASSERT_TRUE(blockchain::Chain::open(*hive_.store, config_)->set_head(a).has_value());
    EXPECT_EQ(ask("eth_getFilterChanges", {logs})["result"], first);
    EXPECT_EQ(ask("eth_getFilterChanges", {blocks})["result"],
              json::array({hex::encode_prefixed(a.view())}));

    // A filter born at A sees the head replaced at A's height.
    const std::string late = ask("eth_newBlockFilter", {})["result"];
    const Hash32 d = make_block({}, parent, 14);
    EXPECT_EQ(ask("eth_getFilterChanges", {late})["result"],
              json::array({hex::encode_prefixed(d.view())}));
}

TEST_F(Filters, AfterTheHeadWentBackTheNewBlocksAreReported) {
    // A block filter born at the head; the head set back two blocks, then a new block on it
    // (at the height the old head's parent had): that block is news.
    const std::string id = ask("eth_newBlockFilter", {})["result"];
    const std::uint64_t head = *hive_.store->head().value();
    const Hash32 back = hive_.store->canonical_hash(head - 2).value().value;
    ASSERT_TRUE(blockchain::Chain::open(*hive_.store, config_)->set_head(back).has_value());
    EXPECT_EQ(ask("eth_getFilterChanges", {id})["result"], json::array());
    const Hash32 made = make_block({}, back, 13);
    EXPECT_EQ(ask("eth_getFilterChanges", {id})["result"],
              json::array({hex::encode_prefixed(made.view())}));
}

TEST_F(Filters, APollTheChainMovesUnderIsDoneAgain) {
    // A reorg lands inside a poll, after it read block A's log and before it checked the chain
    // (detail::set_poll_race_hook): the poll starts over and reports what the chain holds
    // then, B (no logs) in A's place, never A's log under B's hash.
    const std::string logs = ask("eth_newFilter", {json::object()})["result"];
    const std::string blocks = ask("eth_newBlockFilter", {})["result"];
    const Hash32 parent = hive_.store->canonical_hash(*hive_.store->head().value()).value().value;
    ASSERT_TRUE(ask("eth_sendRawTransaction", {valid_raw_transaction("send-blob-tx.io")})
                    .contains("result"));
    const Hash32 a = make_block(pool_.best(Uint256(0), 30'000'000));
    Hash32 b{};
    int calls = 0;
    bool moved = false;
    detail::set_poll_race_hook([&](detail::PollStage stage) {
        if (stage != detail::PollStage::news_read) return;
        ++calls;
        if (!moved) b = make_block({}, parent, 13);
        moved = true;
    });
    EXPECT_EQ(ask("eth_getFilterChanges", {logs})["result"], json::array());
    EXPECT_EQ(calls, 2);  // the first try, moved under, then the second
    ASSERT_NE(a, b);
    calls = 0;
    EXPECT_EQ(ask("eth_getFilterChanges", {blocks})["result"],
              json::array({hex::encode_prefixed(b.view())}));
    EXPECT_EQ(calls, 1);
    detail::set_poll_race_hook(nullptr);
    // Both filters remember B: nothing new, nothing removed.
    EXPECT_EQ(ask("eth_getFilterChanges", {logs})["result"], json::array());
    EXPECT_EQ(ask("eth_getFilterChanges", {blocks})["result"], json::array());

    // A chain that moves under every try (C on B, then the block at C's height replaced at
    // each try): refused after three, the filter left as it was.
    (void)make_block();
    std::vector<Hash32> made;
    detail::set_poll_race_hook([&](detail::PollStage stage) {
        if (stage == detail::PollStage::news_read)
            made.push_back(make_block({}, b, 20 + made.size()));
    });
    const json refused = ask("eth_getFilterChanges", {blocks});
    detail::set_poll_race_hook(nullptr);
    ASSERT_TRUE(refused.contains("error")) << refused.dump();
    EXPECT_EQ(refused["error"]["code"], -32000);
    EXPECT_EQ(refused["error"]["message"], "the chain reorganized during the poll; poll again");
    ASSERT_EQ(made.size(), 3u);
    EXPECT_EQ(ask("eth_getFilterChanges", {blocks})["result"],
              json::array({hex::encode_prefixed(made.back().view())}));
}

TEST_F(Filters, APollTheChainLeftAndRejoinedIsDoneAgain) {
    // The chain moves from A (with a log) to B after the poll read the canonical hashes, and
    // back to A after it read the logs (B's: none): the hashes before and after agree, so only
    // the store's count of canonical rewrites tells that the news read is not A's. Without it
    // the poll would report B's nothing and remember A: A's log never reported.
    const std::string logs = ask("eth_newFilter", {json::object()})["result"];
    const Hash32 parent = hive_.store->canonical_hash(*hive_.store->head().value()).value().value;
    ASSERT_TRUE(ask("eth_sendRawTransaction", {valid_raw_transaction("send-blob-tx.io")})
                    .contains("result"));
    const Hash32 a = make_block(pool_.best(Uint256(0), 30'000'000));
    Hash32 b{};
    int tries = 0;
    detail::set_poll_race_hook([&](detail::PollStage stage) {
        if (stage == detail::PollStage::hashes_read && ++tries == 1) {
            b = make_block({}, parent, 13);
        } else if (stage == detail::PollStage::news_read && tries == 1) {
            ASSERT_TRUE(blockchain::Chain::open(*hive_.store, config_)->set_head(a).has_value());
        }
    });
    const json got = ask("eth_getFilterChanges", {logs});
    detail::set_poll_race_hook(nullptr);
    EXPECT_EQ(tries, 2);
    ASSERT_NE(a, b);
    ASSERT_EQ(got["result"].size(), 1u) << got.dump();
    EXPECT_EQ(got["result"][0]["blockHash"], hex::encode_prefixed(a.view()));
    EXPECT_EQ(got["result"][0]["removed"], false);
    EXPECT_EQ(ask("eth_getFilterChanges", {logs})["result"], json::array());
}

// What one connection's sink received, waited for without a timing assertion: a generous bound
// only keeps a broken notifier from hanging the test.
class Inbox {
  public:
    explicit Inbox(bool accept = true) : accept_(accept) {}
    Subscriptions::Sink sink() {
        return [this](std::string m) {
            const bool accept = accept_;  // read first: once notified, the test may end
            {
                std::lock_guard lock(mutex_);
                messages_.push_back(json::parse(m));
            }
            cv_.notify_all();
            return accept;
        };
    }
    // The messages once there are at least `n` (or what came within 20 s).
    std::vector<json> wait_for(std::size_t n) {
        std::unique_lock lock(mutex_);
        cv_.wait_for(lock, std::chrono::seconds(20), [&] { return messages_.size() >= n; });
        return messages_;
    }

  private:
    const bool accept_;  ///< what the sink answers: false plays a client that stopped reading
    std::mutex mutex_;
    std::condition_variable cv_;
    std::vector<json> messages_;
};

json request(const std::string& method, const json& params) {
    return {{"jsonrpc", "2.0"}, {"id", 7}, {"method", method}, {"params", params}};
}

json subscribe(Subscriptions& subs, const std::shared_ptr<Subscriptions::Connection>& c,
               const json& params) {
    std::string out;
    EXPECT_TRUE(subs.handle(c, request("eth_subscribe", params), out));
    return json::parse(out);
}

TEST_F(Filters, SubscriptionsPushNewHeadsLogsAndPendingTransactions) {
    const NodeContext node = this->node();
    Inbox inbox;  // outlives subs: its notifier thread may still call the sink until subs ends
    Subscriptions subs(node);
    const auto conn = subs.connect(inbox.sink());
    const json heads = subscribe(subs, conn, {"newHeads"});
    const json pending = subscribe(subs, conn, {"newPendingTransactions"});
    ASSERT_TRUE(heads["result"].is_string()) << heads.dump();
    ASSERT_TRUE(pending["result"].is_string()) << pending.dump();
    EXPECT_EQ(heads["id"], 7);
    EXPECT_EQ(subs.count(), 2u);

    const Hash32 made = make_block();
    subs.wake();
    const std::vector<json> got = inbox.wait_for(1);
    ASSERT_EQ(got.size(), 1u);
    EXPECT_EQ(got[0]["method"], "eth_subscription");
    EXPECT_EQ(got[0]["params"]["subscription"], heads["result"]);
    EXPECT_EQ(got[0]["params"]["result"]["hash"], hex::encode_prefixed(made.view()));
    EXPECT_EQ(got[0]["params"]["result"]["number"], "0x37");

    const json sent = ask("eth_sendRawTransaction", {valid_raw_transaction()});
    ASSERT_TRUE(sent.contains("result")) << sent.dump();
    const std::vector<json> more = inbox.wait_for(2);
    ASSERT_EQ(more.size(), 2u);
    EXPECT_EQ(more[1]["params"]["subscription"], pending["result"]);
    EXPECT_EQ(more[1]["params"]["result"], sent["result"]);

    // Unsubscribing: true once, then false; other methods are not the subscriptions'.
    std::string out;
    EXPECT_TRUE(subs.handle(conn, request("eth_unsubscribe", json::array({heads["result"]})), out));
    EXPECT_EQ(json::parse(out)["result"], true);
    out.clear();
    EXPECT_TRUE(subs.handle(conn, request("eth_unsubscribe", json::array({heads["result"]})), out));
    EXPECT_EQ(json::parse(out)["result"], false);
    out.clear();
    EXPECT_FALSE(subs.handle(conn, request("eth_blockNumber", json::array()), out));
    EXPECT_TRUE(out.empty());
}

TEST_F(Filters, SubscriptionsReportLogsRemovedByAReorg) {
    const NodeContext node = this->node();
    Inbox inbox;  // outlives subs: its notifier thread may still call the sink until subs ends
    Subscriptions subs(node);
    const auto conn = subs.connect(inbox.sink());
    const json logs = subscribe(subs, conn, {"logs", json::object()});
    ASSERT_TRUE(logs["result"].is_string()) << logs.dump();
    const Hash32 parent = hive_.store->canonical_hash(*hive_.store->head().value()).value().value;

    // Block A on the head with the suite's blob transaction: an ERC-20 transfer, one log.
    ASSERT_TRUE(ask("eth_sendRawTransaction", {valid_raw_transaction("send-blob-tx.io")})
                    .contains("result"));
    const Hash32 a = make_block(pool_.best(Uint256(0), 30'000'000));
    subs.wake();
    const std::vector<json> got = inbox.wait_for(1);
    ASSERT_EQ(got.size(), 1u);
    const json log = got[0]["params"]["result"];
    EXPECT_EQ(log["blockHash"], hex::encode_prefixed(a.view()));
    EXPECT_EQ(log["removed"], false);

    // Block B on A's parent becomes the head: A's log comes again, removed.
    const Hash32 b = make_block({}, parent, 13);
    ASSERT_NE(a, b);
    subs.wake();
    const std::vector<json> more = inbox.wait_for(2);
    ASSERT_EQ(more.size(), 2u);
    json removed = more[1]["params"]["result"];
    EXPECT_EQ(removed["removed"], true);
    removed["removed"] = false;
    EXPECT_EQ(removed, log);  // the same log otherwise
}

TEST_F(Filters, SubscriptionsRefuseBadRequestsAndEndWithTheirConnection) {
    const NodeContext node = this->node();
    // Both outlive subs: its notifier thread may still call their sinks until subs ends.
    Inbox inbox;
    Inbox stuck(/*accept=*/false);
    Subscriptions subs(node);
    auto conn = subs.connect(inbox.sink());
    EXPECT_EQ(subscribe(subs, conn, {"nope"})["error"]["code"], -32601);
    EXPECT_EQ(subscribe(subs, conn, json::array())["error"]["code"], -32602);
    EXPECT_EQ(subscribe(subs, conn, {"logs", {{"address", "0x12"}}})["error"]["code"], -32602);
    for (std::size_t i = 0; i < kMaxSubscriptionsPerConnection; ++i)
        EXPECT_TRUE(
            subscribe(subs, conn, {"logs", {{"topics", json::array()}}})["result"].is_string());
    EXPECT_EQ(subscribe(subs, conn, {"newHeads"})["error"]["code"], -32005);
    EXPECT_EQ(subs.count(), kMaxSubscriptionsPerConnection);
    conn.reset();  // the connection went: its subscriptions with it
    EXPECT_EQ(subs.count(), 0u);

    // A sink that refuses (a client not reading): its subscriptions end at the next message.
    auto slow = subs.connect(stuck.sink());
    EXPECT_TRUE(subscribe(subs, slow, {"newHeads"})["result"].is_string());
    (void)make_block();
    subs.wake();
    EXPECT_EQ(stuck.wait_for(1).size(), 1u);
    for (int i = 0; i < 200 && subs.count() != 0; ++i)
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    EXPECT_EQ(subs.count(), 0u);
}

}  // namespace
}  // namespace keel::rpc::filter_methods_test
