#include "keel/rlpx/ecies.hpp"
