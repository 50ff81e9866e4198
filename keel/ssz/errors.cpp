#include "keel/ssz/errors.hpp"

namespace keel::ssz {

std::string_view describe(Errc e) noexcept {
    switch (e) {
        case Errc::wrong_size:
            return "wrong size for a fixed-size value";
        case Errc::invalid_bool:
            return "boolean byte is not 0x00 or 0x01";
        case Errc::bitvector_padding:
            return "bitvector has non-zero bits past its length";
        case Errc::bitlist_no_delimiter:
            return "bitlist has no delimiter bit";
        case Errc::too_many_elements:
            return "list longer than its limit";
        case Errc::not_multiple:
            return "list byte length is not a multiple of the element size";
        case Errc::fixed_part_too_short:
            return "input shorter than the fixed part";
        case Errc::first_offset_mismatch:
            return "first offset is not the fixed part size";
        case Errc::offset_decreasing:
            return "offset is before the previous offset";
        case Errc::offset_out_of_bounds:
            return "offset is past the end of the input";
        case Errc::invalid_union_selector:
            return "union selector out of range";
        case Errc::none_with_payload:
            return "union None option with a payload";
        case Errc::empty_union:
            return "union has no selector byte";
        case Errc::snappy_invalid:
            return "corrupt snappy block";
        case Errc::snappy_too_large:
            return "snappy block uncompressed length over the limit";
    }
    return "unknown SSZ error";
}

namespace {

std::string n(std::uint64_t v) {
    return std::to_string(v);
}

}  // namespace

std::string rule(const Error& e) {
    switch (e.code) {
        case Errc::wrong_size:
            return "wrong size (" + n(e.a) + " bytes, expected " + n(e.b) + ")";
        case Errc::invalid_bool:
            return "boolean byte " + n(e.a) + " is not 0 or 1";
        case Errc::too_many_elements:
            return "list has " + n(e.a) + " elements, over its limit " + n(e.b);
        case Errc::not_multiple:
            return "list byte length " + n(e.a) + " is not a multiple of the element size " +
                   n(e.b);
        case Errc::fixed_part_too_short:
            return "input of " + n(e.a) + " bytes is shorter than the fixed part (" + n(e.b) +
                   " bytes)";
        case Errc::first_offset_mismatch:
            return "first offset " + n(e.a) + " is not the fixed part size " + n(e.b);
        case Errc::offset_decreasing:
            return "offset " + n(e.a) + " is before the previous offset " + n(e.b);
        case Errc::offset_out_of_bounds:
            return "offset " + n(e.a) + " is past the end " + n(e.b);
        case Errc::invalid_union_selector:
            return "union selector " + n(e.a) + " out of range (" + n(e.b) + " options)";
        case Errc::none_with_payload:
            return "union None option followed by " + n(e.a) + " bytes";
        case Errc::snappy_too_large:
            return "snappy block of " + n(e.a) + " bytes is over the limit " + n(e.b);
        default:
            return std::string(describe(e.code));
    }
}

std::string to_string(const Error& e) {
    std::string out = "ssz: ";
    if (!e.path.empty()) {
        out += e.path;
        out += ": ";
    }
    out += rule(e);
    out += " at offset ";
    out += std::to_string(e.offset);
    return out;
}

}  // namespace keel::ssz
