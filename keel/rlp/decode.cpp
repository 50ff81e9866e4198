#include "keel/rlp/decode.hpp"

#include "keel/common/assert.hpp"

namespace keel::rlp {

std::string_view describe(Errc e) noexcept {
    switch (e) {
        case Errc::empty_input:
            return "empty RLP input";
        case Errc::truncated:
            return "RLP header runs past the end of its input or parent list";
        case Errc::length_past_input:
            return "RLP item runs past the end of its input or parent list";
        case Errc::length_overflow:
            return "RLP length too large to address";
        case Errc::non_canonical_size:
            return "RLP long-form length used for a length under 56";
        case Errc::leading_zero_in_length:
            return "RLP length has a leading zero byte";
        case Errc::non_canonical_single_byte:
            return "RLP single byte below 0x80 wrapped in a string header";
        case Errc::trailing_bytes:
            return "unexpected bytes after the last RLP item";
        case Errc::too_deep:
            return "RLP lists nested too deep";
        case Errc::missing_item:
            return "RLP list ends before an expected item";
        case Errc::expected_string:
            return "expected an RLP string, found a list";
        case Errc::expected_list:
            return "expected an RLP list, found a string";
        case Errc::leading_zero_in_integer:
            return "RLP integer has a leading zero byte";
        case Errc::integer_overflow:
            return "RLP integer too large for its field";
        case Errc::wrong_size:
            return "RLP string has the wrong size for its fixed-size field";
    }
    return "unknown RLP error";
}

Result<Item, Error> decode_single(BytesView in, std::size_t base_offset) noexcept {
    auto r = decode_header(in, base_offset);
    if (r && r->size() != in.size()) [[unlikely]]
        return input_error(Errc::trailing_bytes, base_offset + r->size());
    return r;
}

Result<Decoder, Error> open_list(BytesView in, std::size_t base_offset) noexcept {
    auto r = decode_single(in, base_offset);
    if (!r) [[unlikely]]
        return unexpected(r.error());
    if (!r->is_list) [[unlikely]]
        return input_error(Errc::expected_list, base_offset);
    return Decoder(r->payload, base_offset + r->header_size);
}

Result<void, Error> validate(BytesView in, std::size_t max_depth,
                             std::size_t base_offset) noexcept {
    KEEL_ASSERT(max_depth <= kMaxDepthLimit);
    auto top = decode_single(in, base_offset);
    if (!top) [[unlikely]]
        return unexpected(top.error());
    if (!top->is_list) return {};
    if (max_depth == 0) [[unlikely]]
        return input_error(Errc::too_deep, base_offset);

    // Walk the tree in encoding order. `limit` is the end of the innermost open list; the ends of
    // the lists around it wait in `parents`. Children are parsed against `limit`, so a child that
    // overruns its parent is length_past_input, and a list whose children stop short of its end
    // cannot happen: the last child would have to overrun it.
    const std::uint8_t* const begin = in.data();
    const std::uint8_t*
        parents[kMaxDepthLimit];  // uninitialised: slot i is written before it is read
    std::size_t depth = 1;        // lists open, the top-level one included
    const std::uint8_t* p = top->payload.data();
    const std::uint8_t* limit = begin + in.size();
    for (;;) {
        while (p != limit) {
            detail::Header h;
            Errc err;
            if (!detail::parse_header(p, static_cast<std::size_t>(limit - p), h, err)) [[unlikely]]
                return input_error(err, base_offset + static_cast<std::size_t>(p - begin));
            const std::uint8_t* next = h.payload + h.length;
            if (h.is_list) {
                if (depth == max_depth) [[unlikely]]
                    return input_error(Errc::too_deep,
                                       base_offset + static_cast<std::size_t>(p - begin));
                parents[depth++] = limit;
                limit = next;
                p = h.payload;
            } else {
                p = next;
            }
        }
        if (--depth == 0) return {};
        limit = parents[depth];
    }
}

}  // namespace keel::rlp
