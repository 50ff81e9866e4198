#pragma once
/// The few formatting primitives the tracers share: numbers and hex appended straight into the
/// caller's buffer, no temporary strings (a trace of a block is millions of them).

#include <charconv>
#include <cstdint>
#include <string>

#include "keel/common/bytes.hpp"
#include "keel/common/hex.hpp"
#include "keel/common/uint256.hpp"

namespace keel::trace {

inline void append_dec(std::string& out, std::uint64_t v) {
    char tmp[20];
    const auto r = std::to_chars(tmp, tmp + sizeof tmp, v);
    out.append(tmp, r.ptr);
}

inline void append_dec(std::string& out, std::int64_t v) {
    char tmp[21];
    const auto r = std::to_chars(tmp, tmp + sizeof tmp, v);
    out.append(tmp, r.ptr);
}

/// A quoted QUANTITY: "0x" and minimal lower-case hex digits ("0x0" for zero).
inline void append_quantity(std::string& out, const Uint256& v) {
    const std::size_t at = out.size();
    out.resize(at + Uint256::kMaxHexChars + 2);
    out[at] = '"';
    const std::size_t n = v.write_hex(out.data() + at + 1);
    out[at + 1 + n] = '"';
    out.resize(at + n + 2);
}

/// A quoted QUANTITY of a gas amount (never negative where a tracer sees it; 0 if it were).
inline void append_quantity(std::string& out, std::int64_t v) {
    append_quantity(out, Uint256(static_cast<std::uint64_t>(v < 0 ? 0 : v)));
}

/// A quoted 32-byte word: "0x" and 64 digits.
inline void append_word(std::string& out, const Uint256& v) {
    std::uint8_t be[32];
    v.to_be_bytes(be);
    out += "\"0x";
    hex::append(out, BytesView(be, 32));
    out += '"';
}

/// Quoted hex of `b`, "0x"-prefixed or not.
inline void append_hex(std::string& out, BytesView b, bool prefix) {
    out += prefix ? "\"0x" : "\"";
    hex::append(out, b);
    out += '"';
}

}  // namespace keel::trace
