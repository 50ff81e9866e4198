// Tests for keel/rlpx/messages (being written).
#include <gtest/gtest.h>

#include "keel/rlpx/messages.hpp"
