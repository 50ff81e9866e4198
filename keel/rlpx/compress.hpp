#pragma once
// keel/rlpx/compress.hpp: being written (issue 7).
