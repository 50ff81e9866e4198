#pragma once
/// Streaming a long answer while it is written (DESIGN.md, rpc: "stream large responses"): the
/// transport of one answer (keel node's HTTP server) sets an AnswerStream over the buffer the
/// answer is written into, on the thread that writes it; writers of long outputs (a block's
/// traces, a struct log's drain, a log range) call flush_point(buffer) between items, and once
/// the buffer holds flush_bytes or more, what it holds is sent (an HTTP chunk) and the buffer is
/// emptied. Memory is then bounded by the largest item, not by the answer.
///
/// What has been sent cannot be taken back: a writer that would cut the buffer back (an error
/// after part of the answer) asks flushed() first, and when it is true marks the answer broken()
/// instead; the transport then ends the connection without completing the answer, so that the
/// client sees it cut short rather than a wrong one.
///
/// Threading: a stream belongs to the thread that made it, and flush_point() only acts on that
/// thread's stream and its buffer.

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>

namespace keel::json {

class AnswerStream {
  public:
    /// Sends bytes; false when they cannot go (the client is gone or too slow).
    using Send = std::function<bool(std::string_view)>;
    static constexpr std::size_t kFlushBytes = std::size_t{1} << 20;

    /// This thread's stream over `buffer` until it goes (streams do not nest). Disabled until
    /// enable(): the dispatcher enables it for an answer that may stream (one request, with an
    /// id).
    AnswerStream(std::string& buffer, Send send, std::size_t flush_bytes = kFlushBytes);
    ~AnswerStream();
    AnswerStream(const AnswerStream&) = delete;
    AnswerStream& operator=(const AnswerStream&) = delete;

    void enable(bool on) noexcept { enabled_ = on; }
    /// Whether part of the answer has been sent.
    bool flushed() const noexcept { return flushed_; }
    /// Whether a send failed (what followed was thrown away).
    bool failed() const noexcept { return failed_; }
    void mark_broken() noexcept { broken_ = true; }
    bool broken() const noexcept { return broken_; }

    /// The thread's stream, or null.
    static AnswerStream* current() noexcept;

  private:
    friend void flush_point(std::string& buffer);
    void flush();

    std::string& buffer_;
    Send send_;
    std::size_t flush_bytes_;
    bool enabled_ = false;
    bool flushed_ = false;
    bool failed_ = false;
    bool broken_ = false;
    AnswerStream* outer_ = nullptr;
};

/// If `buffer` is this thread's enabled stream's buffer and holds the flush size or more: sends
/// what it holds and empties it (after a failed send, empties it without sending). Else nothing.
void flush_point(std::string& buffer);

}  // namespace keel::json
