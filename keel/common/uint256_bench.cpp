// Benchmarks of keel::Uint256. Each loop walks a table of pseudo-random operands so that the
// compiler cannot fold the work and branch predictors see realistic variety.
#include <benchmark/benchmark.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>

#include "keel/common/uint256.hpp"

namespace {

using keel::Uint256;

constexpr std::size_t kTable = 256;  // power of two: the index wraps with a mask

std::uint64_t splitmix(std::uint64_t& s) {
    std::uint64_t z = (s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

// kTable operands of `bits` significant bits (top bit set, so sizes are exact).
std::array<Uint256, kTable> operands(unsigned bits, std::uint64_t seed) {
    std::array<Uint256, kTable> t;
    for (auto& x : t) {
        x = Uint256::from_limbs(splitmix(seed), splitmix(seed), splitmix(seed), splitmix(seed));
        x = x >> (256 - bits);
        x = x | (Uint256{1} << (bits - 1));
    }
    return t;
}

template <class Op>
void run_binary(benchmark::State& state, unsigned abits, unsigned bbits, Op op) {
    const auto a = operands(abits, 1);
    const auto b = operands(bbits, 2);
    std::size_t i = 0;
    for (auto _ : state) {
        Uint256 r = op(a[i % kTable], b[(i * 7 + 3) % kTable]);
        benchmark::DoNotOptimize(r);
        ++i;
    }
    state.SetItemsProcessed(state.iterations());
}

void BM_uint256_add(benchmark::State& state) {
    run_binary(state, 256, 256, [](const Uint256& x, const Uint256& y) { return x + y; });
}
BENCHMARK(BM_uint256_add);

void BM_uint256_mul(benchmark::State& state) {
    run_binary(state, 256, 256, [](const Uint256& x, const Uint256& y) { return x * y; });
}
BENCHMARK(BM_uint256_mul);

// 256-bit dividend, 128-bit divisor: Knuth D with a 2-limb divisor, 3 quotient limbs.
void BM_uint256_div_256_128(benchmark::State& state) {
    run_binary(state, 256, 128, [](const Uint256& x, const Uint256& y) { return x / y; });
}
BENCHMARK(BM_uint256_div_256_128);

// 256-bit dividend, 192-bit divisor: Knuth D with a 3-limb divisor, 2 quotient limbs.
void BM_uint256_div_256_192(benchmark::State& state) {
    run_binary(state, 256, 192, [](const Uint256& x, const Uint256& y) { return x / y; });
}
BENCHMARK(BM_uint256_div_256_192);

// 256-bit dividend, 64-bit divisor: the single-limb path with a reciprocal.
void BM_uint256_div_256_64(benchmark::State& state) {
    run_binary(state, 256, 64, [](const Uint256& x, const Uint256& y) { return x / y; });
}
BENCHMARK(BM_uint256_div_256_64);

// Both operands below 2^64: the inline hardware-division path.
void BM_uint256_div_64_64(benchmark::State& state) {
    run_binary(state, 64, 40, [](const Uint256& x, const Uint256& y) { return x / y; });
}
BENCHMARK(BM_uint256_div_64_64);

// Reference point measured in the same run: one libgcc 128/64-bit division (__udivti3).
void BM_uint256_baseline_u128_div(benchmark::State& state) {
    __extension__ typedef unsigned __int128 u128;
    const auto a = operands(128, 1);
    const auto b = operands(64, 2);
    std::size_t i = 0;
    for (auto _ : state) {
        const u128 n = static_cast<u128>(a[i % kTable][1]) << 64 | a[i % kTable][0];
        u128 q = n / b[(i * 7 + 3) % kTable][0];
        benchmark::DoNotOptimize(q);
        ++i;
    }
    state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_uint256_baseline_u128_div);

void BM_uint256_addmod(benchmark::State& state) {
    const auto m = operands(255, 3);
    std::size_t j = 0;
    run_binary(state, 256, 256, [&](const Uint256& x, const Uint256& y) {
        return keel::addmod(x, y, m[j++ % kTable]);
    });
}
BENCHMARK(BM_uint256_addmod);

// Full 256-bit operands and modulus: 512-bit product reduced by Knuth D.
void BM_uint256_mulmod(benchmark::State& state) {
    const auto m = operands(256, 3);
    std::size_t j = 0;
    run_binary(state, 256, 256, [&](const Uint256& x, const Uint256& y) {
        return keel::mulmod(x, y, m[j++ % kTable]);
    });
}
BENCHMARK(BM_uint256_mulmod);

// Odd 256-bit base, 256-bit exponent: 256 squarings and about 128 multiplications.
void BM_uint256_exp(benchmark::State& state) {
    run_binary(state, 256, 256,
               [](const Uint256& x, const Uint256& y) { return keel::exp(x | 1, y); });
}
BENCHMARK(BM_uint256_exp);

void BM_uint256_to_dec(benchmark::State& state) {
    const auto a = operands(256, 4);
    char buf[Uint256::kMaxDecChars];
    std::size_t i = 0;
    for (auto _ : state) {
        std::size_t n = a[i++ % kTable].write_dec(buf);
        benchmark::DoNotOptimize(n);
        benchmark::DoNotOptimize(buf);
    }
    state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_uint256_to_dec);

void BM_uint256_to_dec_string(benchmark::State& state) {
    const auto a = operands(256, 4);
    std::size_t i = 0;
    for (auto _ : state) {
        std::string s = a[i++ % kTable].to_dec();
        benchmark::DoNotOptimize(s);
    }
    state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_uint256_to_dec_string);

void BM_uint256_from_dec(benchmark::State& state) {
    const auto a = operands(256, 5);
    std::array<std::string, kTable> s;
    for (std::size_t k = 0; k < kTable; ++k) s[k] = a[k].to_dec();
    std::size_t i = 0;
    for (auto _ : state) {
        auto r = Uint256::from_dec(s[i++ % kTable]);
        benchmark::DoNotOptimize(r);
    }
    state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_uint256_from_dec);

void BM_uint256_to_hex(benchmark::State& state) {
    const auto a = operands(256, 6);
    char buf[Uint256::kMaxHexChars];
    std::size_t i = 0;
    for (auto _ : state) {
        std::size_t n = a[i++ % kTable].write_hex(buf);
        benchmark::DoNotOptimize(n);
        benchmark::DoNotOptimize(buf);
    }
    state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_uint256_to_hex);

}  // namespace
