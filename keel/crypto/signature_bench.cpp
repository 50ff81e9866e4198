// Signature recovery, judged in the same run against the physical reference for it: a bare
// libsecp256k1 loop doing exactly the work an address needs (parse the compact signature,
// secp256k1_ecdsa_recover, serialise the key, Keccak-256 of x || y) on the same precomputed
// signatures, with a context set up as keel's (created once, randomised once). keel's overhead
// is the range checks and the Uint256 -> bytes conversion; the goal is >= 0.95 of the bare loop.
// BM_Secp256k1KeelVsBare interleaves the two over the same chunks and reports the ratio as a
// counter, so background load hits both alike.
//
// The batch API is measured on 1 and 2 threads (keel::parallel::ThreadLimit) over 4096
// signatures; the goal is >= 1.8x on 2 cores. secp256r1 (P-256, OpenSSL arithmetic) is measured
// alone and in batches; it has no bare peer here (OpenSSL has no recovery primitive).
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <random>
#include <vector>

#include "keel/common/parallel.hpp"
#include "keel/crypto/secp256k1.hpp"
#include "keel/crypto/secp256r1.hpp"
#include "keel/crypto/signature.hpp"
#include "test/testutil/alternating_timer.hpp"
#include "test/testutil/bare_secp256k1.hpp"

namespace {

using keel::Address;
using keel::Bytes32;
using keel::Hash32;
using keel::Uint256;
using keel::crypto::RecoverInput;
using keel::crypto::SigError;
using keel::crypto::SignatureAlgorithm;

constexpr std::size_t kSignatures = 4096;

// kSignatures signatures on `a` over seeded random keys and hashes, made once per process.
const std::vector<RecoverInput>& signatures(SignatureAlgorithm a) {
    static const auto make = [](SignatureAlgorithm alg, std::uint64_t seed) {
        const auto& scheme = keel::crypto::signature_scheme(alg);
        std::mt19937_64 rng(seed);
        std::vector<RecoverInput> out;
        out.reserve(kSignatures);
        while (out.size() < kSignatures) {
            const Uint256 k = Uint256::from_limbs(rng(), rng(), rng(), rng());
            if (k.is_zero() || k >= scheme.order) continue;
            const Hash32 msg = Uint256::from_limbs(rng(), rng(), rng(), rng()).to_bytes32();
            auto sig = scheme.sign_recoverable(msg, k.to_bytes32());
            if (!sig) std::abort();
            out.push_back({msg, sig->r, sig->s, sig->recovery_id});
        }
        return out;
    };
    static const std::vector<RecoverInput> k1 = make(SignatureAlgorithm::secp256k1, 1);
    static const std::vector<RecoverInput> r1 = make(SignatureAlgorithm::secp256r1, 2);
    return a == SignatureAlgorithm::secp256k1 ? k1 : r1;
}

// The bare loop's inputs: the same signatures as libsecp256k1's 64-byte compact form.
struct Compact {
    std::uint8_t rs[64];
    int recid;
    Hash32 msg;
};

const std::vector<Compact>& compact_k1() {
    static const std::vector<Compact> out = [] {
        std::vector<Compact> v;
        for (const auto& x : signatures(SignatureAlgorithm::secp256k1)) {
            Compact c;
            x.r.to_be_bytes(c.rs);
            x.s.to_be_bytes(c.rs + 32);
            c.recid = x.recovery_id;
            c.msg = x.msg;
            v.push_back(c);
        }
        return v;
    }();
    return out;
}

// The reference: what any client must do per signature to get an address.
inline Address bare_recover(const secp256k1_context* ctx, const Compact& c) {
    return keel::testutil::bare_recover_address(ctx, c.msg, c.rs, c.recid);
}

void BM_Secp256k1RecoverBare(benchmark::State& state) {
    const auto& in = compact_k1();
    const secp256k1_context* ctx = keel::testutil::bare_secp256k1_context();
    std::size_t i = 0;
    for (auto _ : state) {
        Address a = bare_recover(ctx, in[i]);
        benchmark::DoNotOptimize(a);
        i = (i + 1) % in.size();
    }
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()));
}
BENCHMARK(BM_Secp256k1RecoverBare);

// keel::crypto::recover_address: the process-wide (secp256k1) dispatch, as sender recovery uses.
void BM_Secp256k1RecoverKeel(benchmark::State& state) {
    const auto& in = signatures(SignatureAlgorithm::secp256k1);
    std::size_t i = 0;
    for (auto _ : state) {
        auto a = keel::crypto::recover_address(in[i].msg, in[i].r, in[i].s, in[i].recovery_id);
        benchmark::DoNotOptimize(a);
        i = (i + 1) % in.size();
    }
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()));
}
BENCHMARK(BM_Secp256k1RecoverKeel);

// Both over the same 64 signatures per iteration, alternately; counter ratio = bare / keel time
// (>= 0.95 is the goal; 1.0 means no overhead).
void BM_Secp256k1KeelVsBare(benchmark::State& state) {
    const auto& in = signatures(SignatureAlgorithm::secp256k1);
    const auto& cin = compact_k1();
    const secp256k1_context* ctx = keel::testutil::bare_secp256k1_context();
    constexpr std::size_t kChunk = 64;
    keel::testutil::AlternatingTimer timer;
    std::size_t base = 0;
    for (auto _ : state) {
        timer.run(
            [&] {
                for (std::size_t i = base; i < base + kChunk; ++i) {
                    auto a = keel::crypto::recover_address(in[i].msg, in[i].r, in[i].s,
                                                           in[i].recovery_id);
                    benchmark::DoNotOptimize(a);
                }
            },
            [&] {
                for (std::size_t i = base; i < base + kChunk; ++i) {
                    Address a = bare_recover(ctx, cin[i]);
                    benchmark::DoNotOptimize(a);
                }
            });
        base = (base + kChunk) % in.size();
    }
    timer.report(state, kChunk);
}
BENCHMARK(BM_Secp256k1KeelVsBare)->Unit(benchmark::kMillisecond);

// The batch API over 4096 signatures on range(0) threads of the oneTBB pool.
void BM_RecoverAddressesBatch(benchmark::State& state) {
    const auto& in = signatures(SignatureAlgorithm::secp256k1);
    std::vector<keel::Result<Address, SigError>> out(in.size());
    keel::parallel::ThreadLimit limit(static_cast<std::size_t>(state.range(0)));
    for (auto _ : state) {
        keel::crypto::recover_addresses(in, out);
        benchmark::DoNotOptimize(out.data());
    }
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * in.size()));
    state.counters["threads"] = static_cast<double>(keel::parallel::concurrency());
}
BENCHMARK(BM_RecoverAddressesBatch)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();

// secp256r1 (P-256) recovery through OpenSSL EC_POINT arithmetic.
void BM_Secp256r1RecoverKeel(benchmark::State& state) {
    const auto& in = signatures(SignatureAlgorithm::secp256r1);
    std::size_t i = 0;
    for (auto _ : state) {
        auto a = keel::crypto::secp256r1::recover_address(in[i].msg, in[i].r, in[i].s,
                                                          in[i].recovery_id);
        benchmark::DoNotOptimize(a);
        i = (i + 1) % in.size();
    }
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()));
}
BENCHMARK(BM_Secp256r1RecoverKeel);

// The batch API on secp256r1 (the process-wide choice switched for the run, then restored).
void BM_RecoverAddressesBatchR1(benchmark::State& state) {
    const auto& in = signatures(SignatureAlgorithm::secp256r1);
    std::vector<keel::Result<Address, SigError>> out(in.size());
    keel::parallel::ThreadLimit limit(static_cast<std::size_t>(state.range(0)));
    const SignatureAlgorithm saved = keel::crypto::signature_algorithm();
    keel::crypto::set_signature_algorithm(SignatureAlgorithm::secp256r1);
    for (auto _ : state) {
        keel::crypto::recover_addresses(in, out);
        benchmark::DoNotOptimize(out.data());
    }
    keel::crypto::set_signature_algorithm(saved);
    if (!out.front() || !out.back()) state.SkipWithError("an r1 signature did not recover");
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * in.size()));
}
BENCHMARK(BM_RecoverAddressesBatchR1)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();

// Signing (tests and tools only), for scale.
void BM_Secp256k1Sign(benchmark::State& state) {
    const Bytes32 secret = Uint256(0x4646464646464646).to_bytes32();
    Hash32 msg{};
    for (auto _ : state) {
        msg[0]++;
        auto s = keel::crypto::secp256k1::sign_recoverable(msg, secret);
        benchmark::DoNotOptimize(s);
    }
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()));
}
BENCHMARK(BM_Secp256k1Sign);

}  // namespace
