#pragma once
// keel/rlpx/ecies.hpp: being written (issue 7).
