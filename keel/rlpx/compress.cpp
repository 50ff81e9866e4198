#include "keel/rlpx/compress.hpp"
