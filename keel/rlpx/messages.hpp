#pragma once
// keel/rlpx/messages.hpp: being written (issue 7).
