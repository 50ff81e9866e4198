// FpX8 (AVX-512 IFMA) against the scalar Fp: time per field multiplication when eight lanes run
// together, and an exponentiation (a square root's (p+1)/4) of eight values at once.
//   BM_FpX8_Mul   two independent 8-lane chains; time per 8-lane product
//   BM_FpX8_Pow   eight exponentiations by (p+1)/4
//   BM_Fp_Pow     one exponentiation by (p+1)/4 (scalar)
#include <benchmark/benchmark.h>

#include <array>

#include "keel/bls/detail/fp_x8.hpp"

namespace {

using namespace keel::bls;

std::array<Fp, 8> lanes(std::uint64_t seed) {
    std::array<Fp, 8> out;
    for (std::size_t i = 0; i < 8; ++i) out[i] = Fp::from_u64(seed + i).inverse();
    return out;
}

void BM_FpX8_Mul(benchmark::State& st) {
    if (!fp_x8_supported()) {
        st.SkipWithError("no AVX-512 IFMA");
        return;
    }
    FpX8 a = x8::load(lanes(1)), b = x8::load(lanes(100)), c = x8::load(lanes(200));
    for (auto _ : st) {
        a = x8::mul(a, b);
        c = x8::mul(c, b);
        benchmark::DoNotOptimize(a);
        benchmark::DoNotOptimize(c);
    }
    st.SetItemsProcessed(st.iterations() * 16);  // Fp products
}
BENCHMARK(BM_FpX8_Mul);

void BM_FpX8_Pow(benchmark::State& st) {
    if (!fp_x8_supported()) {
        st.SkipWithError("no AVX-512 IFMA");
        return;
    }
    const FpX8 a = x8::load(lanes(7));
    for (auto _ : st) benchmark::DoNotOptimize(x8::pow(a, keel::bls::detail::kPPlus1Over4));
    st.SetItemsProcessed(st.iterations() * 8);
}
BENCHMARK(BM_FpX8_Pow);

// The same exponentiation one value at a time (Fp::pow), for the choice in hash_to_curve.cpp.
void BM_Fp_Pow(benchmark::State& st) {
    const Fp a = lanes(7)[0];
    for (auto _ : st) benchmark::DoNotOptimize(a.pow(keel::bls::detail::kPPlus1Over4));
    st.SetItemsProcessed(st.iterations());
}
BENCHMARK(BM_Fp_Pow);

}  // namespace
