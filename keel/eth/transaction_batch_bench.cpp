// Transaction decode + hash, one call per transaction against the batch decoder, on the
// realistic mix of transaction_bench.cpp (same proportions and shapes, generated here):
//   40% legacy EIP-155 ERC-20 transfers (68-byte calldata)
//   45% EIP-1559 swaps (196-388 bytes of calldata, half with a 1-2 entry access list)
//   10% EIP-2930 with a 1-3 entry access list
//    5% EIP-4844 blob transactions with 2 versioned hashes
// 1000 transactions per iteration, from one contiguous buffer.
//   BM_TxBatchOneByOne     decode_transaction() per envelope (parse, copy, single-state Keccak)
//   BM_TxBatchDecode       decode_transactions(): parse, copy, Keccak eight states at a time
//   BM_TxBatchDecodeOnly   parse + copy only (detail::decode_transaction_unhashed), the floor
//   BM_TxBatchHashOnly     keccak256_many() of the envelopes, the other floor
#include <benchmark/benchmark.h>

#include <cstdint>
#include <cstdlib>
#include <random>
#include <vector>

#include "keel/crypto/keccak.hpp"
#include "keel/eth/transaction.hpp"

namespace {

using namespace keel;
using namespace keel::eth;

using Rng = std::mt19937_64;

std::uint64_t between(Rng& rng, std::uint64_t lo, std::uint64_t hi) {
    return lo + rng() % (hi - lo + 1);
}

template <std::size_t N>
FixedBytes<N> fixed(Rng& rng) {
    FixedBytes<N> out;
    for (auto& b : out.bytes) b = static_cast<std::uint8_t>(rng());
    return out;
}

Uint256 word(Rng& rng) {
    return Uint256::from_limbs(rng(), rng(), rng(), rng());
}

constexpr std::uint64_t kGwei = 1000000000ull;

// ABI-encoded arguments: a selector, then 32-byte words that are mostly small numbers and
// addresses (left-padded with zeros).
Bytes abi_calldata(Rng& rng, std::size_t words) {
    Bytes d;
    for (int i = 0; i < 4; ++i) d.push_back(static_cast<std::uint8_t>(rng()));
    for (std::size_t w = 0; w < words; ++w) {
        const std::size_t significant = rng() % 3 == 0 ? 20 : between(rng, 1, 12);
        d.insert(d.end(), 32 - significant, 0);
        for (std::size_t i = 0; i < significant; ++i) d.push_back(static_cast<std::uint8_t>(rng()));
    }
    return d;
}

void sign(Rng& rng, TransactionFields& f) {
    f.r = word(rng);
    f.s = word(rng) >> 1;
    f.v = f.type == TxType::legacy ? 37 + rng() % 2 : rng() % 2;
}

std::vector<TransactionFields::AccessListEntry> access_list(Rng& rng, std::size_t entries) {
    std::vector<TransactionFields::AccessListEntry> al(entries);
    for (auto& e : al) {
        e.address = fixed<20>(rng);
        e.storage_keys.resize(between(rng, 1, 3));
        for (auto& k : e.storage_keys) k = fixed<32>(rng);
    }
    return al;
}

TransactionFields make_tx(Rng& rng, int kind) {
    TransactionFields f;
    f.to = fixed<20>(rng);
    if (kind == 0) {  // ERC-20 transfer: transfer(address,uint256)
        f.type = TxType::legacy;
        f.nonce = rng() % 100000;
        f.max_fee_per_gas = between(rng, 5, 100) * kGwei;
        f.gas_limit = between(rng, 45000, 65000);
        f.data = abi_calldata(rng, 2);
    } else if (kind == 1) {  // EIP-1559 swap
        f.type = TxType::dynamic_fee;
        f.nonce = rng() % 5000;
        f.max_priority_fee_per_gas = between(rng, 1, 3) * kGwei;
        f.max_fee_per_gas = between(rng, 20, 200) * kGwei;
        f.gas_limit = between(rng, 100000, 400000);
        if (rng() % 3 == 0) f.value = between(rng, 1, 1000) * 1000000000000000ull;
        f.data = abi_calldata(rng, between(rng, 6, 12));
        if (rng() % 2 == 0) f.access_list = access_list(rng, between(rng, 1, 2));
    } else if (kind == 2) {  // EIP-2930
        f.type = TxType::access_list;
        f.nonce = rng() % 5000;
        f.max_fee_per_gas = between(rng, 20, 100) * kGwei;
        f.gas_limit = between(rng, 60000, 200000);
        f.data = abi_calldata(rng, between(rng, 2, 6));
        f.access_list = access_list(rng, between(rng, 1, 3));
    } else {  // EIP-4844
        f.type = TxType::blob;
        f.nonce = rng() % 100000;
        f.max_priority_fee_per_gas = between(rng, 1, 3) * kGwei;
        f.max_fee_per_gas = between(rng, 20, 200) * kGwei;
        f.gas_limit = 21000;
        f.max_fee_per_blob_gas = between(rng, 1, 50) * kGwei;
        for (int i = 0; i < 2; ++i) {
            Hash32 h = fixed<32>(rng);
            h[0] = 0x01;
            f.blob_versioned_hashes.push_back(h);
        }
    }
    sign(rng, f);
    return f;
}

struct Mix {
    Bytes bytes;                       // all envelopes back to back
    std::vector<BytesView> envelopes;  // views into bytes
};

const Mix& mix() {
    static const Mix m = [] {
        constexpr std::size_t kCount = 1000;
        Rng rng(0x9e3779b97f4a7c15ull);
        std::vector<Bytes> txs;
        for (std::size_t i = 0; i < kCount; ++i) {
            const std::uint64_t pick = rng() % 100;
            const int kind = pick < 40 ? 0 : pick < 85 ? 1 : pick < 95 ? 2 : 3;
            txs.push_back(encode(make_tx(rng, kind)));
        }
        Mix out;
        for (const auto& t : txs) out.bytes.insert(out.bytes.end(), t.begin(), t.end());
        std::size_t off = 0;
        for (const auto& t : txs) {
            out.envelopes.emplace_back(out.bytes.data() + off, t.size());
            off += t.size();
        }
        // Every transaction must decode, or the benchmark measures error paths.
        for (const auto e : out.envelopes)
            if (!decode_transaction(e)) std::abort();
        return out;
    }();
    return m;
}

void report(benchmark::State& state, const Mix& m) {
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * m.envelopes.size()));
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * m.bytes.size()));
    state.counters["avg_tx_bytes"] =
        static_cast<double>(m.bytes.size()) / static_cast<double>(m.envelopes.size());
}

// Results are kept in a reused vector in both variants, as a caller that keeps the decoded
// transactions would.
void BM_TxBatchOneByOne(benchmark::State& state) {
    const Mix& m = mix();
    std::vector<Result<Transaction, Error>> out;
    out.reserve(m.envelopes.size());
    for (auto _ : state) {
        out.clear();
        for (const auto e : m.envelopes) out.push_back(decode_transaction(e));
        benchmark::DoNotOptimize(out.data());
    }
    report(state, m);
}
BENCHMARK(BM_TxBatchOneByOne);

void BM_TxBatchDecode(benchmark::State& state) {
    const Mix& m = mix();
    std::vector<Result<Transaction, Error>> out;
    out.reserve(m.envelopes.size());
    for (auto _ : state) {
        out.clear();
        const std::size_t ok = decode_transactions(m.envelopes, out);
        benchmark::DoNotOptimize(ok);
        benchmark::DoNotOptimize(out.data());
    }
    report(state, m);
}
BENCHMARK(BM_TxBatchDecode);

void BM_TxBatchDecodeOnly(benchmark::State& state) {
    const Mix& m = mix();
    std::vector<Result<Transaction, Error>> out;
    out.reserve(m.envelopes.size());
    for (auto _ : state) {
        out.clear();
        for (const auto e : m.envelopes) out.push_back(detail::decode_transaction_unhashed(e));
        benchmark::DoNotOptimize(out.data());
    }
    report(state, m);
}
BENCHMARK(BM_TxBatchDecodeOnly);

void BM_TxBatchHashOnly(benchmark::State& state) {
    const Mix& m = mix();
    std::vector<Hash32> out(m.envelopes.size());
    for (auto _ : state) {
        crypto::keccak256_many(m.envelopes, out);
        benchmark::DoNotOptimize(out.data());
    }
    report(state, m);
}
BENCHMARK(BM_TxBatchHashOnly);

}  // namespace
