// Sender recovery per transaction, judged in the same run against a bare loop doing the
// unavoidable work: the transaction's signing hash, then libsecp256k1 directly (parse the
// compact signature, recover, serialise, Keccak-256 of x || y) on a context set up as keel's.
// keel's extra work is the v / range checks, the error mapping and the cache slot; the goal is
// >= 0.95 of the bare loop. BM_SenderVsBare interleaves both over the same transactions and
// reports the ratio as a counter. The batch (recover_senders) runs on 1 and 2 threads over a
// block of 1024 EIP-1559 transactions; the goal is >= 1.8x on 2 cores.
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <random>
#include <vector>

#include "keel/common/parallel.hpp"
#include "keel/crypto/secp256k1.hpp"
#include "keel/eth/sender.hpp"
#include "keel/eth/transaction.hpp"
#include "test/testutil/alternating_timer.hpp"
#include "test/testutil/bare_secp256k1.hpp"

namespace {

using keel::Address;
using keel::Hash32;
using keel::Uint256;
using keel::eth::Transaction;
using keel::eth::TransactionFields;
using keel::eth::TxType;

constexpr std::size_t kBlockTxs = 1024;

Transaction decode_or_die(const TransactionFields& f) {
    auto tx = keel::eth::decode_transaction(keel::eth::encode(f));
    if (!tx) std::abort();
    return *tx;
}

// kBlockTxs signed EIP-1559 transfers with calldata, from distinct seeded keys.
std::vector<Transaction>& block() {
    static std::vector<Transaction> txs = [] {
        std::mt19937_64 rng(1559);
        std::vector<Transaction> out;
        out.reserve(kBlockTxs);
        while (out.size() < kBlockTxs) {
            const Uint256 k = Uint256::from_limbs(rng(), rng(), rng(), rng());
            if (k.is_zero() || k >= keel::crypto::secp256k1::kOrder) continue;
            TransactionFields f;
            f.type = TxType::dynamic_fee;
            f.chain_id = 1;
            f.nonce = out.size();
            f.max_fee_per_gas = 30'000'000'000ull;
            f.max_priority_fee_per_gas = 1'000'000'000ull;
            f.gas_limit = 60'000;
            f.to = Address{};
            (*f.to)[19] = static_cast<std::uint8_t>(out.size());
            f.value = 1'000'000'000'000'000ull;
            f.data = keel::Bytes(68, static_cast<std::uint8_t>(out.size()));
            f.r = 1;
            f.s = 1;
            const Hash32 h = decode_or_die(f).signing_hash();
            auto sig = keel::crypto::secp256k1::sign_recoverable(h, k.to_bytes32());
            if (!sig) std::abort();
            f.v = sig->recovery_id;
            f.r = sig->r;
            f.s = sig->s;
            out.push_back(decode_or_die(f));
        }
        return out;
    }();
    return txs;
}

// The reference per transaction: signing hash + bare libsecp256k1 recovery + Keccak.
inline Address bare_sender(const secp256k1_context* ctx, const Transaction& tx) {
    const Hash32 h = tx.signing_hash();
    std::uint8_t rs[64];
    tx.r().to_be_bytes(rs);
    tx.s().to_be_bytes(rs + 32);
    return keel::testutil::bare_recover_address(ctx, h, rs, tx.y_parity());
}

void BM_SenderBare(benchmark::State& state) {
    const auto& txs = block();
    const secp256k1_context* ctx = keel::testutil::bare_secp256k1_context();
    std::size_t i = 0;
    for (auto _ : state) {
        Address a = bare_sender(ctx, txs[i]);
        benchmark::DoNotOptimize(a);
        i = (i + 1) % txs.size();
    }
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()));
}
BENCHMARK(BM_SenderBare);

// keel::eth::sender with an empty cache each time (a recovery per call).
void BM_Sender(benchmark::State& state) {
    auto& txs = block();
    std::size_t i = 0;
    for (auto _ : state) {
        txs[i].clear_cached_sender();
        auto a = keel::eth::sender(txs[i]);
        benchmark::DoNotOptimize(a);
        i = (i + 1) % txs.size();
    }
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()));
}
BENCHMARK(BM_Sender);

// A cached sender: what every later use of the transaction costs.
void BM_SenderCached(benchmark::State& state) {
    const auto& tx = block()[0];
    (void)keel::eth::sender(tx);
    for (auto _ : state) {
        auto a = keel::eth::sender(tx);
        benchmark::DoNotOptimize(a);
    }
}
BENCHMARK(BM_SenderCached);

// The signing hash alone (part of both loops above).
void BM_SigningHash(benchmark::State& state) {
    const auto& txs = block();
    std::size_t i = 0;
    for (auto _ : state) {
        auto h = txs[i].signing_hash();
        benchmark::DoNotOptimize(h);
        i = (i + 1) % txs.size();
    }
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()));
}
BENCHMARK(BM_SigningHash);

// Both over the same 64 transactions per iteration, alternately; ratio = bare / keel time.
void BM_SenderVsBare(benchmark::State& state) {
    auto& txs = block();
    const secp256k1_context* ctx = keel::testutil::bare_secp256k1_context();
    constexpr std::size_t kChunk = 64;
    keel::testutil::AlternatingTimer timer;
    std::size_t base = 0;
    for (auto _ : state) {
        for (std::size_t i = base; i < base + kChunk; ++i) txs[i].clear_cached_sender();
        timer.run(
            [&] {
                for (std::size_t i = base; i < base + kChunk; ++i) {
                    auto a = keel::eth::sender(txs[i]);
                    benchmark::DoNotOptimize(a);
                }
            },
            [&] {
                for (std::size_t i = base; i < base + kChunk; ++i) {
                    Address a = bare_sender(ctx, txs[i]);
                    benchmark::DoNotOptimize(a);
                }
            });
        base = (base + kChunk) % txs.size();
    }
    timer.report(state, kChunk);
}
BENCHMARK(BM_SenderVsBare)->Unit(benchmark::kMillisecond);

// recover_senders over the whole block on range(0) threads, caches cleared before each run.
void BM_RecoverSenders(benchmark::State& state) {
    auto& txs = block();
    keel::parallel::ThreadLimit limit(static_cast<std::size_t>(state.range(0)));
    for (auto _ : state) {
        state.PauseTiming();
        for (auto& tx : txs) tx.clear_cached_sender();
        state.ResumeTiming();
        const std::size_t n = keel::eth::recover_senders(txs);
        if (n != txs.size()) {
            state.SkipWithError("a sender did not recover");
            break;
        }
    }
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * txs.size()));
    state.counters["threads"] = static_cast<double>(keel::parallel::concurrency());
}
BENCHMARK(BM_RecoverSenders)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace
