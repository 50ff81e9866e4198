#pragma once
// keel/rlpx/handshake.hpp: being written (issue 7).
