#include "keel/common/answer_stream.hpp"

#include "keel/common/assert.hpp"

namespace keel::json {
namespace {

thread_local AnswerStream* t_stream = nullptr;

}  // namespace

AnswerStream::AnswerStream(std::string& buffer, Send send, std::size_t flush_bytes)
    : buffer_(buffer), send_(std::move(send)), flush_bytes_(flush_bytes), outer_(t_stream) {
    KEEL_ASSERT(outer_ == nullptr);  // one answer at a time on a thread
    t_stream = this;
}

AnswerStream::~AnswerStream() {
    t_stream = outer_;
}

AnswerStream* AnswerStream::current() noexcept {
    return t_stream;
}

void AnswerStream::flush() {
    if (!failed_ && !send_(buffer_)) failed_ = true;
    flushed_ = true;
    buffer_.clear();
}

void flush_point(std::string& buffer) {
    AnswerStream* s = t_stream;
    if (s == nullptr || !s->enabled_ || &s->buffer_ != &buffer) return;
    if (buffer.size() >= s->flush_bytes_) s->flush();
}

}  // namespace keel::json
