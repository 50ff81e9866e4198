#pragma once
/// SSZ decoding errors (DESIGN.md §3): what was wrong, in which field, at which byte.
///
/// Every rule of consensus-specs ssz/simple-serialize.md ("Deserialization") that an input can
/// break has its own code. An Error also carries the field path ("ComplexTestStruct.E.B[3]"),
/// built only on the failure path, and up to two numbers for the message (e.g. an offset and
/// the previous one). keel::ssz::to_string(error) gives the one line the CLI prints:
///   ssz: ComplexTestStruct.E.B: offset 12 is before the previous offset 16 at offset 4

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace keel::ssz {

/// What was wrong with an SSZ input. The Error's `offset` is the absolute byte offset, in the
/// input the caller passed, of the value or offset word at fault.
enum class Errc : std::uint8_t {
    wrong_size,              ///< a fixed-size value with another byte length (a: got, b: expected)
    invalid_bool,            ///< a boolean byte other than 0x00 / 0x01 (a: the byte)
    bitvector_padding,       ///< a Bitvector's unused high bits are not zero
    bitlist_no_delimiter,    ///< a Bitlist is empty or its last byte is zero (no delimiter bit)
    too_many_elements,       ///< a List / ByteList / Bitlist longer than its limit (a: n, b: limit)
    not_multiple,            ///< a List's byte length is not a multiple of its element size
    fixed_part_too_short,    ///< fewer bytes than the fixed part (a: got, b: fixed part size)
    first_offset_mismatch,   ///< the first offset is not the fixed part's size (a: got, b: want)
    offset_decreasing,       ///< an offset is below the previous one (a: offset, b: previous)
    offset_out_of_bounds,    ///< an offset points past the end of its scope (a: offset, b: end)
    invalid_union_selector,  ///< a Union selector is not one of its options (a: selector)
    none_with_payload,       ///< the Union's None option followed by bytes (a: byte count)
    empty_union,             ///< no selector byte where a Union was expected
    snappy_invalid,          ///< the snappy block is corrupt
    snappy_too_large,        ///< the snappy block's length exceeds the limit (a: length, b: limit)
};

/// A short phrase for the code, e.g. "offset is before the previous offset".
std::string_view describe(Errc e) noexcept;

/// An SSZ error: code, absolute byte offset, field path, and two numbers for the message.
struct Error {
    Errc code{};
    std::size_t offset = 0;
    std::uint64_t a = 0;  ///< first number of the message (see Errc)
    std::uint64_t b = 0;  ///< second number of the message (see Errc)
    std::string path;     ///< "Type.field[3].field"; empty when not known

    friend bool operator==(const Error&, const Error&) = default;
};

/// The rule the input broke, with its numbers, without path or offset: e.g. "offset 12 is before
/// the previous offset 16" (what to_string() puts between the path and the offset).
std::string rule(const Error& e);

/// One line: "ssz: <path>: <what, with numbers> at offset <n>".
std::string to_string(const Error& e);

}  // namespace keel::ssz
