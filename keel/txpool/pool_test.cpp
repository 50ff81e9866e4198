// txpool::Pool: what it keeps, in what order it hands transactions out, and every refusal.
#include "keel/txpool/pool.hpp"

#include <gtest/gtest.h>

#include "keel/crypto/secp256k1.hpp"
#include "keel/eth/sender.hpp"
#include "keel/kzg/kzg.hpp"
#include "keel/rlp/encode.hpp"
#include "keel/state/memory_state.hpp"

namespace keel::txpool::pool_test {
namespace {

constexpr std::uint64_t kChain = 7;
const Address kTo{{0x35, 0x35}};

Bytes32 key(std::uint8_t n) {
    Bytes32 k{};
    k[31] = n;
    return k;
}

Address address_of(std::uint8_t n) {
    return crypto::secp256k1::address_of(key(n)).value();
}

// A signed EIP-1559 transfer from key `who`.
Bytes tx(std::uint8_t who, std::uint64_t nonce, std::uint64_t fee_cap, std::uint64_t tip,
         std::uint64_t gas = 21000, std::size_t data = 0) {
    eth::TransactionFields f;
    f.type = eth::TxType::dynamic_fee;
    f.chain_id = kChain;
    f.nonce = nonce;
    f.max_fee_per_gas = Uint256(fee_cap);
    f.max_priority_fee_per_gas = Uint256(tip);
    f.gas_limit = gas;
    f.to = kTo;
    f.value = Uint256(1);
    f.data.assign(data, 0x01);
    f.v = Uint256(0);
    f.r = Uint256(1);
    f.s = Uint256(1);
    const Hash32 h = eth::decode_transaction(eth::encode(f)).value().signing_hash();
    const auto sig = crypto::secp256k1::sign_recoverable(h, key(who)).value();
    f.v = Uint256(sig.recovery_id);
    f.r = sig.r;
    f.s = sig.s;
    return eth::encode(f);
}

// A signed blob transaction from key `who` in its network form: one blob with its commitment
// and `proofs` (one for sidecar version 0, 128 for version 1); `hash` overrides the versioned
// hash the commitment gives.
Bytes blob_tx(std::uint8_t who, std::uint64_t nonce, std::uint8_t version, const Bytes& blob,
              const Bytes& commitment, const std::vector<Bytes>& proofs,
              std::optional<Hash32> hash = std::nullopt, std::uint64_t blob_fee = 10) {
    eth::TransactionFields f;
    f.type = eth::TxType::blob;
    f.chain_id = kChain;
    f.nonce = nonce;
    f.max_fee_per_gas = Uint256(100);
    f.max_priority_fee_per_gas = Uint256(5);
    f.gas_limit = 21000;
    f.to = kTo;
    f.max_fee_per_blob_gas = Uint256(blob_fee);
    f.blob_versioned_hashes.push_back(hash.value_or(kzg::versioned_hash(commitment)));
    const Hash32 h = eth::decode_transaction(eth::encode(f)).value().signing_hash();
    const auto sig = crypto::secp256k1::sign_recoverable(h, key(who)).value();
    f.v = Uint256(sig.recovery_id);
    f.r = sig.r;
    f.s = sig.s;
    const Bytes envelope = eth::encode(f);
    // 0x03 || rlp([payload, (version,) [blob], [commitment], proofs])
    rlp::Encoder e;
    const auto outer = e.begin_list();
    e.add_raw(BytesView(envelope).subspan(1));
    if (version == 1) e.add_uint(1);
    auto l = e.begin_list();
    e.add_string(blob);
    e.end_list(l);
    l = e.begin_list();
    e.add_string(commitment);
    e.end_list(l);
    l = e.begin_list();
    for (const Bytes& p : proofs) e.add_string(p);
    e.end_list(l);
    e.end_list(outer);
    Bytes out{0x03};
    const Bytes body = e.take();
    out.insert(out.end(), body.begin(), body.end());
    return out;
}

Bytes to_bytes(const kzg::G1Bytes& p) {
    return Bytes(p.data(), p.data() + 48);
}

Bytes infinity() {
    Bytes p(48, 0);
    p[0] = 0xc0;
    return p;
}

class PoolTest : public ::testing::Test {
  protected:
    void SetUp() override {
        for (std::uint8_t who : {1, 2, 3}) fund(who, 0, Uint256(1'000'000'000'000));
    }
    void fund(std::uint8_t who, std::uint64_t nonce, const Uint256& balance) {
        state_.put(address_of(who), nonce, balance, {}, {});
    }
    Result<Hash32, std::string> add(const Bytes& raw) { return pool_.add(raw, head_, state_); }

    Pool pool_{Limits{.max_size = 128 * 1024,
                      .max_per_sender = 4,
                      .max_total = 8,
                      .max_nonce_gap = 6,
                      .min_tip = Uint256(1),
                      .price_bump_percent = 10}};
    Head head_{.number = 10,
               .fork = eth::Fork::prague,
               .chain_id = kChain,
               .gas_limit = 100'000,
               .base_fee = Uint256(10)};
    state::MemoryState state_;
};

TEST_F(PoolTest, PendingAndQueuedByNonce) {
    ASSERT_TRUE(add(tx(1, 0, 100, 5)));
    ASSERT_TRUE(add(tx(1, 1, 100, 5)));
    ASSERT_TRUE(add(tx(1, 3, 100, 5)));  // a gap at 2: queued
    EXPECT_EQ(pool_.status().pending, 2u);
    EXPECT_EQ(pool_.status().queued, 1u);
    EXPECT_EQ(pool_.next_nonce(address_of(1), 0), 2u);  // 0 and 1 follow on; 3 waits
    ASSERT_TRUE(add(tx(1, 2, 100, 5)));                 // the gap filled: all pending
    EXPECT_EQ(pool_.status().pending, 4u);
    EXPECT_EQ(pool_.next_nonce(address_of(1), 0), 4u);
    EXPECT_EQ(pool_.next_nonce(address_of(2), 7), 7u);  // nothing in the pool
    EXPECT_EQ(pool_.status().queued, 0u);
    const Bytes one = tx(2, 0, 100, 5);
    const Hash32 h = add(one).value();
    EXPECT_EQ(pool_.get(h)->hash(), h);
    EXPECT_EQ(add(one).error(), "already known");
}

TEST_F(PoolTest, BestIsByTipInNonceOrderWithinGas) {
    ASSERT_TRUE(add(tx(1, 0, 100, 1)));
    ASSERT_TRUE(add(tx(1, 1, 100, 50)));  // high tip, but after its sender's nonce 0
    ASSERT_TRUE(add(tx(2, 0, 100, 20)));
    ASSERT_TRUE(add(tx(3, 0, 15, 15)));  // fee cap 15 at base fee 10: tip 5
    const auto best = pool_.best(Uint256(10), 100'000);
    ASSERT_EQ(best.size(), 4u);
    EXPECT_EQ(best[0].max_priority_fee_per_gas(), Uint256(20));  // sender 2
    EXPECT_EQ(best[1].max_fee_per_gas(), Uint256(15));           // sender 3, tip 5
    EXPECT_EQ(best[2].nonce(), 0u);                              // sender 1's nonce 0 (tip 1)...
    EXPECT_EQ(best[3].nonce(), 1u);                              // ... then its nonce 1
    // A base fee above sender 3's cap leaves it out; the gas limit caps the count.
    EXPECT_EQ(pool_.best(Uint256(16), 100'000).size(), 3u);
    EXPECT_EQ(pool_.best(Uint256(10), 42'000).size(), 2u);
}

TEST_F(PoolTest, ReplacementNeedsATenPercentBump) {
    ASSERT_TRUE(add(tx(1, 0, 100, 10)));
    EXPECT_EQ(add(tx(1, 0, 109, 11)).error(), "replacement transaction underpriced");
    EXPECT_EQ(add(tx(1, 0, 110, 10)).error(), "replacement transaction underpriced");
    const Hash32 h = add(tx(1, 0, 110, 11)).value();
    EXPECT_EQ(pool_.status().pending, 1u);
    EXPECT_TRUE(pool_.get(h).has_value());
}

TEST_F(PoolTest, RefusalsInGethsWords) {
    fund(1, 5, Uint256(1'000'000'000'000));
    const auto refused = [&](const Bytes& raw, std::string_view why) {
        auto r = add(raw);
        ASSERT_FALSE(r.has_value());
        EXPECT_NE(r.error().find(why), std::string::npos) << r.error();
    };
    refused(tx(1, 4, 100, 5), "nonce too low");
    refused(tx(1, 12, 100, 5), "nonce too high");
    refused(tx(1, 5, 100, 0), "transaction underpriced");
    refused(tx(1, 5, 100, 5, 200'000), "exceeds block gas limit");
    refused(tx(1, 5, 100, 5, 20'000), "intrinsic gas too low");
    refused(tx(9, 0, 100, 5), "insufficient funds for gas * price + value");
    refused(tx(1, 5, 100, 5, 21'000, 130 * 1024), "oversized data");
    refused(Bytes{0x02, 0xc0}, "invalid transaction");
    refused(Bytes{0x03, 0xc0}, "");
    head_.chain_id = 8;
    refused(tx(1, 5, 100, 5), "invalid chain id");
    head_.chain_id = kChain;
    head_.fork = eth::Fork::berlin;
    refused(tx(1, 5, 100, 5), "transaction type not supported");
}

TEST_F(PoolTest, LimitsBoundTheMemory) {
    for (std::uint64_t n = 0; n < 4; ++n) ASSERT_TRUE(add(tx(1, n, 100, 5)));
    EXPECT_NE(add(tx(1, 4, 100, 5)).error().find("account limit exceeded"), std::string::npos);
    for (std::uint64_t n = 0; n < 4; ++n) ASSERT_TRUE(add(tx(2, n, 100, 5)));
    EXPECT_EQ(add(tx(3, 0, 100, 5)).error(), "txpool is full");
}

TEST_F(PoolTest, BlobTransactionsNeedTheirForksSidecarAndValidProofs) {
    // Prague: version 0, a proof per blob. A blob with content, its commitment and proof.
    Bytes blob(kzg::kBytesPerBlob, 0);
    for (std::size_t i = 0; i < blob.size(); i += 32) blob[i + 31] = static_cast<std::uint8_t>(i);
    const Bytes c = to_bytes(kzg::blob_to_kzg_commitment(blob).value());
    const Bytes proof = to_bytes(kzg::compute_blob_kzg_proof(blob, c).value());
    const auto refused = [&](const Bytes& raw, std::string_view why) {
        auto r = add(raw);
        ASSERT_FALSE(r.has_value());
        EXPECT_NE(r.error().find(why), std::string::npos) << r.error();
    };
    refused(blob_tx(1, 0, 0, blob, c, {c}), "invalid blob proof");  // the commitment as proof
    refused(blob_tx(1, 0, 0, blob, c, {proof}, Hash32{{0x01}}), "mismatches transaction one");
    refused(blob_tx(1, 0, 1, blob, c, std::vector<Bytes>(128, proof)),
            "unexpected sidecar version, want: 0, got: 1");
    refused(blob_tx(1, 0, 0, blob, c, {proof}, std::nullopt, 0), "blob fee cap 0");
    // The canonical form (no sidecar): geth's words.
    const Bytes network = blob_tx(1, 0, 0, blob, c, {proof});
    const Bytes canonical = eth::encode(eth::decode_transaction_network(network).value());
    refused(canonical, "missing sidecar in blob transaction");
    const Hash32 h = add(blob_tx(1, 0, 0, blob, c, {proof})).value();
    EXPECT_TRUE(pool_.get(h)->has_sidecar());
    const auto kept = pool_.find_blob(kzg::versioned_hash(c));
    ASSERT_TRUE(kept.has_value());
    EXPECT_EQ(kept->blob, blob);
    EXPECT_EQ(kept->proofs, std::vector<Bytes>{proof});
    EXPECT_FALSE(pool_.find_blob(Hash32{{0x01}}).has_value());

    // Osaka: version 1, a proof per cell, checked against the cells of the blob. The zero blob's
    // commitment and cell proofs are all at infinity; the blob with content does not fit them.
    head_.fork = eth::Fork::osaka;
    const Bytes zero(kzg::kBytesPerBlob, 0);
    const std::vector<Bytes> cell_proofs(128, infinity());
    refused(blob_tx(2, 0, 0, zero, infinity(), {infinity()}),
            "unexpected sidecar version, want: 1, got: 0");
    refused(blob_tx(2, 0, 1, blob, infinity(), cell_proofs), "invalid cell proofs");
    refused(blob_tx(2, 0, 1, zero, infinity(), std::vector<Bytes>(127, infinity())), "invalid");
    ASSERT_TRUE(add(blob_tx(2, 0, 1, zero, infinity(), cell_proofs)));
    EXPECT_EQ(pool_.find_blob(kzg::versioned_hash(infinity()))->proofs.size(), 128u);
    // The blob fee counts in the cost: 131072 blob gas at 10 wei is more than sender 3 has.
    fund(3, 0, Uint256(21000 * 100 + 1));
    refused(blob_tx(3, 0, 1, zero, infinity(), cell_proofs), "insufficient funds");
}

TEST_F(PoolTest, ABlockCarriesOnlyTheSidecarsOfItsFork) {
    // Candidates for the first Osaka block, taken from the pool while the head was Prague's:
    // sender 1's version-0 blob transaction and its next, sender 2's transfer, sender 3's
    // version-1 blob transaction. The version-0 one and its sender's next stay out.
    const Bytes zero(kzg::kBytesPerBlob, 0);
    const auto decoded = [](const Bytes& raw) {
        eth::Transaction t = eth::decode_transaction_network(raw).value();
        EXPECT_TRUE(eth::sender(t).has_value());  // the pool's are recovered
        return t;
    };
    const std::vector<eth::Transaction> all = {
        decoded(blob_tx(1, 0, 0, zero, infinity(), {infinity()})), decoded(tx(1, 1, 100, 5)),
        decoded(tx(2, 0, 100, 5)),
        decoded(blob_tx(3, 0, 1, zero, infinity(), std::vector<Bytes>(128, infinity())))};
    std::vector<eth::Transaction> osaka = all;
    keep_carriable(osaka, eth::Fork::osaka);
    ASSERT_EQ(osaka.size(), 2u);
    EXPECT_EQ(osaka[0].hash(), all[2].hash());
    EXPECT_EQ(osaka[1].hash(), all[3].hash());
    std::vector<eth::Transaction> prague = all;  // and a Prague block the other way round
    keep_carriable(prague, eth::Fork::prague);
    ASSERT_EQ(prague.size(), 3u);
    EXPECT_EQ(prague[2].hash(), all[2].hash());
    // A transaction in its canonical form (no sidecar: testing_buildBlockV1's) stays.
    std::vector<eth::Transaction> canonical = {
        eth::decode_transaction(eth::encode(all[0])).value()};
    keep_carriable(canonical, eth::Fork::osaka);
    EXPECT_EQ(canonical.size(), 1u);
}

TEST_F(PoolTest, AtOsakaAVersionZeroSidecarLeavesThePool) {
    // Kept under Prague with a proof per blob, with a plain transfer after it and one from
    // another sender; once the next block is Osaka's, the blob transaction goes (no block can
    // carry its sidecar) and its sender's next waits in the queue.
    const Bytes zero(kzg::kBytesPerBlob, 0);
    ASSERT_TRUE(add(blob_tx(1, 0, 0, zero, infinity(), {infinity()})));
    ASSERT_TRUE(add(tx(1, 1, 100, 5)));
    ASSERT_TRUE(add(tx(2, 0, 100, 5)));
    pool_.update(head_, state_);
    EXPECT_EQ(pool_.status().pending, 3u);
    head_.fork = eth::Fork::osaka;
    pool_.update(head_, state_);
    EXPECT_EQ(pool_.status().pending, 1u);
    EXPECT_EQ(pool_.status().queued, 1u);
    EXPECT_FALSE(pool_.find_blob(kzg::versioned_hash(infinity())).has_value());
}

TEST_F(PoolTest, UpdateDropsWhatTheHeadIncluded) {
    ASSERT_TRUE(add(tx(1, 0, 100, 5)));
    ASSERT_TRUE(add(tx(1, 1, 100, 5)));
    ASSERT_TRUE(add(tx(1, 2, 100, 5)));
    ASSERT_TRUE(add(tx(2, 0, 100, 5)));
    fund(1, 2, Uint256(1'000'000'000'000));  // the head included sender 1's nonces 0 and 1
    fund(2, 0, Uint256(5));                  // and sender 2 can no longer pay
    pool_.update(head_, state_);
    EXPECT_EQ(pool_.status().pending, 1u);
    EXPECT_EQ(pool_.status().queued, 0u);
    std::size_t seen = 0;
    pool_.for_each([&](const Kept& k) {
        EXPECT_EQ(k.sender, address_of(1));
        EXPECT_EQ(k.tx->nonce(), 2u);
        EXPECT_TRUE(k.pending);
        ++seen;
    });
    EXPECT_EQ(seen, 1u);
}

}  // namespace
}  // namespace keel::txpool::pool_test
