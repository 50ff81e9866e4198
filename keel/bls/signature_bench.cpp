// BLS signatures as Ethereum uses them, on one core (ThreadLimit 1) unless the name says
// otherwise. Keys come from KeyGen(IKM_i) with IKM_i = 32 bytes of (i + 1), the same keys
// bench/side_by_side_bls.sh gives @chainsafe/blst; messages are 32 bytes.
//   BM_Bls_HashToG2, BM_Bls_Sign, BM_Bls_Verify, BM_Bls_SkToPk
//   BM_Bls_PubkeyDecompress / BM_Bls_SignatureDecompress   (with the subgroup check)
//   BM_Bls_FastAggregateVerify/128                           one message, 128 keys
//   BM_Bls_BatchVerify/<sets>/<threads>                      distinct messages; time per batch
#include <benchmark/benchmark.h>

#include <vector>

#include "keel/bls/batch_verify.hpp"
#include "keel/common/assert.hpp"
#include "keel/common/parallel.hpp"

namespace {

using namespace keel;
using namespace keel::bls;

struct Fixture {
    std::vector<SecretKey> sks;
    std::vector<PublicKey> pks;
    std::vector<Bytes> msgs;
    std::vector<Signature> sigs;  // sigs[i] = sign(sks[i], msgs[i])
};

const Fixture& fixture() {
    static const Fixture f = [] {
        Fixture out;
        for (std::size_t i = 0; i < 128; ++i) {
            auto sk = SecretKey::key_gen(Bytes(32, static_cast<std::uint8_t>(i + 1)));
            KEEL_ASSERT(sk.has_value());
            out.pks.push_back(sk->public_key());
            out.msgs.push_back(Bytes(32, static_cast<std::uint8_t>(0x80 + i)));
            out.sigs.push_back(sign(*sk, out.msgs.back()));
            out.sks.push_back(std::move(*sk));
        }
        return out;
    }();
    return f;
}

void BM_Bls_HashToG2(benchmark::State& st) {
    const Bytes msg(32, 0x11);
    for (auto _ : st) benchmark::DoNotOptimize(hash_to_g2(msg));
}

void BM_Bls_Sign(benchmark::State& st) {
    const parallel::ThreadLimit one(1);
    const auto& f = fixture();
    for (auto _ : st) benchmark::DoNotOptimize(sign(f.sks[0], f.msgs[0]));
}

void BM_Bls_SkToPk(benchmark::State& st) {
    const auto& f = fixture();
    for (auto _ : st) benchmark::DoNotOptimize(f.sks[0].public_key());
}

void BM_Bls_Verify(benchmark::State& st) {
    const auto& f = fixture();
    for (auto _ : st) {
        const bool ok = verify(f.pks[0], f.msgs[0], f.sigs[0]);
        KEEL_ASSERT(ok);
    }
}

void BM_Bls_PubkeyDecompress(benchmark::State& st) {
    const auto bytes = fixture().pks[0].to_bytes();
    for (auto _ : st) benchmark::DoNotOptimize(PublicKey::from_bytes(bytes));
}

void BM_Bls_SignatureDecompress(benchmark::State& st) {
    const auto bytes = fixture().sigs[0].to_bytes();
    for (auto _ : st) benchmark::DoNotOptimize(Signature::from_bytes(bytes));
}

void BM_Bls_FastAggregateVerify(benchmark::State& st) {
    const auto& f = fixture();
    const std::size_t n = static_cast<std::size_t>(st.range(0));
    const Bytes msg(32, 0x77);
    std::vector<Signature> sigs;
    for (std::size_t i = 0; i < n; ++i) sigs.push_back(sign(f.sks[i], msg));
    const Signature agg = *aggregate(sigs);
    const std::span<const PublicKey> pks(f.pks.data(), n);
    for (auto _ : st) {
        const bool ok = fast_aggregate_verify(pks, msg, agg);
        KEEL_ASSERT(ok);
    }
}

void BM_Bls_BatchVerify(benchmark::State& st) {
    const auto& f = fixture();
    const std::size_t n = static_cast<std::size_t>(st.range(0));
    const parallel::ThreadLimit threads(static_cast<std::size_t>(st.range(1)));
    std::vector<SignatureSet> sets;
    for (std::size_t i = 0; i < n; ++i)
        sets.push_back(SignatureSet{f.pks[i], f.msgs[i], f.sigs[i]});
    for (auto _ : st) {
        auto ok = batch_verify(sets);
        KEEL_ASSERT(ok.has_value() && *ok);
    }
    st.counters["per_signature_us"] =
        benchmark::Counter(static_cast<double>(st.iterations() * n),
                           benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}

}  // namespace

BENCHMARK(BM_Bls_HashToG2)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_Bls_Sign)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_Bls_SkToPk)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_Bls_Verify)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_Bls_PubkeyDecompress)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_Bls_SignatureDecompress)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_Bls_FastAggregateVerify)->Arg(128)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_Bls_BatchVerify)
    ->Args({128, 1})
    ->Args({128, 2})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
