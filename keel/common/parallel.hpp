#pragma once
/// Parallel helpers on oneTBB's one process-wide pool (DESIGN.md §4.4): never threads per call.
///
/// The pool is sized to the machine; `ThreadLimit` caps it (for a --threads flag, or tests).
/// Work functions must not throw: keel code reports failures through Result values.

#include <atomic>
#include <cstddef>
#include <memory>
#include <utility>

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/parallel_invoke.h>
#include <tbb/parallel_reduce.h>
#include <tbb/task_group.h>

namespace keel::parallel {

/// Number of threads the pool may run work on now (respects an active ThreadLimit).
std::size_t concurrency() noexcept;

/// Calls f(begin, end) on disjoint chunks that cover [0, n), each at least `grain` long (but the
/// last), spread over the pool. Returns when every chunk is done. Runs inline when n <= grain.
template <class F>
void for_ranges(std::size_t n, std::size_t grain, F&& f) {
    if (n == 0) return;
    if (grain == 0) grain = 1;
    if (n <= grain) {
        f(std::size_t{0}, n);
        return;
    }
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, n, grain),
                      [&f](const tbb::blocked_range<std::size_t>& r) { f(r.begin(), r.end()); });
}

/// Calls f(i) for every i in [0, n), in chunks of at least `grain` indices per task.
template <class F>
void for_each_index(std::size_t n, std::size_t grain, F&& f) {
    for_ranges(n, grain, [&f](std::size_t begin, std::size_t end) {
        for (std::size_t i = begin; i < end; ++i) f(i);
    });
}

/// Maps chunks of [0, n) to values with map(begin, end) and folds them with reduce(a, b), which
/// must be associative. `identity` is the value of an empty range.
template <class T, class Map, class Reduce>
T map_reduce(std::size_t n, std::size_t grain, T identity, Map&& map, Reduce&& reduce) {
    if (n == 0) return identity;
    if (grain == 0) grain = 1;
    if (n <= grain) return reduce(identity, map(std::size_t{0}, n));
    return tbb::parallel_reduce(
        tbb::blocked_range<std::size_t>(0, n, grain), identity,
        [&map, &reduce](const tbb::blocked_range<std::size_t>& r, T acc) {
            return reduce(std::move(acc), map(r.begin(), r.end()));
        },
        [&reduce](T a, T b) { return reduce(std::move(a), std::move(b)); });
}

/// True when pred(begin, end) holds for every chunk of [0, n). Stops handing out new chunks
/// after the first false (batch signature checks stop at the first bad set).
template <class Pred>
bool all_of(std::size_t n, std::size_t grain, Pred&& pred) {
    if (n == 0) return true;
    if (grain == 0) grain = 1;
    if (n <= grain) return pred(std::size_t{0}, n);
    tbb::task_group_context ctx;
    std::atomic<bool> ok{true};
    tbb::parallel_for(
        tbb::blocked_range<std::size_t>(0, n, grain),
        [&](const tbb::blocked_range<std::size_t>& r) {
            if (!ok.load(std::memory_order_relaxed)) return;
            if (!pred(r.begin(), r.end())) {
                ok.store(false, std::memory_order_relaxed);
                ctx.cancel_group_execution();
            }
        },
        ctx);
    return ok.load(std::memory_order_relaxed);
}

/// Runs f() and g() at once on the pool (one of them may run on the calling thread) and returns
/// when both are done: a pipeline stage overlapping the next one (e.g. decoding batch k + 1
/// while batch k is written).
template <class F, class G>
void both(F&& f, G&& g) {
    tbb::parallel_invoke(std::forward<F>(f), std::forward<G>(g));
}

/// Caps the pool at `threads` workers (>= 1) while the object lives. Process-wide: meant for
/// main() (a --threads option) and tests, not for library code.
class ThreadLimit {
  public:
    explicit ThreadLimit(std::size_t threads);
    ~ThreadLimit();
    ThreadLimit(const ThreadLimit&) = delete;
    ThreadLimit& operator=(const ThreadLimit&) = delete;

  private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

}  // namespace keel::parallel
