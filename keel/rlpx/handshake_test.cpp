// Tests for keel/rlpx/handshake (being written).
#include <gtest/gtest.h>

#include "keel/rlpx/handshake.hpp"
