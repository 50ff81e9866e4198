#pragma once
/// Parallel helpers on oneTBB's one process-wide pool (DESIGN.md §4.4): never threads per call.
///
/// The pool is sized to the machine; `ThreadLimit` caps it (for a --threads flag, or tests).
/// Work functions must not throw: keel code reports failures through Result values.

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <thread>
#include <utility>
#include <vector>

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/parallel_invoke.h>
#include <tbb/parallel_reduce.h>
#include <tbb/task_group.h>

// ThreadSanitizer builds (make tsan) run the same chunks on plain std::threads: Debian's oneTBB is
// not instrumented, so TSan cannot see the pool's own hand-offs and reports its task objects as
// races, and any suppression broad enough to hide those (every stack of a pool worker passes
// through libtbb) would hide races in keel's chunk functions too. Threads created and joined per
// call give TSan every happens-before edge, so what it checks is keel's sharing, chunk by chunk.
#if defined(__SANITIZE_THREAD__)
#define KEEL_PARALLEL_PLAIN_THREADS 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define KEEL_PARALLEL_PLAIN_THREADS 1
#endif
#endif

namespace keel::parallel {

/// Number of threads the pool may run work on now (respects an active ThreadLimit).
std::size_t concurrency() noexcept;

#ifdef KEEL_PARALLEL_PLAIN_THREADS
namespace detail {
/// Calls chunk(c, begin, end) for the ceil(n / grain) chunks of [0, n) on concurrency() plain
/// threads (the caller is one of them), handing chunks out in order; a worker stops taking
/// chunks once `stop` is set. TSan builds only (see above).
template <class F>
void plain_thread_chunks(std::size_t n, std::size_t grain, F&& chunk,
                         const std::atomic<bool>* stop = nullptr) {
    const std::size_t chunks = (n + grain - 1) / grain;
    const std::size_t workers = std::min(chunks, std::max<std::size_t>(concurrency(), 1));
    std::atomic<std::size_t> next{0};
    auto work = [&] {
        for (;;) {
            if (stop != nullptr && stop->load(std::memory_order_relaxed)) return;
            const std::size_t c = next.fetch_add(1, std::memory_order_relaxed);
            if (c >= chunks) return;
            const std::size_t begin = c * grain;
            chunk(c, begin, std::min(n, begin + grain));
        }
    };
    std::vector<std::thread> threads;
    threads.reserve(workers - 1);
    for (std::size_t i = 1; i < workers; ++i) threads.emplace_back(work);
    work();
    for (auto& t : threads) t.join();
}
}  // namespace detail
#endif

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
#ifdef KEEL_PARALLEL_PLAIN_THREADS
    detail::plain_thread_chunks(n, grain,
                                [&f](std::size_t, std::size_t b, std::size_t e) { f(b, e); });
#else
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, n, grain),
                      [&f](const tbb::blocked_range<std::size_t>& r) { f(r.begin(), r.end()); });
#endif
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
#ifdef KEEL_PARALLEL_PLAIN_THREADS
    std::vector<std::optional<T>> parts((n + grain - 1) / grain);
    detail::plain_thread_chunks(n, grain, [&](std::size_t c, std::size_t b, std::size_t e) {
        parts[c].emplace(map(b, e));
    });
    T acc = std::move(identity);
    for (auto& part : parts) acc = reduce(std::move(acc), std::move(*part));
    return acc;
#else
    return tbb::parallel_reduce(
        tbb::blocked_range<std::size_t>(0, n, grain), identity,
        [&map, &reduce](const tbb::blocked_range<std::size_t>& r, T acc) {
            return reduce(std::move(acc), map(r.begin(), r.end()));
        },
        [&reduce](T a, T b) { return reduce(std::move(a), std::move(b)); });
#endif
}

/// True when pred(begin, end) holds for every chunk of [0, n). Stops handing out new chunks
/// after the first false (batch signature checks stop at the first bad set).
template <class Pred>
bool all_of(std::size_t n, std::size_t grain, Pred&& pred) {
    if (n == 0) return true;
    if (grain == 0) grain = 1;
    if (n <= grain) return pred(std::size_t{0}, n);
#ifdef KEEL_PARALLEL_PLAIN_THREADS
    std::atomic<bool> failed{false};
    detail::plain_thread_chunks(
        n, grain,
        [&](std::size_t, std::size_t b, std::size_t e) {
            if (!pred(b, e)) failed.store(true, std::memory_order_relaxed);
        },
        &failed);
    return !failed.load(std::memory_order_relaxed);
#else
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
#endif
}

/// Runs f() and g() at once on the pool (one of them may run on the calling thread) and returns
/// when both are done: a pipeline stage overlapping the next one (e.g. decoding batch k + 1
/// while batch k is written).
template <class F, class G>
void both(F&& f, G&& g) {
#ifdef KEEL_PARALLEL_PLAIN_THREADS
    std::thread other(std::ref(f));
    g();
    other.join();
#else
    tbb::parallel_invoke(std::forward<F>(f), std::forward<G>(g));
#endif
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
