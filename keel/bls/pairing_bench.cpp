// Fp12 arithmetic, the (multi-)Miller loop, the final exponentiation and a whole pairing.
#include <benchmark/benchmark.h>

#include <string_view>
#include <vector>

#include "keel/bls/pairing.hpp"

namespace {

using keel::bls::Fp;
using keel::bls::Fp12;
using keel::bls::G1Affine;
using keel::bls::G2Affine;
using Pair = std::pair<G1Affine, G2Affine>;

Fp fp_hex(std::string_view hex) {
    keel::bls::detail::Limbs l{};
    std::size_t bit = 0;
    for (std::size_t i = hex.size(); i-- > 0; bit += 4) {
        const char c = hex[i];
        const std::uint64_t d = c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10;
        l[bit / 64] |= d << (bit % 64);
    }
    return Fp::from_canonical(l);
}

/// The generators of G1 and G2 (the pairing's cost does not depend on the points).
Pair generators() {
    return {G1Affine{fp_hex("17f1d3a73197d7942695638c4fa9ac0fc3688c4f9774b905a14e3a3f171bac586c55e"
                            "83ff97a1aeffb3af00adb22c6bb"),
                     fp_hex("08b3f481e3aaa0f1a09e30ed741d8ae4fcf5e095d5d00af600db18cb2c04b3edd03cc"
                            "744a2888ae40caa232946c5e7e1")},
            G2Affine{{fp_hex("024aa2b2f08f0a91260805272dc51051c6e47ad4fa403b02b4510b647ae3d1770bac"
                             "0326a805bbefd48056c8c121bdb8"),
                      fp_hex("13e02b6052719f607dacd3a088274f65596bd0d09920b61ab5da61bbdc7f5049334c"
                             "f11213945d57e5ac7d055d042b7e")},
                     {fp_hex("0ce5d527727d6e118cc9cdc6da2e351aadfd9baa8cbdd3a76d429a695160d12c923a"
                             "c9cc3baca289e193548608b82801"),
                      fp_hex("0606c4a02ea734cc32acd2b02bc28b99cb3e287e85a763af267492ab572e99ab3f37"
                             "0d275cec1da1aaa9075ff05f79be")}}};
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
