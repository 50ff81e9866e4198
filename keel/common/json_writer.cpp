#include "keel/common/json_writer.hpp"

#include "keel/common/answer_stream.hpp"

#include <charconv>
#include <cmath>

#include "keel/common/assert.hpp"
#include "keel/common/hex.hpp"

namespace keel::json {

namespace {

constexpr char kHexDigits[] = "0123456789abcdef";

// What append_string writes for each byte below 0x20: a short escape, or 0 for \u00xx.
constexpr char short_escape(unsigned char c) noexcept {
    switch (c) {
        case '\b':
            return 'b';
        case '\f':
            return 'f';
        case '\n':
            return 'n';
        case '\r':
            return 'r';
        case '\t':
            return 't';
        default:
            return 0;
    }
}

}  // namespace

void append_string(std::string& out, std::string_view s) {
    out.push_back('"');
    // Copy runs of plain bytes in one append: keys and hex strings have no byte to escape.
    std::size_t run = 0;
    for (std::size_t i = 0; i < s.size(); ++i) {
        const auto c = static_cast<unsigned char>(s[i]);
        if (c >= 0x20 && c != '"' && c != '\\') continue;
        out.append(s.data() + run, i - run);
        run = i + 1;
        out.push_back('\\');
        if (c == '"' || c == '\\') {
            out.push_back(static_cast<char>(c));
        } else if (const char e = short_escape(c)) {
            out.push_back(e);
        } else {
            out.append("u00");
            out.push_back(kHexDigits[c >> 4]);
            out.push_back(kHexDigits[c & 0xf]);
        }
    }
    out.append(s.data() + run, s.size() - run);
    out.push_back('"');
}

void Writer::newline_and_indent(std::size_t level) {
    out_.push_back('\n');
    out_.append(level * static_cast<std::size_t>(indent_), ' ');
}

void Writer::before_value() {
    if (depth_ == 0) {
        KEEL_ASSERT(!wrote_top_);  // one top-level value per writer
        wrote_top_ = true;
        return;
    }
    std::uint8_t& f = frames_[depth_ - 1];
    if (f & kObject) {
        KEEL_ASSERT(f & kKeyPending);  // an object's member needs its key first
        f = static_cast<std::uint8_t>(f & ~kKeyPending);
        return;
    }
    if (f & kHasItems) out_.push_back(',');
    f |= kHasItems;
    if (indent_ >= 0) newline_and_indent(depth_);
}

void Writer::begin_key() {
    KEEL_ASSERT(depth_ > 0);
    std::uint8_t& f = frames_[depth_ - 1];
    KEEL_ASSERT((f & kObject) && !(f & kKeyPending));
    if (f & kHasItems) out_.push_back(',');
    f |= kHasItems | kKeyPending;
    if (indent_ >= 0) newline_and_indent(depth_);
}

void Writer::end_key() {
    out_.push_back(':');
    if (indent_ >= 0) out_.push_back(' ');
}

void Writer::key(std::string_view k) {
    begin_key();
    append_string(out_, k);
    end_key();
}

void Writer::flush_point() {
    json::flush_point(out_);
}

void Writer::key_data(BytesView b) {
    begin_key();
    append_data(b);
    end_key();
}

void Writer::append_data(BytesView b) {
    // Grow once (quotes included) and let the hex table write into the buffer.
    const std::size_t at = out_.size();
    const hex::EncodeOptions o{.prefix = true};
    const std::size_t n = hex::encoded_size(b.size(), o);
    out_.resize(at + n + 2);
    out_[at] = '"';
    hex::encode_to(b, out_.data() + at + 1, o);
    out_[at + 1 + n] = '"';
}

void Writer::open(std::uint8_t kind, char c) {
    before_value();
    KEEL_ASSERT(depth_ < kMaxDepth);
    frames_[depth_++] = kind;
    out_.push_back(c);
}

void Writer::close(std::uint8_t kind, char c) {
    KEEL_ASSERT(depth_ > 0);
    const std::uint8_t f = frames_[depth_ - 1];
    KEEL_ASSERT((f & kind) && !(f & kKeyPending));
    --depth_;
    // An empty container stays on one line ({} / []), as nlohmann writes it.
    if ((f & kHasItems) && indent_ >= 0) newline_and_indent(depth_);
    out_.push_back(c);
}

void Writer::begin_object() {
    open(kObject, '{');
}
void Writer::end_object() {
    close(kObject, '}');
}
void Writer::begin_array() {
    open(kArray, '[');
}
void Writer::end_array() {
    close(kArray, ']');
}

void Writer::string(std::string_view s) {
    before_value();
    append_string(out_, s);
}

void Writer::null() {
    before_value();
    out_.append("null");
}

void Writer::boolean(bool b) {
    before_value();
    out_.append(b ? "true" : "false");
}

void Writer::number(std::uint64_t v) {
    before_value();
    char buf[20];
    const auto r = std::to_chars(buf, buf + sizeof buf, v);
    out_.append(buf, r.ptr);
}

void Writer::real(double v) {
    before_value();
    if (!std::isfinite(v)) v = 0;
    char buf[32];
    const auto r = std::to_chars(buf, buf + sizeof buf, v);
    out_.append(buf, r.ptr);
}

void Writer::quantity(std::uint64_t v) {
    before_value();
    // "0x" then the digits from the highest non-zero nibble down (one for zero).
    int shift = 60;
    while (shift > 0 && ((v >> shift) & 0xf) == 0) shift -= 4;
    char buf[1 + 2 + 16 + 1] = {'"', '0', 'x'};
    std::size_t n = 3;
    for (; shift >= 0; shift -= 4) buf[n++] = kHexDigits[(v >> shift) & 0xf];
    buf[n++] = '"';
    out_.append(buf, n);
}

void Writer::quantity(const Uint256& v) {
    before_value();
    char buf[Uint256::kMaxHexChars + 2];
    buf[0] = '"';
    const std::size_t n = 1 + v.write_hex(buf + 1);
    buf[n] = '"';
    out_.append(buf, n + 1);
}

void Writer::data(BytesView b) {
    before_value();
    append_data(b);
}

}  // namespace keel::json
