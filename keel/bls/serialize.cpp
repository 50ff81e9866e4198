#include "keel/bls/serialize.hpp"

#include <algorithm>
#include <optional>

#include "keel/bls/g1.hpp"
#include "keel/bls/g2.hpp"

namespace keel::bls {

namespace {

constexpr std::uint8_t kCompressionBit = 0x80;
constexpr std::uint8_t kInfinityBit = 0x40;
constexpr std::uint8_t kSortBit = 0x20;
constexpr std::uint8_t kFlagMask = 0xe0;

/// The three flags of the first byte.
struct Flags {
    bool compressed, infinity, sort;
};

/// Checks the flag rules shared by G1 and G2 for an encoding of `in.size()` bytes whose
/// compressed size is `compressed_size`; returns the flags when they are consistent.
Result<Flags, Error> read_flags(BytesView in, std::size_t compressed_size) noexcept {
    if (in.size() != compressed_size && in.size() != 2 * compressed_size)
        return input_error(Errc::bad_length, 0);
    const Flags f{(in[0] & kCompressionBit) != 0, (in[0] & kInfinityBit) != 0,
                  (in[0] & kSortBit) != 0};
    if (f.compressed != (in.size() == compressed_size))
        return input_error(Errc::bad_compression_flag, 0);
    if (f.infinity) {
        if (f.sort) return input_error(Errc::infinity_with_sort_flag, 0);
        const bool rest_zero = (in[0] & ~kFlagMask) == 0 &&
                               std::all_of(in.begin() + 1, in.end(), [](auto b) { return b == 0; });
        if (!rest_zero) return input_error(Errc::infinity_not_zero, 0);
    } else if (f.sort && !f.compressed) {
        return input_error(Errc::sort_flag_uncompressed, 0);
    }
    return f;
}

/// The Fp element at `offset` (48 bytes), with the flag bits cleared when it is the first.
Result<Fp, Error> read_fp(BytesView in, std::size_t offset) noexcept {
    std::array<std::uint8_t, 48> buf;
    std::copy_n(in.begin() + static_cast<std::ptrdiff_t>(offset), 48, buf.begin());
    if (offset == 0) buf[0] &= static_cast<std::uint8_t>(~kFlagMask);
    const std::optional<Fp> v = Fp::from_bytes(buf);
    if (!v) return input_error(Errc::coordinate_too_large, offset);
    return *v;
}

/// The Fp2 element at `offset` (c1 then c0).
Result<Fp2, Error> read_fp2(BytesView in, std::size_t offset) noexcept {
    const auto c1 = read_fp(in, offset);
    if (!c1) return unexpected(c1.error());
    const auto c0 = read_fp(in, offset + 48);
    if (!c0) return unexpected(c0.error());
    return Fp2{*c0, *c1};
}

void write_fp(const Fp& v, std::uint8_t* out) noexcept {
    v.to_bytes(std::span<std::uint8_t, 48>(out, 48));
}

void write_fp2(const Fp2& v, std::uint8_t* out) noexcept {
    write_fp(v.c1, out);
    write_fp(v.c0, out + 48);
}

/// Decoding for either curve: `Field` Fp or Fp2, `Affine` the point type, `read` the coordinate
/// reader, `b` the curve constant, `in_group` the subgroup check.
template <class Affine, class Field, class Read, class InGroup>
Result<Affine, Error> decode(BytesView in, std::size_t compressed_size, const Field& b, Read read,
                             InGroup in_group, SubgroupCheck check) noexcept {
    const auto flags = read_flags(in, compressed_size);
    if (!flags) return unexpected(flags.error());
    if (flags->infinity) return Affine{{}, {}, true};  // the identity is in every subgroup
    const auto x = read(in, 0);
    if (!x) return unexpected(x.error());
    Affine p{*x, {}, false};
    if (flags->compressed) {
        const std::optional<Field> y = (x->square() * *x + b).sqrt();
        if (!y) return input_error(Errc::x_not_on_curve, 0);
        // Pick the root whose "largest" bit matches the sort flag.
        p.y = y->lexicographically_largest() == flags->sort ? *y : -*y;
    } else {
        const auto y = read(in, compressed_size);
        if (!y) return unexpected(y.error());
        p.y = *y;
        if (!p.on_curve()) return input_error(Errc::not_on_curve, 0);
    }
    if (check == SubgroupCheck::kCheck && !in_group(p))
        return input_error(Errc::not_in_subgroup, 0);
    return p;
}

/// The flag byte of an encoding.
std::uint8_t flags_of(bool compressed, bool infinity, bool sort) noexcept {
    return static_cast<std::uint8_t>((compressed ? kCompressionBit : 0) |
                                     (infinity ? kInfinityBit : 0) | (sort ? kSortBit : 0));
}

}  // namespace

std::string_view describe(Errc code) noexcept {
    switch (code) {
        case Errc::bad_length:
            return "wrong length for a point encoding";
        case Errc::bad_compression_flag:
            return "compression flag does not match the length";
        case Errc::infinity_with_sort_flag:
            return "infinity flag set together with the sort flag";
        case Errc::infinity_not_zero:
            return "infinity flag set but the encoding is not otherwise zero";
        case Errc::sort_flag_uncompressed:
            return "sort flag set on an uncompressed point";
        case Errc::coordinate_too_large:
            return "coordinate is not below the field modulus";
        case Errc::x_not_on_curve:
            return "x is not on the curve";
        case Errc::not_on_curve:
            return "point is not on the curve";
        case Errc::not_in_subgroup:
            return "point is not in the prime-order subgroup";
        case Errc::identity_public_key:
            return "public key is the point at infinity";
    }
    return "unknown point error";
}

Result<G1Affine, Error> g1_from_bytes(BytesView in, SubgroupCheck check) noexcept {
    return decode<G1Affine>(
        in, 48, kB1, read_fp, [](const G1Affine& p) { return in_g1(p); }, check);
}

Result<G2Affine, Error> g2_from_bytes(BytesView in, SubgroupCheck check) noexcept {
    return decode<G2Affine>(
        in, 96, kB2, read_fp2, [](const G2Affine& p) { return in_g2(p); }, check);
}

std::array<std::uint8_t, 48> g1_compress(const G1Affine& p) noexcept {
    std::array<std::uint8_t, 48> out{};
    if (!p.infinity) write_fp(p.x, out.data());
    out[0] |= flags_of(true, p.infinity, !p.infinity && p.y.lexicographically_largest());
    return out;
}

std::array<std::uint8_t, 96> g1_serialize(const G1Affine& p) noexcept {
    std::array<std::uint8_t, 96> out{};
    if (!p.infinity) {
        write_fp(p.x, out.data());
        write_fp(p.y, out.data() + 48);
    }
    out[0] |= flags_of(false, p.infinity, false);
    return out;
}

std::array<std::uint8_t, 96> g2_compress(const G2Affine& p) noexcept {
    std::array<std::uint8_t, 96> out{};
    if (!p.infinity) write_fp2(p.x, out.data());
    out[0] |= flags_of(true, p.infinity, !p.infinity && p.y.lexicographically_largest());
    return out;
}

std::array<std::uint8_t, 192> g2_serialize(const G2Affine& p) noexcept {
    std::array<std::uint8_t, 192> out{};
    if (!p.infinity) {
        write_fp2(p.x, out.data());
        write_fp2(p.y, out.data() + 96);
    }
    out[0] |= flags_of(false, p.infinity, false);
    return out;
}

}  // namespace keel::bls
