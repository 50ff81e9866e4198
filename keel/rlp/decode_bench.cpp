// RLP throughput on a realistic block body: [[100 transactions], []], a mix of legacy
// transactions (lists) and EIP-1559 transactions (strings holding 0x02 || rlp([...]), EIP-2718),
// built with the keel encoder. Reference point in the same run: memcpy of the same bytes.
//   BM_RlpBodyMemcpy         physical reference: copy the body once
//   BM_RlpValidateBody       validate(): every header of the tree, canonical form, depth cap
//   BM_RlpWalkBody           Decoder walk reading every field of every tx with the typed helpers
//   BM_RlpValidateWalkBody   both: what a node does with an untrusted body
//   BM_RlpEncodeBody         exact sizes first, then one reserve, into a reused buffer
#include <benchmark/benchmark.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <utility>
#include <vector>

#include "keel/common/assert.hpp"
#include "keel/rlp/decode.hpp"
#include "keel/rlp/encode.hpp"
#include "test/testutil/data.hpp"

namespace {

using namespace keel;
using namespace keel::rlp;

struct AccessEntry {
    Address address;
    std::vector<Bytes32> keys;
};

struct Tx {
    bool typed = false;  // EIP-1559 (type 2) or legacy
    std::uint64_t chain_id = 1;
    std::uint64_t nonce = 0;
    std::uint64_t tip = 0;        // maxPriorityFeePerGas (type 2)
    std::uint64_t gas_price = 0;  // gasPrice (legacy) / maxFeePerGas (type 2)
    std::uint64_t gas = 0;
    Address to;
    Bytes32 value;  // big-endian, leading zeros
    Bytes data;
    std::vector<AccessEntry> access_list;
    std::uint64_t v = 0;  // legacy: EIP-155 v; type 2: yParity
    Bytes32 r, s;
};

std::vector<Tx> make_txs(std::size_t n) {
    testutil::Xorshift64 rng(0x243f6a8885a308d3ull);
    std::vector<Tx> txs(n);
    for (auto& tx : txs) {
        tx.typed = rng.below(10) < 6;  // mainnet today: mostly type 2
        tx.nonce = rng.below(200000);
        tx.tip = 1'000'000'000ull * (1 + rng.below(3));
        tx.gas_price = 10'000'000'000ull + rng.below(90'000'000'000ull);
        tx.gas = 21000 + rng.below(500000);
        tx.to = rng.fixed<20>();
        tx.value = Bytes32{};
        const std::size_t value_bytes = rng.below(10);  // 0 .. ~4.7e21 wei
        for (std::size_t i = 0; i < value_bytes; ++i) {
            tx.value[31 - i] = static_cast<std::uint8_t>(rng());
        }
        // Calldata: plain transfers, ERC-20 calls, and larger contract calls (swaps, mints).
        const std::uint64_t kind = rng.below(10);
        const std::size_t data_size = kind < 1 ? 0 : kind < 3 ? 68 : 196 + rng.below(105);
        tx.data.resize(data_size);
        for (auto& b : tx.data) b = static_cast<std::uint8_t>(rng.below(4) == 0 ? rng() : 0);
        if (tx.typed) {
            const std::size_t entries = rng.below(5);
            for (std::size_t e = 0; e < entries; ++e) {
                AccessEntry entry{rng.fixed<20>(), {}};
                const std::size_t keys = rng.below(6);
                for (std::size_t k = 0; k < keys; ++k) entry.keys.push_back(rng.fixed<32>());
                tx.access_list.push_back(std::move(entry));
            }
            tx.v = rng.below(2);
        } else {
            tx.v = 37 + rng.below(2);  // EIP-155, chain id 1
        }
        tx.r = rng.fixed<32>();
        tx.s = rng.fixed<32>();
    }
    return txs;
}

std::size_t access_list_payload(const Tx& tx) {
    std::size_t total = 0;
    for (const auto& e : tx.access_list) {
        const std::size_t keys = e.keys.size() * string_length_for(32, 0);
        total += list_length(string_length_for(20, 0) + list_length(keys));
    }
    return total;
}

// Payload of the transaction's field list (legacy: the tx itself; type 2: after 0x02).
std::size_t fields_payload(const Tx& tx) {
    std::size_t n = uint_length(tx.nonce) + uint_length(tx.gas_price) + uint_length(tx.gas) +
                    string_length_for(20, 0) + uint_bytes_length(tx.value.view()) +
                    string_length(tx.data) + uint_length(tx.v) + uint_bytes_length(tx.r.view()) +
                    uint_bytes_length(tx.s.view());
    if (tx.typed) {
        n += uint_length(tx.chain_id) + uint_length(tx.tip) + list_length(access_list_payload(tx));
    }
    return n;
}

// Encoded size of the transaction as an item of the body's transaction list.
std::size_t tx_length(const Tx& tx) {
    const std::size_t fields = list_length(fields_payload(tx));
    return tx.typed ? string_length_for(1 + fields, 0x02) : fields;
}

void encode_tx(const Tx& tx, Encoder& e) {
    const std::size_t payload = fields_payload(tx);
    if (tx.typed) {
        // EIP-2718 in a body: an RLP string holding 0x02 || rlp(fields) (EIP-1559 order).
        static constexpr std::uint8_t kType[1] = {0x02};
        e.add_string_header(1 + list_length(payload)).add_raw(kType);
        e.add_list_header(payload)
            .add_uint(tx.chain_id)
            .add_uint(tx.nonce)
            .add_uint(tx.tip)
            .add_uint(tx.gas_price)
            .add_uint(tx.gas)
            .add_string(tx.to.view())
            .add_uint_bytes(tx.value.view())
            .add_string(tx.data)
            .add_list_header(access_list_payload(tx));
        for (const auto& entry : tx.access_list) {
            const std::size_t keys = entry.keys.size() * string_length_for(32, 0);
            e.add_list_header(string_length_for(20, 0) + list_length(keys))
                .add_string(entry.address.view())
                .add_list_header(keys);
            for (const auto& k : entry.keys) e.add_string(k.view());
        }
        e.add_uint(tx.v).add_uint_bytes(tx.r.view()).add_uint_bytes(tx.s.view());
    } else {
        e.add_list_header(payload)
            .add_uint(tx.nonce)
            .add_uint(tx.gas_price)
            .add_uint(tx.gas)
            .add_string(tx.to.view())
            .add_uint_bytes(tx.value.view())
            .add_string(tx.data)
            .add_uint(tx.v)
            .add_uint_bytes(tx.r.view())
            .add_uint_bytes(tx.s.view());
    }
}

// Body = [transactions, uncles]; exact size first, one reserve, then write.
void encode_body(const std::vector<Tx>& txs, Encoder& e) {
    std::size_t txs_payload = 0;
    for (const auto& tx : txs) txs_payload += tx_length(tx);
    const std::size_t body_payload = list_length(txs_payload) + list_length(0);
    e.clear();
    e.reserve(list_length(body_payload));
    e.add_list_header(body_payload).add_list_header(txs_payload);
    for (const auto& tx : txs) encode_tx(tx, e);
    e.add_list_header(0);
}

const Bytes& body() {
    static const Bytes b = [] {
        Encoder e;
        encode_body(make_txs(100), e);
        KEEL_ASSERT(validate(e.view()).has_value());
        Bytes out = e.take();
        // bench/side_by_side.sh has the peers decode these exact bytes.
        if (const char* path = std::getenv("KEEL_BENCH_DUMP_RLP_BODY")) {
            std::FILE* f = std::fopen(path, "wb");
            KEEL_ASSERT(f != nullptr);
            KEEL_ASSERT(std::fwrite(out.data(), 1, out.size(), f) == out.size());
            KEEL_ASSERT(std::fclose(f) == 0);
        }
        return out;
    }();
    return b;
}

// Reads every field of every transaction; returns a checksum so nothing is optimised away.
// Any decoding failure aborts: the body is known to be good.
template <class R>
auto must(R&& r) {
    KEEL_ASSERT(r.has_value());
    return *std::forward<R>(r);
}

std::uint64_t walk_fields(Decoder& f, bool typed) {
    std::uint64_t sum = 0;
    if (typed) sum += must(f.next_uint<std::uint64_t>());  // chain id
    sum += must(f.next_uint<std::uint64_t>());             // nonce
    if (typed) sum += must(f.next_uint<std::uint64_t>());  // max priority fee
    sum += must(f.next_uint<std::uint64_t>());             // gas price / max fee
    sum += must(f.next_uint<std::uint64_t>());             // gas
    sum += must(f.next_fixed<20>())[0];                    // to
    sum += must(f.next_uint256())[0];                      // value
    sum += must(f.next_string()).size();                   // data
    if (typed) {
        Decoder al = must(f.next_list());
        while (!al.empty()) {
            Decoder entry = must(al.next_list());
            sum += must(entry.next_fixed<20>())[0];
            Decoder keys = must(entry.next_list());
            while (!keys.empty()) sum += must(keys.next_fixed<32>())[31];
            KEEL_ASSERT(entry.finish().has_value());
        }
    }
    sum += must(f.next_uint<std::uint64_t>());  // v / y parity
    sum += must(f.next_uint256())[0];           // r
    sum += must(f.next_uint256())[0];           // s
    KEEL_ASSERT(f.finish().has_value());
    return sum;
}

std::uint64_t walk_body(BytesView in) {
    std::uint64_t sum = 0;
    Decoder b = must(open_list(in));
    Decoder txs = must(b.next_list());
    while (!txs.empty()) {
        Item tx = must(txs.next());
        if (tx.is_list) {
            Decoder f(tx.payload, tx.offset + tx.header_size);
            sum += walk_fields(f, false);
        } else {
            // EIP-2718: type byte, then the type's RLP list.
            KEEL_ASSERT(!tx.payload.empty() && tx.payload[0] == 0x02);
            Decoder f = must(open_list(tx.payload.subspan(1), tx.offset + tx.header_size + 1));
            sum += walk_fields(f, true);
        }
    }
    KEEL_ASSERT(must(b.next_list()).empty());  // uncles
    KEEL_ASSERT(b.finish().has_value());
    return sum;
}

void set_bytes(benchmark::State& state, std::size_t n) {
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * n));
    state.counters["body_bytes"] = static_cast<double>(n);
}

void BM_RlpBodyMemcpy(benchmark::State& state) {
    const Bytes& in = body();
    Bytes out(in.size());
    for (auto _ : state) {
        std::memcpy(out.data(), in.data(), in.size());
        benchmark::DoNotOptimize(out.data());
        benchmark::ClobberMemory();
    }
    set_bytes(state, in.size());
}
BENCHMARK(BM_RlpBodyMemcpy);

void BM_RlpValidateBody(benchmark::State& state) {
    const Bytes& in = body();
    for (auto _ : state) {
        auto r = validate(in);
        benchmark::DoNotOptimize(r);
    }
    set_bytes(state, in.size());
}
BENCHMARK(BM_RlpValidateBody);

void BM_RlpWalkBody(benchmark::State& state) {
    const Bytes& in = body();
    for (auto _ : state) benchmark::DoNotOptimize(walk_body(in));
    set_bytes(state, in.size());
}
BENCHMARK(BM_RlpWalkBody);

void BM_RlpValidateWalkBody(benchmark::State& state) {
    const Bytes& in = body();
    for (auto _ : state) {
        auto r = validate(in);
        benchmark::DoNotOptimize(r);
        benchmark::DoNotOptimize(walk_body(in));
    }
    set_bytes(state, in.size());
}
BENCHMARK(BM_RlpValidateWalkBody);

void BM_RlpEncodeBody(benchmark::State& state) {
    const std::vector<Tx> txs = make_txs(100);
    Encoder e;
    for (auto _ : state) {
        encode_body(txs, e);
        benchmark::DoNotOptimize(e.view().data());
        benchmark::ClobberMemory();
    }
    KEEL_ASSERT(e.size() == body().size());
    set_bytes(state, e.size());
}
BENCHMARK(BM_RlpEncodeBody);

}  // namespace
