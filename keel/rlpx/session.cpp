#include "keel/rlpx/session.hpp"
