// Tests for keel/rlpx/session (being written).
#include <gtest/gtest.h>

#include "keel/rlpx/session.hpp"
