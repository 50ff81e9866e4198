#pragma once
/// RLP error codes (DESIGN.md §3, keel/common/result.hpp).
///
/// Every rule of the canonical encoding (Ethereum yellow paper, appendix B; ethereum.org "RLP")
/// that an input can break has its own code, so a caller can tell a truncated frame from a
/// non-canonical one. The offset in keel::rlp::Error is the absolute byte offset, in the
/// original input, of the item header at fault unless the code says otherwise.

#include <cstdint>
#include <string_view>

#include "keel/common/result.hpp"

namespace keel::rlp {

/// What was wrong with an RLP input. The offset of the Error says where (see each code).
enum class Errc : std::uint8_t {
    empty_input,                ///< no bytes where one item was expected; offset: where it was due
    truncated,                  ///< a long-form header's length bytes run past the input/parent
    length_past_input,          ///< an item's payload runs past the end of the input or its list
    length_overflow,            ///< header + declared length does not fit std::size_t
    non_canonical_size,         ///< long form used for a length below 56 (YP app. B, R_b/R_l)
    leading_zero_in_length,     ///< long-form length bytes start with 0x00 (YP app. B, BE)
    non_canonical_single_byte,  ///< a single byte below 0x80 written as 0x81 xx (YP app. B, R_b)
    trailing_bytes,             ///< bytes after the item / after the last expected list item;
                                ///< offset: the first extra byte
    too_deep,                   ///< lists nested deeper than the depth cap; offset: the list
    missing_item,               ///< a list ended where another item was expected; offset: its end
    expected_string,            ///< a list where a string (bytes, integer) was expected
    expected_list,              ///< a string where a list was expected
    leading_zero_in_integer,    ///< an integer with a leading zero byte (0 must be 0x80)
    integer_overflow,           ///< an integer wider than the target type
    wrong_size,                 ///< a fixed-size field (hash, address) with another length
};

/// A short human phrase for the code, e.g. "RLP item runs past the end of its input or list".
std::string_view describe(Errc e) noexcept;

/// An RLP error: the code and the absolute byte offset where it was found.
/// keel::to_string(error) gives "<phrase> at offset <n>".
using Error = InputError<Errc>;

}  // namespace keel::rlp
