// Tests for keel/rlpx/frame (being written).
#include <gtest/gtest.h>

#include "keel/rlpx/frame.hpp"
