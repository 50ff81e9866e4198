#include "keel/common/answer_stream.hpp"

#include <gtest/gtest.h>

namespace keel::json {
namespace {

TEST(AnswerStream, SendsItsBufferOnceItReachesTheFlushSize) {
    std::string buffer;
    std::string sent;
    AnswerStream s(
        buffer,
        [&sent](std::string_view b) {
            sent += b;
            return true;
        },
        8);
    buffer = "0123456789";
    flush_point(buffer);  // not enabled yet: nothing leaves
    EXPECT_FALSE(s.flushed());
    EXPECT_EQ(buffer, "0123456789");
    s.enable(true);
    std::string other = "a different buffer, longer than eight";
    flush_point(other);  // not the stream's buffer
    EXPECT_FALSE(s.flushed());
    flush_point(buffer);
    EXPECT_TRUE(s.flushed());
    EXPECT_TRUE(buffer.empty());
    EXPECT_EQ(sent, "0123456789");
    buffer = "abc";
    flush_point(buffer);  // below the size: kept
    EXPECT_EQ(buffer, "abc");
    EXPECT_EQ(AnswerStream::current(), &s);
}

TEST(AnswerStream, AFailedSendThrowsTheRestAwayAndTheStreamEndsWithItsScope) {
    std::string buffer;
    int sends = 0;
    {
        AnswerStream s(
            buffer,
            [&sends](std::string_view) {
                ++sends;
                return false;
            },
            4);
        s.enable(true);
        buffer = "12345";
        flush_point(buffer);
        EXPECT_TRUE(s.failed());
        buffer = "67890";
        flush_point(buffer);  // the client is gone: emptied, not sent
        EXPECT_TRUE(buffer.empty());
        EXPECT_EQ(sends, 1);
        EXPECT_FALSE(s.broken());
        s.mark_broken();
        EXPECT_TRUE(s.broken());
    }
    EXPECT_EQ(AnswerStream::current(), nullptr);
    buffer = "123456789";
    flush_point(buffer);  // no stream: nothing happens
    EXPECT_EQ(buffer, "123456789");
}

}  // namespace
}  // namespace keel::json
