// Fp12 arithmetic, the (multi-)Miller loop, the final exponentiation and a whole pairing.
#include <benchmark/benchmark.h>

#include <string_view>
#include <vector>

#include "keel/bls/g1.hpp"
#include "keel/bls/g2.hpp"
#include "keel/bls/pairing.hpp"

namespace {

using keel::bls::Fp;
using keel::bls::Fp12;
using keel::bls::G1Affine;
using keel::bls::G2Affine;
using Pair = std::pair<G1Affine, G2Affine>;

/// The generators of G1 and G2 (the pairing's cost does not depend on the points).
Pair generators() {
    return {keel::bls::kG1Generator, keel::bls::kG2Generator};
}

/// An element of the cyclotomic subgroup: e(G1, G2).
const Fp12& gt() {
    static const Fp12 e = [] {
        const Pair pq = generators();
        return keel::bls::pairing(pq.first, pq.second);
    }();
    return e;
}

void BM_Fp12Mul(benchmark::State& state) {
    Fp12 a = gt();
    const Fp12 b = gt().square();
    for (auto _ : state) {
        a = a * b;
        benchmark::DoNotOptimize(a);
    }
}
BENCHMARK(BM_Fp12Mul);

void BM_Fp12Square(benchmark::State& state) {
    Fp12 a = gt();
    for (auto _ : state) {
        a = a.square();
        benchmark::DoNotOptimize(a);
    }
}
BENCHMARK(BM_Fp12Square);

void BM_Fp12CyclotomicSquare(benchmark::State& state) {
    Fp12 a = gt();
    for (auto _ : state) {
        a = a.cyclotomic_square();
        benchmark::DoNotOptimize(a);
    }
}
BENCHMARK(BM_Fp12CyclotomicSquare);

void BM_Fp12Inverse(benchmark::State& state) {
    Fp12 a = gt();
    for (auto _ : state) {
        a = a.inverse();
        benchmark::DoNotOptimize(a);
    }
}
BENCHMARK(BM_Fp12Inverse);

void BM_MillerLoop(benchmark::State& state) {
    const std::vector<Pair> pairs(static_cast<std::size_t>(state.range(0)), generators());
    for (auto _ : state) benchmark::DoNotOptimize(keel::bls::miller_loop(pairs));
    state.SetItemsProcessed(state.iterations() * state.range(0));
}
BENCHMARK(BM_MillerLoop)->Arg(1)->Arg(2)->Arg(64)->Unit(benchmark::kMicrosecond);

void BM_FinalExponentiation(benchmark::State& state) {
    const Pair pq = generators();
    const Fp12 f = keel::bls::miller_loop({&pq, 1});
    for (auto _ : state) benchmark::DoNotOptimize(keel::bls::final_exponentiation(f));
}
BENCHMARK(BM_FinalExponentiation)->Unit(benchmark::kMicrosecond);

void BM_Pairing(benchmark::State& state) {
    const Pair pq = generators();
    for (auto _ : state) benchmark::DoNotOptimize(keel::bls::pairing(pq.first, pq.second));
}
BENCHMARK(BM_Pairing)->Unit(benchmark::kMicrosecond);

}  // namespace
