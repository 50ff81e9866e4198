#include "keel/rlpx/messages.hpp"
