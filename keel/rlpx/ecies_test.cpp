// Tests for keel/rlpx/ecies (being written).
#include <gtest/gtest.h>

#include "keel/rlpx/ecies.hpp"
