#include "keel/rlpx/handshake.hpp"
