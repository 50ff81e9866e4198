#pragma once
// keel/rlpx/frame.hpp: being written (issue 7).
