#pragma once
/// Result type and the error convention for untrusted input (DESIGN.md §3).
///
/// Every module that decodes untrusted input declares
///   enum class Errc : std::uint8_t { ... };            // what went wrong
///   std::string_view describe(Errc) noexcept;          // a short human phrase for it
///   using Error = keel::InputError<Errc>;              // what went wrong, and where
/// and returns keel::Result<T, Error>. keel::to_string(Error) gives the one-line message
/// "<phrase> at offset <n>" that the CLI prints.

#include <concepts>
#include <cstddef>
#include <cstdint>
#include <expected>
#include <string>
#include <string_view>

namespace keel {

/// The outcome of an operation that can fail: a value, or an error (std::expected).
template <class T, class E>
using Result = std::expected<T, E>;

using std::unexpected;

/// An input error: a per-module code plus the byte offset into the input where it was found.
/// Small and trivially copyable, so returning it costs no more than returning a pointer pair.
template <class Code>
struct InputError {
    Code code;
    std::size_t offset = 0;

    friend constexpr bool operator==(const InputError&, const InputError&) = default;
};

/// Returns the error as `unexpected`, ready to be returned from a function returning Result.
template <class Code>
constexpr std::unexpected<InputError<Code>> input_error(Code code, std::size_t offset) noexcept {
    return std::unexpected(InputError<Code>{code, offset});
}

/// Codes that have a human description found by argument-dependent lookup.
template <class Code>
concept DescribedCode = requires(Code c) {
    { describe(c) } -> std::convertible_to<std::string_view>;
};

/// One line: "<description> at offset <n>".
template <DescribedCode Code>
std::string to_string(const InputError<Code>& e) {
    std::string out(describe(e.code));
    out += " at offset ";
    out += std::to_string(e.offset);
    return out;
}

}  // namespace keel
