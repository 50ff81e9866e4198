// Transaction decode and hash throughput on a realistic mix, built in setup with keel's encoder
// (TransactionFields -> encode):
//   40% legacy EIP-155 ERC-20 transfers (68-byte calldata)
//   45% EIP-1559 swaps (200-400 bytes of calldata, half with a 1-2 entry access list)
//   10% EIP-2930 with a 1-3 entry access list
//    5% EIP-4844 blob transactions with 2 versioned hashes
// 1000 transactions per iteration (about 220 KB), decoded from one contiguous buffer.
//   BM_TxMixDecodeOnly    parse + copy, no hash (detail::decode_transaction_unhashed)
//   BM_TxMixHashOnly      keccak256 of every envelope: the physical floor of decode + hash
//   BM_TxMixDecodeHash    decode_transaction(): what a node pays per transaction
//   BM_TxMixSigningHash   signing_hash() of decoded transactions (sender recovery's input)
//   BM_TxMixEncode        re-encoding decoded transactions
//   BM_TxMixMemcpy        copying every envelope into a fresh allocation (one per tx)
//   BM_TxKind*/0-3        the same three measures for one kind at a time
#include <benchmark/benchmark.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <vector>

#include "keel/crypto/keccak.hpp"
#include "keel/eth/transaction.hpp"
#include "test/testutil/data.hpp"

namespace {

using namespace keel;
using namespace keel::eth;

using Rng = testutil::Xorshift64;

// A 256-bit word from 32 outputs (big-endian, first output in the top byte).
Uint256 word(Rng& rng) {
    return Uint256::from_be_bytes(rng.fixed<32>());
}

constexpr std::uint64_t kGwei = 1000000000ull;

// Calldata as ABI-encoded arguments look: a selector, then 32-byte words that are mostly
// small numbers and addresses (left-padded with zeros).
Bytes abi_calldata(Rng& rng, std::size_t words) {
    Bytes d = rng.bytes(4);  // the selector
    for (std::size_t w = 0; w < words; ++w) {
        const std::size_t significant = rng.below(3) == 0 ? 20 : rng.between(1, 12);
        d.insert(d.end(), 32 - significant, 0);
        for (std::size_t i = 0; i < significant; ++i) d.push_back(static_cast<std::uint8_t>(rng()));
    }
    return d;
}

void sign(Rng& rng, TransactionFields& f) {
    f.r = word(rng);
    f.s = word(rng) >> 1;
    if (f.type == TxType::legacy) {
        f.v = 37 + rng.below(2);  // EIP-155, chain id 1
    } else {
        f.v = rng.below(2);
    }
}

TransactionFields erc20_transfer(Rng& rng) {
    TransactionFields f;
    f.type = TxType::legacy;
    f.nonce = rng.below(100000);
    f.max_fee_per_gas = rng.between(5, 100) * kGwei;
    f.gas_limit = rng.between(45000, 65000);
    f.to = rng.fixed<20>();
    f.data = abi_calldata(rng, 2);  // transfer(address,uint256): 4 + 64 bytes
    sign(rng, f);
    return f;
}

std::vector<TransactionFields::AccessListEntry> access_list(Rng& rng, std::size_t entries) {
    std::vector<TransactionFields::AccessListEntry> al(entries);
    for (auto& e : al) {
        e.address = rng.fixed<20>();
        e.storage_keys.resize(rng.between(1, 3));
        for (auto& k : e.storage_keys) k = rng.fixed<32>();
    }
    return al;
}

TransactionFields swap(Rng& rng) {
    TransactionFields f;
    f.type = TxType::dynamic_fee;
    f.chain_id = 1;
    f.nonce = rng.below(5000);
    f.max_priority_fee_per_gas = rng.between(1, 3) * kGwei;
    f.max_fee_per_gas = rng.between(20, 200) * kGwei;
    f.gas_limit = rng.between(100000, 400000);
    f.to = rng.fixed<20>();
    if (rng.below(3) == 0) f.value = rng.between(1, 1000) * 1000000000000000ull;
    f.data = abi_calldata(rng, rng.between(6, 12));  // 196-388 bytes
    if (rng.below(2) == 0) f.access_list = access_list(rng, rng.between(1, 2));
    sign(rng, f);
    return f;
}

TransactionFields access_list_tx(Rng& rng) {
    TransactionFields f;
    f.type = TxType::access_list;
    f.chain_id = 1;
    f.nonce = rng.below(5000);
    f.max_fee_per_gas = rng.between(20, 100) * kGwei;
    f.gas_limit = rng.between(60000, 200000);
    f.to = rng.fixed<20>();
    f.data = abi_calldata(rng, rng.between(2, 6));
    f.access_list = access_list(rng, rng.between(1, 3));
    sign(rng, f);
    return f;
}

TransactionFields blob_tx(Rng& rng) {
    TransactionFields f;
    f.type = TxType::blob;
    f.chain_id = 1;
    f.nonce = rng.below(100000);
    f.max_priority_fee_per_gas = rng.between(1, 3) * kGwei;
    f.max_fee_per_gas = rng.between(20, 200) * kGwei;
    f.gas_limit = 21000;
    f.to = rng.fixed<20>();
    f.max_fee_per_blob_gas = rng.between(1, 50) * kGwei;
    for (int i = 0; i < 2; ++i) {
        Hash32 h = rng.fixed<32>();
        h[0] = 0x01;
        f.blob_versioned_hashes.push_back(h);
    }
    sign(rng, f);
    return f;
}

struct Mix {
    Bytes bytes;                       // all envelopes back to back
    std::vector<BytesView> envelopes;  // views into bytes
};

// kind 0-3: 1000 transactions of one kind (transfer, swap, access list, blob); kind 4: the mix.
Mix make_mix(int kind) {
    constexpr std::size_t kCount = 1000;
    Rng rng(0x9e3779b97f4a7c15ull);
    std::vector<Bytes> txs;
    for (std::size_t i = 0; i < kCount; ++i) {
        const std::uint64_t pick = rng.below(100);
        const int k = kind != 4 ? kind : pick < 40 ? 0 : pick < 85 ? 1 : pick < 95 ? 2 : 3;
        const TransactionFields f = k == 0   ? erc20_transfer(rng)
                                    : k == 1 ? swap(rng)
                                    : k == 2 ? access_list_tx(rng)
                                             : blob_tx(rng);
        txs.push_back(encode(f));
    }
    Mix out;
    for (const auto& t : txs) out.bytes.insert(out.bytes.end(), t.begin(), t.end());
    std::size_t off = 0;
    for (const auto& t : txs) {
        out.envelopes.emplace_back(out.bytes.data() + off, t.size());
        off += t.size();
    }
    // Every transaction must decode, or the benchmark measures error paths.
    for (const auto e : out.envelopes) {
        if (!decode_transaction(e)) std::abort();
    }
    return out;
}

const Mix& mix(int kind = 4) {
    static const Mix mixes[5] = {make_mix(0), make_mix(1), make_mix(2), make_mix(3), make_mix(4)};
    return mixes[kind];
}

const char* const kKindNames[5] = {"erc20-transfer", "swap-1559", "access-list-2930", "blob-4844",
                                   "mix"};

void report(benchmark::State& state, const Mix& m) {
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * m.envelopes.size()));
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * m.bytes.size()));
    state.counters["avg_tx_bytes"] =
        static_cast<double>(m.bytes.size()) / static_cast<double>(m.envelopes.size());
}

void BM_TxMixDecodeOnly(benchmark::State& state) {
    const Mix& m = mix();
    for (auto _ : state) {
        for (const auto e : m.envelopes) {
            auto tx = detail::decode_transaction_unhashed(e);
            benchmark::DoNotOptimize(tx);
        }
    }
    report(state, m);
}
BENCHMARK(BM_TxMixDecodeOnly);

void BM_TxMixHashOnly(benchmark::State& state) {
    const Mix& m = mix();
    for (auto _ : state) {
        for (const auto e : m.envelopes) {
            const Hash32 h = crypto::keccak256(e);
            benchmark::DoNotOptimize(h);
        }
    }
    report(state, m);
}
BENCHMARK(BM_TxMixHashOnly);

void BM_TxMixDecodeHash(benchmark::State& state) {
    const Mix& m = mix();
    for (auto _ : state) {
        for (const auto e : m.envelopes) {
            auto tx = decode_transaction(e);
            benchmark::DoNotOptimize(tx);
        }
    }
    report(state, m);
}
BENCHMARK(BM_TxMixDecodeHash);

void BM_TxMixSigningHash(benchmark::State& state) {
    const Mix& m = mix();
    std::vector<Transaction> txs;
    for (const auto e : m.envelopes) txs.push_back(*decode_transaction(e));
    for (auto _ : state) {
        for (const auto& tx : txs) {
            const Hash32 h = tx.signing_hash();
            benchmark::DoNotOptimize(h);
        }
    }
    report(state, m);
}
BENCHMARK(BM_TxMixSigningHash);

void BM_TxMixEncode(benchmark::State& state) {
    const Mix& m = mix();
    std::vector<Transaction> txs;
    for (const auto e : m.envelopes) txs.push_back(*decode_transaction(e));
    rlp::Encoder out;
    for (auto _ : state) {
        out.clear();
        for (const auto& tx : txs) encode(tx, out);
        benchmark::DoNotOptimize(out.view().data());
    }
    report(state, m);
}
BENCHMARK(BM_TxMixEncode);

void BM_TxMixMemcpy(benchmark::State& state) {
    const Mix& m = mix();
    for (auto _ : state) {
        for (const auto e : m.envelopes) {
            Bytes copy(e.begin(), e.end());
            benchmark::DoNotOptimize(copy.data());
        }
    }
    report(state, m);
}
BENCHMARK(BM_TxMixMemcpy);

// One kind at a time: where the time goes as transactions grow (Keccak permutations: one per
// 136 bytes of envelope, rounded up after padding).
void BM_TxKindDecodeOnly(benchmark::State& state) {
    const Mix& m = mix(static_cast<int>(state.range(0)));
    for (auto _ : state) {
        for (const auto e : m.envelopes) {
            auto tx = detail::decode_transaction_unhashed(e);
            benchmark::DoNotOptimize(tx);
        }
    }
    report(state, m);
    state.SetLabel(kKindNames[state.range(0)]);
}
BENCHMARK(BM_TxKindDecodeOnly)->DenseRange(0, 3);

void BM_TxKindHashOnly(benchmark::State& state) {
    const Mix& m = mix(static_cast<int>(state.range(0)));
    for (auto _ : state) {
        for (const auto e : m.envelopes) {
            const Hash32 h = crypto::keccak256(e);
            benchmark::DoNotOptimize(h);
        }
    }
    report(state, m);
    state.SetLabel(kKindNames[state.range(0)]);
}
BENCHMARK(BM_TxKindHashOnly)->DenseRange(0, 3);

void BM_TxKindDecodeHash(benchmark::State& state) {
    const Mix& m = mix(static_cast<int>(state.range(0)));
    for (auto _ : state) {
        for (const auto e : m.envelopes) {
            auto tx = decode_transaction(e);
            benchmark::DoNotOptimize(tx);
        }
    }
    report(state, m);
    state.SetLabel(kKindNames[state.range(0)]);
}
BENCHMARK(BM_TxKindDecodeHash)->DenseRange(0, 3);

// The batch decoder (decode_transactions: parse, then hash eight envelopes per Keccak call)
// against one-by-one decoding, on the same mix.
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
