// Benchmarks of the BLS12-381 groups: addition, doubling (Jacobian, and the complete projective
// formulas of the constant-time multiplications), both scalar multiplications, the subgroup
// checks and point decompression with and without the subgroup check; Fp multiplication and
// both inversions.
#include <benchmark/benchmark.h>

#include <array>
#include <cstdint>
#include <random>

#include "keel/bls/g1.hpp"
#include "keel/bls/g2.hpp"
#include "keel/bls/serialize.hpp"

namespace {

using namespace keel::bls;

Scalar bench_scalar(std::uint64_t seed) {
    std::mt19937_64 r(seed);
    // 255 bits, like a secret key below r.
    return Scalar(std::array<std::uint64_t, 4>{r(), r(), r(), r() >> 2});
}

template <class J>
void add_bench(benchmark::State& state, J g) {
    J a = g.mul_vartime(bench_scalar(1)), b = g.mul_vartime(bench_scalar(2));
    for (auto _ : state) {
        a = a + b;
        benchmark::DoNotOptimize(a);
    }
}
template <class J>
void add_vartime_bench(benchmark::State& state, J g) {
    J a = g.mul_vartime(bench_scalar(1)), b = g.mul_vartime(bench_scalar(2));
    for (auto _ : state) {
        a = a.add_vartime(b);
        benchmark::DoNotOptimize(a);
    }
}
template <class J>
void add_mixed_bench(benchmark::State& state, J g) {
    J a = g.mul_vartime(bench_scalar(1));
    const auto b = g.mul_vartime(bench_scalar(2)).to_affine();
    for (auto _ : state) {
        a = a.add_mixed(b);
        benchmark::DoNotOptimize(a);
    }
}
template <class J>
void dbl_bench(benchmark::State& state, J g) {
    J a = g.mul_vartime(bench_scalar(1));
    for (auto _ : state) {
        a = a.dbl();
        benchmark::DoNotOptimize(a);
    }
}
/// The complete projective formulas (projective.hpp) that the constant-time multiplications use.
template <class P, class J>
void proj_add_bench(benchmark::State& state, J g) {
    P a = P::from_jacobian(g.mul_vartime(bench_scalar(1)));
    const P b = P::from_jacobian(g.mul_vartime(bench_scalar(2)));
    for (auto _ : state) {
        a = a + b;
        benchmark::DoNotOptimize(a);
    }
}
template <class P, class J>
void proj_dbl_bench(benchmark::State& state, J g) {
    P a = P::from_jacobian(g.mul_vartime(bench_scalar(1)));
    for (auto _ : state) {
        a = a.dbl();
        benchmark::DoNotOptimize(a);
    }
}
template <class J>
void mul_ct_bench(benchmark::State& state, J g) {
    const Scalar k = bench_scalar(3);
    for (auto _ : state) benchmark::DoNotOptimize(g.mul_ct(k));
}
template <class J>
void mul_vartime_bench(benchmark::State& state, J g) {
    const Scalar k = bench_scalar(3);
    for (auto _ : state) benchmark::DoNotOptimize(g.mul_vartime(k));
}

/// One Fp multiplication: the unit the group operations are built of (a G1 doubling is 2M + 5S
/// plus additions, a general addition 11M + 5S).
void BM_Fp_Mul(benchmark::State& state) {
    Fp a = kG1Generator.x, b = kG1Generator.y;
    for (auto _ : state) {
        a = a * b;
        benchmark::DoNotOptimize(a);
    }
}

/// Constant-time inversion (divsteps) and the variable-time one for public values.
void BM_Fp_Inverse(benchmark::State& state) {
    Fp a = kG1Generator.x;
    for (auto _ : state) {
        a = a.inverse();
        benchmark::DoNotOptimize(a);
    }
}
void BM_Fp_InverseVartime(benchmark::State& state) {
    Fp a = kG1Generator.x;
    for (auto _ : state) {
        a = a.inverse_vartime();
        benchmark::DoNotOptimize(a);
    }
}

void BM_G1_Add(benchmark::State& s) {
    add_bench(s, g1_generator());
}
void BM_G1_AddVartime(benchmark::State& s) {
    add_vartime_bench(s, g1_generator());
}
void BM_G1_AddMixed(benchmark::State& s) {
    add_mixed_bench(s, g1_generator());
}
void BM_G1_Double(benchmark::State& s) {
    dbl_bench(s, g1_generator());
}
void BM_G1_ProjAdd(benchmark::State& s) {
    proj_add_bench<G1Projective>(s, g1_generator());
}
void BM_G1_ProjDouble(benchmark::State& s) {
    proj_dbl_bench<G1Projective>(s, g1_generator());
}
void BM_G1_MulCt(benchmark::State& s) {
    mul_ct_bench(s, g1_generator());
}
void BM_G1_MulVartime(benchmark::State& s) {
    mul_vartime_bench(s, g1_generator());
}
void BM_G2_Add(benchmark::State& s) {
    add_bench(s, g2_generator());
}
void BM_G2_AddVartime(benchmark::State& s) {
    add_vartime_bench(s, g2_generator());
}
void BM_G2_AddMixed(benchmark::State& s) {
    add_mixed_bench(s, g2_generator());
}
void BM_G2_Double(benchmark::State& s) {
    dbl_bench(s, g2_generator());
}
void BM_G2_ProjAdd(benchmark::State& s) {
    proj_add_bench<G2Projective>(s, g2_generator());
}
void BM_G2_ProjDouble(benchmark::State& s) {
    proj_dbl_bench<G2Projective>(s, g2_generator());
}
void BM_G2_MulCt(benchmark::State& s) {
    mul_ct_bench(s, g2_generator());
}
void BM_G2_MulVartime(benchmark::State& s) {
    mul_vartime_bench(s, g2_generator());
}

void BM_G1_MulGlv(benchmark::State& state) {
    const G1Jacobian g = g1_generator();
    const Scalar k = bench_scalar(3);
    for (auto _ : state) benchmark::DoNotOptimize(g1_mul_glv(g, k));
}
void BM_G2_MulGls(benchmark::State& state) {
    const G2Jacobian g = g2_generator();
    const Scalar k = bench_scalar(3);
    for (auto _ : state) benchmark::DoNotOptimize(g2_mul_gls(g, k));
}

void BM_G2_MulGlsCt(benchmark::State& state) {
    const G2Jacobian g = g2_generator();
    const Scalar k = bench_scalar(3);
    for (auto _ : state) benchmark::DoNotOptimize(g2_mul_gls_ct(g, k));
}

void BM_G1_SubgroupCheck(benchmark::State& state) {
    const G1Jacobian p = g1_generator().mul_vartime(bench_scalar(4));
    for (auto _ : state) benchmark::DoNotOptimize(in_g1(p));
}
void BM_G2_SubgroupCheck(benchmark::State& state) {
    const G2Jacobian p = g2_generator().mul_vartime(bench_scalar(4));
    for (auto _ : state) benchmark::DoNotOptimize(in_g2(p));
}

/// Decompression of a public key (G1) or signature (G2); range(0) = 1 adds the subgroup check.
void BM_G1_Decompress(benchmark::State& state) {
    const auto enc = g1_compress(g1_generator().mul_vartime(bench_scalar(5)).to_affine());
    const auto check = state.range(0) ? SubgroupCheck::kCheck : SubgroupCheck::kSkip;
    for (auto _ : state) benchmark::DoNotOptimize(g1_from_bytes(enc, check));
}
void BM_G2_Decompress(benchmark::State& state) {
    const auto enc = g2_compress(g2_generator().mul_vartime(bench_scalar(5)).to_affine());
    const auto check = state.range(0) ? SubgroupCheck::kCheck : SubgroupCheck::kSkip;
    for (auto _ : state) benchmark::DoNotOptimize(g2_from_bytes(enc, check));
}

BENCHMARK(BM_Fp_Mul);
BENCHMARK(BM_Fp_Inverse);
BENCHMARK(BM_Fp_InverseVartime);
BENCHMARK(BM_G1_Add);
BENCHMARK(BM_G1_AddVartime);
BENCHMARK(BM_G1_AddMixed);
BENCHMARK(BM_G1_Double);
BENCHMARK(BM_G1_ProjAdd);
BENCHMARK(BM_G1_ProjDouble);
BENCHMARK(BM_G1_MulCt);
BENCHMARK(BM_G1_MulVartime);
BENCHMARK(BM_G1_MulGlv);
BENCHMARK(BM_G1_SubgroupCheck);
BENCHMARK(BM_G1_Decompress)->Arg(0)->Arg(1);
BENCHMARK(BM_G2_Add);
BENCHMARK(BM_G2_AddVartime);
BENCHMARK(BM_G2_AddMixed);
BENCHMARK(BM_G2_Double);
BENCHMARK(BM_G2_ProjAdd);
BENCHMARK(BM_G2_ProjDouble);
BENCHMARK(BM_G2_MulCt);
BENCHMARK(BM_G2_MulVartime);
BENCHMARK(BM_G2_MulGls);
BENCHMARK(BM_G2_MulGlsCt);
BENCHMARK(BM_G2_SubgroupCheck);
BENCHMARK(BM_G2_Decompress)->Arg(0)->Arg(1);

}  // namespace
