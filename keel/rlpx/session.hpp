#pragma once
// keel/rlpx/session.hpp: being written (issue 7).
