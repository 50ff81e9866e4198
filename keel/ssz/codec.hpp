#pragma once
/// The codec interface every SSZ type implements (one `Codec<T>` specialization per kind), and
/// helpers shared by the codecs. Callers use ssz.hpp (encode / decode / hash_tree_root).
///
/// A Codec<T> has:
///   static constexpr bool kFixed;            fixed-size type (consensus-specs "is_fixed_size")
///   static constexpr std::size_t kFixedSize;  its size when fixed, else 0
///   static constexpr bool kBasic;            a basic type (packed into chunks when in a sequence)
///   static std::string name();               the type as the specs write it, for messages
///   static std::size_t size(const T&);       the exact encoded size
///   static std::uint8_t* write(const T&, std::uint8_t* out);  writes size() bytes, returns end
///   static bool read(const std::uint8_t* p, std::size_t n, std::size_t at, T& out, Error& err);
///       decodes exactly the n bytes at p (which start at absolute offset `at` of the caller's
///       input); on failure fills err (code, absolute offset, numbers, field path) and returns
///       false, leaving `out` valid but unspecified
///   static void root(const T&, std::uint8_t* out32);  hash_tree_root
///
/// and optionally, with `static constexpr bool kBatchRoots = true`, a batched root:
///   template <class Get>
///   static void roots(std::size_t count, const Get& get, std::uint8_t* out, std::size_t stride);
///       the roots of get(0) .. get(count - 1) (each a const T&), root i to out + stride * i,
///       hashing the same tree level of all values with one batched SHA-256 call (lists of
///       containers: a block's attestations, a state's validators). detail::batch_roots() picks
///       it where a codec has it and falls back to root() per value.

#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>

#include "keel/ssz/errors.hpp"

namespace keel::ssz {

static_assert(std::endian::native == std::endian::little,
              "keel::ssz stores basic values in SSZ byte order (little-endian hosts only)");

/// Specialized for every SSZ type; see the file comment.
template <class T>
struct Codec;

/// A type with an SSZ codec.
template <class T>
concept SszType = requires { Codec<T>::kFixed; };

/// Size of T in the fixed part of an enclosing container or sequence: its size, or a 4-byte
/// offset for variable-size types.
template <class T>
inline constexpr std::size_t kFixedPartSize = Codec<T>::kFixed ? Codec<T>::kFixedSize : 4;

/// Bytes per SSZ offset (uint32).
inline constexpr std::size_t kOffsetSize = 4;

namespace detail {

/// True when Codec<T> has a batched roots() (see the file comment).
template <class T>
constexpr bool has_batch_roots() noexcept {
    if constexpr (requires { Codec<T>::kBatchRoots; }) {
        return Codec<T>::kBatchRoots;
    } else {
        return false;
    }
}

/// Roots of get(0) .. get(count - 1) (each a const T&), root i written to out + stride * i:
/// batched where the codec can, else one root() per value.
template <class T, class Get>
void batch_roots(std::size_t count, const Get& get, std::uint8_t* out,
                 std::size_t stride) noexcept {
    if constexpr (has_batch_roots<T>()) {
        Codec<T>::roots(count, get, out, stride);
    } else {
        for (std::size_t i = 0; i < count; ++i) Codec<T>::root(get(i), out + stride * i);
    }
}

/// Little-endian uint32 at p.
inline std::uint32_t load_offset(const std::uint8_t* p) noexcept {
    std::uint32_t v;
    std::memcpy(&v, p, 4);
    return v;
}

/// Writes a uint32 offset at p.
inline void store_offset(std::uint8_t* p, std::size_t v) noexcept {
    auto w = static_cast<std::uint32_t>(v);
    std::memcpy(p, &w, 4);
}

/// Fills `err` and returns false: the one way a codec reports a broken rule.
inline bool fail(Error& err, Errc code, std::size_t at, std::uint64_t a = 0,
                 std::uint64_t b = 0) noexcept {
    err.code = code;
    err.offset = at;
    err.a = a;
    err.b = b;
    err.path.clear();
    return false;
}

/// Puts a path segment (".field" or "[3]") in front of err.path while unwinding a failure.
inline void prepend_path(Error& err, std::string segment) {
    segment += err.path;
    err.path = std::move(segment);
}

/// Checks one offset of a run of offsets (containers, sequences of variable-size values):
/// offsets never decrease and stay within the `n` bytes of their scope. `first` says the first
/// offset must equal `fixed_part` (the spec's "first offset is the fixed part size").
inline bool check_offset(std::size_t off, std::size_t prev, bool first, std::size_t fixed_part,
                         std::size_t n, std::size_t at_word, Error& err) noexcept {
    if (first && off != fixed_part) {
        return fail(err, Errc::first_offset_mismatch, at_word, off, fixed_part);
    }
    if (!first && off < prev) return fail(err, Errc::offset_decreasing, at_word, off, prev);
    if (off > n) return fail(err, Errc::offset_out_of_bounds, at_word, off, n);
    return true;
}

}  // namespace detail
}  // namespace keel::ssz
