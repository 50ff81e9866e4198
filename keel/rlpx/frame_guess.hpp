#pragma once
/// The receiver's guess of the next frame's size, for read_at_least's read-ahead (net.hpp).
///
/// A receiver that keeps up with its peer finds the socket empty after each frame. Reading the
/// 32-byte header as soon as anything arrives, then waiting for the body, costs two recv()
/// calls per frame. Peers that stream large messages send frames of similar sizes, so the
/// session waits for as many bytes as the last frame had, and one recv() usually takes the
/// whole next frame. A guess that fails (the grace passed, or a smaller frame arrived and
/// stopped) is not tried again for the next 1, 2, 4 ... 1024 frames, so a peer whose frame
/// sizes do not repeat costs at most an occasional short delay.

#include <algorithm>
#include <chrono>
#include <cstddef>

namespace keel::rlpx {

class FrameGuess {
  public:
    /// Frames below this are not guessed: they usually arrive whole in one segment anyway.
    static constexpr std::size_t kMinBytes = std::size_t{16} << 10;
    static constexpr unsigned kMaxBackoff = 1024;

    /// Bytes to wait for before the next header (0: no guess; read the header as it comes).
    std::size_t expect() const noexcept { return skip_ == 0 ? last_ : 0; }
    /// How long to wait for them: a millisecond plus the time a slow peer (64 MB/s: one that
    /// compresses or encrypts while it sends) needs to produce that many bytes.
    std::chrono::microseconds grace() const noexcept {
        return std::chrono::microseconds(1000 + last_ / 64);
    }

    /// A frame header was read: the frame has `wire_bytes` (header, body and MACs).
    void header_read(std::size_t wire_bytes) noexcept {
        last_ = wire_bytes >= kMinBytes ? wire_bytes : 0;
        if (skip_ > 0) --skip_;
    }
    /// The outcome of a wait for expect() bytes.
    void outcome(bool met) noexcept {
        if (met) {
            backoff_ = 0;
            return;
        }
        backoff_ = std::min(kMaxBackoff, std::max(1U, backoff_ * 2));
        skip_ = backoff_ + 1;  // header_read() of the frame that missed counts one
    }

  private:
    std::size_t last_ = 0;
    unsigned skip_ = 0;     // frames left before guessing again
    unsigned backoff_ = 0;  // skip_ after the last miss
};

}  // namespace keel::rlpx
