#include "keel/rlpx/frame.hpp"
