// Frame codec benchmarks (being written).
#include <benchmark/benchmark.h>

#include "keel/rlpx/frame.hpp"
