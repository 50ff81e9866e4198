#pragma once
/// For benchmarks that compare keel with a bare reference loop inside one benchmark: the two run
/// alternately, chunk by chunk, so noise from a shared machine hits both alike.

#include <benchmark/benchmark.h>

#include <chrono>
#include <cstddef>

namespace keel::testutil {

class AlternatingTimer {
  public:
    /// Times keel_chunk() then bare_chunk(), adding each to its total.
    template <class Keel, class Bare>
    void run(Keel&& keel_chunk, Bare&& bare_chunk) {
        const auto t0 = Clock::now();
        keel_chunk();
        const auto t1 = Clock::now();
        bare_chunk();
        const auto t2 = Clock::now();
        keel_ += t1 - t0;
        bare_ += t2 - t1;
    }

    /// Sets counters keel_us and bare_us (per item) and ratio = bare time / keel time (1.0: keel
    /// adds nothing), for `items_per_chunk` items in each of the benchmark's iterations.
    void report(benchmark::State& state, std::size_t items_per_chunk) const {
        const double n = static_cast<double>(state.iterations() * items_per_chunk);
        state.counters["keel_us"] = std::chrono::duration<double, std::micro>(keel_).count() / n;
        state.counters["bare_us"] = std::chrono::duration<double, std::micro>(bare_).count() / n;
        state.counters["ratio"] = std::chrono::duration<double>(bare_).count() /
                                  std::chrono::duration<double>(keel_).count();
    }

  private:
    using Clock = std::chrono::steady_clock;
    Clock::duration keel_{};
    Clock::duration bare_{};
};

}  // namespace keel::testutil
