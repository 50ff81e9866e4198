#pragma once
/// A streaming JSON writer (RFC 8259): values go straight into one caller-owned std::string that
/// only grows, with no tree in between (DESIGN.md §1: rpc streams large responses; common: hex
/// is a table lookup into the caller's buffer). JSON-RPC's hex encodings are built in: data()
/// writes DATA ("0x" and two digits per byte) and quantity() writes QUANTITY ("0x" and minimal
/// digits, "0x0" for zero), both straight into the buffer
/// (https://ethereum.org/en/developers/docs/apis/json-rpc/#hex-encoding).
///
/// Layout: compact (no whitespace) by default, or indented like nlohmann::json's dump(n): one
/// member or element per line, `n` spaces per level, `"key": value`, and `{}` / `[]` for empty
/// containers. keel's commands print indented objects that were built as nlohmann trees before;
/// the same bytes come out.
///
/// Misuse (a value where a key is due, closing the wrong container, nesting deeper than
/// kMaxDepth) is a bug in the caller and stops the process with KEEL_ASSERT; nothing here
/// depends on the data written. No allocation beyond the buffer's growth; not thread-safe (one
/// writer per buffer).

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "keel/common/bytes.hpp"
#include "keel/common/uint256.hpp"

namespace keel::json {

/// Appends `s` to `out` as a JSON string: quoted, with `"` and `\` escaped, the control
/// characters below 0x20 written as \b \f \n \r \t or \u00xx (lower-case hex, as nlohmann
/// writes them); every other byte, UTF-8 included, is copied as it is.
void append_string(std::string& out, std::string_view s);

class Writer {
  public:
    /// The deepest nesting of objects and arrays.
    /// Deep enough for any call tree a transaction can make: 1,024 frames, each an object in
    /// its parent's "calls" array (geth's callTracer, keel/trace), with their logs' topics.
    static constexpr std::size_t kMaxDepth = 4096;
    /// indent() value for the compact layout.
    static constexpr int kCompact = -1;

    /// Writes into `out`, after what it holds already. `indent` is kCompact or the number of
    /// spaces per level (0: one item per line, no indentation, as dump(0)).
    explicit Writer(std::string& out, int indent = kCompact) noexcept
        : out_(out), indent_(indent) {}
    Writer(const Writer&) = delete;
    Writer& operator=(const Writer&) = delete;

    /// Opens an object (as a value: in an array, after a key, or at the top).
    void begin_object();
    /// Closes the innermost container, which must be an object with no key pending.
    void end_object();
    /// Opens an array.
    void begin_array();
    /// Closes the innermost container, which must be an array.
    void end_array();

    /// The next member's key (escaped). Only directly inside an object, before its value.
    void key(std::string_view k);
    /// The next member's key as DATA, "0x" and two hex digits per byte (an address or a slot as
    /// tracers key their objects): nothing to escape, no string made.
    void key_data(BytesView b);

    /// A string value, escaped (append_string).
    void string(std::string_view s);
    /// null.
    void null();
    /// true or false.
    void boolean(bool b);
    /// A decimal number.
    void number(std::uint64_t v);
    /// The buffer, placed for one value that the caller appends itself (JSON written by another
    /// writer, a tracer's result streamed into it): exactly one complete value must follow.
    std::string& raw_value() {
        before_value();
        return out_;
    }
    /// A finite double in its shortest round-trip form ("0.5", "1e-05"); NaN and infinities
    /// (which JSON cannot hold) as 0.
    void real(double v);
    /// A QUANTITY: a JSON string of "0x" and minimal lower-case hex digits ("0x0" for zero).
    void quantity(std::uint64_t v);
    /// A QUANTITY of a 256-bit value.
    void quantity(const Uint256& v);
    /// DATA: a JSON string of "0x" and two lower-case hex digits per byte ("0x" when empty).
    void data(BytesView b);

    /// key(k) then the value, for the common case of a member.
    void member_quantity(std::string_view k, std::uint64_t v) {
        key(k);
        quantity(v);
    }
    void member_quantity(std::string_view k, const Uint256& v) {
        key(k);
        quantity(v);
    }
    void member_data(std::string_view k, BytesView b) {
        key(k);
        data(b);
    }

    /// A point between values where a streamed answer may leave (answer_stream.hpp): when the
    /// buffer is this thread's AnswerStream's, what it holds is sent once it is long enough.
    void flush_point();

    /// Open containers.
    std::size_t depth() const noexcept { return depth_; }
    /// True once one whole top-level value has been written.
    bool complete() const noexcept { return depth_ == 0 && wrote_top_; }

  private:
    enum : std::uint8_t { kObject = 1, kArray = 2, kHasItems = 4, kKeyPending = 8 };

    // Before any value: the separator and line break an array element needs, or the check
    // that an object's key came first.
    void before_value();
    void open(std::uint8_t kind, char c);
    void close(std::uint8_t kind, char c);
    void newline_and_indent(std::size_t level);
    void begin_key();
    void end_key();
    void append_data(BytesView b);

    std::string& out_;
    int indent_;
    std::size_t depth_ = 0;
    bool wrote_top_ = false;
    std::uint8_t frames_[kMaxDepth] = {};
};

}  // namespace keel::json
