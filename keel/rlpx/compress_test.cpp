// Tests for keel/rlpx/compress (being written).
#include <gtest/gtest.h>

#include "keel/rlpx/compress.hpp"
