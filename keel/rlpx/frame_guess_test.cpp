// The receiver's guess of the next frame size: only large frames, the last size, and a backoff
// that doubles with each failed guess (up to 1024 frames) and resets on a good one.
#include "keel/rlpx/frame_guess.hpp"

#include <gtest/gtest.h>

namespace keel::rlpx {
namespace {

/// Frames read until the guess comes back, after a miss (at most `limit`).
unsigned frames_without_guess(FrameGuess& g, std::size_t size, unsigned limit) {
    unsigned n = 0;
    while (g.expect() == 0 && n < limit) {
        g.header_read(size);
        ++n;
    }
    return n;
}

TEST(RlpxFrameGuess, GuessesTheLastLargeFrame) {
    FrameGuess g;
    EXPECT_EQ(g.expect(), 0U);
    g.header_read(1 << 10);
    EXPECT_EQ(g.expect(), 0U);  // small frames arrive whole anyway
    g.header_read(FrameGuess::kMinBytes);
    EXPECT_EQ(g.expect(), FrameGuess::kMinBytes);
    g.header_read(65600);
    EXPECT_EQ(g.expect(), 65600U);
    g.header_read(100);
    EXPECT_EQ(g.expect(), 0U);
    // The grace grows with the guess: a millisecond plus 1/64 us per byte.
    g.header_read(1 << 20);
    EXPECT_EQ(g.grace().count(), 1000 + (1 << 20) / 64);
}

TEST(RlpxFrameGuess, BacksOffAfterMissesAndResetsOnAHit) {
    FrameGuess g;
    const std::size_t size = 1 << 20;
    g.header_read(size);
    // The header of the frame whose wait missed is read next; then 1, 2, 4 ... frames pass
    // without a guess.
    unsigned expected = 1;
    for (int miss = 0; miss < 14; ++miss) {
        ASSERT_EQ(g.expect(), size);
        g.outcome(false);
        g.header_read(size);  // the frame that missed
        EXPECT_EQ(frames_without_guess(g, size, 5000), expected) << "miss " << miss;
        expected = std::min(expected * 2, FrameGuess::kMaxBackoff);
    }
    g.outcome(true);
    g.outcome(false);
    g.header_read(size);
    EXPECT_EQ(frames_without_guess(g, size, 5000), 1U);
}

}  // namespace
}  // namespace keel::rlpx
