#include "keel/common/parallel.hpp"

#include <algorithm>

#include <tbb/global_control.h>
#include <tbb/task_arena.h>

namespace keel::parallel {

struct ThreadLimit::Impl {
    tbb::global_control control;
};

std::size_t concurrency() noexcept {
    auto arena = static_cast<std::size_t>(std::max(1, tbb::this_task_arena::max_concurrency()));
    auto limit = tbb::global_control::active_value(tbb::global_control::max_allowed_parallelism);
    return std::min(arena, limit);
}

ThreadLimit::ThreadLimit(std::size_t threads)
    : impl_(new Impl{tbb::global_control(tbb::global_control::max_allowed_parallelism,
                                         std::max<std::size_t>(threads, 1))}) {}

ThreadLimit::~ThreadLimit() = default;

}  // namespace keel::parallel
