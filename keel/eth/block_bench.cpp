// Block decoding and the roots a header commits to, on a realistic Prague block: 200
// transactions (mostly EIP-1559, some legacy, access-list and blob ones; transfers, token calls
// and larger contract calls), 16 withdrawals, a 21-field header. Built with the keel encoders.
//   BM_BlockKeccakAllBytes       physical reference in the same run: Keccak-256 over the whole
//                                block once (decoding hashes every transaction envelope, so it
//                                cannot be cheaper than this)
//   BM_BlockDecode               decode_block(): header, 200 transactions (each hashed),
//   withdrawals BM_BlockDecodeRootsAndHash   decode + transactions root + withdrawals root + header
//   hash: what
//                                importing a block from the network does before execution
//   BM_BlockTransactionsRoot     transactions_root() alone (ordered trie of the 200 envelopes)
//   BM_BlockHeaderHash           Header::hash() (encode + Keccak)
//   BM_BlockEncode               encode(): the block back to RLP, sized up front
#include <benchmark/benchmark.h>

#include <cstdint>
#include <vector>

#include "keel/common/assert.hpp"
#include "keel/crypto/keccak.hpp"
#include "keel/eth/block.hpp"
#include "keel/trie/root.hpp"
#include "test/testutil/data.hpp"

namespace {

using namespace keel;
using namespace keel::eth;

Bytes make_block_rlp() {
    testutil::Xorshift64 rng(0x6a09e667f3bcc908ull);
    Block b;
    for (std::size_t i = 0; i < 200; ++i) {
        TransactionFields f;
        const std::uint64_t kind = rng.below(100);
        f.type = kind < 65   ? TxType::dynamic_fee
                 : kind < 92 ? TxType::legacy
                 : kind < 98 ? TxType::access_list
                             : TxType::blob;
        f.nonce = rng.below(300000);
        f.max_fee_per_gas = Uint256{10'000'000'000ull + rng.below(90'000'000'000ull)};
        f.max_priority_fee_per_gas = Uint256{1'000'000'000ull * (1 + rng.below(3))};
        f.gas_limit = 21000 + rng.below(500000);
        const Address to = rng.fixed<20>();
        f.to = to;
        f.value = Uint256{rng.below(10) < 4 ? rng() : 0};
        const std::uint64_t call = rng.below(10);
        const std::size_t data = call < 3 ? 0 : call < 7 ? 68 : 100 + rng.below(1900);
        f.data.resize(data);
        for (auto& x : f.data) x = rng.below(3) == 0 ? 0 : static_cast<std::uint8_t>(rng());
        if (f.type == TxType::access_list || rng.below(10) == 0) {
            TransactionFields::AccessListEntry e;
            e.address = to;
            for (int k = 0; k < 2; ++k) {
                e.storage_keys.push_back(rng.fixed<32>());
            }
            if (f.type != TxType::legacy) f.access_list.push_back(e);
        }
        if (f.type == TxType::blob) {
            Hash32 h;
            h[0] = 0x01;
            f.blob_versioned_hashes.push_back(h);
            f.max_fee_per_blob_gas = Uint256{1'000'000'000ull};
        }
        f.v = f.type == TxType::legacy ? Uint256{37 + rng.below(2)} : Uint256{rng.below(2)};
        f.r = Uint256::from_be_bytes(rng.fixed<32>());
        f.s = Uint256::from_be_bytes(rng.fixed<32>());
        auto tx = decode_transaction(encode(f));
        KEEL_ASSERT(tx.has_value());
        b.body.transactions.push_back(std::move(*tx));
    }
    b.body.withdrawals.emplace();
    for (std::uint64_t i = 0; i < 16; ++i) {
        Withdrawal w;
        w.index = 80'000'000 + i;
        w.validator_index = 1'000'000 + rng.below(500000);
        w.address = rng.fixed<20>();
        w.amount_gwei = 17'000'000 + rng.below(100000);
        b.body.withdrawals->push_back(w);
    }
    Header& h = b.header;
    h.number = 22'000'000;
    h.gas_limit = 36'000'000;
    h.gas_used = 17'654'321;
    h.timestamp = 1'746'000'000;
    h.extra_data.assign(16, 0x42);
    h.ommers_hash = kEmptyOmmersHash;
    h.base_fee_per_gas = Uint256{3'500'000'000ull};
    h.withdrawals_root = withdrawals_root(*b.body.withdrawals);
    h.blob_gas_used = 131072 * 2;
    h.excess_blob_gas = 0;
    h.parent_beacon_block_root = Hash32{};
    h.requests_hash = Hash32{};
    h.transactions_root = transactions_root(b.body.transactions);
    return encode(b);
}

const Bytes& block_rlp() {
    static const Bytes rlp = make_block_rlp();
    return rlp;
}

void BM_BlockKeccakAllBytes(benchmark::State& state) {
    const Bytes& in = block_rlp();
    for (auto _ : state) benchmark::DoNotOptimize(crypto::keccak256(in));
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * in.size()));
}
BENCHMARK(BM_BlockKeccakAllBytes);

void BM_BlockDecode(benchmark::State& state) {
    const Bytes& in = block_rlp();
    for (auto _ : state) {
        auto b = decode_block(in);
        benchmark::DoNotOptimize(b);
    }
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * in.size()));
}
BENCHMARK(BM_BlockDecode);

void BM_BlockDecodeRootsAndHash(benchmark::State& state) {
    const Bytes& in = block_rlp();
    trie::RootBuilder builder;
    for (auto _ : state) {
        auto b = decode_block(in);
        KEEL_ASSERT(b.has_value());
        const Hash32 tx_root = transactions_root(b->body.transactions, builder);
        const Hash32 w_root = withdrawals_root(*b->body.withdrawals, builder);
        const Hash32 hash = b->hash();
        KEEL_ASSERT(tx_root == b->header.transactions_root &&
                    w_root == *b->header.withdrawals_root);
        benchmark::DoNotOptimize(hash);
    }
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * in.size()));
}
BENCHMARK(BM_BlockDecodeRootsAndHash);

void BM_BlockTransactionsRoot(benchmark::State& state) {
    const Block b = decode_block(block_rlp()).value();
    std::size_t bytes = 0;
    for (const auto& tx : b.body.transactions) bytes += tx.encoded().size();
    trie::RootBuilder builder;
    for (auto _ : state) {
        benchmark::DoNotOptimize(transactions_root(b.body.transactions, builder));
    }
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * bytes));
    state.SetItemsProcessed(
        static_cast<std::int64_t>(state.iterations() * b.body.transactions.size()));
}
BENCHMARK(BM_BlockTransactionsRoot);

void BM_BlockHeaderHash(benchmark::State& state) {
    const Block b = decode_block(block_rlp()).value();
    for (auto _ : state) benchmark::DoNotOptimize(b.header.hash());
}
BENCHMARK(BM_BlockHeaderHash);

void BM_BlockEncode(benchmark::State& state) {
    const Block b = decode_block(block_rlp()).value();
    rlp::Encoder e;
    for (auto _ : state) {
        e.clear();
        encode(b, e);
        benchmark::DoNotOptimize(e.view().data());
    }
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * block_rlp().size()));
}
BENCHMARK(BM_BlockEncode);

}  // namespace
